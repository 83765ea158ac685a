"""The one "where + message" type: `Problem`, and `LocatedError`, the error that carries one.

A problem is a sentence about a line (1-based) of a page, a file or a body, with a severity.
Everything that tells an author where something is wrong builds on these: the table engine's
problems add the YAML key (``path``), the site-wide reference check and the Hugo importer
name the page (``page``), the readers (the YAML size check, the YAML loader, the page
reader, the Hugo front matter) raise `LocatedError` subclasses. So a caller reports any of
them the same way: ``f"{path}:{problem.line}: {problem.message}"``. The engine imports
nothing outside the standard library, so the markup side, the importer and the command line
all can build on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["LocatedError", "Problem", "Severity"]

#: ``error``: a block that could not be built; ``warning``: worth fixing; ``info``: what was
#: left alone and why (never fails a strict build).
Severity = Literal["error", "warning", "info"]


@dataclass(frozen=True, order=True)
class Problem:
    """One thing to tell an author: where it is and what is wrong.

    Attributes:
        line: 1-based line (in a fence body: 0 means the fence's own line).
        message: One plain sentence (or two), no place in it.
        severity: How much it matters (`Severity`).
        page: The page it is on, where the problem is site-wide ("": the page at hand).
    """

    line: int
    message: str
    severity: Severity = "error"
    page: str = ""

    def __str__(self) -> str:
        return self.message


class LocatedError(ValueError):
    """A mistake at ``line`` (1-based), told in ``message`` (one sentence, no place in it)."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message

    @property
    def problem(self) -> Problem:
        """The mistake as a `Problem` (an error)."""
        return Problem(self.line, self.message)
