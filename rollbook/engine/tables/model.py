"""`Table` (a ``roll-table`` fence) and `RollList` (a ``roll-list`` fence).

Both are frozen: built once from the fence's YAML (a plain dict whose cell texts the
Markdown side has already rendered to inline HTML), then looked up, rolled and serialized.
"""

from __future__ import annotations

import html
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar

from rollbook.engine.dice import DiceError
from rollbook.engine.limits import value as limit_value
from rollbook.engine.messages import Message
from rollbook.engine.tables.build import CANONICAL_MARK, read_authored
from rollbook.engine.tables.canonical import read_canonical
from rollbook.engine.tables.dicework import fill_roll, pmf, possible_values, roll_dice, summed_odds
from rollbook.engine.tables.keys import chances as key_chances
from rollbook.engine.tables.keys import parse_key, value_text
from rollbook.engine.tables.nested import MAX_DEPTH, fill_slots, prompts_for, split_prompts
from rollbook.engine.tables.parts import Button, Prompt, Row, Tab, TableRoll
from rollbook.engine.tables.problems import LineMap, Path, Problem, TableError
from rollbook.engine.tables.prompt_value import PromptError, prompt_value
from rollbook.engine.tables.template import dice_text, fill_template, normalize, placeholders

__all__ = ["RollList", "Table"]


def _row_dict(row: Row) -> dict[str, Any]:
    data: dict[str, Any] = {
        "key": None if row.key is None else row.key.text,
        "cells": list(row.cells),
    }
    if row.nested:
        data["nested"] = [part.to_dict() for part in row.nested]
    return data


@dataclass(frozen=True)
class Table:
    """A random table: a roll, rows keyed by the values it can produce, and display options.

    The roll notation as written is ``expr`` (``to_dict`` calls it ``roll`` as the YAML
    does; ``roll`` is the method that rolls). ``result_text`` is an HTML template
    (``None``: no sentence after a roll) with these placeholders: ``{{ roll }}`` (the
    rolled value, ``3, 5`` for a multi-dice roll), ``{{ result }}`` (the matched row: its
    cell with one column; with several columns every cell as ``Column: cell`` joined by
    ``; ``), ``{{ <column> }}`` (that column's cell) and prompt names (their values).
    ``roll`` and ``result`` win over a column or prompt of the same name, columns over
    prompts.

    Use `Table.from_dict` to build one; the plain constructor trusts its arguments.
    """

    kind: ClassVar[str] = "table"

    expr: str
    rows: tuple[Row, ...]
    roll_name: str
    headers: tuple[str, ...] = ("Result",)
    result_text: str | None = "Rolled {{ roll }}: {{ result }}"
    prompts: tuple[Prompt, ...] = ()
    prompt_title: str | None = None
    id: str | None = None
    css_class: str | None = None
    button: Button = field(default_factory=Button)
    preset: str | None = None
    tabs: tuple[Tab, ...] = ()
    refs: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    notes: tuple[Problem, ...] = field(default=(), compare=False, repr=False)
    lines: LineMap = field(default_factory=LineMap, compare=False, repr=False)

    # -- building and serializing --------------------------------------------------------

    @classmethod
    def from_dict(cls, data: Any, positions: Mapping[Path, int] | None = None) -> Table:
        """Build from a fence's YAML dict, or from `to_dict` output.

        Args:
            data: The parsed YAML body (cells already rendered to HTML) or a `to_dict` dict.
                `to_dict` output of a `RollList` gives a `RollList` even via ``Table``.
            positions: Key path -> 1-based line inside the YAML body, e.g.
                ``{("results", "2--3"): 4}``; missing paths use their parent's line.

        Raises:
            TableError: With every problem found when the table cannot be built.
        """
        if isinstance(data, Mapping) and CANONICAL_MARK in data:
            kind, fields = read_canonical(data)
            target: type[Table] = RollList if kind == "list" else Table
            return target(**fields)
        fields, notes, lines = read_authored(data, positions, cls.kind)
        return cls(**fields, notes=tuple(notes), lines=lines)

    def to_dict(self) -> dict[str, Any]:
        """The canonical JSON-safe form the browser receives; ``from_dict`` rebuilds it.

        Rows are a list (not a mapping) so their order survives any JSON reader.
        """
        data: dict[str, Any] = {
            CANONICAL_MARK: 1,
            "kind": self.kind,
            "roll": self.expr,
            "roll_name": self.roll_name,
            "headers": list(self.headers),
            "rows": [_row_dict(r) for r in self.rows],
            "result_text": self.result_text,
            "prompts": [p.to_dict() for p in self.prompts],
            "prompt_title": self.prompt_title,
            "id": self.id,
            "class": self.css_class,
            "button": {"label": self.button.label, "placement": self.button.placement},
            "preset": self.preset,
        }
        data.update(self._extra_dict())
        if self.refs:
            data["refs"] = dict(self.refs)
        return data

    def _extra_dict(self) -> dict[str, Any]:
        return {"tabs": [t.to_dict() for t in self.tabs]}

    # -- prompts and values --------------------------------------------------------------

    @property
    def placeholders(self) -> list[str]:
        """Placeholder names used in ``roll``, as written."""
        return placeholders(self.expr)

    def prompt_values(
        self, prompts: Mapping[str, Any] | None = None, *, strict: bool = False
    ) -> dict[str, int]:
        """Check prompt values and complete them.

        Args:
            prompts: Name -> value: text as typed, linked or given to ``--set``, or an
                int; each judged by `prompt_value` (the one rule for every caller).
            strict: Require a value for every prompt (rolling); otherwise a missing
                value takes the prompt's ``default`` (odds and labels).

        Raises:
            TableError: For an unknown name, a non-number, a value outside min..max, or
                (strict) a missing value (`PromptError`, naming the prompt, for a value).
        """
        given = split_prompts(prompts)[0]  # ANCHOR.NAME values are for nested tables
        known = {p.name: p for p in self.prompts}
        for name in given:
            if name not in known:
                names = ", ".join(known) or "none"
                raise _refused("error.table.no_prompt", name=name, names=names)
        values: dict[str, int] = {}
        for prompt in self.prompts:
            if prompt.name not in given:
                if strict:
                    said = Message(
                        "error.prompt.empty", {"name": prompt.name, "label": prompt.label}
                    )
                    raise PromptError(said, prompt.name)
                values[prompt.name] = prompt.default
                continue
            values[prompt.name] = prompt_value(prompt, given[prompt.name])
        return values

    def notation(self, prompts: Mapping[str, Any] | None = None) -> str:
        """The roll with placeholders filled (missing prompt values take their default)."""
        return fill_roll(self.expr, self.prompt_values(prompts))

    def values(self, prompts: Mapping[str, Any] | None = None) -> tuple[Any, ...]:
        """Every value the roll can produce, sorted. Raises ``DiceError`` on bad notation."""
        return possible_values(self.notation(prompts))

    def row_value(self, row: Row, prompts: Mapping[str, Any] | None = None) -> Any:
        """The value a row of a ``results`` list stands for (``None`` past the last value)."""
        values = self.values(prompts)
        return values[row.index] if row.index < len(values) else None

    # -- lookup, odds, rolling -----------------------------------------------------------

    def lookup(self, value: Any, prompts: Mapping[str, Any] | None = None) -> Row | None:
        """The first row covering a rolled value (a number, or a tuple for ``d6,d6``).

        ``prompts`` matters only for a ``results`` list under a roll with placeholders
        (the list starts at the lowest total of the filled roll).
        """
        if self.rows and self.rows[0].key is None:  # a results list: rows by position
            values = self.values(prompts)
            try:
                index = values.index(value)
            except ValueError:
                return None
            return self.rows[index] if index < len(self.rows) else None
        for row in self.rows:
            if row.key is not None and row.key.matches(value):
                return row
        return None

    def labels(self, prompts: Mapping[str, Any] | None = None) -> list[str]:
        """Display text of each row's key: ``7``, ``2–3``, ``≥10``, ``3, 5``."""
        out = []
        for row in self.rows:
            if row.key is not None:
                out.append(row.key.label)
            else:
                value = self.row_value(row, prompts)
                out.append("" if value is None else value_text(value))
        return out

    def probabilities(self, prompts: Mapping[str, Any] | None = None) -> list[Fraction]:
        """Exact chance of each row (missing prompt values take their default).

        Raises:
            DiceError: If the notation cannot be analysed.
        """
        notation = self.notation(prompts)
        chances = pmf(notation)
        if self.rows and self.rows[0].key is None:
            values = self.values(prompts)
            return [
                chances.get(values[r.index], Fraction(0)) if r.index < len(values) else Fraction(0)
                for r in self.rows
            ]
        fast = key_chances([r.key for r in self.rows], chances, summed_odds(notation))
        if fast is not None:
            return fast
        return [
            sum(
                (p for v, p in chances.items() if r.key is not None and r.key.matches(v)),
                Fraction(0),
            )
            for r in self.rows
        ]

    def roll(
        self,
        rng: random.Random,
        prompts: Mapping[str, Any] | None = None,
        *,
        _depth: int = 0,
        _refs: Mapping[str, Any] | None = None,
    ) -> TableRoll:
        """Roll the table, find the row, then roll the row's nested dice and tables.

        The nested parts (``nested.py``) roll in order from the same rng.

        The rng is consumed only by ``rollbook.engine.dice.roll`` of the filled notation and
        of the nested parts' notations, so the same seed gives the same roll in the CLI,
        the build and the browser worker.

        Args:
            rng: The random source.
            prompts: A value for every prompt (ints, or digit strings from a form or URL);
                ``ANCHOR.NAME`` values go to the referenced table ``#ANCHOR``, whose
                missing prompts take their defaults.

        Raises:
            TableError: For missing or out-of-range prompt values, a referenced table the
                payload lacks, or references nested deeper than ``MAX_DEPTH``.
            DiceError: If the notation cannot be rolled.
        """
        values = self.prompt_values(prompts, strict=_depth == 0)
        refs = self.refs if _refs is None else _refs
        if _depth == 0:
            self._check_referenced_prompts(split_prompts(prompts)[1], refs)
            most, limit = self.worst_rolls(refs), limit_value("nested_rolls")
            if most > limit:
                raise TableError(
                    f"one roll of this table may roll up to {most:,} tables and dice, "
                    f"more than the nested_rolls limit of {limit:,}; let its rows roll "
                    "fewer tables."
                )
        result = roll_dice(fill_roll(self.expr, values), rng)
        value = result.total
        row = self.lookup(value, values)
        if row is None:
            said = Message("error.table.no_row", {"value": value_text(value)})
            return TableRoll(value, None, html.escape(said.english()), None, result, said=said)
        nested, shown = self._roll_nested(row, rng, split_prompts(prompts)[1], _depth, refs)
        cells = fill_slots(row.cells, shown) if nested else row.cells
        dice = dice_text(result.to_dict()["parts"])
        sentence = self.sentence(row, value, values, dice, cells)
        tab = self.tab_of(row, values)
        return TableRoll(value, row.index, sentence, tab, result, nested, self._result(cells))

    def worst_rolls(self, refs: Mapping[str, Any] | None = None) -> int:
        """The most tables and dice one roll of this table can roll, nested ones included.

        (Worked out from the rows, without rolling; references past ``MAX_DEPTH`` count
        nothing, since such a roll stops there).
        """
        refs = self.refs if refs is None else refs
        tables: dict[str, Table | None] = {}
        memo: dict[tuple[str, int], int] = {}

        def table_of(key: str) -> Table | None:
            if key not in tables:
                data = refs.get(key)
                try:
                    tables[key] = (
                        Table.from_dict({**data, "refs": {}}) if isinstance(data, Mapping) else None
                    )
                except (TableError, DiceError):
                    tables[key] = None
            return tables[key]

        def most(table: Table, key: str, depth: int) -> int:
            if (key, depth) in memo:
                return memo[(key, depth)]
            best = 0
            for row in table.rows:
                count = 0
                for part in row.nested:
                    if part.ref is None:
                        count += 1
                    elif depth < MAX_DEPTH and (inner := table_of(part.table or "")) is not None:
                        count += most(inner, part.table or "", depth + 1)
                best = max(best, count)
            memo[(key, depth)] = 1 + best
            return 1 + best

        return most(self, "", 0)

    def _result(self, cells: tuple[str, ...]) -> str:
        """``{{ result }}``: the one cell, or every cell as ``Column: cell``."""
        if len(cells) == 1:
            return cells[0]
        return "; ".join(f"{h}: {c}" for h, c in zip(self.headers, cells, strict=True))

    def _check_referenced_prompts(self, given: Mapping[str, Any], refs: Mapping[str, Any]) -> None:
        """Judge every ``ANCHOR.NAME`` value before rolling, whichever row comes up.

        A value the referenced table would refuse is refused now, not only when its row is hit.
        """
        for key, data in refs.items():
            anchor = str(key).partition("#")[2]  # keys are "page.md#anchor"
            mine = {k: v for k, v in given.items() if str(k).startswith(f"{anchor}.")}
            if not mine or not isinstance(data, Mapping):
                continue
            try:
                Table.from_dict({**data, "refs": {}}).prompt_values(prompts_for(anchor, mine))
            except PromptError as error:
                raise PromptError(error.said, f"{anchor}.{error.prompt}") from None

    def _roll_nested(
        self,
        row: Row,
        rng: random.Random,
        given: Mapping[str, Any],
        depth: int,
        refs: Mapping[str, Any],
    ) -> tuple[tuple[dict[str, Any], ...], list[str]]:
        """Roll a row's nested parts: their reply dicts and the HTML shown for each."""
        replies: list[dict[str, Any]] = []
        shown: list[str] = []
        for part in row.nested:
            label = "" if part.label is None else f" ({html.escape(part.label)})"
            if part.ref is None:
                rolled = roll_dice(part.roll or "", rng)
                replies.append({"kind": "dice", "roll": rolled.to_dict()})
                total = html.escape(value_text(rolled.total))
                tip = html.escape(rolled.text(), quote=True)
                shown.append(f'<span class="rb-nested" title="{tip}">{total}</span>{label}')
                continue
            if depth + 1 > MAX_DEPTH:
                raise _refused("error.table.too_deep", limit=MAX_DEPTH)
            data = refs.get(part.table or "")
            if not isinstance(data, Mapping):
                raise _refused("error.table.missing_ref", ref=part.ref)
            inner = Table.from_dict({**data, "refs": {}})
            sub = inner.roll(rng, prompts_for(part.anchor, given), _depth=depth + 1, _refs=refs)
            replies.append({"kind": "table", "ref": part.ref, **sub.to_dict()})
            # The row it gave, its own nested rolls in place; the reply keeps its sentence.
            text = sub.shown if sub.shown is not None else (sub.text or "")
            shown.append(f'<span class="rb-nested">{text}</span>')
        return tuple(replies), shown

    def sentence(
        self,
        row: Row,
        value: Any,
        prompts: Mapping[str, int],
        dice: str | None = None,
        cells: tuple[str, ...] | None = None,
    ) -> str | None:
        """Fill ``result_text`` for a matched row (``None`` when ``result_text: false``).

        Args:
            row: The matched row.
            value: The rolled total.
            prompts: The prompt values used.
            dice: Text for ``{{ dice }}`` (see ``dice_text``); ``None``: the total's text.
            cells: The row's cells with their nested rolls' values in place (default: the
                row's own cells).
        """
        if self.result_text is None:
            return None
        row_cells = row.cells if cells is None else cells
        names: dict[str, str] = {normalize(k): str(v) for k, v in prompts.items()}
        names.update({normalize(h): c for h, c in zip(self.headers, row_cells, strict=True)})
        names["result"] = self._result(row_cells)
        names["roll"] = html.escape(value_text(value))
        names["dice"] = html.escape(value_text(value) if dice is None else dice)
        return fill_template(self.result_text, names)

    # -- tabs ----------------------------------------------------------------------------

    def tab_rows(self, prompts: Mapping[str, Any] | None = None) -> dict[str, tuple[int, ...]]:
        """Tab key -> indexes of the rows it holds."""
        return {
            tab.key: tuple(r.index for r in self.rows if self._in_tab(tab, r, prompts))
            for tab in self.tabs
        }

    def tab_of(self, row: Row, prompts: Mapping[str, Any] | None = None) -> str | None:
        """Key of the first tab holding the row, or ``None``."""
        for tab in self.tabs:
            if self._in_tab(tab, row, prompts):
                return tab.key
        return None

    def _in_tab(self, tab: Tab, row: Row, prompts: Mapping[str, Any] | None) -> bool:
        if tab.results is not None:
            return row.key is not None and row.key.text in tab.results
        value: Any = self.row_value(row, prompts) if row.key is None else None
        if row.key is not None and row.key.op == "tuple":
            value = row.key.dice
        if isinstance(value, tuple):
            return str(value[0]) == tab.key.strip()
        try:
            tab_key = parse_key(tab.key)[0]
        except ValueError:
            return False
        if row.key is None:
            return value is not None and tab_key.matches(value)
        return tab_key.contains(row.key)


@dataclass(frozen=True)
class RollList(Table):
    """A ``roll-list``: items rolled by position (``roll`` defaults to ``1d<items>``).

    Attributes:
        column_count: Lay the list out in this many columns (``None``: the default).
    """

    kind: ClassVar[str] = "list"

    column_count: int | None = None

    def _extra_dict(self) -> dict[str, Any]:
        return {"column_count": self.column_count}


def _refused(key: str, **args: Any) -> TableError:
    """A `TableError` a reader may see, with its sentence as a `Message` (``said``)."""
    said = Message(key, args)
    error = TableError(said.english())
    error.said = said
    return error
