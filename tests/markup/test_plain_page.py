"""The hand-written page of the browser tests (tests/browser/static) holds widget markup
exactly as the build writes it: the browser code wires that markup and makes none of its own,
so a page with other markup would test something no site contains."""

from __future__ import annotations

import re
from html import unescape
from pathlib import Path

from markdown.serializers import to_html_string

from rollbook.markup.inline import inline_roll_element

PAGE = Path(__file__).resolve().parents[1] / "browser" / "static" / "index.html"
INLINE = re.compile(r'<span class="rb-inline".*?</output></span>', re.S)


def test_inline_rolls_are_what_the_build_writes() -> None:
    found = INLINE.findall(PAGE.read_text(encoding="utf-8"))
    assert len(found) == 2
    for span in found:
        inline_id = re.search(r'data-rb-id="([^"]*)"', span)
        notation = re.search(r'data-roll="([^"]*)"', span)
        label = re.search(r"<button[^>]*>(.*?)</button>", span)
        assert inline_id and notation and label, span
        built = inline_roll_element(
            unescape(inline_id[1]), unescape(notation[1]), unescape(label[1])
        )
        assert span == to_html_string(built)
