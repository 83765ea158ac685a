"""HTML for roll-table / roll-list blocks, from a plain view of the engine's table.

Everything here is escaped except cell HTML, which the Markdown side already rendered
(author HTML is allowed in cells). Output is deterministic: ids come from the anchor,
JSON is dumped with sorted keys.
"""

from __future__ import annotations

from fractions import Fraction
from html import escape

from rollbook.engine.dice import letters
from rollbook.engine.numbers import fraction_text, percent_text
from rollbook.language import Catalogue, catalogue
from rollbook.markup.html import ascii_refs, attr, error_box, lines, payload_html, roll_button
from rollbook.markup.roll_table.model import RowView, TableView

__all__ = ["CHANCE", "chance_attr", "percent", "render_table"]


def _label(row: RowView) -> str:
    return ascii_refs(escape(row.label))


def percent(p: Fraction | None, text: Catalogue | None = None) -> str:
    """A row's chance as the page shows it, or nothing when unknown."""
    return "" if p is None else ascii_refs((text or catalogue()).percent(percent_text(p)))


def _ltr(view: TableView, label: str) -> str:
    """`` dir="ltr"`` for dice notation shown on a right-to-left page (it reads left to right)."""
    if view.text.rtl and letters.to_d(label, view.text.language) == view.roll:
        return ' dir="ltr"'
    return ""


def chance_attr(p: Fraction | None) -> str:
    """`` data-rb-p="p/q"`` for a row with a known chance, else nothing."""
    return "" if p is None else f' data-rb-p="{fraction_text(p)}"'


def _button_bar(view: TableView, anchor: str) -> str:
    # Controls, not content: kept out of search indexes that honour data-search-exclude.
    t = view.text
    return (
        f'<div class="rb-bar" data-search-exclude>'
        f"{roll_button(view.button_label or t('table.roll'), aria_controls=f'{anchor}-result')}"
        f'<button type="button" class="rb-chances" aria-pressed="false">'
        f"{escape(t('chances.show'))}</button>"
        f'<button type="button" class="rb-copy-link" data-rb-href="#{attr(anchor)}">'
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
            f'type="{attr(p.type)}"',
            f'name="{attr(p.name)}"',
            f'id="{attr(input_id)}"',
            f'value="{p.default}"',
            'step="1"',
            "required",
        ]
        if p.min is not None:
            attrs.append(f'min="{p.min}"')
        if p.max is not None:
            attrs.append(f'max="{p.max}"')
        if p.help_text:
            attrs.append(f'aria-describedby="{attr(input_id)}-help"')
        parts.append(
            f'<div class="rb-prompt"><label for="{attr(input_id)}">{escape(p.label)}</label>'
            f"<input {' '.join(attrs)}>\n"
        )
        if p.help_text:
            parts.append(
                f'<small class="rb-help" id="{attr(input_id)}-help">{escape(p.help_text)}</small>'
            )
        parts.append("</div>\n")
    parts.append("</fieldset>")
    return "".join(parts)


# The chance column stays hidden until asked for, and is no text to search for.
#: The attributes of the hidden "(p%)" span each row carries.
CHANCE = 'class="rb-p" hidden data-search-exclude'


def _table(view: TableView, rows: tuple[RowView, ...]) -> str:
    head = lines(
        f'<th scope="col" class="rb-key"{_ltr(view, view.roll_name)}>{escape(view.roll_name)}</th>',
        *(f'<th scope="col">{escape(h)}</th>' for h in view.headers),
        f'<th scope="col" {CHANCE}>{escape(view.text("table.chance"))}</th>',
    )
    out = [f'<table class="rb-rows"><thead><tr>\n{head}\n</tr></thead><tbody>']
    for row in rows:
        cells = lines(
            f'<td class="rb-key">{_label(row)}</td>',
            *(f"<td>{c}</td>" for c in row.cells),
            f"<td {CHANCE}>{percent(row.probability, view.text)}</td>",
        )
        out.append(f'<tr data-rb-row="{row.index}"{chance_attr(row.probability)}>\n{cells}\n</tr>')
    out.append("</tbody></table>")
    return lines(*out)


def _tabbed(view: TableView, anchor: str) -> str:
    by_index = {row.index: row for row in view.rows}
    buttons, panels = [], []
    placed: set[int] = set()
    for n, (key, name, indexes) in enumerate(view.tabs):
        tab_id, panel_id = f"{anchor}-tab-{n + 1}", f"{anchor}-panel-{n + 1}"
        first = n == 0
        buttons.append(
            f'<button type="button" role="tab" id="{attr(tab_id)}" '
            f'aria-controls="{attr(panel_id)}" '
            f'aria-selected="{"true" if first else "false"}" tabindex="{0 if first else -1}" '
            f'data-rb-tab="{attr(key)}">{escape(name)}</button>'
        )
        rows = tuple(by_index[i] for i in indexes if i in by_index)
        placed.update(indexes)
        panels.append(
            f'<div role="tabpanel" id="{attr(panel_id)}" aria-labelledby="{attr(tab_id)}" '
            f'data-rb-tab="{attr(key)}"{"" if first else " hidden"}>{_table(view, rows)}</div>'
        )
    rest = tuple(row for row in view.rows if row.index not in placed)
    if rest:  # rows no tab holds stay reachable, under a tab of their own
        n = len(view.tabs)
        tab_id, panel_id = f"{anchor}-tab-{n + 1}", f"{anchor}-panel-{n + 1}"
        buttons.append(
            f'<button type="button" role="tab" id="{attr(tab_id)}" '
            f'aria-controls="{attr(panel_id)}" '
            f'aria-selected="false" tabindex="-1" data-rb-tab="">'
            f"{escape(view.text('table.other'))}</button>"
        )
        panels.append(
            f'<div role="tabpanel" id="{attr(panel_id)}" aria-labelledby="{attr(tab_id)}" '
            f'data-rb-tab="" hidden>{_table(view, rest)}</div>'
        )
    return lines(
        f'<div class="rb-tabs" role="tablist" aria-label="{attr(view.roll_name)}">\n'
        f"{lines(*buttons)}\n</div>",
        *panels,
    )


def render_table(
    view: TableView,
    anchor: str,
    own_id: bool,
    notes: list[str] | None = None,
    body: str | None = None,
) -> str:
    """The whole block.

    Args:
        view: What to show.
        anchor: The block's anchor (``data-rb-anchor``; also its ``id`` when ``own_id``).
        own_id: False when a heading right above already owns ``anchor`` as its id.
        notes: Problems to show in an error box at the top of the block.
        body: The rows as another kind draws them (``roll-list``: ``roll_list.render``);
            a table (tabbed or not) by default.
    """
    classes = " ".join(("rb-table", *view.classes))
    id_attr = f' id="{attr(anchor)}"' if own_id else ""
    if body is None:
        body = _tabbed(view, anchor) if view.tabs else _table(view, view.rows)
    bar = _button_bar(view, anchor)
    return lines(
        f'<div class="{attr(classes)}"{id_attr} data-rb-anchor="{attr(anchor)}" '
        f'data-rb-kind="{view.kind}" data-roll="{attr(view.roll)}">',
        error_box(notes) if notes else "",
        payload_html(view.payload),
        _prompts(view, anchor),
        bar if view.button_placement != "below" else "",
        body,
        bar if view.button_placement == "below" else "",
        f'<div class="rb-result" id="{attr(anchor)}-result" aria-live="polite"></div>',
        "</div>",
    )
