"""HTML for roll-table / roll-list blocks, from a plain view of the engine's table.

Everything here is escaped except cell HTML, which the Markdown side already rendered
(author HTML is allowed in cells). Output is deterministic: ids come from the anchor,
JSON is dumped with sorted keys.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from html import escape
from typing import Any

from rollbook.engine.dice import letters
from rollbook.engine.numbers import fraction_text, percent_text
from rollbook.language import Catalogue, catalogue

__all__ = [
    "PromptView",
    "RowView",
    "TableView",
    "error_box",
    "lines",
    "payload_html",
    "payload_json",
    "render_table",
]


@dataclass(frozen=True)
class RowView:
    """One row: its ``data-rb-row`` index, key as shown, cells (HTML) and exact chance."""

    index: int
    label: str
    cells: tuple[str, ...]
    probability: Fraction | None


@dataclass(frozen=True)
class PromptView:
    """One prompt input."""

    name: str
    label: str
    help_text: str | None
    type: str
    min: int | None
    max: int | None
    default: int


@dataclass
class TableView:
    """Everything the HTML needs, independent of how the engine stores it."""

    kind: str  # "table" | "list"
    roll: str
    roll_name: str
    headers: tuple[str, ...]
    rows: tuple[RowView, ...]
    payload: dict[str, Any]
    tabs: tuple[tuple[str, str, tuple[int, ...]], ...] = ()  # (key, name, row indexes)
    prompts: tuple[PromptView, ...] = ()
    prompt_title: str | None = None
    button_label: str = ""  # "" -> the catalogue's "table.roll"
    button_placement: str = "above"
    classes: tuple[str, ...] = ()
    column_count: int | None = None
    notes: list[str] = field(default_factory=list)
    text: Catalogue = field(default_factory=catalogue)  # the page's language


# JSON escapes for the characters HTML gives meaning to, so the payload is plain text
# inside a <template> and the same bytes are still valid JSON.
_INERT = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def payload_json(data: Any) -> str:
    """Sorted, compact JSON with ``<``, ``>``, ``&`` written as ``\\u003c`` etc."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_INERT)


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


def _attr(value: object) -> str:
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


def _label(row: RowView) -> str:
    return ascii_refs(escape(row.label))


def _percent(view: TableView, p: Fraction | None) -> str:
    return "" if p is None else ascii_refs(view.text.percent(percent_text(p)))


def _ltr(view: TableView, label: str) -> str:
    """`` dir="ltr"`` for dice notation shown on a right-to-left page (it reads left to right)."""
    if view.text.rtl and letters.to_d(label, view.text.language) == view.roll:
        return ' dir="ltr"'
    return ""


def _p_attr(p: Fraction | None) -> str:
    return "" if p is None else f' data-rb-p="{fraction_text(p)}"'


def error_box(messages: list[str], title: str = "This roll block has errors") -> str:
    """The visible box that replaces (or heads) a broken block in non-strict builds."""
    items = lines(*(f"<li>{escape(m)}</li>" for m in messages))
    return (
        f'<div class="admonition failure rb-error" role="note"><p class="admonition-title">'
        f"{escape(title)}</p>\n<ul>\n{items}\n</ul></div>"
    )


def _button_bar(view: TableView, anchor: str) -> str:
    # Controls, not content: kept out of search indexes that honour data-search-exclude.
    t = view.text
    return (
        f'<div class="rb-bar" data-search-exclude>'
        f'<button type="button" class="rb-roll" aria-controls="{_attr(anchor)}-result">'
        f"{escape(view.button_label or t('table.roll'))}</button>"
        f'<button type="button" class="rb-chances" aria-pressed="false">'
        f"{escape(t('chances.show'))}</button>"
        f'<button type="button" class="rb-copy-link" data-rb-href="#{_attr(anchor)}">'
        f"{escape(t('table.copy_link'))}</button></div>"
    )


def _prompts(view: TableView, anchor: str) -> str:
    if not view.prompts:
        return ""
    title = view.prompt_title or view.roll_name
    # A line break after each input, none between a label and its input (the prompt's
    # div is not a flex box, so that one would show as a space).
    parts = [f'<fieldset class="rb-prompts"><legend>{escape(title)}</legend>\n']
    for p in view.prompts:
        input_id = f"{anchor}-in-{p.name}"
        attrs = [
            f'type="{_attr(p.type)}"',
            f'name="{_attr(p.name)}"',
            f'id="{_attr(input_id)}"',
            f'value="{p.default}"',
            'step="1"',
            "required",
        ]
        if p.min is not None:
            attrs.append(f'min="{p.min}"')
        if p.max is not None:
            attrs.append(f'max="{p.max}"')
        if p.help_text:
            attrs.append(f'aria-describedby="{_attr(input_id)}-help"')
        parts.append(
            f'<div class="rb-prompt"><label for="{_attr(input_id)}">{escape(p.label)}</label>'
            f"<input {' '.join(attrs)}>\n"
        )
        if p.help_text:
            parts.append(
                f'<small class="rb-help" id="{_attr(input_id)}-help">{escape(p.help_text)}</small>'
            )
        parts.append("</div>\n")
    parts.append("</fieldset>")
    return "".join(parts)


# The chance column stays hidden until asked for, and is no text to search for.
_CHANCE = 'class="rb-p" hidden data-search-exclude'


def _table(view: TableView, rows: tuple[RowView, ...]) -> str:
    head = lines(
        f'<th scope="col" class="rb-key"{_ltr(view, view.roll_name)}>{escape(view.roll_name)}</th>',
        *(f'<th scope="col">{escape(h)}</th>' for h in view.headers),
        f'<th scope="col" {_CHANCE}>{escape(view.text("table.chance"))}</th>',
    )
    out = [f'<table class="rb-rows"><thead><tr>\n{head}\n</tr></thead><tbody>']
    for row in rows:
        cells = lines(
            f'<td class="rb-key">{_label(row)}</td>',
            *(f"<td>{c}</td>" for c in row.cells),
            f"<td {_CHANCE}>{_percent(view, row.probability)}</td>",
        )
        out.append(f'<tr data-rb-row="{row.index}"{_p_attr(row.probability)}>\n{cells}\n</tr>')
    out.append("</tbody></table>")
    return lines(*out)


def _list(view: TableView) -> str:
    style = f' style="column-count: {view.column_count}"' if view.column_count else ""
    cols = f' data-rb-columns="{view.column_count}"' if view.column_count else ""
    items = []
    for row in view.rows:
        cell = row.cells[0] if row.cells else ""
        value = f' value="{row.label}"' if row.label.lstrip("-").isdigit() else ""
        items.append(
            f'<li{value} data-rb-row="{row.index}" data-rb-key="{ascii_refs(_attr(row.label))}"'
            f"{_p_attr(row.probability)}>"
            f"{cell} <span {_CHANCE}>({_percent(view, row.probability)})</span></li>"
        )
    return f'<ol class="rb-rows"{cols}{style}>\n{lines(*items)}\n</ol>'


def _tabbed(view: TableView, anchor: str) -> str:
    by_index = {row.index: row for row in view.rows}
    buttons, panels = [], []
    placed: set[int] = set()
    for n, (key, name, indexes) in enumerate(view.tabs):
        tab_id, panel_id = f"{anchor}-tab-{n + 1}", f"{anchor}-panel-{n + 1}"
        first = n == 0
        buttons.append(
            f'<button type="button" role="tab" id="{_attr(tab_id)}" '
            f'aria-controls="{_attr(panel_id)}" '
            f'aria-selected="{"true" if first else "false"}" tabindex="{0 if first else -1}" '
            f'data-rb-tab="{_attr(key)}">{escape(name)}</button>'
        )
        rows = tuple(by_index[i] for i in indexes if i in by_index)
        placed.update(indexes)
        panels.append(
            f'<div role="tabpanel" id="{_attr(panel_id)}" aria-labelledby="{_attr(tab_id)}" '
            f'data-rb-tab="{_attr(key)}"{"" if first else " hidden"}>{_table(view, rows)}</div>'
        )
    rest = tuple(row for row in view.rows if row.index not in placed)
    if rest:  # rows no tab holds stay reachable, under a tab of their own
        n = len(view.tabs)
        tab_id, panel_id = f"{anchor}-tab-{n + 1}", f"{anchor}-panel-{n + 1}"
        buttons.append(
            f'<button type="button" role="tab" id="{_attr(tab_id)}" '
            f'aria-controls="{_attr(panel_id)}" '
            f'aria-selected="false" tabindex="-1" data-rb-tab="">'
            f"{escape(view.text('table.other'))}</button>"
        )
        panels.append(
            f'<div role="tabpanel" id="{_attr(panel_id)}" aria-labelledby="{_attr(tab_id)}" '
            f'data-rb-tab="" hidden>{_table(view, rest)}</div>'
        )
    return lines(
        f'<div class="rb-tabs" role="tablist" aria-label="{_attr(view.roll_name)}">\n'
        f"{lines(*buttons)}\n</div>",
        *panels,
    )


def render_table(view: TableView, anchor: str, own_id: bool, notes: list[str] | None = None) -> str:
    """The whole block.

    Args:
        view: What to show.
        anchor: The block's anchor (``data-rb-anchor``; also its ``id`` when ``own_id``).
        own_id: False when a heading right above already owns ``anchor`` as its id.
        notes: Problems to show in an error box at the top of the block.
    """
    classes = " ".join(("rb-table", *view.classes))
    id_attr = f' id="{_attr(anchor)}"' if own_id else ""
    if view.kind == "list":
        body = _list(view)
    elif view.tabs:
        body = _tabbed(view, anchor)
    else:
        body = _table(view, view.rows)
    bar = _button_bar(view, anchor)
    return lines(
        f'<div class="{_attr(classes)}"{id_attr} data-rb-anchor="{_attr(anchor)}" '
        f'data-rb-kind="{view.kind}" data-roll="{_attr(view.roll)}">',
        error_box(notes) if notes else "",
        payload_html(view.payload),
        _prompts(view, anchor),
        bar if view.button_placement != "below" else "",
        body,
        bar if view.button_placement == "below" else "",
        f'<div class="rb-result" id="{_attr(anchor)}-result" aria-live="polite"></div>',
        "</div>",
    )
