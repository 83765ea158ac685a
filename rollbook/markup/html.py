"""The HTML all blocks share: escaping, the JSON payload, line breaks, error box, roll buttons.

Blocks write HTML as text (the fences) or as ElementTree elements (inline rolls, which
Python-Markdown serializes); a roll button is made here either way, so the browser finds
the same ``button.rb-roll`` everywhere.
"""

from __future__ import annotations

import json
from html import escape
from typing import Any
from xml.etree import ElementTree as etree

from markdown import util

__all__ = [
    "ascii_refs",
    "attr",
    "error_box",
    "lines",
    "payload_html",
    "payload_json",
    "roll_button",
    "roll_controls",
]

# JSON escapes for the characters HTML gives meaning to, so the payload is plain text
# inside a <template> and the same bytes are still valid JSON. Three ``str.replace`` calls,
# not ``str.translate``: a translate with a mapping looks up every character of the text in
# Python (130 us for a 1 KB table payload, 2 us this way; bench 1b writes two per page).
_INERT = (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"))


def payload_json(data: Any) -> str:
    r"""Sorted, compact JSON with ``<``, ``>``, ``&`` written as ``\\u003c`` etc."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    for char, escaped in _INERT:
        text = text.replace(char, escaped)
    return text


def payload_html(data: Any) -> str:
    """A widget's payload element: ``<template class="rb-data">JSON</template>``.

    A template, not ``<script type="application/json">``: Material's instant navigation
    re-creates every inline script of the new page without its ``type`` and runs it, so a
    JSON script would be executed as JavaScript. A template is inert, and its text (no
    markup characters left in it) reads back as ``template.content.textContent``.
    ``data-search-exclude`` keeps the JSON out of Material's search index.
    """
    return f'<template class="rb-data" data-search-exclude>{payload_json(data)}</template>'


def lines(*parts: str) -> str:
    """``parts`` one per line, empty ones left out.

    Search indexes (Material's, Zensical's) take a widget's text without its tags, so
    elements written back to back would run their words together ("Hostile</td><td>They
    charge" indexed as "HostileThey"). A line break between them is a word break there and
    changes nothing on screen: white space is not rendered between table cells or rows,
    list items, the items of a flex box, or block boxes, and those are all it goes between.
    """
    return "\n".join(part for part in parts if part)


def attr(value: object) -> str:
    """``value`` as text for an attribute value in double quotes."""
    return escape(str(value), quote=True)


def ascii_refs(text: str) -> str:
    """``text`` with every character outside ASCII written as a character reference.

    For the text rollbook itself puts in a page (``2–4``, ``≥10``, a roll's tooltip), never
    the author's: it reads the same in browsers and search indexes, and a page whose author
    wrote only ASCII stays ASCII. Python keeps such a page's string one byte per character
    and encodes it by copying; one en dash makes the whole page (300 KB with the theme's
    navigation on a large site) two bytes per character, and every join, search parse and
    UTF-8 encode of it slower.
    """
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")


def error_box(messages: list[str], title: str = "This roll block has errors") -> str:
    """The visible box that replaces (or heads) a broken block in non-strict builds."""
    items = lines(*(f"<li>{escape(m)}</li>" for m in messages))
    return (
        f'<div class="admonition failure rb-error" role="note"><p class="admonition-title">'
        f"{escape(title)}</p>\n<ul>\n{items}\n</ul></div>"
    )


def roll_button(label: str, *, extra_class: str = "", aria_controls: str | None = None) -> str:
    """A block's roll button as HTML text: ``<button type="button" class="rb-roll">``."""
    cls = f"rb-roll {extra_class}" if extra_class else "rb-roll"
    controls = f' aria-controls="{attr(aria_controls)}"' if aria_controls is not None else ""
    return f'<button type="button" class="{cls}"{controls}>{escape(label)}</button>'


def roll_controls(wrap: etree.Element, label: str) -> etree.Element:
    """Add what every inline roll holds: its button and the output for its result.

    Returns the button, for the caller's attributes; the browser writes the result into the
    live output.
    """
    button = etree.SubElement(wrap, "button")
    button.set("type", "button")
    button.set("class", "rb-roll")
    button.text = util.AtomicString(label)
    out = etree.SubElement(wrap, "output")
    out.set("class", "rb-out")
    out.set("aria-live", "polite")
    out.text = ""
    return button
