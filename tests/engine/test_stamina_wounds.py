"""`stamina-wounds` against its rules (docs/systems/stamina-wounds/), case by case, chosen dice."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from rollbook.engine.systems import get
from rollbook.engine.systems.base import RulesError
from rollbook.engine.systems.encounter import Fight
from rollbook.engine.systems.stamina_wounds.combat import StaminaWoundsState
from rollbook.engine.systems.stamina_wounds.procedures import roll_damage
from rollbook.engine.systems.stamina_wounds.rules import damage_pmf, take_damage, wound_band
from tests.engine.systems_support import ScriptedDice as Dice
from tests.engine.systems_support import exact_odds, resolve_scripted

SYSTEM = get("stamina-wounds")


def resolve(name: str, *faces: int, **params: object):  # type: ignore[no-untyped-def]
    return resolve_scripted(SYSTEM, name, *faces, **params)


def odds(name: str, **params: object) -> dict[str, Fraction]:
    return exact_odds(SYSTEM, name, **params)


# -- initiative ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("roll", "expected"),
    [(1, "players_first"), (3, "players_first"), (4, "enemies_first"), (6, "enemies_first")],
)
def test_side_initiative_on_a_d6(roll: int, expected: str) -> None:
    assert resolve("initiative", roll).name == expected


def test_an_ambush_decides_initiative_without_a_roll() -> None:
    assert resolve("initiative", ambush="enemies").name == "enemies_first"
    assert odds("initiative", ambush="players") == {"players_first": 1, "enemies_first": 0}
    assert odds("initiative") == {"players_first": Fraction(1, 2), "enemies_first": Fraction(1, 2)}


# -- damage ----------------------------------------------------------------------------------


def test_damage_minus_armour_value() -> None:
    out = resolve("attack", 5, weapon="d8", av=2, stamina=5, max_wounds=10)
    assert out.name == "stamina" and out.data["damage"] == 3 and out.data["stamina"] == 2
    assert resolve("attack", 2, weapon="d8", av=2, stamina=5, max_wounds=10).name == "no_damage"
    direct = resolve("attack", 2, weapon="d8", av=2, direct=True, stamina=5, max_wounds=10)
    assert direct.data["damage"] == 2


@pytest.mark.parametrize(
    ("slots", "faces", "total"),
    [
        (1, (6, 6), 12),  # light: one crit die, even if it shows 6 again
        (2, (6, 6, 3), 15),
        (2, (6, 6, 6), 18),  # medium: two crit dice at most
        (3, (6, 6, 6, 2), 20),
        (3, (5,), 5),
    ],
)
def test_explosions_are_capped_by_slots(slots: int, faces: tuple[int, ...], total: int) -> None:
    got, booms, _ = roll_damage(Dice(*faces), 6, slots)
    assert sum(got) == total and len(got) == len(faces) and booms == len(faces) - 1


def test_a_one_on_the_damage_die_marks_usage() -> None:
    out = resolve("attack", 1, weapon="d6", stamina=5, max_wounds=10)
    assert out.data["usage_on_weapon"] is True and "mark Usage" in out.log
    assert (
        resolve("attack", 2, weapon="d6", stamina=5, max_wounds=10).data["usage_on_weapon"] is False
    )


def test_sneak_attack_adds_a_die_that_can_explode_within_the_cap() -> None:
    # weapon die 3, sneak die 6 explodes into 4 (one slot)
    got, booms, _ = roll_damage(Dice(3, 6, 4), 6, 1, sneak=True)
    assert got == [3, 6, 4] and booms == 1
    # the weapon die used the only slot: the sneak 6 stays a 6
    got, booms, _ = roll_damage(Dice(6, 6, 2), 6, 1, sneak=True)
    assert got == [6, 2, 6] and booms == 1


def test_defending_target_gives_a_bane_on_the_damage_die() -> None:
    out = resolve("attack", 5, 2, weapon="d6", edge="bane", stamina=9, max_wounds=10)
    assert out.data["raw"] == 2


def brute_pmf(sides: int, slots: int, sneak: bool) -> dict[int, Fraction]:
    """Roll every die the attack could need, use only those the rules call for."""
    dice_per_chain = slots + 1
    chains = 2 if sneak else 1
    pmf: dict[int, Fraction] = {}
    total_ways = sides ** (dice_per_chain * chains)
    for faces in itertools.product(range(1, sides + 1), repeat=dice_per_chain * chains):
        cap, total = slots, 0
        for chain in range(chains):
            seq = faces[chain * dice_per_chain : (chain + 1) * dice_per_chain]
            i = 0
            total += seq[0]
            while seq[i] == sides and cap > 0:
                cap -= 1
                i += 1
                total += seq[i]
        pmf[total] = pmf.get(total, Fraction(0)) + Fraction(1, total_ways)
    return pmf


@pytest.mark.parametrize(
    ("sides", "slots", "sneak"),
    [(4, 1, False), (6, 2, False), (8, 3, False), (4, 3, False), (6, 1, True), (4, 2, True)],
)
def test_damage_distribution_matches_brute_force(sides: int, slots: int, sneak: bool) -> None:
    assert damage_pmf(sides, slots, sneak=sneak) == brute_pmf(sides, slots, sneak)


def test_bane_distribution_keeps_the_lower_die() -> None:
    pmf = damage_pmf(6, 1, "bane")
    assert pmf[1] == Fraction(11, 36)
    assert pmf[6 + 3] == Fraction(1, 36) * Fraction(1, 6)  # both dice 6, then the crit die 3


# -- Stamina, Wounds and their effects ------------------------------------------------------------


def test_stamina_first_then_wounds() -> None:
    assert take_damage(3, 5, 0, 10) == (2, 0, 0, "stamina")
    assert take_damage(7, 5, 0, 10) == (0, 2, 2, "pain")
    assert take_damage(4, 0, 8, 10) == (0, 10, 4, "dead")  # 4 new Wounds, capped at the max


@pytest.mark.parametrize(
    ("wounds", "band"),
    [
        (1, "pain"),
        (3, "pain"),
        (4, "gear"),
        (6, "gear"),
        (7, "bleeding"),
        (9, "bleeding"),
        (10, "mortal"),
        (25, "mortal"),
    ],
)
def test_wound_bands(wounds: int, band: str) -> None:
    assert wound_band(wounds) == band
    assert odds("wound_effect", wounds=wounds)[band] == 1


def test_wound_effect_details() -> None:
    gear = resolve("wound_effect", 13, 3, wounds=5)
    assert gear.name == "gear" and gear.data == {"slot": 13, "usage": 3}
    mortal = resolve("wound_effect", 2, wounds=10)
    assert mortal.name == "mortal" and mortal.data == {"rounds": 2}
    assert "dead in 2 rounds" in mortal.log


def test_max_wounds_kill_and_outrank_the_band() -> None:
    out = resolve("attack", 6, 1, weapon="d6", stamina=0, wounds=5, max_wounds=12)
    assert out.name == "dead" and out.data["wounds"] == 12


def test_attack_odds_example() -> None:
    # d6, one slot, AV 1, no Stamina, Max Wounds 20: raw 1 -> 0 damage; 2-4 -> 1-3 Wounds;
    # 5 -> 4; a 6 explodes: 7..12 -> 6..11 Wounds
    got = odds("attack", weapon="d6", slots=1, av=1, stamina=0, max_wounds=20)
    assert got["no_damage"] == Fraction(1, 6)
    assert got["pain"] == Fraction(3, 6)
    assert got["gear"] == Fraction(1, 6) + Fraction(1, 36)  # 5, or 6 + 1
    assert got["bleeding"] == Fraction(3, 36)  # 6 + 2..4
    assert got["mortal"] == Fraction(2, 36)  # 6 + 5..6
    assert got["dead"] == 0


def test_weapons_roll_a_single_die() -> None:
    with pytest.raises(RulesError, match="one die"):
        SYSTEM.procedure("attack").resolve({"weapon": "2d6", "max_wounds": 5}, Dice(1, 1))


# -- saves and rest ---------------------------------------------------------------------------


def test_morale_is_a_wil_save_against_the_leaders_target() -> None:
    assert resolve("morale", 10, wil=2, target=12).name == "flees"
    assert resolve("morale", 9, wil=2, target=12).name == "stands"
    assert odds("morale", wil=2, target=12)["flees"] == Fraction(11, 20)


def test_maneuver() -> None:
    assert resolve("maneuver", 14, stat=1, target=15).name == "succeeds"
    assert resolve("maneuver", 13, stat=1, target=15).name == "fails"


def test_rest() -> None:
    turn = resolve("rest", 3, length="turn", end=1, stamina=1, max_stamina=8)
    assert turn.name == "partial" and turn.data["stamina"] == 5
    assert resolve("rest", 6, length="turn", end=1, stamina=4, max_stamina=8).data["stamina"] == 8
    watch = resolve("rest", 2, length="watch", end=1, stamina=0, max_stamina=8, wounds=5)
    assert watch.data == {"stamina": 8, "wounds": 2}
    week = resolve("rest", length="week", stamina=0, max_stamina=8, wounds=9)
    assert week.name == "full" and week.data == {"stamina": 8, "wounds": 0}
    # 1d6 + 1 must reach 5: a 4, 5 or 6
    assert odds("rest", length="watch", end=1, max_stamina=8, wounds=5)["full"] == Fraction(3, 6)


# -- fights ----------------------------------------------------------------------------------

BRAN = {"name": "Bran", "kind": "pc", "stamina": 2, "max_wounds": 10, "weapon": "d6", "wil": 3}


def text(fight: Fight) -> str:
    return "\n".join(fight.lines)


def test_half_the_pack_down_is_a_breaking_point() -> None:
    wolves = [
        {"name": "Alpha", "leader": True, "max_wounds": 20, "weapon": "d4", "target": 12},
        {"name": "Wolf", "max_wounds": 3, "weapon": "d4"},
    ]
    # d6 2: players first. Bran: 6 explodes into 4 = 10 on the Wolf: dead (half the pack).
    # Alpha bites for 3: Stamina 2 -> 0 and 1 Wound. WIL save 9 + 3 = 12 vs 12: they run.
    fight = Fight.start(SYSTEM, {"us": [BRAN], "wolves": wolves}, Dice(2, 6, 4, 3, 9))
    fight.run()
    assert "Initiative d6: 2, us go first." in text(fight)
    assert "d6 6+4 (explodes)" in text(fight)
    assert (
        "Breaking point (half of them are down): WIL save 9 + 3 = 12 vs Alpha's Target 12: "
        "the enemies break and run." in text(fight)
    )
    assert fight.sides["us"][0].state == StaminaWoundsState(stamina=0, wounds=1, usage=0)
    assert fight.result is not None and fight.result.winner == "us"
    assert fight.result.reason == "fled"


def test_a_mortal_wound_kills_after_its_rounds() -> None:
    bran = {**BRAN, "weapon": "d12"}
    troll = {"name": "Troll", "max_wounds": 30, "weapon": "d4", "target": 30}
    # players first (1); 11 Wounds: mortal, dead in 1d4 = 2 rounds; the Troll rolls a 1:
    # 1 damage and Usage marked on its weapon
    fight = Fight.start(SYSTEM, {"us": [bran], "them": [troll]}, Dice(1, 11, 2, 1))
    fight.step()
    troll_c = fight.sides["them"][0]
    assert troll_c.state.dying_in == 1 and troll_c.state.usage == 1
    fight.rng = Dice(5, 2, 3)  # round 2: enemies first, Troll 2, Bran 3 (3 new Wounds: pain)
    fight.step()
    assert troll_c.out == "dead"
    assert "Troll succumbs to the mortal wound." in text(fight)
    assert fight.result is not None and fight.result.winner == "us"


def test_bleeding_out_costs_a_wound_each_round() -> None:
    bran = {**BRAN, "weapon": "d10"}
    ox = {"name": "Ox", "max_wounds": 30, "weapon": "d4", "target": 30}
    # players first (3); 8 Wounds: bleeding out. Ox hits for 3: Bran 0 Stamina, 1 Wound.
    fight = Fight.start(SYSTEM, {"us": [bran], "them": [ox]}, Dice(3, 8, 3))
    fight.step()
    assert fight.sides["them"][0].state.wounds == 9  # 8 + 1 for bleeding
    assert "Ox bleeds: Wounds 9/30." in text(fight)


def test_ambushers_act_first_with_sneak_attacks() -> None:
    bandit = {"name": "Bandit", "weapon": "d6", "max_wounds": 6, "ambush": True}
    # no initiative roll in round 1; weapon die 6, sneak die 6, the weapon die's crit die 2
    fight = Fight.start(SYSTEM, {"us": [BRAN], "them": [bandit]}, Dice(6, 6, 2))
    fight.run()
    assert fight.lines[0] == "them catch the other side unaware."
    assert "Bandit's sneak attack on Bran: d6 6+2+6 (explodes) - AV 0 = 14" in text(fight)
    assert fight.sides["us"][0].out == "dead"


def test_sneak_attack_on_the_truly_defenceless_kills_outright() -> None:
    out = resolve("attack", weapon="d4", sneak=True, defenseless=True, stamina=9, max_wounds=30)
    assert out.name == "dead"
    assert odds("attack", weapon="d4", sneak=True, defenseless=True, max_wounds=30)["dead"] == 1
    # without the sneak, helplessness alone changes nothing
    assert (
        resolve("attack", 2, weapon="d4", defenseless=True, stamina=9, max_wounds=30).name
        == "stamina"
    )
