"""Start the dice engine from the top of the page's ``<head>`` on pages that have dice.

``rollbook.js`` is a module script at the end of the body (MkDocs' ``extra_javascript``):
it runs once the whole page is parsed and the theme's own scripts have run. On a phone's
slow processor that is seconds after the page's files have arrived, seconds in which the
link sits idle though the engine's 5 MB are still to come. Even a script at the end of
``<head>`` waits: the theme's inline scripts there wait for its stylesheets, and a module
script then for its imports, fetched one after the other (measured with the processor 4x
slower: the worker came 2.2 s after navigation). So a small inline *classic* script, put
before the stylesheets, creates the engine's worker itself and sends it the manifest
(``window.__rbEarly``, messages kept until ``engine.js`` takes the worker over, which
``rollbook.js`` later does through ``start()``). Pages without a widget get nothing: their
engine starts only when a reader asks for a roll. A site whose Content Security Policy
refuses inline scripts loses only the head start.
"""

from __future__ import annotations

import json
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


def with_early_start(html: str, page_url: str, script: str, content: str | None = None) -> str:
    """``html`` with the engine's worker started from its head if the page has a widget.

    Args:
        html: The page as written.
        page_url: The page's URL relative to the site (MkDocs' ``page.url``).
        script: Site path of ``rollbook.js`` (``worker.js`` and ``manifest.json`` sit
            beside it).
        content: The page's own converted content, where its widgets are: looked at
            first, since in ``html`` it comes after the theme's navigation (300 KB on a
            1,000-page site, bench row 1b). The whole page is looked at when it has none.
    """
    head = _HEAD.search(html)
    if head is None or _HEAD_END not in html:
        return html
    if not (content and _has_widget(content)) and not _has_widget(html):
        return html
    folder = posixpath.dirname(script)
    worker, manifest = (
        get_relative_url(posixpath.join(folder, name), page_url)
        for name in ("worker.js", "manifest.json")
    )
    tag = f"<script>{_SCRIPT % (_js_string(worker), _js_string(manifest))}</script>"
    # Right after <meta charset> when it opens the head (the charset stays in the first
    # bytes), else right after <head>: before any stylesheet either way.
    charset = _CHARSET.match(html, head.end())
    at = charset.end() if charset else head.end()
    return html[:at] + tag + html[at:]


# Kept in step with engine.js `start()`, which takes the worker over and replays the
# messages kept here. Errors before that are kept too (and not reported twice).
_SCRIPT = (
    "(function(){try{var b=document.baseURI,q=[],w=new Worker(new URL(%s,b),"
    '{type:"module",name:"rollbook-engine"});'
    "w.onmessage=function(e){q.push(e)};w.onerror=function(e){e.preventDefault();q.push(e)};"
    'w.postMessage({type:"init",manifest:new URL(%s,b).href});'
    "window.__rbEarly={worker:w,queue:q,at:performance.now()}}catch(e){}})();"
)


def _js_string(text: str) -> str:
    """``text`` as a JavaScript string that cannot close the script element."""
    return json.dumps(text).replace("<", "\\u003c")


_HEAD = re.compile(r"<head(?:\s[^>]*)?>", re.IGNORECASE)
_CHARSET = re.compile(r"\s*<meta\s+charset=[^>]*>", re.IGNORECASE)


def _has_widget(html: str) -> bool:
    return bool(_WIDGET_CLASS.search(html) or (_GM_MARK in html and _GM.search(html)))
