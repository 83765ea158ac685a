"""Rolls inside a row: dice and other tables that are rolled together with the row.

A cell marks each nested part with an element whose start tag carries ``data-rb-nest``:
dice notation (``data-rb-nest="1d3"``) or a table reference as written
(``data-rb-nest="#backlash"``, ``data-rb-nest="magic.md#backlash"``) plus the key the
build resolved it to (``data-rb-table="docs/magic.md#backlash"``). ``data-rb-label`` is the
part's visible label when it is not the notation. The Markdown side writes these on the
inline rolls of table cells; the engine only reads the attributes.

After the row is found, its parts are rolled in order (cells left to right, each cell from
its start) from the same rng, a table part depth-first with its own parts, and each part's
element in the cells is replaced by its value for the result sentence. The referenced
tables travel in the root table's ``refs`` (resolved key -> ``to_dict()``).
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_DEPTH",
    "NestedPart",
    "fill_slots",
    "parts_of",
    "split_prompts",
]

#: How many table references deep a roll may go below the table rolled first.
MAX_DEPTH = 5

_START = re.compile(r"<span\b([^>]*)>|</span\s*>", re.IGNORECASE)
_ATTR = re.compile(r'\s([\w-]+)="([^"]*)"')


@dataclass(frozen=True)
class NestedPart:
    """One nested roll of a row.

    Attributes:
        roll: Dice notation (a dice part), else ``None``.
        ref: The table reference as written (a table part), else ``None``.
        table: The resolved key of the referenced table (an entry of ``refs``).
        label: The visible label, when it is not the notation itself.
    """

    roll: str | None = None
    ref: str | None = None
    table: str | None = None
    label: str | None = None

    @property
    def anchor(self) -> str:
        """The referenced table's anchor (the part after ``#``): its prompts' prefix."""
        return (self.ref or "").partition("#")[2]

    def to_dict(self) -> dict[str, Any]:
        """The part as JSON: its ``roll`` or its ``ref`` and ``table``, and its label."""
        data: dict[str, Any] = (
            {"roll": self.roll} if self.ref is None else {"ref": self.ref, "table": self.table}
        )
        if self.label is not None:
            data["label"] = self.label
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NestedPart:
        """A part from its JSON (`to_dict`)."""
        label = data.get("label")
        label = None if label is None else str(label)
        if "ref" in data:
            return cls(
                ref=str(data["ref"]), table=str(data.get("table") or data["ref"]), label=label
            )
        return cls(roll=str(data["roll"]), label=label)


def _attrs(tag: str) -> dict[str, str]:
    return {name: html.unescape(value) for name, value in _ATTR.findall(tag)}


def parts_of(cells: Sequence[str]) -> tuple[NestedPart, ...]:
    """The nested parts of a row, in order, from its cells' ``data-rb-nest`` elements."""
    found: list[NestedPart] = []
    for cell in cells:
        if "data-rb-nest" not in cell:
            continue
        for match in _START.finditer(cell):
            if match[1] is None or "data-rb-nest" not in match[1]:
                continue
            attrs = _attrs(match[1])
            value = attrs.get("data-rb-nest", "").strip()
            if not value:
                continue
            label = attrs.get("data-rb-label")
            table = attrs.get("data-rb-table")
            if table is not None or value.startswith("#") or ".md#" in value:
                found.append(NestedPart(ref=value, table=table or value, label=label))
            else:
                found.append(NestedPart(roll=value, label=label))
    return tuple(found)


def fill_slots(cells: Sequence[str], values: Sequence[str]) -> tuple[str, ...]:
    """The cells with the k-th ``data-rb-nest`` element replaced by ``values[k]``.

    An element runs from its start tag to its matching ``</span>``; cells without one are
    returned as they are.
    """
    out: list[str] = []
    k = 0
    for cell in cells:
        if "data-rb-nest" not in cell:
            out.append(cell)
            continue
        pieces: list[str] = []
        pos = 0
        depth = 0
        start = -1
        for match in _START.finditer(cell):
            opening = match[1] is not None
            if depth == 0:
                if opening and "data-rb-nest" in match[1]:
                    start, depth = match.start(), 1
                continue
            depth += 1 if opening else -1
            if depth == 0:
                pieces.append(cell[pos:start])
                pieces.append(values[k] if k < len(values) else cell[start : match.end()])
                k += 1
                pos = match.end()
        pieces.append(cell[pos:])
        out.append("".join(pieces))
    return tuple(out)


def split_prompts(prompts: Mapping[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(own, nested)``: ``ANCHOR.NAME`` values are for the tables a row rolls."""
    own: dict[str, Any] = {}
    nested: dict[str, Any] = {}
    for name, value in (prompts or {}).items():
        (nested if "." in str(name) else own)[name] = value
    return own, nested


def prompts_for(anchor: str, nested: Mapping[str, Any]) -> dict[str, Any]:
    """The values given for one referenced table (``ANCHOR.NAME`` -> ``NAME``).

    Deeper ones are passed on as they are.
    """
    prefix = f"{anchor}."
    own = {k[len(prefix) :]: v for k, v in nested.items() if k.startswith(prefix)}
    return {**{k: v for k, v in nested.items() if not k.startswith(prefix)}, **own}
