"""Author checks of a table against the exact set of values its roll can produce.

Prompts in the roll (``{{ bonus }}``) are enumerated over their ``min``..``max``: the roll's
values are the union over every combination (at most `MAX_COMBINATIONS`). When a prompt
used by the roll has no ``min`` or no ``max`` the set is unknown, so coverage (uncovered
values, unreachable rows, list length) is not checked and a warning says so; every other
check still runs.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from typing import Any

from rollbook.engine.limits import value
from rollbook.engine.located import Severity
from rollbook.engine.tables.build import suggest
from rollbook.engine.tables.dicework import fill_roll, possible_values
from rollbook.engine.tables.keys import KeyError_, covered, parse_key, reached
from rollbook.engine.tables.model import RollList, Table
from rollbook.engine.tables.parts import Tab
from rollbook.engine.tables.problems import ERROR, WARNING, Path, Problem, TableError
from rollbook.engine.tables.template import RESERVED, normalize, placeholders

__all__ = ["MAX_COMBINATIONS", "check", "describe_values", "validate"]

#: Most prompt-value combinations validation enumerates before it gives up on coverage.
MAX_COMBINATIONS = value("prompt_combinations")
#: Most possible totals, added up over every combination, a coverage check collects.
MAX_COVERAGE_VALUES = value("coverage_values")
# Query parameters of a link that rolls (`?roll=ID&seed=N&NAME=VALUE`): no prompt may
# take their names, or its value could not travel in the link.
LINK_PARAMETERS = {"roll": "table to roll", "seed": "seed of the dice"}
_SHOWN_VALUES = 12


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "-".join(str(v) for v in value)
    return str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)


def describe_values(values: Iterable[Any]) -> str:
    """Compact list of values: ``2–4, 7, 13–15``; tuples as ``1-1, 1-2``; long lists cut."""
    ordered = sorted(set(values))
    pieces: list[str] = []
    i = 0
    while i < len(ordered):
        j = i
        if isinstance(ordered[i], int):
            while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
                j += 1
        pieces.append(_show(ordered[i]) if j == i else f"{ordered[i]}–{ordered[j]}")
        i = j + 1
    if len(pieces) > _SHOWN_VALUES:
        rest = len(pieces) - _SHOWN_VALUES
        return ", ".join(pieces[:_SHOWN_VALUES]) + f" and {rest} more"
    return ", ".join(pieces)


class _Checker:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.problems: list[Problem] = list(table.notes)
        self.unfilled = False  # a placeholder without a prompt: the roll cannot be filled

    def add(self, path: Path, message: str, severity: Severity = ERROR) -> None:
        self.problems.append(Problem(self.table.lines(path), message, severity, path=path))

    def tab_path(self, tab: Tab) -> Path:
        raw: str | int = int(tab.key) if tab.key.lstrip("-").isdigit() else tab.key
        return ("tabs", raw)

    # -- checks that need no dice --------------------------------------------------------

    def names(self) -> None:
        table = self.table
        prompt_names = [p.name for p in table.prompts]
        in_roll = [name.strip() for name in placeholders(table.expr)]
        for name in in_roll:
            if name not in prompt_names:
                self.unfilled = True
                self.add(
                    ("roll",),
                    f"roll uses {{{{ {name} }}}} but no prompt is named {name!r}"
                    f"{suggest(name, prompt_names)}; add it to prompts",
                )
        text = table.result_text or ""
        in_text = {normalize(n) for n in placeholders(text)}
        allowed = set(RESERVED) | {normalize(h) for h in table.headers}
        allowed |= {normalize(n) for n in prompt_names}
        for name in placeholders(text):
            if normalize(name) not in allowed:
                known = [*RESERVED, *table.headers, *prompt_names]
                self.add(
                    ("result_text",),
                    f"result_text uses {{{{ {name} }}}}, which is neither roll, result, dice, "
                    f"a column nor a prompt{suggest(name, known)}",
                )
        for i, name in enumerate(prompt_names):
            if name in LINK_PARAMETERS:
                self.add(
                    ("prompts", i, "name"),
                    f"prompt {name!r} cannot be given in a link: links use {name}= for the "
                    f"{LINK_PARAMETERS[name]}; give the prompt another name",
                )
        for i, name in enumerate(prompt_names):
            if name not in in_roll and normalize(name) not in in_text:
                self.add(
                    ("prompts", i, "name"),
                    f"prompt {name!r} is used neither in roll nor in result_text",
                    WARNING,
                )

    def overlaps(self) -> None:
        keyed = [r for r in self.table.rows if r.key is not None]
        near = _neighbours(keyed)
        for i, row in enumerate(keyed):
            for earlier in (keyed[j] for j in near[i] if j < i):
                assert row.key is not None and earlier.key is not None
                shared = row.key.overlap(earlier.key)
                if shared is not None:
                    self.add(
                        row.path or ("results",),
                        f"results: keys {earlier.key.text!r} and {row.key.text!r} overlap "
                        f"(both cover {_show(shared)})",
                    )
                    break

    def tabs(self) -> None:
        table = self.table
        row_keys = {r.key.text for r in table.rows if r.key is not None}
        multi = any(r.key is not None and r.key.op == "tuple" for r in table.rows)
        try:
            held = table.tab_rows()
        except (TableError, ValueError):
            return  # bad notation or prompts: reported by the dice checks
        for tab in table.tabs:
            path = self.tab_path(tab)
            if tab.results is not None:
                for key in tab.results:
                    if key not in row_keys:
                        self.add(
                            (*path, "results"),
                            f"tabs: tab {tab.key} lists key {key!r}, which is not in results"
                            f"{suggest(key, sorted(row_keys))}",
                        )
                continue
            if multi and not tab.key.strip().isdigit():
                self.add(path, f"tabs: tab key {tab.key!r} must be a value of the first die")
                continue
            if not multi:
                try:
                    parse_key(tab.key)
                except KeyError_ as exc:
                    self.add(path, f"tabs: tab key {tab.key!r} is not a result key: {exc}")
                    continue
            if not held.get(tab.key):
                why = f" (no row's first die is {tab.key})" if multi else ""
                self.add(path, f"tabs: tab {tab.key} ({tab.name}) holds no rows{why}")

    # -- checks against the roll's values ------------------------------------------------

    def combinations(self, prompt_values: Mapping[str, Any] | None) -> list[dict[str, int]] | None:
        """Prompt values to check the roll with; ``None`` when coverage cannot be checked."""
        table = self.table
        if prompt_values is not None:
            try:
                return [table.prompt_values(prompt_values)]
            except TableError as exc:
                self.add(("prompts",), exc.message)
                return None
        used = {name.strip() for name in placeholders(table.expr)}
        ranges: list[tuple[str, range]] = []
        for prompt in table.prompts:
            if prompt.name not in used:
                continue
            if prompt.min is None or prompt.max is None:
                self.add(
                    ("prompts", table.prompts.index(prompt)),
                    f"coverage not checked: prompt {prompt.name!r} has no "
                    f"{'min' if prompt.min is None else 'max'}, so the values of roll "
                    "are unknown",
                    WARNING,
                )
                return None
            ranges.append((prompt.name, range(prompt.min, prompt.max + 1)))
        count = 1
        for _, span in ranges:
            count *= len(span)
        if count > MAX_COMBINATIONS:
            self.add(
                ("prompts",),
                f"coverage not checked: the prompts allow {count} combinations "
                f"(at most {MAX_COMBINATIONS} are checked)",
                WARNING,
            )
            return None
        defaults = {p.name: p.default for p in table.prompts}
        return [
            {**defaults, **dict(zip([n for n, _ in ranges], combo, strict=True))}
            for combo in itertools.product(*(span for _, span in ranges))
        ]

    def values(self, combos: list[dict[str, int]]) -> list[tuple[dict[str, int], tuple[Any, ...]]]:
        from rollbook.engine.dice import DiceError, OddsUnavailableError

        out = []
        budget = MAX_COVERAGE_VALUES
        for combo in combos:
            notation = fill_roll(self.table.expr, combo) if combo else self.table.expr
            try:
                values = possible_values(notation)
                budget -= len(values)
                if budget < 0:
                    self.add(("prompts",), _over_budget(len(combos)), WARNING)
                    return []
                out.append((combo, values))
            except OddsUnavailableError as exc:
                # The roll itself works; only its exact set of values is out of reach.
                self.add(("roll",), f"coverage not checked: {exc.message}", WARNING)
                return []
            except DiceError as exc:
                where = "" if notation == self.table.expr else f" (as {notation!r})"
                self.add(("roll",), f"roll {self.table.expr!r}{where}: {exc.message}")
                return []
        return out

    def coverage(self, supports: list[tuple[dict[str, int], tuple[Any, ...]]]) -> None:
        table = self.table
        # One roll (no prompts): its values are sorted already (possible_values).
        union = (
            list(supports[0][1])
            if len(supports) == 1
            else sorted({v for _, values in supports for v in values})
        )

        def gives() -> str:  # said only with a problem: most tables have none
            if union and isinstance(union[0], tuple):
                first, last = _show(union[0]), _show(union[-1])
                return f"{table.expr} gives {len(union)} combinations, {first} to {last}"
            return f"{table.expr} gives {describe_values(union)}"

        if any(r.key is None for r in table.rows):
            for combo, values in supports:
                if len(values) == len(table.rows):
                    continue
                shown = {k: v for k, v in combo.items() if k in table.placeholders}
                when = " with " + ", ".join(f"{k}={v}" for k, v in shown.items()) if shown else ""
                longer = "more" if len(table.rows) > len(values) else "fewer"
                self.add(
                    ("results",),
                    f"results: the list has {len(table.rows)} items, {longer} than the "
                    f"{len(values)} values {table.expr} can give{when} "
                    f"({describe_values(values)})",
                )
                return
            return
        keys = [r.key for r in table.rows if r.key is not None]
        uncovered = [v for v, ok in zip(union, covered(keys, union), strict=True) if not ok]
        if uncovered:
            self.add(
                ("results",),
                f"results: no row covers {describe_values(uncovered)} ({gives()})",
            )
        hit = dict(zip(keys, reached(keys, union), strict=True))
        for row in table.rows:
            key = row.key
            if key is not None and not hit[key]:
                self.add(
                    row.path or ("results",),
                    f"results: key {key.text!r} can never be rolled ({gives()})",
                )

    def run(self, prompt_values: Mapping[str, Any] | None) -> list[Problem]:
        self.names()
        self.overlaps()
        combos = self.combinations(prompt_values)
        if self.unfilled:
            pass
        elif combos is None:
            defaults = {p.name: p.default for p in self.table.prompts}
            self.values([defaults])  # still report a notation that does not parse
        else:
            supports = self.values(combos)
            if supports:
                self.coverage(supports)
        if not self.unfilled:
            self.tabs()
        return sorted(self.problems, key=lambda p: (p.line, p.severity != ERROR))


def _over_budget(combinations: int) -> str:
    return (
        f"coverage not checked: the {combinations} prompt combinations give more than "
        f"{MAX_COVERAGE_VALUES} possible totals in all (the coverage_values limit)"
    )


def _neighbours(keyed: list[Any]) -> list[list[int]]:
    """For each keyed row, the rows (indexes, in order) that might overlap it.

    Rows whose spans chain together form a cluster; only rows of one cluster can overlap,
    so a 10,000-row table compares a handful of pairs instead of fifty million.
    """
    order = sorted(
        range(len(keyed)),
        key=lambda i: (
            keyed[i].key.op == "tuple",
            keyed[i].key.dice if keyed[i].key.op == "tuple" else (),
            float("-inf") if keyed[i].key.lo is None else keyed[i].key.lo,
        ),
    )
    clusters: list[list[int]] = []
    reach: Any = None
    for i in order:
        key = keyed[i].key
        if key.op == "tuple":
            joined = bool(clusters) and reach == ("tuple", key.dice)
            reach = ("tuple", key.dice)
        else:
            lo = float("-inf") if key.lo is None else key.lo
            hi = float("inf") if key.hi is None else key.hi
            joined = bool(clusters) and isinstance(reach, float | int) and lo <= reach
            reach = max(reach, hi) if joined else hi
        if joined:
            clusters[-1].append(i)
        else:
            clusters.append([i])
    near: list[list[int]] = [[] for _ in keyed]
    for cluster in clusters:
        if len(cluster) > 1:
            for i in cluster:
                near[i] = sorted(cluster)
    return near


def validate(table: Table, prompt_values: Mapping[str, Any] | None = None) -> list[Problem]:
    """Every problem of a built table, sorted by line (errors first on a line).

    Includes the problems noticed while building (``table.notes``).

    Args:
        table: A `Table` or `RollList` from ``from_dict``.
        prompt_values: Check only these prompt values instead of every value within the
            prompts' bounds.
    """
    return _Checker(table).run(prompt_values)


def check(
    data: Any,
    positions: Mapping[Path, int] | None = None,
    *,
    kind: str = "table",
    prompt_values: Mapping[str, Any] | None = None,
) -> tuple[Table | None, list[Problem]]:
    """Build and validate a fence body in one call; never raises for author mistakes.

    Args:
        data: The YAML body as a plain dict (cells already rendered to HTML).
        positions: Key path -> 1-based line inside the YAML body.
        kind: ``"table"`` for ``roll-table``, ``"list"`` for ``roll-list``.
        prompt_values: See `validate`.

    Returns:
        The table (``None`` when it cannot be built) and every problem found.
    """
    cls: type[Table] = RollList if kind == "list" else Table
    try:
        table = cls.from_dict(data, positions)
    except TableError as exc:
        return None, sorted(exc.problems, key=lambda p: (p.line, p.severity != ERROR))
    return table, validate(table, prompt_values)
