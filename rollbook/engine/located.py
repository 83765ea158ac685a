"""The one "where + message" error: a mistake at a line of a page, a file or a body.

Each reader subclasses it (the YAML size check, the YAML loader, the page reader, the Hugo
front matter), so a caller reports any of them the same way: ``f"{path}:{err.line}:
{err.message}"``. The engine imports nothing outside the standard library, so the markup
side, the importer and the command line all can build on it.
"""

from __future__ import annotations

__all__ = ["LocatedError"]


class LocatedError(ValueError):
    """A mistake at ``line`` (1-based), told in ``message`` (one sentence, no place in it)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message
