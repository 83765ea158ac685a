"""Python sources as the browser gets them: no comments, empty docstrings, lines in place.

The engine wheel is most of the bytes our own code adds to a page
(docs/reference/performance.md), and a reader's browser reads neither its comments nor its
docstrings (nothing in ``rollbook.engine`` looks at ``__doc__``). Comment tokens go (and the
spaces before them); each docstring becomes ``""`` (still a docstring, so a module's may stay
above ``from __future__``), its other lines left blank. No line moves, so tracebacks name the
same lines as the repository. Deterministic: same source, same bytes.
"""

from __future__ import annotations

import ast
import io
import tokenize

__all__ = ["for_browser", "without_comments", "without_docstrings"]

_OWNERS = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


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


def _docstrings(tree: ast.Module) -> list[ast.Constant]:
    found: list[ast.Constant] = []
    for node in ast.walk(tree):
        if isinstance(node, _OWNERS) and node.body:
            first = node.body[0]
            value = first.value if isinstance(first, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.append(value)
    return found


def without_docstrings(source: bytes) -> bytes:
    """``source`` with every docstring written ``""``; unchanged if it does not parse.

    A docstring whose last line holds more code (``; y = 1`` after it) is left as it is.
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return source
    # ast columns count UTF-8 bytes: work on the lines as bytes.
    lines = source.splitlines(keepends=True)
    spans = [(d.lineno, d.col_offset, d.end_lineno or d.lineno, d.end_col_offset or 0)
             for d in _docstrings(tree)]  # fmt: skip
    for first, start, last, end in sorted(spans, reverse=True):
        tail = lines[last - 1][end:]
        if tail.strip():
            continue
        ending = tail[len(tail.rstrip(b"\r\n")) :]
        lines[first - 1] = lines[first - 1][:start] + b'""' + ending
        for index in range(first, last):
            lines[index] = ending
    return b"".join(lines)


def for_browser(source: bytes) -> bytes:
    """What the engine wheel ships for a ``.py`` file: no comments, empty docstrings."""
    return without_docstrings(without_comments(source))
