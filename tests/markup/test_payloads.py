"""Widget payloads on every demo page are inert templates that read back as the JSON."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

from plugins.markup.pages import convert_page
from plugins.mkdocs_plugin.site_config import markdown_setup
from tests.markup.helpers import payload_texts

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").rglob("*.md"))


class _TemplateText(HTMLParser):
    """What a browser's ``template.content.textContent`` gives for each ``template.rb-data``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._inside: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._inside is not None:
            raise AssertionError(f"markup <{tag}> inside a payload template")
        if tag == "template" and ("class", "rb-data") in attrs:
            self._inside = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "template" and self._inside is not None:
            self.texts.append("".join(self._inside))
            self._inside = None

    def handle_data(self, data: str) -> None:
        if self._inside is not None:
            self._inside.append(data)


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    setup = markdown_setup(ROOT / "mkdocs.yml")
    return {str(p.relative_to(ROOT)): convert_page(p, setup).html for p in PAGES}


def test_no_demo_page_emits_an_inline_script(pages: dict[str, str]) -> None:
    # Material's instant navigation re-creates inline scripts without their type and runs
    # them: a JSON payload there is a SyntaxError on every navigation.
    assert [name for name, html in pages.items() if "<script" in html] == []


def test_every_payload_parses_as_the_browser_reads_it(pages: dict[str, str]) -> None:
    kinds: set[str] = set()
    for name, html in pages.items():
        parser = _TemplateText()
        parser.feed(html)
        raw = payload_texts(html)
        assert parser.texts == raw, name  # no entity or tag changes the text
        for text in raw:
            data = json.loads(text)
            kinds.add("combat" if "sides" in data else data["kind"])
    # Every payload emitter is on some demo page.
    assert kinds >= {"table", "list", "combat"}
