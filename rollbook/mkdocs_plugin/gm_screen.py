"""The GM screen page the plugin adds to a site: pinned rolls, tables and encounters.

The page is generated (not in the author's docs folder) and holds one placeholder that
``assets/rollbook/gm.js`` fills from what the reader pinned on other pages.
"""

from __future__ import annotations

from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

__all__ = ["GM_TITLE", "add_gm_page", "gm_src_uri", "list_in_nav"]

GM_TITLE = "GM screen"

_PAGE = """\
---
title: {title}
search:
  exclude: true
---

# {title}

Everything you pin gathers here: inline rolls, tables, lists and encounters from any page,
each rolling in place with its prompts. Move items up and down, remove them, or share the
screen with another device. The screen is kept in this browser only.

<div class="rb-gm" data-rb-gm><p class="rb-gm-empty">Nothing pinned yet.
Every roll, table, list and encounter has a pin control; what you pin appears here.</p></div>
"""


def gm_src_uri(path: str) -> str | None:
    """``gm/`` -> ``gm/index.md``; None when the screen is turned off (empty path)."""
    path = path.strip().strip("/")
    return f"{path}/index.md" if path else None


def add_gm_page(files: Files, config: MkDocsConfig, path: str) -> File | None:
    """Add the generated GM screen page unless the author already has that page."""
    src_uri = gm_src_uri(path)
    if src_uri is None or files.get_file_from_path(src_uri) is not None:
        return None
    page = File.generated(config, src_uri, content=_PAGE.format(title=GM_TITLE))
    files.append(page)
    return page


def list_in_nav(nav: list[Any] | None, path: str) -> None:
    """Append the GM screen to an explicit ``nav`` (without one, MkDocs lists every page)."""
    src_uri = gm_src_uri(path)
    if src_uri is None or nav is None:
        return
    if any(_mentions(entry, src_uri) for entry in nav):
        return
    nav.append({GM_TITLE: src_uri})


def _mentions(entry: Any, src_uri: str) -> bool:
    if isinstance(entry, str):
        return entry == src_uri
    if isinstance(entry, dict):
        return any(_mentions(v, src_uri) for v in entry.values())
    if isinstance(entry, list):
        return any(_mentions(v, src_uri) for v in entry)
    return False
