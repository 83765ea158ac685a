"""Python sources as the browser gets them: comments left out, every line where it was.

The engine wheel is most of the bytes our own code adds to a page
(docs/reference/performance.md), and a reader's browser never reads its comments. Only
comment tokens go (and the spaces before them); docstrings stay, and no line moves, so
tracebacks name the same lines as the repository. Deterministic: same source, same bytes.
"""

from __future__ import annotations

import io
import tokenize

__all__ = ["without_comments"]


def without_comments(source: bytes) -> bytes:
    """``source`` (UTF-8 Python) with its comments removed; unchanged if it does not tokenize."""
    text = source.decode("utf-8")
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return source
    starts = {t.start[0] - 1: t.start[1] for t in tokens if t.type == tokenize.COMMENT}
    lines = text.splitlines(keepends=True)
    for index, column in starts.items():
        line = lines[index]
        ending = line[len(line.rstrip("\r\n")) :]
        lines[index] = line[:column].rstrip() + ending
    return "".join(lines).encode("utf-8")
