"""Pages with dice start the engine from their head; pages without get nothing.

The inline module script imports ``engine.js`` by a path relative to the page, so it must
resolve to the file beside ``rollbook.js`` from any depth of page and URL style.
"""

from __future__ import annotations

import posixpath

import pytest

from rollbook.mkdocs_plugin.early_start import with_early_start

SCRIPT = "assets/rollbook/rollbook.js"
HEAD = '<html><head><title>t</title></head><body>{body}<script src="x.js"></script></body></html>'


def _started_from(html: str) -> str | None:
    head = html.split("</head>")[0]
    marker = 'import { start } from "'
    if marker not in head:
        return None
    return head.split(marker)[1].split('"')[0]


@pytest.mark.parametrize(
    ("page_url", "expected"),
    [
        ("", "./assets/rollbook/engine.js"),
        ("index.html", "./assets/rollbook/engine.js"),
        ("rules/", "../assets/rollbook/engine.js"),
        ("area-00/page-0000/", "../../assets/rollbook/engine.js"),
        ("rules/combat.html", "../assets/rollbook/engine.js"),
    ],
)
def test_a_page_with_dice_starts_the_engine_from_its_head(page_url: str, expected: str) -> None:
    html = with_early_start(HEAD.format(body='<span class="rb-inline">'), page_url, SCRIPT)
    found = _started_from(html)
    assert found == expected
    # Resolved against the page's folder, it names engine.js beside rollbook.js.
    folder = page_url if page_url.endswith("/") else posixpath.dirname(page_url)
    assert posixpath.normpath(posixpath.join(folder, found)) == "assets/rollbook/engine.js"
    assert found.startswith(("./", "../"))  # else the browser takes it for a package name
    assert html.count("<script") == 2 and '<script type="module" async>' in html


@pytest.mark.parametrize(
    "body",
    [
        '<div class="admonition rb-table">',
        '<section class="rb-combat" data-rb-anchor="ford">',
        '<div data-rb-gm="">',
    ],
)
def test_every_widget_counts(body: str) -> None:
    assert _started_from(with_early_start(HEAD.format(body=body), "x/", SCRIPT))


@pytest.mark.parametrize(
    "body",
    [
        "<p>Rules without dice.</p>",
        '<p class="rb-inlined">a class that only starts alike</p>',
        "<p>The text rb-inline written out is not a widget.</p>",
    ],
)
def test_a_page_without_dice_is_left_as_it_is(body: str) -> None:
    html = HEAD.format(body=body)
    assert with_early_start(html, "x/", SCRIPT) == html
