"""Table cells: plain cells skip the inline pass and still come out as the pass gives them."""

from __future__ import annotations

import re

import markdown
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.markup.cells import _inline_pass, _only_plain_patterns, render_inline
from tests.markup.helpers import make_md

# Every printable character, the special ones included, so both paths are exercised.
TEXT = st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF), max_size=40)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_the_shortcut_gives_what_the_full_pass_gives(text: str) -> None:
    md = make_md()
    assert _only_plain_patterns(md)  # the project's own set-up takes the shortcut
    # The same HTML but for the running id of an inline roll (dice in prose light up).
    ids = re.compile(r'data-rb-id="rb-roll-\d+"')
    shortcut = ids.sub("", render_inline(md, text))
    assert shortcut == ids.sub("", _inline_pass(md, " ".join(text.strip().splitlines())))


def test_another_extensions_pattern_turns_the_shortcut_off() -> None:
    # magiclink turns plain words into a link: no shortcut may skip it.
    md = markdown.Markdown(extensions=["pymdownx.magiclink"])
    assert not _only_plain_patterns(md)
    assert render_inline(md, "see www.example.com now").startswith('see <a href="http://www')
