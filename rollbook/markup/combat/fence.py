"""The ``combat`` fence: an encounter widget for two sides of stat blocks.

Body (YAML)::

    system: scars
    title: Ambush at the ford          # optional
    seed: 7                            # optional: every fight of the widget starts from it
    runs: 1000                         # optional: Monte Carlo fights (default 1000)
    id: ford-fight                     # optional anchor
    sides:
      Adventurers:
        - hero                         # a statblock fence of this page, by id / name slug
        - {ref: hireling, name: Pip, health: 4}   # another name, one field changed
        - name: Wren                   # a stat block written inline
          kind: pc
          health: 9
      Wolves:
        - {ref: wolf, count: 3}        # three of them: "Wolf 1", "Wolf 2", "Wolf 3"

The build checks everything (system, exactly two sides, references, every field, with page
lines), resolves the sides into plain stat blocks (the JSON payload: the same ``sides`` a
``rollbook fight`` file takes), and computes the exact chance of each attacker/defender pair
landing a blow (`rollbook.markup.combat.odds`). The browser fights through `rollbook.engine.bridge`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, override

from rollbook.engine.bridge import MAX_SEED
from rollbook.engine.limits import value
from rollbook.markup.combat.model import DEFAULT_RUNS, Encounter, Unit
from rollbook.markup.combat.render import widget_html
from rollbook.markup.fence_runner import Fence, Parsed, accept, formatter_for
from rollbook.markup.page_state import PageState
from rollbook.markup.prescan import NAME_OF
from rollbook.markup.problems import Problem
from rollbook.markup.statblock.fence import by_key, check_fields, page_statblocks
from rollbook.markup.yamlpos import load_mapping

__all__ = [
    "DEFAULT_RUNS",
    "MAX_COUNT",
    "CombatFence",
    "Encounter",
    "formatter",
    "read_combat",
    "validator",
]

FENCE = NAME_OF["combat"]
KEYS = ("system", "sides", "seed", "runs", "id", "title")
MAX_RUNS = value("combat_runs")
MAX_COUNT = value("combat_count")  # combatants one entry may stand for


class _Lines:
    """``at(*path)``: the page line of a key path of the body, else the fence's line."""

    def __init__(self, positions: dict[tuple[Any, ...], int], line: int) -> None:
        self.positions = positions
        self.line = line

    def __call__(self, *path: Any) -> int:
        return self.positions.get(path, self.line)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bounded(
    enc: Encounter, at: _Lines, data: dict[Any, Any], key: str, low: int, high: int, default: Any
) -> int | None:
    """``data[key]`` (``default`` when left out) if a whole number from ``low`` to ``high``.

    Anything else is a problem at the key, and None; so is a left-out key without a default.
    """
    value = data.get(key, default)
    if value is None and default is None:
        return None
    if _whole(value) and low <= value <= high:
        return int(value)
    enc.problems.append(
        Problem(at(key), f"{key!r} must be a whole number from {low} to {high}, not {value!r}.")
    )
    return None


def read_combat(state: PageState, body: str, line: int) -> Encounter:
    """Parse, check and resolve one combat body whose fence opens on page line ``line``."""
    from rollbook.engine.systems import get
    from rollbook.engine.systems.base import RulesError

    enc = Encounter(line=line)
    loaded = load_mapping(body, line, "'system' and 'sides'", enc.problems)
    if loaded is None:
        return enc
    data, positions = loaded

    at = _Lines(positions, line)

    for key in data:
        if key not in KEYS:
            enc.problems.append(
                Problem(at(key), f"unknown key {key!r}; a combat block may have {', '.join(KEYS)}.")
            )
    enc.seed = _bounded(enc, at, data, "seed", 0, MAX_SEED, None)
    runs = _bounded(enc, at, data, "runs", 1, MAX_RUNS, DEFAULT_RUNS)
    if runs is not None:
        enc.runs = runs
    for key in ("id", "title"):
        value = data.get(key)
        if value is None:
            continue
        if isinstance(value, str) and value.strip():
            setattr(enc, key, value.strip())
        else:
            enc.problems.append(Problem(at(key), f"{key!r} must be text."))
    if "system" not in data:
        enc.problems.append(Problem(line, "needs 'system' (the game system the fight uses)."))
        return enc
    try:
        enc.system = get(str(data["system"]))
    except RulesError as err:
        enc.problems.append(Problem(at("system"), str(err)))
        return enc
    sides = data.get("sides")
    if not isinstance(sides, dict) or len(sides) != 2:
        count = (
            f"{len(sides)} side{'' if len(sides) == 1 else 's'}"
            if isinstance(sides, dict)
            else "no mapping of sides"
        )
        enc.problems.append(
            Problem(
                at("sides"),
                "needs 'sides': exactly two sides, each a name with "
                f"a list of stat blocks (found {count}).",
            )
        )
        return enc
    for side, entries in sides.items():
        _read_side(state, enc, str(side), side, entries, at)
    if not enc.problems:
        _check_in_engine(enc)
    return enc


def _read_side(
    state: PageState, enc: Encounter, side: str, key: Any, entries: Any, at: _Lines
) -> None:
    if isinstance(entries, str | dict):
        entries = [entries]  # one combatant given without a list
    if not isinstance(entries, list) or not entries:
        enc.problems.append(
            Problem(
                at("sides", key),
                f"side {side!r} needs a list of one or more stat blocks or statblock names.",
            )
        )
        return
    units: list[Unit] = []
    for index, entry in enumerate(entries):
        where = at("sides", key, index)
        unit = _read_entry(state, enc, side, entry, where, ("sides", key, index), at)
        if unit is not None:
            units.append(unit)
    enc.sides[side] = units


def _count(enc: Encounter, entry: Mapping[str, Any], where: int) -> int:
    count = entry.get("count", 1)
    if _whole(count) and 1 <= count <= MAX_COUNT:
        return int(count)
    enc.problems.append(
        Problem(where, f"'count' must be a whole number from 1 to {MAX_COUNT}, not {count!r}.")
    )
    return 1


def _members(name: str, fields: dict[str, Any], count: int) -> list[dict[str, Any]]:
    if count == 1:
        return [{"name": name, **fields}]
    return [{"name": f"{name} {n}", **fields} for n in range(1, count + 1)]


def _read_entry(
    state: PageState,
    enc: Encounter,
    side: str,
    entry: Any,
    where: int,
    path: tuple[Any, ...],
    at: _Lines,
) -> Unit | None:
    if isinstance(entry, str):
        entry = {"ref": entry}
    if not isinstance(entry, dict):
        enc.problems.append(
            Problem(
                where,
                f"side {side!r}: each entry is a statblock name, "
                f"{{ref: NAME, count: N}}, or a stat block; not {entry!r}.",
            )
        )
        return None
    if "ref" in entry:
        return _read_ref(state, enc, side, entry, where, path, at)
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        enc.problems.append(
            Problem(
                where,
                f"side {side!r}: a stat block written here needs a 'name' "
                "(or use 'ref' to name a statblock of this page).",
            )
        )
        return None
    count = _count(enc, entry, at(*path, "count") if "count" in entry else where)
    fields, problems = check_fields(enc.system, entry, at.positions, path, where, ("name", "count"))
    enc.problems.extend(
        Problem(p.line, f"side {side!r}, {name.strip()!r}: {p.message}") for p in problems
    )
    if problems:
        return None
    return _unit(enc, name.strip(), fields, count, where)


def _read_ref(
    state: PageState,
    enc: Encounter,
    side: str,
    entry: dict[str, Any],
    where: int,
    path: tuple[Any, ...],
    at: _Lines,
) -> Unit | None:
    ref = entry["ref"]
    blocks = by_key(state)
    block = blocks.get(ref) if isinstance(ref, str) else None
    if block is None:
        known = ", ".join(sorted(blocks)) or "there are none"
        enc.problems.append(
            Problem(
                where,
                f"side {side!r}: no statblock {ref!r} on this page (statblocks here: {known}).",
            )
        )
        return None
    if block.problems or block.system is None:
        enc.problems.append(
            Problem(
                where,
                f"side {side!r}: the statblock {ref!r} (line {block.line}) "
                "has errors, so it cannot fight.",
            )
        )
        return None
    if block.system.id != enc.system.id:
        enc.problems.append(
            Problem(
                where,
                f"side {side!r}: the statblock {ref!r} is for "
                f"{block.system.id}, but this fight uses {enc.system.id}.",
            )
        )
        return None
    name = entry.get("name", block.name)
    if not isinstance(name, str) or not name.strip():
        enc.problems.append(Problem(at(*path, "name"), f"side {side!r}: 'name' must be text."))
        return None
    # other keys override the statblock's fields for this entry (a leader, a wounded one)
    overrides, problems = check_fields(
        enc.system, entry, at.positions, path, where, ("ref", "count", "name")
    )
    enc.problems.extend(
        Problem(p.line, f"side {side!r}, {ref!r}: {p.message}")
        for p in problems
        if not p.message.startswith("missing")
    )
    count = _count(enc, entry, at(*path, "count") if "count" in entry else where)
    return _unit(enc, name.strip(), {**block.fields, **overrides}, count, where)


def _unit(enc: Encounter, name: str, fields: dict[str, Any], count: int, where: int) -> Unit | None:
    from rollbook.engine.systems.base import RulesError

    try:
        stats = enc.system.make_combatant("check", {"name": name, **fields}).stats
    except RulesError as err:
        enc.problems.append(Problem(where, f"{name!r}: {err}"))
        return None
    label = f"{name} ×{count}" if count > 1 else name
    return Unit(label, _members(name, fields, count), stats)


def _check_in_engine(enc: Encounter) -> None:
    """Let the engine build the sides too: whatever it refuses is an author error here."""
    from rollbook.engine.systems.base import RulesError
    from rollbook.engine.systems.encounter import build_sides

    try:
        build_sides(enc.system, enc.resolved())
    except RulesError as err:
        enc.problems.append(Problem(enc.line, str(err)))


# -- the fence ----------------------------------------------------------------------------


class CombatFence(Fence):
    """``combat``: an encounter widget; it may name statblocks anywhere on the page."""

    NAME = FENCE
    KIND = FENCE
    ERROR_TITLE = "This combat block has errors"

    @classmethod
    @override
    def prepare(cls, state: PageState) -> None:
        page_statblocks(state)  # statblocks further down the page count too

    @override
    def parse(self) -> Parsed:
        site = self.site
        enc = read_combat(self.state, site.body if site else self.src, self.line or 0)
        return Parsed(enc, enc.id, enc.problems)

    @override
    def render(self, parsed: Parsed, anchor: str, own_id: bool, errors: list[str]) -> str:
        return widget_html(parsed.value, anchor, own_id, self.state.text())


# -- the names superfences' custom_fences configuration uses --------------------------------

validator = accept

formatter = formatter_for(CombatFence)
