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

The same script starts the download of Pyodide's WebAssembly, the longest file: a worker
takes 0.2-0.6 s to start on a slowed phone (its thread, then ``worker.js`` over the link),
and the line would sit idle meanwhile. The page reads the download as it comes and hands
it to the worker as a stream (``{type: "wasm"}``, posted before ``init``): a head,
``{status, encoding, asked}``, then the bytes. The worker reads the link's rate from
``asked``, the time the page asked for the file: the page's thread takes chunks in late
when it is busy, and the time each came would make a burst of them pass for a fast link.
(A ``<link rel="preload">`` would ask for it sooner, but Chromium 156 does not always hand
a preload to the script's fetch when a stylesheet follows: the file then came twice.)
The file's address is known only once the site-wide build has named Pyodide's folder
(after the pages are written), so the page gets a mark (:data:`WASM_MARK`) that
:func:`fill_early_wasm` replaces then; a page left unfilled, or a site without Pyodide
(the mark replaced by nothing), starts no download, and the worker fetches the file itself.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable
from pathlib import Path

from mkdocs.utils import get_relative_url

__all__ = ["WASM_MARK", "fill_early_wasm", "with_early_start"]

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
    script_text = _SCRIPT % {
        "worker": _js_string(worker),
        "manifest": _js_string(manifest),
        "wasm": _js_string(WASM_MARK),
    }
    tag = f"<script>{script_text}</script>"
    # Right after <meta charset> when it opens the head (the charset stays in the first
    # bytes), else right after <head>: before any stylesheet either way.
    charset = _CHARSET.match(html, head.end())
    at = charset.end() if charset else head.end()
    return html[:at] + tag + html[at:]


# Kept in step with engine.js `start()`, which takes the worker over and replays the
# messages kept here (errors before that are kept too, and not reported twice), and with
# worker.js `startEarly`, which takes the WebAssembly's stream. The download is started
# only for a filled mark (a path ending in .wasm or .wasm.br, relative to worker.js), and
# cancelled if the stream cannot be handed over (a browser that cannot transfer streams).
_SCRIPT = (
    "(function(){try{var b=document.baseURI,q=[],k=new URL(%(worker)s,b),"
    'w=new Worker(k,{type:"module",name:"rollbook-engine"});'
    "w.onmessage=function(e){q.push(e)};w.onerror=function(e){e.preventDefault();q.push(e)};"
    "try{var p=%(wasm)s,a=null;if(/\\.wasm(\\.br)?$/.test(p)){"
    "var u=new URL(p,k).href,s,t=performance.timeOrigin+performance.now();"
    "a=new AbortController();"
    "s=new ReadableStream({start:function(c){fetch(u,{signal:a.signal}).then(function(r){"
    'c.enqueue({status:r.status,encoding:r.headers.get("Content-Encoding")||"",asked:t});'
    "if(!r.ok||!r.body)return c.close();var d=r.body.getReader(),n=function(){"
    "return d.read().then(function(x){if(x.done)return c.close();"
    "c.enqueue(x.value);return n()})};return n()"
    "}).catch(function(e){c.error(String(e))})},cancel:function(){a.abort()}},"
    "{highWaterMark:1/0});"
    'w.postMessage({type:"wasm",url:u,body:s},[s])}}catch(e){if(a)a.abort()}'
    'w.postMessage({type:"init",manifest:new URL(%(manifest)s,b).href});'
    "window.__rbEarly={worker:w,queue:q,at:performance.now()}}catch(e){}})();"
)

#: What the head's script says where Pyodide's WebAssembly is until ``fill_early_wasm``
#: writes the path (relative to ``worker.js``) in its place.
WASM_MARK = "rollbook:early-wasm"


def fill_early_wasm(pages: Iterable[Path], path: str) -> int:
    """Write ``path`` where the head's script of each of ``pages`` holds the mark.

    ``path`` is ``build.early_wasm`` (relative to ``worker.js``); returns how many pages
    changed. Empty (a site without Pyodide), or not a plain path, the script starts no
    download. Pages another plugin rewrote since (minify) keep the mark: a minifier keeps
    a string's text. A page gone or unreadable is left alone.
    """
    mark = WASM_MARK.encode()
    value = path.encode() if _PLAIN_PATH.fullmatch(path) else b""
    changed = 0
    for page in pages:
        try:
            data = page.read_bytes()
        except OSError:
            continue
        if mark in data:
            page.write_bytes(data.replace(mark, value, 1))
            changed += 1
    return changed


#: What ``fill_early_wasm`` writes into the script's string as it is.
_PLAIN_PATH = re.compile(r"[\w.+/-]+")


def _js_string(text: str) -> str:
    """``text`` as a JavaScript string that cannot close the script element."""
    return json.dumps(text).replace("<", "\\u003c")


_HEAD = re.compile(r"<head(?:\s[^>]*)?>", re.IGNORECASE)
_CHARSET = re.compile(r"\s*<meta\s+charset=[^>]*>", re.IGNORECASE)


def _has_widget(html: str) -> bool:
    return bool(_WIDGET_CLASS.search(html) or (_GM_MARK in html and _GM.search(html)))
