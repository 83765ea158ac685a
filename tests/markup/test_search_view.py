"""The page as Material's search parses it: widgets reduced to their text, then put back.

Material's own parser must index the reduced page exactly as it indexes the page, on every
page of the demo site and of the plain rules fixture site, and every widget must come back
byte for byte; markup the reduction cannot be sure of stays as it is.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from material.plugins.search.plugin import Parser

from rollbook.markup.search_view import for_search
from tests.markup.helpers import convert

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted(
    [*(ROOT / "docs").rglob("*.md"), *(ROOT / "tests/markup/rules_site/docs").rglob("*.md")]
)
FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.S)


def indexed(html: str) -> list[tuple[str | None, str, str]]:
    """What Material's search indexes of ``html``: each section's id, title and text."""
    parser = Parser()
    parser.feed(html)
    parser.close()
    return [(s.id, "".join(s.title), "".join(s.text)) for s in parser.data]


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    out = {}
    for path in PAGES:
        html, _ = convert(FRONT_MATTER.sub("", path.read_text(encoding="utf-8")))
        out[str(path.relative_to(ROOT))] = html
    return out


def test_search_indexes_each_page_as_it_indexes_the_page_itself(pages):
    reduced = 0
    for name, html in pages.items():
        view = for_search(html)
        assert indexed(view.html) == indexed(html), name
        assert view.back(view.html) == html, name
        reduced += len(view.widgets)
        # Every inline roll and every excluded element of ours is reduced.
        assert not re.search(r'<span class="rb-inline[ "]', view.html), name
        assert "data-search-exclude" not in view.html, name
    assert len(pages) >= 40 and reduced >= 900, (len(pages), reduced)


def test_widgets_come_back_whatever_search_changed_around_them(pages):
    html = pages["tests/markup/rules_site/docs/index.md"]
    view = for_search(f'<p data-search-boost="2">{html}</p>')
    # What Material's search does to the HTML it parsed (its plugin's page_context).
    stripped = re.sub(r"\s?data-search-\w+=\"[^\"]+\"", "", view.html)
    assert view.back(stripped) == f"<p>{html}</p>"


@pytest.mark.parametrize(
    "html",
    [
        # A heading makes a search section even where its text is excluded.
        '<div data-search-exclude><h2 id="x">Hidden</h2></div><p>after</p>',
        # Material strips this attribute from the HTML it leaves: the element stays for it.
        '<div data-search-exclude><p data-search-boost="2">x</p></div>',
        # Never closed, or its opening tag not plainly readable: parsed as it is.
        "<div data-search-exclude><p>never closed</p>",
        '<div title="a>b" data-search-exclude>x</div>',
        # Material's parser lets text out of an element nested in one of its own name.
        "<div data-search-exclude><div>a</div><div>b</div></div>",
        # Not the attribute, or not in a tag.
        "<div data-search-excluded>x</div><p>use data-search-exclude on a block</p>",
        # A page that already holds our fences (an author's comment): nothing is reduced.
        "<!--rbs0-->x<!--rbs--><div data-search-exclude>y</div>",
    ],
)
def test_markup_it_cannot_be_sure_of_stays(html):
    view = for_search(html)
    assert view.widgets == () and view.html == html


def test_elements_are_left_out_whole_whatever_their_case():
    html = "<DIV data-search-exclude><p>a</p><Span>b</Span></Div><p>kept</p>"
    view = for_search(html)
    assert view.widgets == ("<DIV data-search-exclude><p>a</p><Span>b</Span></Div>",)
    assert indexed(view.html) == indexed(html)
    assert view.back(view.html) == html
