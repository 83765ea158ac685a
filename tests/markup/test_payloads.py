"""Widget payloads on every demo page are inert templates that read back as the JSON."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rollbook.markup.pages import convert_page
from rollbook.mkdocs_plugin.site_config import markdown_setup
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


def test_build_chances_equal_the_bridge_table_odds_at_defaults(pages: dict[str, str]) -> None:
    # The first paint (data-rb-p from the build) and the worker's table_odds must agree, so
    # a reader changing a prompt and back sees the same numbers.
    from rollbook.engine.bridge import handle

    checked = 0
    for name, html in pages.items():
        blocks = re.findall(r'<div class="rb-table.*?(?=<div class="rb-table|\Z)', html, re.S)
        for block in blocks:
            data = json.loads(payload_texts(block)[0])
            rows = r'data-rb-row="(\d+)"(?: data-rb-key="[^"]*")? data-rb-p="([^"]+)"'
            built = dict(re.findall(rows, block))
            if not built:
                continue
            reply = handle({"op": "table_odds", "table": data})
            assert "error" not in reply, (name, reply)
            assert {str(i): p for i, p in enumerate(reply["chances"])} == built, name
            checked += 1
    assert checked >= 5


def test_table_odds_follow_prompt_values_and_refuse_bad_ones() -> None:
    from rollbook.engine.bridge import handle
    from rollbook.engine.tables import Table

    table = Table.from_dict({
        "roll": "1d6 + {{ bonus }}", "prompts": [{"name": "bonus", "min": 0, "max": 3}],
        "results": {"1--3": "down", "4--6": "up", ">=7": "rested"},
    })  # fmt: skip
    data = table.to_dict()
    assert handle({"op": "table_odds", "table": data})["chances"] == ["1/2", "1/2", "0/1"]
    reply = handle({"op": "table_odds", "table": data, "prompts": {"bonus": "2"}})
    assert reply == {"chances": ["1/6", "1/2", "1/3"], "prompts": {"bonus": 2}}
    refused = handle({"op": "table_odds", "table": data, "prompts": {"bonus": 9}})
    assert (
        refused["kind"] == "PromptError"
        and refused["prompt"] == "bonus"
        and "0 to 3" in refused["error"]
    )
