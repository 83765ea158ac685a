"""The tables of other pages, read from disk by the extension itself (hosts without a plugin).

On MkDocs the plugin collects every page's tables and fills references once all pages are
converted. A host that runs only the Markdown extensions (Zensical) converts one page at a
time, so a table that rolls another page's table reads that page here: the file under the
host's docs folder, converted with the host's own Markdown extensions, its tables kept.
Pages are remembered by path, modification time and size, so a build converts each one at
most once more, and a page changed since (``serve``) is read again.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from markdown import Markdown

from rollbook.markup.host_page import HostPage
from rollbook.markup.pagefile import PageReadError, read_page
from rollbook.markup.problems import page_context

__all__ = ["other_page_tables"]

_SEEN: dict[tuple[str, int, int], tuple[int, dict[str, Any]]] = {}
_MAX_REMEMBERED = 4096


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder) and path.is_file()
    except (OSError, RuntimeError):  # a link loop
        return False


def other_page_tables(host: HostPage, src: str) -> tuple[int, dict[str, Any]] | None:
    """``(front-matter lines, tables by anchor)`` of the page ``src`` names; None if none.

    ``src`` is a page as messages name it (``docs/rules/magic.md``, relative to the host's
    root); a name that leaves the docs folder, or is no file there, gives None.
    """
    from rollbook.markup.pages import split_front_matter

    path = host.root / src
    if not src.endswith(".md") or not _inside(path, host.docs):
        return None
    try:
        stat = path.stat()
        key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
        if key in _SEEN:
            return _SEEN[key]
        source = read_page(path)
    except (OSError, PageReadError):
        return None
    body, offset = split_front_matter(source.replace("\r\n", "\n"))
    md = Markdown(
        extensions=list(host.config.get("markdown_extensions") or []),
        extension_configs=dict(host.config.get("mdx_configs") or {}),
    )
    with page_context(src, offset):  # its problems are said when that page is built
        try:
            md.convert(body)
        except RecursionError:
            return offset, {}
    state = getattr(md, "rollbook", None)
    found = (offset, dict(getattr(state, "tables", {}) or {}))
    if len(_SEEN) >= _MAX_REMEMBERED:
        _SEEN.clear()
    _SEEN[key] = found
    return found
