"""Start the dice engine from ``<head>`` on pages that have something to roll (issue 6).

Without this, the worker starts once our ES module has run, after the theme's scripts and
the page's first frame: a third of a second or more after navigation on a slow machine.
Pages with widgets get ``<script type="module" async src=".../engine.js" data-rb-early>``
early in ``<head>`` (after the charset declaration, before the theme's stylesheets): the
browser fetches it first and runs it as soon as it arrives, and ``engine.js``
starts the worker as soon as it runs. ``rollbook.js`` imports the same module later (one
instance per URL), so the worker is still started once. Pages without widgets are left
alone: they never start the engine.

Only the MkDocs plugin can add this; a site built without it (Zensical, another
generator, ``rollbook assets``) starts the worker after the first frame, as before.
"""

from __future__ import annotations

import html
import posixpath
import re

from mkdocs.utils import get_relative_url

__all__ = ["add_early_start", "has_widgets"]

# The class names rollbook.js mounts (inline rolls, tables and lists, encounters).
_WIDGET = re.compile(r'class="rb-(?:inline|table|combat)[\s"]')
_CHARSET = re.compile(r"<meta\s+charset=[^>]*>", re.IGNORECASE)
_HEAD_END = re.compile(r"</head\s*>", re.IGNORECASE)


def has_widgets(page_html: str) -> bool:
    """Whether the page has anything the engine can roll."""
    return _WIDGET.search(page_html) is not None


def add_early_start(page_html: str, page_url: str, assets_javascript: str) -> str:
    """The page with the early-start tag in its head, when it has widgets and a head.

    Args:
        page_html: The whole page as MkDocs writes it.
        page_url: The page's URL relative to the site root (``Page.url``).
        assets_javascript: Site path of rollbook.js; engine.js lives beside it.
    """
    if not has_widgets(page_html):
        return page_html
    head_end = _HEAD_END.search(page_html)
    if head_end is None:
        return page_html
    charset = _CHARSET.search(page_html, 0, head_end.start())
    at = charset.end() if charset else head_end.start()
    engine = posixpath.join(posixpath.dirname(assets_javascript), "engine.js")
    src = html.escape(get_relative_url(engine, page_url), quote=True)
    tag = f'\n<script type="module" async src="{src}" data-rb-early></script>'
    return page_html[:at] + tag + page_html[at:]
