"""The pages the plugin finished at ``post_page``, so that ``post_build`` need not read them.

At ``post_build`` the plugin fills table references in the pages other plugins wrote
themselves (print-site's page is made of the pages before their references were filled).
A page whose final HTML the plugin saw at ``post_page`` with no reference left in it, and
whose file is unchanged since MkDocs wrote that HTML (same size, modification time and
inode), needs no look; every other file is read as before. On a 1,000-page site each page
is ~300 KB (Material's navigation lists every page), so reading them all again cost about
half a second (bench row 1b).

MkDocs writes a page right after its ``post_page`` event, so the file is looked at
(``os.stat``) at the next page's ``post_page`` and, for the last page, when ``post_build``
starts.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["WrittenPages"]

_Stat = tuple[int, int, int]


def _stat(path: str) -> _Stat | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_size, found.st_mtime_ns, found.st_ino


class WrittenPages:
    """Pages finished without references, and the state of their files once written."""

    def __init__(self) -> None:
        self._pending: list[str] = []
        self._settled: dict[str, _Stat] = {}

    def finished(self, path: str, output: str, *, marked: bool) -> None:
        """The page at ``path`` (absolute) will be written as ``output``.

        Only a page free of references to fill (not ``marked``) is remembered.
        """
        self.settle()
        # MkDocs writes the page unless it is blank (without copying 300 KB to strip it).
        if output and not output.isspace() and not marked:
            self._pending.append(os.path.normpath(path))

    def settle(self) -> None:
        """Note the files of pages written since the last call (MkDocs has written them)."""
        for path in self._pending:
            found = _stat(path)
            if found is not None:
                self._settled[path] = found
        self._pending = []

    def untouched(self, path: Path) -> bool:
        """Whether ``path`` is a finished page, as MkDocs wrote it (no reference in it)."""
        key = os.path.normpath(path)
        known = self._settled.get(key)
        return known is not None and _stat(key) == known
