"""The GM screen page the plugin adds to a site: pinned rolls, tables and encounters.

The page is generated (not in the author's docs folder) and holds one placeholder that
``assets/rollbook/gm.js`` fills from what the reader pinned on other pages.
"""

from __future__ import annotations

import json
import os
from html import escape
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

from rollbook.language import Catalogue, catalogue

__all__ = ["add_gm_page", "gm_page", "gm_src_uri", "is_gm_source", "list_in_nav"]

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


def gm_src_uri(path: str, folder: str = "") -> str | None:
    """``gm/`` -> ``gm/index.md``; None when the screen is turned off (empty path).

    ``folder``: a language's folder under mkdocs-static-i18n's folder layout.
    """
    path = path.strip().strip("/")
    if not path:
        return None
    return f"{folder}/{path}/index.md" if folder else f"{path}/index.md"


def _gm_uri(config: MkDocsConfig, path: str) -> str | None:
    i18n = config.plugins.get("i18n")
    folder = ""
    if i18n is not None and getattr(i18n, "config", {}).get("docs_structure") == "folder":
        folder = str(getattr(i18n, "default_language", "") or "")
    return gm_src_uri(path, folder)


def _virtual_path(config: MkDocsConfig, src_uri: str) -> str:
    return os.path.normpath(os.path.join(config.docs_dir, src_uri))


def is_gm_source(file: File, config: MkDocsConfig, path: str) -> bool:
    """Whether ``file`` is the generated page, or a copy a plugin made of it.

    mkdocs-static-i18n makes one per language, from its path alone.
    """
    src_uri = _gm_uri(config, path)
    if src_uri is None:
        return False
    virtual = _virtual_path(config, src_uri)
    return file.abs_src_path == virtual and not os.path.isfile(virtual)


def add_gm_page(
    files: Files, config: MkDocsConfig, path: str, text: Catalogue | None = None
) -> File | None:
    """Add the generated GM screen page unless the author already has that page.

    Its words are in ``text``'s language.
    """
    src_uri = _gm_uri(config, path)
    if src_uri is None or files.get_file_from_path(src_uri) is not None:
        return None
    page = File.generated(config, src_uri, content=gm_page(text or catalogue()))
    # Where the author's own page would be: plugins that sort pages by their place in the
    # docs (mkdocs-static-i18n) take it for a page (`is_gm_source` finds their copies).
    page.abs_src_path = _virtual_path(config, src_uri)
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
