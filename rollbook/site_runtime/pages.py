"""The list of the site's pages that hold rolls: ``SITE/assets/rollbook/pages.json``.

The GM screen (``assets/rollbook/gm.js``) fetches the pages its pins name, and a pin may
come from a shared link anyone can write. It fetches only the pages this list names: HTML
pages of this build, as paths relative to the site's base (``rules/index.html``), so no link
can make it fetch a file outside the site, a page of another site on the same host, or a
big file that is not a page (the start-up snapshot). Only the set of pages is written, so
the list changes (and with it the offline worker's copy) only when that set does.
"""

from __future__ import annotations

import json
from pathlib import Path

__all__ = ["PAGES_NAME", "write_page_list"]

PAGES_NAME = "pages.json"
# What the build writes into a page that holds something to pin (inline rolls carry
# data-rb-id; tables, lists and encounters data-rb-anchor).
_MARKERS = (b"data-rb-id=", b"data-rb-anchor=")


def _pages(site: Path) -> list[str]:
    found: list[str] = []
    for path in sorted(site.rglob("*.html")):
        rel = path.relative_to(site).as_posix()
        if path.is_symlink() or not path.is_file() or rel.startswith("assets/"):
            continue
        if rel == "404.html":
            continue
        data = path.read_bytes()
        if any(marker in data for marker in _MARKERS):
            found.append(rel)
    return found


def write_page_list(site_dir: str | Path, ours: str | Path) -> list[str]:
    """Write ``pages.json`` into our assets folder ``ours``; returns the pages, sorted."""
    pages = _pages(Path(site_dir))
    text = json.dumps({"pages": pages}, sort_keys=True, indent=0, ensure_ascii=False) + "\n"
    Path(ours, PAGES_NAME).write_text(text, encoding="utf-8")
    return pages
