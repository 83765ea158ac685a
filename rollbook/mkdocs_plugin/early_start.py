"""Start the dice engine from the page's ``<head>`` on pages that have dice.

``rollbook.js`` is a module script at the end of the body (MkDocs' ``extra_javascript``):
it runs once the whole page is parsed and the theme's own scripts have run. On a phone's
slow processor that is seconds after the page's files have arrived, seconds in which the
link sits idle though the engine's 5 MB are still to come. A small inline module script at
the end of ``<head>`` starts the worker as soon as ``engine.js`` is in instead; rollbook.js
later finds it started (the module is shared). Pages without a widget get nothing: their
engine starts only when a reader asks for a roll. A site whose Content Security Policy
refuses inline scripts loses only the head start.
"""

from __future__ import annotations

import posixpath
import re

from mkdocs.utils import get_relative_url

__all__ = ["with_early_start"]

# The widgets' markers (rollbook.js, hasWidgets: inline.js, table.js, combat.mjs, gm.js).
# Two patterns, each starting with its literal, so the search skips ahead instead of trying
# every position (one alternation starting with ``\s`` cost 4 ms a page: bench 1b).
_WIDGET_CLASS = re.compile(r'class="(?:[^"]* )?rb-(?:inline|table|combat)[" ]')
_GM_MARK = "data-rb-gm"
_GM = re.compile(r"\sdata-rb-gm[\s=>]")
_HEAD_END = "</head>"


def with_early_start(html: str, page_url: str, script: str) -> str:
    """``html`` with the engine started from its head if the page has a widget.

    Args:
        html: The page as written.
        page_url: The page's URL relative to the site (MkDocs' ``page.url``).
        script: Site path of ``rollbook.js`` (``engine.js`` sits beside it).
    """
    if _HEAD_END not in html or not _has_widget(html):
        return html
    engine = get_relative_url(posixpath.join(posixpath.dirname(script), "engine.js"), page_url)
    if not engine.startswith(("./", "../")):
        engine = f"./{engine}"  # a module specifier is a path only with a dot first
    tag = f'<script type="module" async>import {{ start }} from "{engine}"; start();</script>'
    return html.replace(_HEAD_END, tag + _HEAD_END, 1)


def _has_widget(html: str) -> bool:
    return bool(_WIDGET_CLASS.search(html) or (_GM_MARK in html and _GM.search(html)))
