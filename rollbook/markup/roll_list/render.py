"""HTML for the rows of a roll-list; the rest of the block is a table's (``roll_table.render``)."""

from __future__ import annotations

from rollbook.markup.html import ascii_refs, attr, lines
from rollbook.markup.roll_table.model import TableView
from rollbook.markup.roll_table.render import CHANCE, chance_attr, percent

__all__ = ["list_body"]


def list_body(view: TableView) -> str:
    """The rows of a roll-list: a numbered list, each item with its chance."""
    style = f' style="column-count: {view.column_count}"' if view.column_count else ""
    cols = f' data-rb-columns="{view.column_count}"' if view.column_count else ""
    items = []
    for row in view.rows:
        cell = row.cells[0] if row.cells else ""
        value = f' value="{row.label}"' if row.label.lstrip("-").isdigit() else ""
        items.append(
            f'<li{value} data-rb-row="{row.index}" data-rb-key="{ascii_refs(attr(row.label))}"'
            f"{chance_attr(row.probability)}>"
            f"{cell} <span {CHANCE}>({percent(row.probability, view.text)})</span></li>"
        )
    return f'<ol class="rb-rows"{cols}{style}>\n{lines(*items)}\n</ol>'
