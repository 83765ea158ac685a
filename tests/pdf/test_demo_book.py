"""The demo site built with `pdf: rules.pdf`: the book in the site, read back with pypdf."""

from __future__ import annotations

import html
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from pypdf import PdfReader

from tests.pdf.conftest import DEMO_URL


@pytest.fixture(scope="module")
def book(demo_site):
    reader = PdfReader(demo_site / "rules.pdf")
    text = "\n".join(page.extract_text() or "" for page in reader.pages)
    return reader, text


def _pages(site: Path) -> list[Path]:
    return sorted(
        p for p in site.rglob("index.html") if "gm" not in p.parts and p.parent != site / "search"
    )


def test_the_book_is_in_the_site_linked_from_home_and_offline(demo_site):
    home = (demo_site / "index.html").read_text(encoding="utf-8")
    assert re.search(r'<a [^>]*href="rules.pdf"[^>]*>Download the rules as PDF</a>', home)
    worker = (demo_site / "rollbook-sw.js").read_text(encoding="utf-8")
    # The offline worker lists it, checked by its hash like any other file of the site.
    assert re.search(r'"rules\.pdf":\{"hash":"[0-9a-f]{20}","kind":"other","size":[1-9]', worker)


def test_page_count_and_one_outline_entry_per_nav_page(book, demo_site):
    reader, _ = book
    assert len(reader.pages) > 40

    def flat(items):
        for item in items:
            if isinstance(item, list):
                yield from flat(item)
            else:
                yield item.title

    titles = list(flat(reader.outline))
    for section in ("Authoring guide", "Reference", "Game systems", "Scars", "Dark Dungeons"):
        assert section in titles
    for page in _pages(demo_site):
        heading = re.search(r"<h1[^>]*>(.*?)<a class=\"headerlink\"", page.read_text("utf-8"))
        if heading:
            assert html.unescape(re.sub(r"<[^>]+>", "", heading[1])).strip() in titles, page
    assert len(titles) > 100  # chapters and their sections


def test_internal_links_reach_pages_and_tables(book):
    reader, _ = book
    internal = [
        a for page in reader.pages for a in (page.get("/Annots") or [])
        if "/Dest" in a.get_object() or a.get_object().get("/A", {}).get("/S") == "/GoTo"
    ]  # fmt: skip
    assert len(internal) > 50


def test_every_table_is_in_the_book_with_its_ranges(book, demo_site):
    _, text = book
    compact = text.replace(" ", "")
    for page in _pages(demo_site):
        source = page.read_text(encoding="utf-8")
        for cell in re.findall(r'<td class="rb-key">(.*?)</td>', source):
            label = html.unescape(cell).replace(" ", "")
            assert label in compact, (page, label)


def test_every_inline_roll_is_in_the_book_as_its_label(book, demo_site):
    _, text = book
    flat = re.sub(r"\s+", " ", text)
    for page in _pages(demo_site):
        source = page.read_text(encoding="utf-8")
        for label in re.findall(
            r'<button class="rb-roll"[^>]*data-roll="[^"]*"[^>]*>(.*?)</button>', source
        ):
            words = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", "", label))).strip()
            assert words in flat, (page, words)


def test_markup_appears_only_where_the_guide_shows_it_as_code(book, demo_site):
    _, text = book
    code = ""
    for page in _pages(demo_site):
        source = page.read_text(encoding="utf-8")
        article = source[source.find("<article") :] if "<article" in source else source
        samples = re.findall(r"<code[^>]*>(.*?)</code>", article, re.S)
        code += " ".join(html.unescape(re.sub(r"<[^>]+>", "", c)) for c in samples)
    for raw in ("![roll:", "roll-table"):
        assert text.count(raw) <= code.count(raw), raw
    for control in ("Show chances Copy link", "Roll initiative Next round"):
        assert control not in text


def test_live_links_point_at_pages_and_anchors_of_the_built_site(book, demo_site):
    reader, _ = book
    uris = {
        a.get_object()["/A"]["/URI"]
        for page in reader.pages
        for a in (page.get("/Annots") or [])
        if "/URI" in a.get_object().get("/A", {})
    }
    live = sorted(u for u in uris if u.startswith(DEMO_URL) and "?roll=" in u)
    assert len(live) > 20
    for uri in live:
        parts = urlsplit(uri)
        path = parts.path.removeprefix(urlsplit(DEMO_URL).path)
        page = demo_site / path / "index.html"
        assert page.is_file(), uri
        anchor = parts.fragment
        assert f'data-rb-anchor="{anchor}"' in page.read_text(encoding="utf-8"), uri
