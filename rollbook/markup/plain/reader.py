"""Reading an ordinary Markdown table as one roll: the die, the keys, the columns.

The result is a plain dict in the shape of a ``roll-table`` fence body (``roll``,
``results``, ``headers``, ``roll_name``), with the line of every row, so the engine's own
model and checks take it from there exactly as they take a fence. A table that names a
die but cannot be read as one roll gives a ``reason`` (one sentence) instead; a table that
names no die gives neither and is left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import zip_longest
from typing import Any

from rollbook.markup.plain.die import (
    Die,
    die_and_name,
    die_in_header,
    die_in_lead,
    die_plus_words,
)
from rollbook.markup.plain.keys import DASH, PlainKey, read_key, strip_markup

__all__ = ["Reading", "RowKey", "read_table"]

# A key cell that starts a range at nought: "00-30", "0 - 9", "00–09".
_FROM_NOUGHT = re.compile(rf"^0{{1,2}}{DASH}\d")
# What a key column is headed when the die is named above the table (empty, "#", "Roll").
_ROLL_COLUMN = re.compile(
    r"^(?:|#|no\.?|nr\.?|n°|num(?:ber)?|(?:die |dice )?rolls?|die|dice|results?|d|wurf|würfel"
    r"|ergebnis)$",
    re.I,
)
# A d10 key at nought: "0", "0-4".
_NOUGHT = re.compile(rf"^0(?:{DASH}\d)?$")


class RowKey(str):
    """A row's key as a ``results`` key, equal only to itself.

    So a plain dict keeps repeated keys as separate rows (and the checks report the overlap).
    """

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return self is other

    def __ne__(self, other: object) -> bool:
        return self is not other

    __hash__ = object.__hash__


@dataclass
class Reading:
    """What a plain table says about itself.

    Attributes:
        data: The fence-shaped body, or ``None`` when the table is not read as a roll.
        positions: Line of each key path (``("results", key)`` -> the row's line).
        labels: The key column as the author wrote it, row by row.
        reason: Why a table that names a die stays static (one sentence), else ``None``.
    """

    data: dict[str, Any] | None = None
    positions: dict[Any, int] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)
    reason: str | None = None


def _name(cell: str) -> str:
    return strip_markup(cell)


def read_table(
    header: list[str], rows: list[list[str]], line: int, lead: str, language: str | None = None
) -> Reading:
    """Read a table (cells as written) whose header row is at ``line``.

    Args:
        header: The header row's cells.
        rows: The body rows' cells.
        line: The header row's line in the page.
        lead: The non-blank line right above the table (a heading keeps its ``#``).
        language: The page's language: its dice letters name dice too (``| W6 |``).
    """
    first_row = line + 2
    lead_die = die_in_lead(lead, language)
    headless = not any(_name(c) for c in header)
    if headless and rows and not _keys_under_lead(rows, lead_die, language):
        # A PDF export: the header is row one. Under "Roll 1d6:" a first row keyed "1" is a
        # row (the lead names the die), so the table keeps all its rows.
        header, rows, first_row = rows[0], rows[1:], first_row + 1
    die = die_in_header(header[0], language) if header else None
    column = ""
    if die is None and len(header) == 1 and (named := die_and_name(header[0], language)):
        die, column = named
        header = [die.name]
    if die is None and header and (plus := die_plus_words(header[0], language)):
        return _keys_read(
            plus[0],
            rows,
            f"the first column is headed {_name(header[0])!r}: the roll adds {plus[1]}, which "
            "the table does not give, so it stays a plain table.",
        )
    from_lead = die is None
    if die is None:
        die = lead_die
        if die is None or (header and die_in_header(header[0], language)):
            return Reading()
        if header and not _ROLL_COLUMN.match(_name(header[0])):
            # "Level", "Score": numbers that are no results (an author who meant a roll is told).
            return _keys_read(
                die,
                rows,
                f"the line above names {die.name}, but the first column is headed "
                f"{_name(header[0])!r}, not a roll (write the die there, or leave it empty), so "
                "the table stays a plain table.",
            )
    others = [i for i, cell in enumerate(header) if i and die_in_header(cell, language)]
    if others and not from_lead:
        listed = ", ".join(_name(header[i]) for i in [0, *others])
        same = all(
            getattr(die_in_header(header[i], language), "roll", None) == die.roll for i in others
        )
        if same and _folded(
            die, [0, *others], rows
        ):  # "| d6 | Result | d6 | Result |", 1-3 then 4-6
            return Reading(
                reason=f"this table names {die.name} in {len(others) + 1} columns ({listed}) "
                "and its keys go on from one to the next: it reads as one table folded into "
                "column pairs, which rollbook does not unfold, so it stays a plain table "
                "(give it one key column to make it roll)."
            )
        return Reading(
            reason=f"this table names a die in {len(others) + 1} columns ({listed}): it reads "
            "as rolls side by side, not one roll, so it stays a plain table."
        )
    die = _zero_based(die, rows)
    keys: list[PlainKey] = []
    kept: list[tuple[int, list[str]]] = []
    for n, cells in enumerate(rows):
        if not any(c.strip() for c in cells):
            continue
        if not cells[0].strip() and kept:  # a PDF export wraps a long result onto a new row
            at, previous = kept[-1]
            merged = [previous[0]] + [
                " ".join(part for part in (a.strip(), b.strip()) if part)
                for a, b in zip_longest(previous[1:], cells[1:], fillvalue="")
            ]
            kept[-1] = (at, merged)
            continue
        key = read_key(cells[0], top=die.top, d66=die.d66)
        if key is None:
            return _skip(
                from_lead,
                f"row {n + 1} (line {first_row + n}) starts with "
                f"{repr(_name(cells[0])) if _name(cells[0]) else 'an empty cell'}, which is "
                f"no {die.name} result, so the table stays a plain table",
            )
        keys.append(key)
        kept.append((first_row + n, cells))
    if not keys:
        return _skip(from_lead, f"the table under {die.name!r} has no rows")
    if len(header) < 2 and not all(k.label for k in keys):
        return _skip(from_lead, f"the table under {die.name!r} has no result column")
    return _reading(die, header, keys, kept, line, from_lead, column)


def _zero_based(die: Die, rows: list[list[str]]) -> Die:
    """A d100 / d% read 00-99, a d10 read 0-9, when the keys count from nought.

    A d100 does when a range starts at ``00`` or ``0`` ("00-30", "31-70", "71-99": read as
    100 the first range would run backwards; ``00`` alone stays 100). A d10 does when a key
    is ``0`` or starts at it ("0-4", "5-9"). The keys then run from 0 and the roll is one
    less than the die's, so every row keeps its chance.
    """
    pattern = {100: _FROM_NOUGHT, 10: _NOUGHT}.get(die.top or 0)
    if pattern is None or not any(
        cells and pattern.match(strip_markup(cells[0])) for cells in rows
    ):
        return die
    return Die(f"{die.roll}-1", die.name, None)


def _folded(die: Die, columns: list[int], rows: list[list[str]]) -> bool:
    """Whether key columns headed by the same die hold different keys (one table, folded)."""
    seen: list[set[str]] = []
    for i in columns:
        keys = {
            key.text
            for cells in rows
            if i < len(cells) and (key := read_key(cells[i], top=die.top, d66=die.d66))
        }
        if not keys or any(keys & other for other in seen):
            return False
        seen.append(keys)
    return True


def _keys_read(die: Die, rows: list[list[str]], reason: str) -> Reading:
    """A table left static: ``reason`` is said when every row would have read as a key.

    Otherwise the table is no dice table at all and is left alone without a word.
    """
    cells = [cells[0] for cells in rows if cells and any(c.strip() for c in cells)]
    if not cells or any(read_key(c, top=die.top, d66=die.d66) is None for c in cells):
        return Reading()
    return Reading(reason=reason)


def _keys_under_lead(rows: list[list[str]], die: Die | None, language: str | None) -> bool:
    """Whether a header-less table's first row is a keyed row under a lead naming ``die``."""
    first = rows[0][0] if rows[0] else ""
    if die_in_header(first, language) is not None:
        return False
    return die is not None and read_key(first, top=die.top, d66=die.d66) is not None


def _skip(from_lead: bool, why: str) -> Reading:
    # A lead-in line may describe something else: then the table is not a dice table at all.
    return Reading() if from_lead else Reading(reason=why[:1].upper() + why[1:] + ".")


def _reading(
    die: Die,
    header: list[str],
    keys: list[PlainKey],
    kept: list[tuple[int, list[str]]],
    line: int,
    from_lead: bool,
    column: str = "",
) -> Reading:
    labelled = any(k.label for k in keys)
    key_name = _name(header[0])
    if key_name.lower().startswith("dice:"):
        key_name = key_name[len("dice:") :].strip()
    headers = [_name(h) for h in header[1:]]
    if labelled:
        headers = [column or "Result", *headers]
    if from_lead and not key_name:
        key_name = die.name
    results: dict[RowKey, list[str]] = {}
    positions: dict[Any, int] = {(): line, ("results",): line, ("roll",): line}
    labels: list[str] = []
    width = len(headers)
    for key, (at, cells) in zip(keys, kept, strict=True):
        row = [c.strip() for c in cells[1:]]
        if labelled:
            row = [key.label, *row]
        row = (row + [""] * width)[:width]
        raw = RowKey(key.text)
        results[raw] = row
        positions[("results", raw)] = at
        shown = _name(cells[0])
        labels.append(shown.split(".")[0].split(")")[0].strip() if key.label else shown)
    data: dict[str, Any] = {
        "roll": die.roll,
        "roll_name": key_name or die.name,
        "headers": headers,
        "results": results,
        "class": "rb-plain",
    }
    return Reading(data, positions, labels)
