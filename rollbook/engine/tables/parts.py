"""The small immutable pieces a table is made of: rows, prompts, tabs, the button, a roll."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollbook.engine.tables.keys import Key
from rollbook.engine.tables.problems import Path

__all__ = ["PROMPT_TYPES", "Button", "Prompt", "Row", "Tab", "TableRoll"]

#: Prompt input types: both are numeric HTML inputs (placeholders need integers).
PROMPT_TYPES = ("number", "range")


@dataclass(frozen=True)
class Row:
    """One result row.

    Attributes:
        index: Position in the table (0-based), the ``data-rb-row`` of the markup.
        key: The parsed key, or ``None`` for a row of a ``results`` list (its value is the
            index-th smallest value the roll can produce).
        cells: One HTML string per column (per header).
        path: Key path of the row in the YAML body (for line numbers).
        nested: The dice and tables rolled together with the row (``nested.NestedPart``).
    """

    index: int
    key: Key | None
    cells: tuple[str, ...]
    path: Path = field(default=(), compare=False)
    nested: tuple[Any, ...] = ()


@dataclass(frozen=True)
class Prompt:
    """An input asked before rolling, used as ``{{ name }}`` in ``roll`` and ``result_text``.

    ``default`` (used for odds and display when no value is given) is ``min`` if set, else 0
    clamped to ``max``.
    """

    name: str
    label: str
    help_text: str | None = None
    type: str = "number"
    min: int | None = None
    max: int | None = None

    @property
    def default(self) -> int:
        """The value a prompt takes when not asked: its default, else within its bounds."""
        if self.min is not None:
            return self.min
        if self.max is not None and self.max < 0:
            return self.max
        return 0

    def to_dict(self) -> dict[str, Any]:
        """The prompt as JSON."""
        return {
            "name": self.name,
            "label": self.label,
            "help_text": self.help_text,
            "type": self.type,
            "min": self.min,
            "max": self.max,
        }


@dataclass(frozen=True)
class Tab:
    """A tab of the table.

    Attributes:
        key: The tab's key as written (``"1"`` for the first die showing 1).
        name: Its visible name.
        results: Keys of the rows it holds (canonical spelling), or ``None``: then a
            multi-dice roll's tab ``k`` holds the rows whose first die is ``k``, and a
            single roll's tab key is read as a result key holding the rows inside it.
    """

    key: str
    name: str
    results: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The tab as JSON."""
        return {"key": self.key, "name": self.name, "results": _list_or_none(self.results)}


def _list_or_none(items: tuple[str, ...] | None) -> list[str] | None:
    return None if items is None else list(items)


@dataclass(frozen=True)
class Button:
    """The roll button: its label and whether it sits ``above`` or ``below`` the table."""

    label: str = "Roll on the table"
    placement: str = "above"


@dataclass(frozen=True)
class TableRoll:
    """The outcome of rolling a table.

    Attributes:
        value: The rolled total (a tuple for a multi-dice roll).
        row_index: Index of the matched row, ``None`` when no row covers the value.
        text: The result sentence (HTML); a plain "No row for 13." when unmatched; ``None``
            when ``result_text: false`` and a row matched.
        tab: Key of the first tab holding the row, or ``None``.
        result: The dice engine's ``RollResult`` (every die).
        nested: The row's nested rolls in order: ``{"kind": "dice", "roll": RollResult
            dict}`` or ``{"kind": "table", "ref": as written, **TableRoll.to_dict()}``.
        shown: The matched row's ``{{ result }}`` HTML, nested values in place (what a
            table rolling this one shows for it); ``None`` when no row matched.
        said: When no row matched, ``text`` as a `rollbook.engine.messages.Message` (the
            page says it in the reader's language).
    """

    value: Any
    row_index: int | None
    text: str | None
    tab: str | None
    result: Any = field(default=None, compare=False)
    nested: tuple[dict[str, Any], ...] = ()
    shown: str | None = field(default=None, compare=False, repr=False)
    said: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        """The bridge's ``table`` reply: ``{"roll", "row", "text", "tab"}``.

        It has ``"nested"`` too when the row rolled nested parts.
        """
        roll = self.result.to_dict() if self.result is not None else {"total": self.value}
        reply = {"roll": roll, "row": self.row_index, "text": self.text, "tab": self.tab}
        if self.nested:
            reply["nested"] = list(self.nested)
        if self.said is not None:
            reply["said"] = self.said.to_dict()
        return reply
