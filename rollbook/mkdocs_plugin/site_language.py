"""Which language a site, and each of its pages, speaks to readers.

The plugin's ``language`` option, else the theme's (Material's ``theme.language``, MkDocs'
own themes' ``locale``), else the ``rollbook`` Markdown extension's, else English; a page's
front matter ``language:`` wins for that page.
"""

from __future__ import annotations

import re
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

from rollbook.mkdocs_plugin.markdown_setup import EXTENSION_NAMES

__all__ = ["mark_page_language", "page_language", "site_language", "site_strings"]


def _extension_options(config: MkDocsConfig) -> dict[str, Any]:
    for name in EXTENSION_NAMES:
        options = config.mdx_configs.get(name)
        if isinstance(options, dict):
            return options
    return {}


def site_language(option: str | None, config: MkDocsConfig) -> str:
    """The site's language code as the author wrote it (``"fr"``, ``"cs"``), else ``"en"``.

    Kept as written, not as the catalogue it gets (`rollbook.language.resolve`): a language
    without a catalogue (Czech) still has its dice letter.
    """
    theme = config.theme
    for code in (
        option,
        theme.get("language") if theme else None,
        theme.get("locale") if theme else None,
        _extension_options(config).get("language"),
    ):
        if code:
            return str(code).strip()
    return "en"


def site_strings(option: dict[str, Any], config: MkDocsConfig) -> dict[str, Any]:
    """The author's ``strings``: the plugin's, else the extension's."""
    return option or dict(_extension_options(config).get("strings") or {})


def page_language(page: Any, default: str) -> str:
    """A page's language: its front matter's ``language``, else the site's (``default``).

    On a multilingual site mkdocs-static-i18n builds each language in a pass of its own
    with ``theme.language`` set to it, so the site's language is the page's there, for its
    translated pages and for the default language's pages it copies in their place.
    """
    meta = getattr(page, "meta", None) or {}
    code = meta.get("language")
    return str(code).strip() if code else default


_HTML_TAG = re.compile(r"<html\b[^>]*>")


def mark_page_language(output: str, language: str, rtl: bool) -> str:
    """The page's ``<html lang>`` (and ``dir`` for right to left) set to ``language``."""
    match = _HTML_TAG.search(output)
    if match is None:
        return output
    tag = re.sub(r'\s(?:lang|dir)="[^"]*"', "", match.group(0)[:-1])
    tag += f' lang="{language}" dir="{"rtl" if rtl else "ltr"}">'
    return output[: match.start()] + tag + output[match.end() :]
