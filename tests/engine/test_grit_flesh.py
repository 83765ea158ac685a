"""`grit-flesh` against its rules (docs/systems/grit-flesh/), case by case, with dice we choose."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rollbook.engine.systems import get
from rollbook.engine.systems.encounter import Fight
from rollbook.engine.systems.grit_flesh.rules import (
    apply_damage,
    attack_result,
    combine,
    morale_chance,
    reaction_result,
)
from tests.engine.systems_support import ScriptedDice as Dice
from tests.engine.systems_support import exact_odds, resolve_scripted

SYSTEM = get("grit-flesh")


def resolve(name: str, *faces: int, **params: object):  # type: ignore[no-untyped-def]
    return resolve_scripted(SYSTEM, name, *faces, **params)


def odds(name: str, **params: object) -> dict[str, Fraction]:
    return exact_odds(SYSTEM, name, **params)


# -- morale ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("morale", "percent", "label"),
    [
        (0, 5, "craven"),
        (4, 25, "cowardly"),
        (10, 55, "impulsive"),
        (14, 75, "brave"),
        (20, 100, "suicidal"),
    ],
)
def test_printed_morale_table(morale: int, percent: int, label: str) -> None:
    assert odds("morale", morale=morale) == {
        "stands": Fraction(percent, 100),
        "flees": 1 - Fraction(percent, 100),
    }
    assert f"({label})" in resolve("morale", 1, morale=morale).log


def test_whole_morale_scale_steps_by_five_percent() -> None:
    chances = [morale_chance(m) for m in range(21)]
    assert chances[:19] == [Fraction(5 * (m + 1), 100) for m in range(19)]
    assert chances[19] == chances[20] == 1
    assert chances == sorted(chances)


@pytest.mark.parametrize(
    ("morale", "roll", "expected"),
    [
        (10, 11, "stands"),
        (10, 12, "flees"),
        (0, 1, "stands"),
        (0, 2, "flees"),
        (20, 20, "stands"),
        (19, 20, "stands"),
        (18, 20, "flees"),
    ],
)
def test_morale_rolls(morale: int, roll: int, expected: str) -> None:
    assert resolve("morale", roll, morale=morale).name == expected


# -- attack ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "violence", "defense", "expected"),
    [
        (10, 2, 12, "hit"),  # 12 >= 12
        (9, 2, 12, "miss"),
        (20, 0, 40, "critical_hit"),  # a natural 20 always lands, whatever the Defense
        (1, 30, 5, "critical_miss"),  # a natural 1 always fails
        (19, 0, 20, "miss"),
    ],
)
def test_attack(die: int, violence: int, defense: int, expected: str) -> None:
    assert attack_result(die, violence, defense) == expected
    assert resolve("attack", die, violence=violence, defense=defense).name == expected


def test_attack_odds_and_edges() -> None:
    assert odds("attack", violence=2, defense=12) == {
        "critical_hit": Fraction(1, 20),
        "hit": Fraction(10, 20),
        "miss": Fraction(8, 20),
        "critical_miss": Fraction(1, 20),
    }
    boon = odds("attack", violence=2, defense=12, edge="boon")
    assert boon["critical_hit"] == Fraction(39, 400)  # 1 - (19/20)^2
    assert boon["critical_miss"] == Fraction(1, 400)
    bane = odds("attack", violence=2, defense=12, edge="bane")
    assert bane["critical_hit"] == Fraction(1, 400) and bane["critical_miss"] == Fraction(39, 400)
    # with a Bane the lower die counts
    assert resolve("attack", 18, 3, violence=2, defense=12, edge="bane").name == "miss"
    assert resolve("attack", 18, 3, violence=2, defense=12, edge="boon").name == "hit"


def test_boons_and_banes_cancel() -> None:
    assert combine("boon", "bane") == "none"
    assert combine("bane", "none", "bane") == "bane"
    assert combine("boon") == "boon"


# -- damage ----------------------------------------------------------------------------------


def test_grit_goes_first_then_flesh() -> None:
    assert apply_damage(3, 5, 8, False) == (2, 8, "grit_only")
    assert apply_damage(7, 5, 8, False) == (0, 6, "flesh")
    assert apply_damage(13, 5, 8, False) == (0, 0, "down")


def test_a_critical_skips_grit() -> None:
    assert apply_damage(3, 5, 8, True) == (5, 5, "flesh")
    out = resolve("damage", 3, weapon="1d6", grit=5, flesh=8, critical=True)
    assert out.name == "flesh" and out.data["grit"] == 5 and out.data["flesh"] == 5


@pytest.mark.parametrize(
    ("tag", "effect"), [("crushing", "dazed"), ("slashing", "bleeding"), ("piercing", "pinned")]
)
def test_maximum_damage_brings_the_tag_effect(tag: str, effect: str) -> None:
    out = resolve("damage", 8, weapon="1d8", grit=2, flesh=9, tag=tag)
    assert out.data["max_damage"] and out.data["special"] == effect
    assert "takes a Notch" in out.log
    assert resolve("damage", 7, weapon="1d8", grit=2, flesh=9, tag=tag).data["special"] == "none"


def test_maximum_damage_can_notch_armour_instead() -> None:
    out = resolve("damage", 6, weapon="1d6", flesh=9, on_max="armour")
    assert out.data["special"] == "armour notched" and "armour each take a Notch" in out.log
    assert resolve("damage", 6, weapon="1d6", flesh=9, on_max="none").data["special"] == "none"


def test_damage_odds() -> None:
    assert odds("damage", weapon="1d6", grit=2, flesh=3) == {
        "grit_only": Fraction(2, 6),
        "flesh": Fraction(2, 6),
        "down": Fraction(2, 6),
    }
    assert odds("damage", weapon="1d6", grit=2, flesh=3, critical=True)["down"] == Fraction(4, 6)


# -- tests: initiative, surprise, gambits, effect saves -----------------------------------------


def test_initiative_is_a_savvy_test() -> None:
    assert resolve("initiative", 8, savvy=2).name == "first"  # 10 >= 10
    assert resolve("initiative", 7, savvy=2).name == "after"
    assert odds("initiative", savvy=2)["first"] == Fraction(13, 20)
    assert resolve("initiative", 5, 9, savvy=2, edge="boon").name == "first"


def test_surprise_save_takes_a_bane_against_stealthy_foes() -> None:
    assert resolve("surprise", 15, savvy=0).name == "alert"
    assert resolve("surprise", 15, 3, savvy=0, stealthy=True).name == "surprised"
    assert odds("surprise", savvy=0, stealthy=True)["alert"] == Fraction(11, 20) ** 2


def test_gambit_backfires_on_failure() -> None:
    out = resolve("gambit", 4, attribute=1, difficulty=12)
    assert out.name == "backfires" and "free action" in out.log
    assert resolve("gambit", 11, attribute=1, difficulty=12).name == "succeeds"


def test_effect_save() -> None:
    assert resolve("effect_save", 9, might=1).name == "recovers"
    assert resolve("effect_save", 8, might=1).name == "still_affected"


@pytest.mark.parametrize(
    ("total", "expected"),
    [
        (2, "bloodthirsty"),
        (3, "hostile"),
        (5, "hostile"),
        (6, "wary"),
        (8, "wary"),
        (9, "cooperative"),
        (11, "cooperative"),
        (12, "friendly"),
    ],
)
def test_reaction_bands(total: int, expected: str) -> None:
    assert reaction_result(total) == expected


def test_reaction_odds() -> None:
    assert odds("reaction") == {
        "bloodthirsty": Fraction(1, 36),
        "hostile": Fraction(9, 36),
        "wary": Fraction(16, 36),
        "cooperative": Fraction(9, 36),
        "friendly": Fraction(1, 36),
    }


# -- fights ----------------------------------------------------------------------------------


def text(fight: Fight) -> str:
    return "\n".join(fight.lines)


def test_pinned_solo_enemy_surrenders_after_first_flesh_wound() -> None:
    hale = {
        "name": "Hale",
        "kind": "pc",
        "grit": 2,
        "flesh": 10,
        "defense": 12,
        "violence": 2,
        "damage": "1d6",
        "tag": "piercing",
    }
    ogre = {"name": "Ogre", "grit": 2, "flesh": 10, "defense": 10, "morale": 4, "damage": "1d4"}
    # Savvy 15: first. Attack 12 + 2 hits; 6 = top damage: Grit 2 -> 0, Flesh 10 -> 6, and
    # pinned. Ogre misses (2). MIG save 3 fails. First Flesh wound of a solo foe: morale 10,
    # needs 5 or less: it breaks, but pinned it can only give up.
    fight = Fight.start(SYSTEM, {"us": [hale], "them": [ogre]}, Dice(15, 12, 6, 2, 3, 10))
    fight.run()
    ogre_c = fight.sides["them"][0]
    assert ogre_c.state.grit == 0 and ogre_c.state.flesh == 6
    assert "Ogre is pinned" in text(fight)
    assert "Ogre bleeds for the first time" in text(fight)
    assert ogre_c.out == "surrendered"
    assert fight.result is not None and fight.result.reason == "surrendered"
    assert fight.sides["us"][0].state.notches == 1


def test_criticals_notches_daze_and_its_bane() -> None:
    sedge = {
        "name": "Sedge",
        "kind": "pc",
        "grit": 3,
        "flesh": 8,
        "defense": 12,
        "violence": 1,
        "damage": "1d4",
        "tag": "crushing",
    }
    gobs = [{"name": n, "grit": 3, "flesh": 5, "defense": 11, "morale": 20} for n in "AB"]
    faces = (
        1,  # Sedge's Savvy: acts after the goblins
        20,
        3,  # A: natural 20, 3 damage straight to Flesh
        1,  # B: natural 1, its weapon takes a Notch
        15,
        4,  # Sedge hits A for 4 (top of 1d4): A is dazed
        2,  # A's MIG save fails
        10,  # round 2: Sedge's Savvy 10: first
        5,  # Sedge misses A
        19,
        4,  # A attacks with a Bane: 19 and 4, keeps 4: miss
        11,  # B misses
        15,
    )  # A shakes off the daze
    fight = Fight.start(SYSTEM, {"us": [sedge], "gobs": gobs}, Dice(*faces))
    fight.step()
    me = fight.sides["us"][0]
    assert (me.state.grit, me.state.flesh) == (3, 5)
    assert "natural 20, straight to Flesh" in text(fight)
    assert fight.sides["gobs"][1].state.notches == 1
    assert fight.sides["gobs"][0].state.effects == {"dazed"}
    fight.step()
    assert "R2: A rolls 4 with a Bane" in text(fight)
    assert "A shakes off being dazed" in text(fight)
    assert fight.sides["gobs"][0].state.effects == set()


def test_bleeding_and_running_out_of_ammunition() -> None:
    rook = {
        "name": "Rook",
        "kind": "pc",
        "flesh": 6,
        "defense": 10,
        "violence": 1,
        "damage": "1d4",
        "tag": "slashing",
        "ranged": True,
    }
    wolf = {"name": "Wolf", "flesh": 6, "defense": 10, "morale": 20, "damage": "1d4"}
    faces = (
        12,
        10,
        4,  # Rook first, hits, 4 = top: Flesh 6 -> 2, bleeding
        1,  # Wolf: natural 1
        1,
        5,  # bleeds 1, MIG save fails
        20,  # morale (first Flesh wound of a solo foe): holds
        12,
        1,  # round 2: Rook first, natural 1: out of ammunition
        2,  # Wolf misses
        1,
    )  # bleeds 1 more: Flesh 0
    fight = Fight.start(SYSTEM, {"us": [rook], "them": [wolf]}, Dice(*faces))
    fight.run()
    assert "Wolf bleeds for 1" in text(fight)
    assert "out of ammunition" in text(fight)
    assert fight.sides["them"][0].out == "down"
    assert fight.sides["us"][0].state.reload is True
    assert fight.result is not None and fight.result.winner == "us"


def test_surprise_save_with_stealthy_foes() -> None:
    pc = {"name": "Nim", "kind": "pc", "flesh": 5, "surprise_save": True}
    foe = {"name": "Lurker", "flesh": 5, "stealthy": True}
    fight = Fight.start(SYSTEM, {"us": [pc], "them": [foe]}, Dice(15, 3))
    assert fight.sides["us"][0].state.surprised is True
    assert "with a Bane: 3 + 0 -> surprised" in fight.lines[0]


def test_first_casualty_makes_every_enemy_test() -> None:
    pc = {"name": "Hale", "kind": "pc", "flesh": 9, "violence": 5, "damage": "1d6"}
    gobs = [{"name": f"G{i}", "flesh": 1, "defense": 10, "morale": 0} for i in range(3)]
    # Hale first (10), hits G0 (10), 5 damage: down. G1, G2 miss (2, 2). First casualty:
    # G1 and G2 test Morale 0 (only a 1 holds): 1 holds, 2 runs.
    fight = Fight.start(SYSTEM, {"us": [pc], "gobs": gobs}, Dice(10, 10, 5, 2, 2, 1, 2))
    fight.step()
    assert "G1 tests morale (G0 is the first to fall): 1 vs 1 or less, holds." in text(fight)
    assert fight.sides["gobs"][2].out == "fled"
