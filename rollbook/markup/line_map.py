"""Lines of a page after a host's other plugins rewrote it, back to the lines the author wrote.

A plugin that runs before the conversion (mkdocs-macros' Jinja) may add or remove lines
above a table; problems are found in the rewritten text but reported at the author's lines.
"""

from __future__ import annotations

import difflib

__all__ = ["LineMap"]


class LineMap:
    """1-based lines of ``rewritten`` -> 1-based lines of ``source``.

    Unchanged lines map to themselves; lines a rewrite produced map to the source lines it
    replaced (in order, the last one repeated), or to the source line before an insertion.
    """

    def __init__(self, source: str, rewritten: str) -> None:
        src = source.split("\n")
        new = rewritten.split("\n")
        self._map: list[int] = [0] * (len(new) + 1)
        matcher = difflib.SequenceMatcher(None, src, new, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            for j in range(j1, j2):
                if op == "equal":
                    i = i1 + (j - j1)
                elif i2 > i1:
                    i = i1 + min(j - j1, i2 - i1 - 1)
                else:
                    i = max(i1 - 1, 0)
                self._map[j + 1] = i + 1

    def __call__(self, line: int) -> int:
        """The author's line of ``line`` (a line past the end stays as it is)."""
        if 1 <= line < len(self._map):
            return self._map[line]
        return line
