"""Text into Typst source: escaping markup, string literals, lengths and colours."""

from __future__ import annotations

import re

__all__ = ["markup", "string"]

# Every character that starts Typst markup, a comment, a reference or a smart shortcut.
# Quotes stay as they are: Typst turns them into typographic quotes, as a book would.
_SPECIAL = re.compile(r"([\\#*_`$<>@\[\]~/=\-+.:()])")
_SPACE = re.compile(r"\s+")


def markup(text: str, *, keep_space: bool = False) -> str:
    """``text`` as literal Typst markup (HTML white space collapsed unless ``keep_space``)."""
    if not keep_space:
        text = _SPACE.sub(" ", text)
    return _SPECIAL.sub(r"\\\1", text)


def string(text: str) -> str:
    """``text`` as a Typst string literal (control characters other than new lines dropped)."""
    text = _CONTROL.sub("", text)
    escaped = (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    )
    return f'"{escaped}"'


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
