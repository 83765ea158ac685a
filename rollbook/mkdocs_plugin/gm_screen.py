"""The GM screen page the plugin adds to a site: pinned rolls, tables and encounters.

The page is generated (not in the author's docs folder) and holds one placeholder that
``assets/rollbook/gm.js`` fills from what the reader pinned on other pages.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from rollbook.language import Catalogue, catalogue

__all__ = ["add_gm_page", "gm_page", "gm_src_uri", "list_in_nav"]

_PAGE = """\
---
title: {title_yaml}
search:
  exclude: true
---

# {title}

{intro}

<div class="rb-gm" data-rb-gm><p class="rb-gm-empty">{empty}</p></div>
"""


def gm_page(text: Catalogue) -> str:
    """The page's Markdown in the catalogue's language."""
    return _PAGE.format(
        title_yaml=json.dumps(text("gm.title"), ensure_ascii=False),  # JSON is YAML
        title=escape(text("gm.title")),
        intro=escape(text("gm.intro")),
        empty=escape(text("gm.empty")),
    )


def gm_src_uri(path: str) -> str | None:
    """``gm/`` -> ``gm/index.md``; None when the screen is turned off (empty path)."""
    path = path.strip().strip("/")
    return f"{path}/index.md" if path else None


def add_gm_page(
    files: Files, config: MkDocsConfig, path: str, text: Catalogue | None = None
) -> File | None:
    """Add the generated GM screen page (in ``text``'s language) unless the author already
    has that page."""
    src_uri = gm_src_uri(path)
    if src_uri is None or files.get_file_from_path(src_uri) is not None:
        return None
    page = File.generated(config, src_uri, content=gm_page(text or catalogue()))
    files.append(page)
    return page


def list_in_nav(nav: list[Any] | None, path: str, title: str | None = None) -> None:
    """Append the GM screen to an explicit ``nav`` (without one, MkDocs lists every page)."""
    src_uri = gm_src_uri(path)
    if src_uri is None or nav is None:
        return
    if any(_mentions(entry, src_uri) for entry in nav):
        return
    nav.append({title or catalogue()("gm.title"): src_uri})


def _mentions(entry: Any, src_uri: str) -> bool:
    if isinstance(entry, str):
        return entry == src_uri
    if isinstance(entry, dict):
        return any(_mentions(v, src_uri) for v in entry.values())
    if isinstance(entry, list):
        return any(_mentions(v, src_uri) for v in entry)
    return False
