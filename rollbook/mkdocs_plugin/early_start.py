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

The head also asks for Pyodide's WebAssembly, the longest file, with a preload that the
browser's scanner sends as soon as it reads the head: a worker takes 0.2-0.6 s to start on
a slowed phone (its thread, then ``worker.js`` over the link), and the line would sit idle
meanwhile. The script tells the worker (``{type: "wasm", url, asked}``, before ``init``),
and the worker asks for the same file with ``cache: "force-cache"``: the browser's cache
hands it the preload's bytes as they come, without a second request and whatever the
host's cache headers say (``no-store`` excepted: the file then comes twice). ``asked`` is
when the page's first byte came, before which the preload cannot have started: the worker
reads the link's rate from it, every byte counted, as the bytes that came before it
started reach it in one burst. (The page's own ``fetch`` handing its stream to the worker
was tried: its thread, busy at 4x, passed the chunks on late; and a fetch in the page did
not always take the preload over beside Material's stylesheet, so the file came twice.)
The file's address is known only once the site-wide build has named Pyodide's folder
(after the pages are written), so the page gets a mark (:data:`WASM_MARK`) that
:func:`fill_early_wasm` replaces then (the plugin's ``post_build``, every build, ``serve``
included). A site without Pyodide loses the preload there. A page it did not fill (none,
unless the build stopped before) would ask for a file that is not there, and its script
tells the worker nothing: the worker fetches the WebAssembly itself.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Iterable
from html import escape as html_escape
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

    A page left as it is comes back as the very same string (the plugin tells the pages
    to fill in later by that).

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
    # The preload is asked for as soon as the browser's scanner reads the head.
    wasm = html_escape(posixpath.join(posixpath.dirname(worker), WASM_MARK))
    tag = f'<link rel="preload" href="{wasm}" as="fetch" crossorigin><script>{script_text}</script>'
    # Right after <meta charset> when it opens the head (the charset stays in the first
    # bytes), else right after <head>: before any stylesheet either way.
    charset = _CHARSET.match(html, head.end())
    at = charset.end() if charset else head.end()
    return html[:at] + tag + html[at:]


# Kept in step with engine.js `start()`, which takes the worker over and replays the
# messages kept here (errors before that are kept too, and not reported twice), and with
# worker.js `startEarly`. The worker is told of the preload only for a filled mark (a path
# ending in .wasm or .wasm.br, relative to worker.js), and of its Resource Timing once it
# is in (linkspeed.js `networkRate`: the worker's own request, answered from the cache,
# says nothing of the link).
_SCRIPT = (
    "(function(){try{var b=document.baseURI,q=[],k=new URL(%(worker)s,b),"
    'w=new Worker(k,{type:"module",name:"rollbook-engine"});'
    "w.onmessage=function(e){q.push(e)};w.onerror=function(e){e.preventDefault();q.push(e)};"
    'var p=%(wasm)s,n=performance.getEntriesByType("navigation")[0];'
    'if(/\\.wasm(\\.br)?$/.test(p)){var u=new URL(p,k).href;w.postMessage({type:"wasm",url:u,'
    "asked:performance.timeOrigin+(n&&n.responseStart||0)});"
    "try{var o=new PerformanceObserver(function(l){l.getEntries().forEach(function(e){"
    'if(e.name!==u)return;o.disconnect();w.postMessage({type:"timed",entry:{'
    "transferSize:e.transferSize,encodedBodySize:e.encodedBodySize,"
    "responseStart:e.responseStart,responseEnd:e.responseEnd}})})});"
    'o.observe({type:"resource"})}catch(e){}}'
    'w.postMessage({type:"init",manifest:new URL(%(manifest)s,b).href});'
    "window.__rbEarly={worker:w,queue:q,at:performance.now()}}catch(e){}})();"
)

#: What the head's script says where Pyodide's WebAssembly is until ``fill_early_wasm``
#: writes the path (relative to ``worker.js``) in its place.
WASM_MARK = "rollbook:early-wasm"


def fill_early_wasm(pages: Iterable[Path], path: str) -> int:
    """Write ``path`` where the head of each of ``pages`` holds the mark; return how many.

    ``path`` is ``build.early_wasm`` (relative to ``worker.js``): it goes into the head's
    preload and script. Empty (a site without Pyodide), or not a plain path, the preload
    goes and the script tells the worker of none. Pages another plugin rewrote since
    (minify) keep the mark: a minifier keeps an attribute's and a string's text. A page
    gone or unreadable is left alone.
    """
    mark = WASM_MARK.encode()
    value = path.encode() if _PLAIN_PATH.fullmatch(path) else b""
    changed = 0
    for page in pages:
        try:
            data = page.read_bytes()
        except OSError:
            continue
        if mark not in data:
            continue
        if not value:
            data = _WASM_PRELOAD.sub(b"", data, count=1)
        page.write_bytes(data.replace(mark, value, 2))  # the preload's, then the script's
        changed += 1
    return changed


#: What ``fill_early_wasm`` writes into an attribute and a string as it is.
_PLAIN_PATH = re.compile(r"[\w.+/-]+")
#: The head's preload, as written or as a minifier left it.
_WASM_PRELOAD = re.compile(rb"<link\b[^>]*" + re.escape(WASM_MARK.encode()) + rb"[^>]*>")


def _js_string(text: str) -> str:
    """``text`` as a JavaScript string that cannot close the script element."""
    return json.dumps(text).replace("<", "\\u003c")


_HEAD = re.compile(r"<head(?:\s[^>]*)?>", re.IGNORECASE)
_CHARSET = re.compile(r"\s*<meta\s+charset=[^>]*>", re.IGNORECASE)


def _has_widget(html: str) -> bool:
    return bool(_WIDGET_CLASS.search(html) or (_GM_MARK in html and _GM.search(html)))
