"""What the table engine reports to authors: `Problem` records and the `TableError` exception.

Every problem names the YAML key it is about (its *path*, e.g. ``("results", "2--3")``) and
carries the 1-based line of that key inside the fence's YAML body, so the build can print
``page.md:LINE: message``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from rollbook.engine.located import LocatedError
from rollbook.engine.located import Problem as Located
from rollbook.engine.messages import Message

__all__ = ["ERROR", "WARNING", "LineMap", "Path", "Problem", "TableError", "path_text"]

ERROR: Final = "error"
WARNING: Final = "warning"

Path = tuple[str | int, ...]


def path_text(path: Path) -> str:
    """Return a key path as authors write it: ``results.2--3``, ``prompts[0].max``."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool) and out == "prompts":
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(table)"


@dataclass(frozen=True)
class Problem(Located):
    """One thing wrong (``severity="error"``) or suspicious (``"warning"``) in a table.

    A `rollbook.engine.located.Problem` that also names its YAML key.

    Attributes:
        line: 1-based line inside the YAML body.
        message: One plain sentence that names the key.
        severity: ``"error"`` or ``"warning"``.
        path: Key path inside the YAML body, ``()`` for the whole table.
    """

    path: Path = ()

    @property
    def key(self) -> str:
        """The path in the author's spelling (``results.2--3``)."""
        return path_text(self.path)


class TableError(LocatedError):
    """A table that cannot be built or rolled; ``str()`` is a plain sentence.

    Attributes:
        problems: Every problem found (errors first); at least one.
        line: Line of the first error.
        message: The first error's sentence.
        said: That sentence as a `rollbook.engine.messages.Message` where a reader may see
            it (a roll refused in the browser), else None.
    """

    said: Message | None = None

    def __init__(self, problems: Iterable[Problem] | str, line: int = 1) -> None:
        if isinstance(problems, str):
            problems = [Problem(line, problems)]
        found = sorted(problems, key=lambda p: p.severity != ERROR)
        if not found:
            found = [Problem(line, "the table is invalid")]
        super().__init__(found[0].line, found[0].message)
        self.problems: list[Problem] = found


class LineMap:
    """Line numbers of key paths; a path without its own line gets its nearest parent's."""

    def __init__(self, positions: Mapping[Path, int] | None = None) -> None:
        self.positions: dict[Path, int] = dict(positions or {})

    def __call__(self, path: Path) -> int:
        """The line of ``path``, else of its nearest parent with a known line."""
        for end in range(len(path), 0, -1):
            line = self.positions.get(path[:end])
            if line is not None:
                return line
        return self.positions.get((), 1)
