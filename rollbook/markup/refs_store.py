"""The page's store of referenced tables: each table its tables roll, once per page.

A payload whose rows roll other tables names them by key (``"refs":["docs/a.md#x", ...]``);
their data is in one element per page, after the page's widgets (the JSON, on one line,
as in every payload)::

    <template class="rb-refs" data-search-exclude>
      {"here": {KEY: ANCHOR}, "tables": {KEY: TABLE}}
    </template>

``tables`` holds the tables of other pages (``Table.to_dict()`` without ``refs``); ``here``
names the tables of the page itself by anchor, whose data is their own widget's payload
(``.rb-table[data-rb-anchor=ANCHOR] > template.rb-data``), so no table is written twice.
The browser reads it in ``assets/page/refs-store.js``; ``rollbook.markup.refs.Site.fill``
writes it; ``rollbook.sitewide.refs_refresh`` rewrites it from the built pages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from rollbook.markup.html import payload_json

__all__ = [
    "STORE",
    "WIDGET",
    "put_store",
    "read_store",
    "resolved",
    "store_html",
    "widget_tables",
]

#: The store element (its JSON is group 1).
STORE = re.compile(r'<template class="rb-refs"[^>]*>(.*?)</template>\n?', re.S)
#: A table or list widget: its opening through its payload (anchor: group 2, JSON: group 3).
WIDGET = re.compile(
    r'(<div class="rb-table[^"]*"[^>]*\bdata-rb-anchor="([^"]*)"[^>]*>(?:(?!data-rb-anchor=).)*?'
    r'<template class="rb-data"[^>]*>)(.*?)(</template>)',
    re.S,
)


def store_html(tables: Mapping[str, Any], here: Mapping[str, str]) -> str:
    """The store element holding ``tables`` (by key) and naming ``here`` (key -> anchor)."""
    data = {"here": dict(here), "tables": dict(tables)}
    return f'<template class="rb-refs" data-search-exclude>{payload_json(data)}</template>'


def put_store(html: str, store: str) -> str:
    """``html`` with ``store`` as its one store, inside its content.

    In place of the first store ``html`` has (others go), else at the end of a page's
    content; a whole document (print-site's page) gets it before its last ``</article>``
    (Material's content, which instant navigation swaps), else before ``</body>``.
    """
    first = STORE.search(html)
    if first is not None:
        rest = STORE.sub("", html[first.end() :])
        return f"{html[: first.start()]}{store}\n{rest}"
    if "</body>" not in html:
        return f"{html}\n{store}\n"
    at = html.rfind("</article>")
    if at < 0:
        at = html.rfind("</body>")
    return f"{html[:at]}{store}\n{html[at:]}"


def read_store(html: str) -> tuple[dict[str, Any], dict[str, str]]:
    """``(tables, here)`` of every store in ``html``, merged (unreadable ones skipped)."""
    tables: dict[str, Any] = {}
    here: dict[str, str] = {}
    for match in STORE.finditer(html):
        try:
            data = json.loads(match[1])
        except ValueError:
            continue
        if not isinstance(data, dict):
            continue
        if isinstance(data.get("tables"), dict):
            tables.update(data["tables"])
        if isinstance(data.get("here"), dict):
            here.update({k: v for k, v in data["here"].items() if isinstance(v, str)})
    return tables, here


def widget_tables(html: str) -> dict[str, dict[str, Any]]:
    """Each table widget's payload in ``html`` by anchor (the first of an anchor), no ``refs``."""
    found: dict[str, dict[str, Any]] = {}
    for match in WIDGET.finditer(html):
        try:
            data = json.loads(match[3])
        except ValueError:
            continue
        if isinstance(data, dict) and match[2] not in found:
            found[match[2]] = {k: v for k, v in data.items() if k != "refs"}
    return found


def resolved(payload: Mapping[str, Any], html: str) -> dict[str, Any]:
    """The tables a payload's ``refs`` names, ``{key: table}``, as the browser finds them."""
    keys = payload.get("refs")
    if isinstance(keys, dict):
        return dict(keys)
    if not isinstance(keys, list):
        return {}
    tables, here = read_store(html)
    own = widget_tables(html) if here else {}
    out: dict[str, Any] = {}
    for key in keys:
        if key in tables:
            out[key] = tables[key]
        elif here.get(key) in own:
            out[key] = own[here[key]]
    return out
