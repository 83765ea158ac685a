"""The five systems speak one dialect (ARCHITECTURE.md, "Engine: systems").

Procedures are named ``_<name>_resolve`` / ``_<name>_odds`` (or come from a shared factory),
no system rolls with ``rng.randint`` itself, a stat block's damage is read once into typed
state (nothing is written back into ``stats``), and exact dice totals are the dice engine's.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from rollbook.engine.systems import PACKAGES, get, ids
from rollbook.engine.systems.base import RulesError
from rollbook.engine.systems.dice import SmallDice, dice_weights, stat_dice
from rollbook.engine.systems.encounter import Fight
from rollbook.engine.systems.montecarlo import simulate

SYSTEMS = Path(__file__).resolve().parents[2] / "rollbook" / "engine" / "systems"

# A stat block each system can fight with: only the fields without a default, plus a name.
BLOCKS = {
    "scars": {"health": 6},
    "grit-flesh": {"flesh": 6},
    "stamina-wounds": {"max_wounds": 4},
    "dark-dungeons": {"hp": 6},
    "roll-under-atk": {"hp": 6},
}
# The field holding each system's damage dice, and a text that is no dice at all.
DAMAGE_FIELD = {
    "scars": "damage",
    "grit-flesh": "damage",
    "stamina-wounds": "weapon",
    "dark-dungeons": "damage",
    "roll-under-atk": "damage",
}


def test_every_system_has_a_block_here() -> None:
    assert set(BLOCKS) == set(ids()) == set(DAMAGE_FIELD)


@pytest.mark.parametrize("system_id", ids())
def test_procedure_functions_are_named_after_their_procedure(system_id: str) -> None:
    for name, procedure in get(system_id).procedures.items():
        for fn, suffix in ((procedure.resolve_fn, "resolve"), (procedure.odds_fn, "odds")):
            if fn is None or fn.__name__ in (suffix, "<lambda>"):
                continue  # a shared factory's own function (d20_check, stat_check, ...)
            assert fn.__name__ == f"_{name}_{suffix}", (system_id, name, fn.__name__)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_system_rolls_with_randint_itself(package: str) -> None:
    for path in (SYSTEMS / package).glob("*.py"):
        assert not re.search(r"\.randint\(", path.read_text(encoding="utf-8")), path.name


@pytest.mark.parametrize("system_id", ids())
def test_stats_hold_only_the_stat_block_s_fields(system_id: str) -> None:
    system = get(system_id)
    fields = {p.name for p in system.combatant_fields}
    sides = {
        "a": [{"name": "A", **BLOCKS[system_id]}],
        "b": [{"name": "B", **BLOCKS[system_id]}],
    }
    fight = Fight.start(system, sides, random.Random(3))
    while not fight.ended:
        fight.step()
    for combatant in fight.everyone():
        assert set(combatant.stats) == fields  # nothing derived was stored in the stat block
    simulate(system_id, sides, 30, 5)


@pytest.mark.parametrize("system_id", ids())
def test_a_bad_damage_expression_names_the_combatant(system_id: str) -> None:
    system = get(system_id)
    field = DAMAGE_FIELD[system_id]
    block = {"name": "Wolf", **BLOCKS[system_id], field: "lots of teeth"}
    with pytest.raises(RulesError) as caught:
        system.make_combatant("a", block)
    assert str(caught.value) == (
        f"Wolf's {field} must look like 1d6, 2d4+1 or 3, not 'lots of teeth'."
    )


def test_stat_dice_are_read_once_per_text() -> None:
    assert stat_dice("2d4+1") is stat_dice("2d4+1")
    assert stat_dice("2d4+1") == SmallDice(2, 4, 1)


@pytest.mark.parametrize("text", ["1d6", "2d4+1", "3d6-2", "4d3", "7", "2d10-30", "1d1"])
def test_dice_totals_are_every_face_combination_counted(text: str) -> None:
    dice = SmallDice.parse(text)
    faces = itertools.product(range(1, dice.sides + 1), repeat=dice.count)
    expected = Counter(sum(f) + dice.bonus for f in faces)
    assert dice.weights() == dict(sorted(expected.items()))
    assert dict(dice_weights(dice.count, dice.sides)) == Counter(
        sum(f) for f in itertools.product(range(1, dice.sides + 1), repeat=dice.count)
    )
