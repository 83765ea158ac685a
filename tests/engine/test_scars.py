"""`scars` against its rules (docs/systems/scars/), case by case, with dice we choose."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rollbook.engine.systems import get
from rollbook.engine.systems.encounter import Fight
from rollbook.engine.systems.scars.rules import (
    attack_result,
    dying_result,
    hireling_result,
    initiative_result,
    morale_result,
    reaction_result,
)
from tests.engine.systems_support import ScriptedDice as Dice
from tests.engine.systems_support import exact_odds, resolve_scripted

SYSTEM = get("scars")


def resolve(name: str, *faces: int, **params: object):  # type: ignore[no-untyped-def]
    return resolve_scripted(SYSTEM, name, *faces, **params)


def odds(name: str, **params: object) -> dict[str, Fraction]:
    return exact_odds(SYSTEM, name, **params)


# -- attack --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "expected"),
    [
        (1, "miss"),  # at or under the AC
        (3, "miss"),
        (4, "armour_dent"),  # exactly the AC
        (5, "hit"),  # above the AC, at or under the attribute
        (11, "hit"),
        (12, "stun"),  # exactly the attribute
        (13, "miss"),  # over the attribute
        (20, "miss"),
    ],
)
def test_attack_bands(roll: int, expected: str) -> None:
    assert attack_result(roll, 12, 4) == expected
    assert resolve("attack", roll, attribute=12, ac=4).name == expected


def test_exact_attribute_stuns_and_grants_another_attack() -> None:
    out = resolve("attack", 12, attribute=12, ac=4)
    assert out.data["extra_attack"] is True
    assert "another attack" in out.log


def test_exact_ac_cracks_armour_and_breaks_it_at_zero() -> None:
    dent = resolve("attack", 4, attribute=12, ac=4)
    assert dent.data["new_ac"] == 3 and "AC 4 becomes 3" in dent.log
    broken = resolve("attack", 1, attribute=12, ac=1)
    assert broken.name == "armour_broken" and broken.data["new_ac"] == 0
    # no armour left to break: a 0 AC is never matched
    assert attack_result(0, 12, 0) == "miss"


def test_attack_odds_without_scars() -> None:
    assert odds("attack", attribute=12, ac=4) == {
        "stun": Fraction(1, 20),
        "hit": Fraction(7, 20),
        "armour_dent": Fraction(1, 20),
        "armour_broken": Fraction(0),
        "miss": Fraction(11, 20),
    }


def test_enemy_attacks_work_the_same_way() -> None:
    # an enemy with Attack 9 against an adventurer in AC 2
    assert [attack_result(r, 9, 2) for r in (2, 3, 9, 10)] == ["armour_dent", "hit", "stun", "miss"]


def test_scars_move_a_roll_by_their_number() -> None:
    # 14 against attribute 12 misses; with 2 Scars the roller takes it down to 12: a stun
    out = resolve("attack", 14, attribute=12, ac=4, scars=2)
    assert out.name == "stun" and out.data["result"] == 12
    assert "moved to 12 by Scars" in out.log
    # told not to use them, the miss stands; told to add, 14 + 2 = 16 still misses
    assert resolve("attack", 14, attribute=12, ac=4, scars=2, shift="none").name == "miss"
    assert resolve("attack", 14, attribute=12, ac=4, scars=2, shift="up").name == "miss"
    # a 2 against AC 4 can become 0, 2 or 4: cracking the armour (4) beats a miss
    assert resolve("attack", 2, attribute=12, ac=4, scars=2).name == "armour_dent"


def test_scars_raise_the_odds() -> None:
    plain = odds("attack", attribute=12, ac=4)
    scarred = odds("attack", attribute=12, ac=4, scars=1)
    assert scarred["stun"] == Fraction(3, 20)  # 11, 12 and 13 can all become 12
    assert scarred["miss"] < plain["miss"]


# -- damage and dying ---------------------------------------------------------------------


def test_damage_rolls_the_weapon_and_scars_add() -> None:
    out = resolve("damage", 4, weapon="1d6", health=6)
    assert out.name == "bloodied" and out.data["health"] == 2
    out = resolve("damage", 4, weapon="1d6", health=6, scars=2)
    assert out.name == "down" and out.data["damage"] == 6


def test_damage_odds_match_brute_force() -> None:
    got = odds("damage", weapon="2d4+1", health=8)
    brute: dict[str, int] = {"wounded": 0, "bloodied": 0, "down": 0}
    for a in range(1, 5):
        for b in range(1, 5):
            left = 8 - (a + b + 1)
            brute["down" if left <= 0 else "bloodied" if 2 * left <= 8 else "wounded"] += 1
    assert got == {name: Fraction(n, 16) for name, n in brute.items()}
    assert got["down"] == Fraction(3, 16)  # the 2d4 shows 7 (two ways) or 8 (one way)


@pytest.mark.parametrize(
    ("scars_before", "two_d6", "expected"),
    [
        (0, 2, "wakes"),  # 1 Scar: a 2 is still higher
        (1, 2, "dies"),  # 2 Scars: a 2 is equal
        (4, 5, "dies"),
        (4, 6, "wakes"),
        (11, 12, "dies"),
    ],
)
def test_dying_compares_2d6_with_scars_after_gaining_one(
    scars_before: int, two_d6: int, expected: str
) -> None:
    assert dying_result(two_d6, scars_before + 1) == expected


def test_waking_takes_scars_d6_rounds_at_1_health() -> None:
    out = resolve("dying", 3, 4, 2, 5, scars=1)  # 2d6 = 7 > 2 Scars; then 2d6 rounds = 7
    assert out.name == "wakes" and out.data == {"roll": 7, "scars": 2, "rounds": 7}
    assert "1 health" in out.log
    dead = resolve("dying", 1, 1, scars=1)
    assert dead.name == "dies" and dead.data["rounds"] == 0


def test_dying_odds() -> None:
    assert odds("dying", scars=0)["dies"] == 0
    assert odds("dying", scars=1)["dies"] == Fraction(1, 36)
    assert odds("dying", scars=6)["dies"] == Fraction(21, 36)  # 2d6 <= 7
    assert odds("dying", scars=11)["dies"] == 1


# -- initiative and morale ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "expected"),
    [(1, "before"), (10, "before"), (11, "quick_action"), (12, "after"), (20, "after")],
)
def test_initiative_against_agility(roll: int, expected: str) -> None:
    assert initiative_result(roll, 11) == expected
    assert resolve("initiative", roll, agility=11).name == expected


def test_initiative_odds() -> None:
    assert odds("initiative", agility=11) == {
        "quick_action": Fraction(1, 20),
        "before": Fraction(10, 20),
        "after": Fraction(9, 20),
    }


@pytest.mark.parametrize(
    ("hd", "roll", "expected"),
    [
        (1, 10, "stands"),
        (1, 11, "rallies"),
        (1, 12, "flees"),
        (3, 12, "stands"),
        (3, 13, "rallies"),
        (3, 14, "flees"),
        (10, 20, "rallies"),
        (12, 20, "stands"),
    ],
)
def test_enemy_morale_is_d20_under_10_plus_hd(hd: int, roll: int, expected: str) -> None:
    assert morale_result(roll, hd) == expected
    assert resolve("morale", roll, hd=hd).name == expected


def test_enemy_morale_odds() -> None:
    assert odds("morale", hd=2) == {
        "rallies": Fraction(1, 20),
        "stands": Fraction(11, 20),
        "flees": Fraction(8, 20),
    }


@pytest.mark.parametrize(
    ("roll", "expected"),
    [(1, "flees"), (2, "wavers"), (3, "holds"), (12, "holds"), (13, "heroic"), (14, "flees")],
)
def test_hireling_morale_between_hd_and_cunning(roll: int, expected: str) -> None:
    assert hireling_result(roll, 13, 2) == expected
    assert resolve("hireling_morale", roll, cunning=13, hd=2).name == expected


def test_wavering_hireling_costs_hd_times_15_sp() -> None:
    out = resolve("hireling_morale", 3, cunning=13, hd=3)
    assert out.name == "wavers" and out.data["pay_sp"] == 45 and "45 sp" in out.log


def test_hireling_odds() -> None:
    assert odds("hireling_morale", cunning=13, hd=2) == {
        "heroic": Fraction(1, 20),
        "holds": Fraction(10, 20),
        "wavers": Fraction(1, 20),
        "flees": Fraction(8, 20),
    }


# -- pack, ritual, reaction, distance ----------------------------------------------------------


def test_pack_search() -> None:
    assert resolve("pack_search", 9, cunning=9).name == "ready_now"
    assert resolve("pack_search", 5, cunning=9).name == "found"
    lost = resolve("pack_search", 15, 3, cunning=9)
    assert lost.name == "lost" and lost.data["search_rounds"] == 3


def test_ritual_needs_more_than_the_damage_taken() -> None:
    assert resolve("ritual", 4, cunning=12).name == "casts"
    assert resolve("ritual", 4, cunning=12, damage_taken=4).name == "mishap"
    assert resolve("ritual", 5, cunning=12, damage_taken=4).name == "casts"
    assert resolve("ritual", 13, cunning=12).name == "mishap"
    assert odds("ritual", cunning=12, damage_taken=4)["casts"] == Fraction(8, 20)


@pytest.mark.parametrize(
    ("total", "expected"),
    [
        (2, "friendly"),
        (3, "friendly"),
        (4, "helpful"),
        (6, "helpful"),
        (7, "uninterested"),
        (8, "hostile"),
        (10, "hostile"),
        (11, "murderous"),
        (12, "murderous"),
    ],
)
def test_reaction_bands(total: int, expected: str) -> None:
    assert reaction_result(total) == expected


def test_reaction_odds() -> None:
    assert odds("reaction") == {
        "friendly": Fraction(3, 36),
        "helpful": Fraction(12, 36),
        "uninterested": Fraction(6, 36),
        "hostile": Fraction(12, 36),
        "murderous": Fraction(3, 36),
    }


def test_encounter_distance_is_2d6_times_10() -> None:
    out = resolve("encounter_distance", 3, 4)
    assert out.name == "70" and out.data["unit"] == "feet" and "70 feet" in out.log
    assert resolve("encounter_distance", 6, 6, where="outside").data["unit"] == "yards"
    got = odds("encounter_distance")
    assert got["20"] == Fraction(1, 36) and got["70"] == Fraction(6, 36)
    assert set(got) == {str(10 * n) for n in range(2, 13)}


def test_wandering_check() -> None:
    assert resolve("wandering", 1).name == "encounter"
    assert resolve("wandering", 2).name == "quiet"


# -- fights ----------------------------------------------------------------------------------


def duel(*faces: int, **pc: object) -> Fight:
    hero = {
        "name": "Ada",
        "kind": "pc",
        "health": 5,
        "attack": 12,
        "ac": 3,
        "agility": 10,
        "damage": "1d6",
        **pc,
    }
    rat = {"name": "Rat", "health": 3, "attack": 9, "ac": 2, "hd": 1, "damage": "1d4"}
    return Fight.start(SYSTEM, {"us": [hero], "them": [rat]}, Dice(*faces))


def test_stun_skips_the_target_and_armour_stays_cracked() -> None:
    # initiative 5 (Ada first); attack 12 = Brawn exactly: stun, damage 2, attack again;
    # 2 = the Rat's AC: cracked to 1; the stunned Rat loses its go; the lone Rat is at half
    # health, so it tests morale: 20 against 11 -> it runs.
    fight = duel(5, 12, 2, 2, 20)
    fight.run()
    text = "\n".join(fight.lines)
    assert "Rat is stunned" in text
    assert "armour dented to AC 1" in text
    assert "Rat is still reeling" in text
    assert "Morale for Rat: 20 vs 11" in text
    assert fight.result is not None and fight.result.winner == "us"
    assert fight.result.reason == "fled"
    rat = fight.sides["them"][0]
    assert rat.state.ac == 1 and rat.out == "fled"


def test_a_surprised_side_loses_round_one() -> None:
    # Ada is caught unaware: she rolls initiative but does not act in round 1
    fight = duel(5, 9, 2, 20, surprised=True)  # Rat: 9 = its Attack: stun, 2 damage, again: 20
    fight.step()
    assert fight.lines[0] == "Ada is caught unaware and loses round 1."
    assert not any(line.startswith("R1: Ada rolls") for line in fight.lines)


def test_pc_at_zero_gains_a_scar_and_may_die() -> None:
    # Ada acts after the Rat (initiative 15). Rat: 9 = its Attack: stun, 4 damage, strikes
    # again: 8 hits for 3 -> Ada at 0: new Scar (now 1), 2d6 = 1 + 1 = 2 > 1 Scar: she wakes
    # after 1d6 = 2 rounds, but nobody is left standing on her side.
    fight = duel(15, 9, 4, 8, 3, 1, 1, 2)
    fight.step()
    ada = fight.sides["us"][0]
    assert ada.out == "down" and ada.state.scars == 1 and ada.state.waking == 2
    assert fight.ended and fight.result is not None and fight.result.winner == "them"


def test_group_morale_after_a_death_and_rally() -> None:
    hero = {
        "name": "Ada",
        "kind": "pc",
        "health": 9,
        "attack": 15,
        "ac": 1,
        "agility": 10,
        "damage": "1d6",
    }
    rats = [{"name": f"Rat {i}", "health": 1, "attack": 5, "ac": 1, "hd": 1} for i in range(3)]
    # initiative 3; Ada hits Rat 0 (8, dmg 1) -> dead; Rat 1 and Rat 2 miss (20, 20);
    # group morale: 11 = 10 + HD exactly -> rally: next round both rats swing twice.
    fight = Fight.start(SYSTEM, {"us": [hero], "rats": rats}, Dice(3, 8, 1, 20, 20, 11))
    fight.step()
    assert (
        fight.lines[-1] == "R1: Morale for rats: 11 vs 11: they rally (extra attack next "
        "round, no more tests)."
    )
    assert fight.state.group_steady["rats"] is True
    assert [c.state.extra for c in fight.sides["rats"][1:]] == [1, 1]


def test_hireling_tests_morale_with_the_employers_cunning() -> None:
    party = [
        {
            "name": "Ada",
            "kind": "pc",
            "health": 9,
            "attack": 12,
            "ac": 1,
            "agility": 10,
            "cunning": 13,
        },
        {
            "name": "Wick",
            "kind": "hireling",
            "health": 4,
            "attack": 9,
            "ac": 1,
            "hd": 2,
            "agility": 10,
        },
    ]
    ogre = [{"name": "Ogre", "health": 20, "attack": 14, "ac": 1, "hd": 4}]
    # initiative Ada 3, Wick 4 (both before the Ogre); Ada and Wick miss (20, 20); the Ogre
    # hits Wick (5, 2 damage). End of round: the lone Ogre is unhurt, so no test; Wick was
    # hurt, so Ada tests his nerve: 2 = his HD exactly: he wavers.
    fight = Fight.start(SYSTEM, {"us": party, "them": ogre}, Dice(3, 4, 20, 20, 5, 2, 2))
    fight.step()
    assert fight.lines[-1].startswith("R1: Ada tests Wick's nerve: 2, wavers; 30 sp more")
    assert fight.sides["us"][1].active


def test_a_led_group_tests_on_half_slain_with_the_leaders_hd() -> None:
    hero = {"name": "Ada", "kind": "pc", "health": 9, "attack": 15, "ac": 1, "agility": 10}
    boss = {"name": "Boss", "leader": True, "health": 10, "attack": 5, "ac": 1, "hd": 2}
    band = [boss] + [{"name": f"M{i}", "health": 1, "attack": 5, "ac": 1} for i in range(3)]
    # Round 1: Ada kills M0 (8, 1 damage); the rest miss (20 x3). One of four dead: a group
    # with a leader does not test yet. Round 2: Ada kills M1; Boss and M2 miss. Half are dead:
    # the test uses the Boss's HD 2 (target 12): 13 fails and the whole band runs.
    faces = (3, 8, 1, 20, 20, 20, 8, 1, 20, 20, 13)
    fight = Fight.start(SYSTEM, {"us": [hero], "band": band}, Dice(*faces))
    fight.step()
    assert not any("Morale" in line for line in fight.lines)
    fight.step()
    assert fight.lines[-2] == "R2: Morale for band (led by Boss): 13 vs 12: they break and run."
    assert fight.result is not None and fight.result.winner == "us"
    assert [c.out for c in fight.sides["band"]] == ["fled", "dead", "dead", "fled"]
