"""The GM screen page in an MkDocs site: an ordinary page to every other plugin.

The page's Markdown comes from ``rollbook.sitewide.gm_page``. It is a generated file that
pretends to live where the author's own ``docs/gm/index.md`` would (its ``abs_src_path``), so
plugins that sort files by their place in the docs (mkdocs-static-i18n) treat it as a page;
under i18n's folder layout it goes in the default language's folder; an author's page at the
same path (``gm/index.fr.md`` for a translation) wins. Plugins that date pages
(git-revision-date-localized) get the input's date, not the build's; navigations built by a
plugin (awesome-nav) get it appended like MkDocs' own does.
"""

from __future__ import annotations

import json
import os
from html import escape
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from rollbook.language import Catalogue, catalogue
from rollbook.mkdocs_plugin.build_date import input_epoch
from rollbook.sitewide.gm_page import gm_src_uri

__all__ = [
    "add_gm_page",
    "date_gm_page",
    "gm_page",
    "gm_page_uri",
    "is_gm_source",
    "list_in_nav",
    "nav_with_gm_page",
    "restore_gm_content",
]

_BY = "rollbook"

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
    """The page's Markdown in the catalogue's language (``gm_page.gm_body_html``'s words)."""
    return _PAGE.format(
        title_yaml=json.dumps(text("gm.title"), ensure_ascii=False),  # JSON is YAML
        title=escape(text("gm.title")),
        intro=escape(text("gm.intro")),
        empty=escape(text("gm.empty")),
    )


def _i18n(config: MkDocsConfig) -> Any:
    return config.plugins.get("i18n")


def gm_page_uri(config: MkDocsConfig, path: str) -> str | None:
    """The page's ``src_uri``: under i18n's folder layout inside the default language's folder."""
    i18n = _i18n(config)
    folder = ""
    if i18n is not None and getattr(i18n, "config", {}).get("docs_structure") == "folder":
        folder = str(getattr(i18n, "default_language", "") or "")
    return gm_src_uri(path, folder)


def _authors_own(files: Files, config: MkDocsConfig, src_uri: str) -> bool:
    if files.get_file_from_path(src_uri) is not None:
        return True
    i18n = _i18n(config)
    default = getattr(i18n, "default_language", None) if i18n is not None else None
    stem = src_uri.removesuffix(".md")
    return bool(default) and files.get_file_from_path(f"{stem}.{default}.md") is not None


def add_gm_page(
    files: Files, config: MkDocsConfig, path: str, text: Catalogue | None = None
) -> File | None:
    """Add the generated GM screen page unless the author already has that page.

    Its words are in ``text``'s language.
    """
    src_uri = gm_page_uri(config, path)
    if src_uri is None or _authors_own(files, config, src_uri):
        return None
    page = File.generated(config, src_uri, content=gm_page(text or catalogue()))
    page.abs_src_path = _virtual_path(config, src_uri)
    page.generated_by = _BY
    files.append(page)
    return page


def _virtual_path(config: MkDocsConfig, src_uri: str) -> str:
    return os.path.normpath(os.path.join(config.docs_dir, src_uri))


def is_gm_source(file: File, config: MkDocsConfig, path: str) -> bool:
    """Whether ``file`` is the generated page, or a copy a plugin made of it.

    mkdocs-static-i18n makes one per language, from its path alone.
    """
    src_uri = gm_page_uri(config, path)
    if src_uri is None:
        return False
    virtual = _virtual_path(config, src_uri)
    return file.abs_src_path == virtual and not os.path.isfile(virtual)


def restore_gm_content(
    files: Files, config: MkDocsConfig, path: str, text: Catalogue | None = None
) -> None:
    """Give the page its Markdown again where a plugin rebuilt the file from its path.

    mkdocs-static-i18n makes a new ``File`` per language, from the path alone; ``text`` is
    the catalogue of the language being built.
    """
    src_uri = gm_page_uri(config, path)
    if src_uri is None:
        return
    virtual = _virtual_path(config, src_uri)
    if os.path.isfile(virtual):  # the author's own page after all
        return
    for file in files.documentation_pages():
        if file.abs_src_path == virtual and getattr(file, "generated_by", None) != _BY:
            file.content_string = gm_page(text or catalogue())  # (the setter forgets the path)
            file.abs_src_path = virtual
            file.generated_by = _BY


def date_gm_page(files: Files, config: MkDocsConfig) -> None:
    """Date the generated page by the input, so two builds stay identical.

    The input's date is ``SOURCE_DATE_EPOCH`` or the docs' last commit; plugins that date
    generated pages by the clock keep ``generated_timestamps`` (git-revision-date-localized).
    """
    ours = [f.src_uri for f in files if getattr(f, "generated_by", None) == _BY]
    if not ours:
        return
    epoch_text = os.environ.get("SOURCE_DATE_EPOCH", "")
    epoch = int(epoch_text) if epoch_text.isdigit() else input_epoch(config.docs_dir)
    if epoch is None:
        return
    for plugin in config.plugins.values():
        stamps = getattr(plugin, "generated_timestamps", None)
        if isinstance(stamps, dict):
            for src_uri in ours:
                stamps.setdefault(src_uri, epoch)


def list_in_nav(nav: list[Any] | None, path: str, title: str | None = None) -> None:
    """Append the GM screen to an explicit ``nav`` (without one, MkDocs lists every page)."""
    src_uri = gm_src_uri(path)
    if src_uri is None or nav is None:
        return
    if any(_mentions(entry, src_uri) for entry in nav):
        return
    nav.append({title or catalogue()("gm.title"): src_uri})


def nav_with_gm_page(
    nav: Navigation, files: Files, config: MkDocsConfig, title: str | None = None
) -> None:
    """Append the generated page to a navigation a plugin built without it (awesome-nav)."""
    for file in files.documentation_pages():
        if getattr(file, "generated_by", None) != _BY:
            continue
        if any(page.file is file for page in nav.pages):
            return
        name = title or catalogue()("gm.title")
        page = file.page if isinstance(file.page, Page) else Page(name, file, config)
        if nav.pages:
            nav.pages[-1].next_page = page
            page.previous_page = nav.pages[-1]
        nav.items.append(page)
        nav.pages.append(page)
        return


def _mentions(entry: Any, src_uri: str) -> bool:
    if isinstance(entry, str):
        return entry == src_uri
    if isinstance(entry, dict):
        return any(_mentions(v, src_uri) for v in entry.values())
    if isinstance(entry, list):
        return any(_mentions(v, src_uri) for v in entry)
    return False
