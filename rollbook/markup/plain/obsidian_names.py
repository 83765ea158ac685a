"""Page names as Obsidian resolves them in ``[[Page]]`` links.

A key written ``[[Name]]`` (from ``dice: [[Name#^id]]``) names a page by its file name
without ``.md``, in any folder, spaces allowed, letter case ignored; ``[[folder/Name]]``
narrows it to paths ending so. Of several matches the one nearest the docs root wins, then
the first in path order (Obsidian prefers the shortest path too), so builds stay stable.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

__all__ = ["resolve_page"]


def resolve_page(src: str, pages: Iterable[str]) -> str:
    """The page a table key's page part names: ``src`` itself unless it is ``[[Name]]``."""
    if not (src.startswith("[[") and src.endswith("]]")):
        return src
    name = src[2:-2].strip().lower().removesuffix(".md")
    found = []
    for page in pages:
        stem = page.lower().removesuffix(".md")
        if stem == name or stem.endswith("/" + name) or posixpath.basename(stem) == name:
            if "/" in name and not (stem == name or stem.endswith("/" + name)):
                continue
            found.append(page)
    if not found:
        return src
    return min(found, key=lambda page: (page.count("/"), page))
