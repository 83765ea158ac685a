"""What a roll-table / roll-list block shows: a plain view of the engine's table.

The fence (``fence.view_of``) fills it from ``rollbook.engine.tables``; the renderer
(``render``) reads nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rollbook.language import Catalogue, catalogue

__all__ = ["PromptView", "RowView", "TableView"]


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
