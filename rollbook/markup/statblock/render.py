"""The ``statblock`` card's HTML (`rollbook.markup.statblock.fence` checks the body first).

Dice fields (``damage: 1d8`` ...) are inline rolls with exactly the HTML of ``![roll:1d8]()``.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from markdown import Markdown
from markdown.serializers import to_html_string

from rollbook.markup.cells import render_inline
from rollbook.markup.html import lines
from rollbook.markup.inline import inline_roll_element
from rollbook.markup.statblock.model import StatBlock

if TYPE_CHECKING:
    from rollbook.markup.page_state import PageState

__all__ = [
    "card_html",
    "field_label",
    "field_value_html",
    "inline_roll_html",
    "is_dice",
]


def inline_roll_html(state: PageState, notation: str, label: str | None = None) -> str:
    """An inline roll, as ``![roll:...]()`` writes it: same builder, same serializer."""
    element = inline_roll_element(
        state.next_inline_id(), notation, label or notation, text=state.text()
    )
    return to_html_string(element)


def is_dice(param: Any, value: Any) -> bool:
    """Whether a field value is dice notation worth a roll button (``1d8``, ``d6+1``)."""
    if param.kind is not str or param.choices or not isinstance(value, str):
        return False
    if "d" not in value.lower():
        return False
    try:
        from rollbook.engine.dice import parse

        parse(value.strip())
    except Exception:  # not dice: shown as text
        return False
    return True


def field_label(state: PageState, name: str) -> str:
    """A stat's label in the page's language (``stat.ac``: ``AC``, ``CA``, ``КБ``)."""
    text = state.text()
    key = f"stat.{name}"
    return text(key) if key in text.strings else name.replace("_", " ")


def field_value_html(state: PageState, param: Any, value: Any) -> str:
    """One field's value as HTML.

    Dice as inline rolls; yes/no and choices in the page's language.
    """
    if is_dice(param, value):
        return inline_roll_html(state, value.strip())
    text = state.text()
    if isinstance(value, bool):
        return escape(text("combat.value.yes" if value else "combat.value.no"))
    if param.choices and f"stat.value.{value}" in text.strings:
        return escape(text(f"stat.value.{value}"))
    return escape(str(value))


def card_html(state: PageState, md: Markdown, block: StatBlock, anchor: str, own_id: bool) -> str:
    """The card of a checked statblock."""
    system = block.system
    items = []
    for param in system.combatant_fields:
        if param.name not in block.fields:
            continue
        value = field_value_html(state, param, block.fields[param.name])
        help_key = f"stat.help.{system.id}.{param.name}"
        text = state.text()
        shown = text(help_key) if help_key in text.strings else param.help
        title = f' title="{escape(shown)}"' if shown else ""
        items.append(
            f'<div class="rb-stat" data-rb-field="{escape(param.name)}">'
            f"<dt{title}>{escape(field_label(state, param.name))}</dt>\n<dd>{value}</dd></div>"
        )
    notes = (
        f'<p class="rb-statblock-notes">{render_inline(md, block.notes)}</p>' if block.notes else ""
    )
    id_attr = f' id="{escape(anchor)}"' if own_id else ""
    return lines(
        f'<div class="rb-statblock"{id_attr} data-rb-anchor="{escape(anchor)}" '
        f'data-rb-system="{escape(system.id)}">'
        f'<p class="rb-statblock-name"><strong>{escape(block.name)}</strong> '
        f'<span class="rb-statblock-system">{escape(system.name)}</span></p>',
        f'<dl class="rb-stats">\n{lines(*items)}\n</dl>',
        notes,
        "</div>",
    )
