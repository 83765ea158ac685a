"""Dark Dungeons (docs/systems/dark-dungeons/): worked examples, Table 10-2, procedures, fights."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from rollbook.engine.systems import get
from rollbook.engine.systems.base import RulesError
from rollbook.engine.systems.dark_dungeons import rules
from rollbook.engine.systems.encounter import Fight
from tests.engine.systems_support import ScriptedDice as Scripted
from tests.engine.systems_support import check_procedure_on_random_grid, chi_square_critical

DD = get("dark-dungeons")


def run(name: str, rng: random.Random, **params: Any) -> Any:
    return DD.procedure(name).resolve(params, rng)


# -- the to-hit worked examples ------------------------------------------------------------------


def test_third_level_fighter_needs_nine():
    # attack bonus +2, +3 from other sources, target AC 6: to-hit value 11
    params = {"attack_bonus": 2, "hit_bonus": 3, "ac": 6}
    assert run("attack", Scripted(8), **params).name == "miss"
    hit = run("attack", Scripted(9), **params)
    assert hit.name == "hit"
    assert hit.data["to_hit_value"] == 11 and hit.data["needed"] == 9
    assert hit.data["extra_damage"] == 0
    assert DD.procedure("attack").odds(params) == {"hit": Fraction(12, 20), "miss": Fraction(8, 20)}


def test_one_hit_die_monster_against_ac_minus_8_needs_a_natural_20():
    params = {"attack_bonus": 1, "ac": -8}
    assert run("attack", Scripted(19), **params).name == "miss"
    hit = run("attack", Scripted(20), **params)
    assert hit.name == "hit" and hit.data["to_hit_value"] == -7
    assert DD.procedure("attack").odds(params)["hit"] == Fraction(1, 20)


def test_36th_level_fighter_hits_on_2_with_8_extra_damage():
    # +23 attack bonus, +13 other bonuses; the example's arithmetic (23+13-1) is AC -1.
    params = {"attack_bonus": 23, "hit_bonus": 13, "ac": -1}
    assert run("attack", Scripted(1), **params).name == "miss"  # natural 1 always misses
    hit = run("attack", Scripted(2), **params)
    assert hit.name == "hit"
    assert hit.data["to_hit_value"] == 35 and hit.data["needed"] == 2
    assert hit.data["extra_damage"] == 8
    assert hit.data["table_entry"] == "8!"
    dealt = run("attack", Scripted(2, 5), damage="1d8", **params)
    assert dealt.data["damage"] == 5 + 8
    assert DD.procedure("attack").odds(params)["hit"] == Fraction(19, 20)


@pytest.mark.parametrize(
    ("value", "needed", "extra"),
    [
        (-7, 20, 0),
        (0, 20, 0),
        (1, 19, 0),
        (11, 9, 0),
        (18, 2, 0),
        (19, 2, 0),
        (20, 2, 0),
        (21, 2, 1),
        (22, 2, 1),
        (23, 2, 2),
        (35, 2, 8),
        (40, 2, 10),
    ],
)
def test_needed_roll_and_extra_damage(value, needed, extra):
    assert rules.needed_roll(value) == needed
    assert rules.extra_damage(value) == extra


# -- Table 10-2 over its whole printed range -----------------------------------------------------

# Our transcription of the table's shape, read off the printed table: the +0 row runs 0, 1,
# ..., 40 from AC 20 down to AC -20; each point of attack bonus shifts a row one column right,
# and the cells pushed in on the left read (right to left) 1!, 1!, 2!, 2!, 3!, 3!, ...
ROW_ZERO = [str(n) for n in range(41)]
BANGS = [f"{n}!" for n in range(1, 40) for _ in (0, 1)]
ACS = list(range(20, -21, -1))


def transcribed_row(bonus: int) -> list[str]:
    return (list(reversed(BANGS[:bonus])) + ROW_ZERO)[:41]


# Single cells read off the printed table (bonus, armour class, cell), to check the shape above.
PRINTED_CELLS = [
    (0, 20, "0"),
    (0, 0, "20"),
    (0, -20, "40"),
    (1, 20, "1!"),
    (1, 19, "0"),
    (2, 19, "1!"),
    (3, 20, "2!"),
    (3, -20, "37"),
    (9, 20, "5!"),
    (9, 11, "0"),
    (12, 6, "2"),
    (17, 3, "0"),
    (20, 0, "0"),
    (20, 20, "10!"),
    (24, -20, "16"),
    (24, 1, "3!"),
    (25, -5, "0"),
    (31, 20, "16!"),
    (36, -1, "8!"),
    (37, 20, "19!"),
    (37, -20, "3"),
    (40, -20, "0"),
    (41, -20, "1!"),
    (44, 7, "16!"),
    (49, 20, "25!"),
    (49, -20, "5!"),
]


@pytest.mark.parametrize(("bonus", "ac", "cell"), PRINTED_CELLS)
def test_transcription_matches_printed_cells(bonus, ac, cell):
    assert transcribed_row(bonus)[ACS.index(ac)] == cell


@pytest.mark.parametrize("bonus", range(50))  # the printed table runs from +0 to +49
def test_table_10_2_row(bonus):
    expected = transcribed_row(bonus)
    assert [rules.table_entry(bonus, ac) for ac in ACS] == expected
    for ac, cell in zip(ACS, expected, strict=True):
        value = rules.to_hit_value(bonus, ac)
        # "N!": anything but a natural 1 hits, for N extra damage; a number: that roll or
        # better, never below 2 (natural 1) nor above 20 (natural 20).
        if cell.endswith("!"):
            assert rules.needed_roll(value) == 2
            assert rules.extra_damage(value) == int(cell[:-1])
        else:
            assert rules.needed_roll(value) == min(20, max(2, int(cell)))
            assert rules.extra_damage(value) == 0


# -- attack modifiers ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cover", "mod"),
    [
        ("none", 0),
        ("soft-knees", -1),
        ("soft-waist", -2),
        ("soft-peeking", -3),
        ("soft-full", -4),
        ("hard-knees", -2),
        ("hard-waist", -4),
        ("hard-peeking", -6),
    ],
)
def test_cover_applies_to_missiles_not_melee(cover, mod):
    assert rules.to_hit_modifier(kind="missile", cover=cover) == mod
    assert rules.to_hit_modifier(kind="melee", cover=cover) == 0


def test_full_hard_cover_and_unseen_targets_block_ranged_attacks():
    with pytest.raises(RulesError, match="hard cover"):
        DD.procedure("attack").odds(
            {"attack_bonus": 5, "ac": 5, "kind": "missile", "cover": "hard-full"}
        )
    with pytest.raises(RulesError, match="cannot see"):
        DD.procedure("attack").odds(
            {"attack_bonus": 5, "ac": 5, "kind": "thrown", "target_unseen": True}
        )
    assert rules.to_hit_modifier(kind="melee", target_unseen=True) == -4


@pytest.mark.parametrize(
    ("speed", "target", "mod"),
    [
        ("hasted", "normal", 2),
        ("normal", "slowed", 2),
        ("double-hasted", "slowed", 6),
        ("slowed", "hasted", -4),
        ("double-slowed", "double-hasted", -8),
        ("hasted", "hasted", 0),
    ],
)
def test_haste_and_slow_give_two_per_level(speed, target, mod):
    assert rules.to_hit_modifier(speed=speed, target_speed=target) == mod


def test_other_listed_modifiers():
    assert rules.to_hit_modifier(off_hand=True) == -4
    assert rules.to_hit_modifier(smash=True) == -5
    assert rules.to_hit_modifier(unseen=True) == 2
    assert rules.to_hit_modifier(unseen=True, target_shield=True) == 3  # shield does not count
    assert rules.to_hit_modifier(sneak=True) == 6  # +4 stacking with the unseen +2
    assert rules.to_hit_modifier(kind="missile", range_band="short") == 1
    assert rules.to_hit_modifier(kind="missile", range_band="long") == -1
    assert rules.to_hit_modifier(kind="melee", target_parrying=True) == -4
    assert rules.to_hit_modifier(kind="thrown", target_parrying=True) == -4
    assert rules.to_hit_modifier(kind="missile", target_parrying=True) == 0


# -- smash, damage, two weapons, haste -----------------------------------------------------------


def test_smash_is_minus_5_and_adds_strength_score():
    out = DD.procedure("smash").resolve(
        {"attack_bonus": 5, "ac": 5, "damage": "1d8", "damage_bonus": 2, "strength": 17},
        Scripted(15, 6),
    )
    assert out.name == "hit" and out.data["to_hit_value"] == 5
    assert out.data["damage"] == 6 + 2 + 17
    odds = DD.procedure("smash").odds({"attack_bonus": 5, "ac": 5, "damage": "1d8", "strength": 17})
    assert odds["hit"] == Fraction(6, 20)
    assert rules.initiative_auto(smash=True) == "lose"


def test_damage_never_leaves_negative_hit_points():
    out = DD.procedure("damage").resolve({"damage": "21", "target_hp": 7}, Scripted())
    assert out.name == "down" and out.data["hp_left"] == 0


def test_damage_odds_count_every_face():
    odds = DD.procedure("damage").odds({"damage": "2d6", "target_hp": 10})
    assert odds["down"] == Fraction(6, 36)  # 10, 11, 12: 3 + 2 + 1 ways
    doubled = DD.procedure("damage").odds({"damage": "1d6", "target_hp": 8, "double": True})
    assert doubled["down"] == Fraction(3, 6)  # 4, 5, 6 doubled reach 8


def test_oeric_hasted_with_sword_and_plain_dagger_makes_seven_attacks():
    # 25th level: 3 attacks a round, doubled by haste, plus one off-hand attack at -4.
    params = {
        "attack_bonus": 16,
        "hit_bonus": 8,
        "ac": 0,
        "attacks": 3,
        "speed": "hasted",
        "second_weapon": "plain",
    }
    out = DD.procedure("attack_routine").resolve(params, random.Random(1))
    assert out.data["main_attacks"] == 6 and out.data["off_hand_attacks"] == 1
    assert len(out.data["rolls"]) == 7


def test_fractional_attack_rates_alternate():
    assert [rules.attacks_this_round(3, "slowed", r) for r in (1, 2, 3, 4)] == [1, 2, 1, 2]
    assert [rules.attacks_this_round(1, "slowed", r) for r in (1, 2, 3, 4)] == [0, 1, 0, 1]
    assert [rules.attacks_this_round(1, "double-slowed", r) for r in range(1, 9)] == [
        0,
        0,
        0,
        1,
        0,
        0,
        0,
        1,
    ]
    assert rules.attacks_this_round(2, "double-hasted", 1) == 8


def test_off_hand_attack_ignores_haste_and_slow():
    params = {
        "attack_bonus": 5,
        "ac": 5,
        "attacks": 1,
        "speed": "slowed",
        "round": 1,
        "second_weapon": "off-hand",
    }
    out = DD.procedure("attack_routine").resolve(params, random.Random(2))
    assert out.data["main_attacks"] == 0 and out.data["off_hand_attacks"] == 1


# -- initiative ----------------------------------------------------------------------------------


def test_initiative_modifiers():
    assert rules.initiative_modifier(declared="early") == 1
    assert rules.initiative_modifier(declared="late") == -1
    assert rules.initiative_modifier(halfling=True, dex_mod=2) == 3
    assert rules.initiative_modifier(speed="hasted") == 2
    assert rules.initiative_modifier(speed="slowed") == -2
    assert rules.initiative_auto(speed="double-hasted") == "win"
    assert rules.initiative_auto(speed="double-slowed") == "lose"
    assert rules.initiative_auto(two_handed=True) == "lose"
    assert rules.initiative_auto(speed="double-hasted", two_handed=True) == "none"


def test_aloysius_declares_early_and_beats_the_zombies():
    # Both always lose (a staff; zombies), so they roll: 4 + 1 = 5 against 2.
    out = DD.procedure("initiative").resolve(
        {"declared": "early", "two_handed": True, "foe_auto": "lose"}, Scripted(4, 2)
    )
    assert out.name == "first"
    assert out.data["roll"] + out.data["modifier"] == 5


def test_elfstar_waits_and_still_goes_before_the_zombies():
    params = {"declared": "late", "foe_auto": "lose"}
    assert DD.procedure("initiative").odds(params)["first"] == 1


def test_black_leaf_rolls_1_and_the_goblin_still_goes_first():
    # High dexterity (+2 at most, or the sum would tie) and an early statement: 1 + 1 + 2 < 5.
    for dex in (1, 2):
        out = DD.procedure("initiative").resolve(
            {"declared": "early", "dex_mod": dex}, Scripted(1, 5)
        )
        assert out.name == "second"


def test_initiative_ties_are_simultaneous():
    out = DD.procedure("initiative").resolve({"dex_mod": 1}, Scripted(3, 4))
    assert out.name == "together"


def test_zombie_fight_order_matches_the_example():
    fight = Fight(
        system=DD,
        sides={
            "party": [
                DD.make_combatant("party", {"name": "Elfstar", "hp": 10}),
                DD.make_combatant(
                    "party", {"name": "Aloysius", "hp": 8, "two_handed": True, "initiative_mod": 1}
                ),
            ],
            "zombies": [
                DD.make_combatant(
                    "zombies",
                    {"name": f"Zombie {i}", "hp": 9, "auto_initiative": "lose", "group": "zombies"},
                )
                for i in range(4)
            ],
        },
        rng=random.Random(0),
    )
    fight.round = 1
    beats = DD.initiative_order(fight, Scripted(4, 2), None)  # Aloysius 4 (+1), zombies 2
    assert [[c.name for c in beat] for beat in beats] == [
        ["Elfstar"],
        ["Aloysius"],
        [f"Zombie {i}" for i in range(4)],
    ]


# -- surprise and morale -------------------------------------------------------------------------


def test_surprise_on_one_or_two():
    assert run("surprise", Scripted(2, 3)).name == "we_surprised"
    assert run("surprise", Scripted(3, 1)).name == "they_surprised"
    assert run("surprise", Scripted(1, 2)).name == "both"
    assert run("surprise", Scripted(3, 6)).name == "neither"
    odds = DD.procedure("surprise").odds({})
    assert odds == {
        "neither": Fraction(16, 36),
        "both": Fraction(4, 36),
        "we_surprised": Fraction(8, 36),
        "they_surprised": Fraction(8, 36),
    }
    assert DD.procedure("surprise").odds({"we_can_be_surprised": False})["we_surprised"] == 0


@pytest.mark.parametrize(("morale", "stands"), [(2, 1), (7, 21), (9, 30), (12, 36)])
def test_morale_holds_at_or_under_the_score(morale, stands):
    assert DD.procedure("morale").odds({"morale": morale})["stands"] == Fraction(stands, 36)


def test_morale_boundary():
    assert run("morale", Scripted(3, 4), morale=7).name == "stands"
    assert run("morale", Scripted(4, 4), morale=7).name == "breaks"


# -- dying: Gretchen -----------------------------------------------------------------------------


@pytest.mark.parametrize(("previous", "penalty"), [(0, 0), (1, -1), (2, -2)])
def test_gretchen_death_save_penalties(previous, penalty):
    out = run("death_save", Scripted(14), save=12, previous_saves=previous)
    assert out.data["modifier"] == penalty
    assert out.name == ("survives" if 14 + penalty >= 12 else "dies")
    odds = DD.procedure("death_save").odds({"save": 12, "previous_saves": previous})
    assert odds["survives"] == Fraction(9 + penalty, 20)


def test_gretchen_falls_and_saves_at_0_1_2():
    gretchen = DD.make_combatant("party", {"name": "Gretchen", "hp": 7, "death_save": 12})
    giant = DD.make_combatant(
        "giant", {"name": "Giant", "hp": 40, "attack_bonus": 8, "damage": "21"}
    )
    fight = Fight(system=DD, sides={"party": [gretchen], "giant": [giant]}, rng=random.Random(0))
    DD.strike(fight, giant, gretchen, "main", giant.state.prep.damage, Scripted(20))
    assert gretchen.hp == 0 and gretchen.out == "down"  # no negative hit points
    DD.death_saves(fight, Scripted(12))  # end of round 1: 12 + 0 makes it
    DD.death_saves(fight, Scripted(13))  # round 2 at -1
    DD.death_saves(fight, Scripted(14))  # round 3 at -2
    assert gretchen.out == "down" and gretchen.state.dying_saves == 3
    DD.death_saves(fight, Scripted(14))  # a fourth save at -3 would fail on the same roll
    assert gretchen.out == "dead"


# -- structures ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("structure", "source", "full", "damage", "lost"),
    [
        ("wooden-building", "large-creature", False, "10", 5),
        ("stone-building", "siege-weapon", False, "14", 2),
        ("stone-building", "large-creature", True, "14", 14),
        ("palisade-gate", "spell", False, "9", 4),
        ("wooden-building", "hand-weapon", False, "30", 0),
    ],
)
def test_structure_damage(structure, source, full, damage, lost):
    out = DD.procedure("structure_attack").resolve(
        {
            "structure": structure,
            "attack_bonus": 0,
            "source": source,
            "damage": damage,
            "full_damage": full,
        },
        Scripted(20),
    )
    assert out.name in ("damaged", "no_effect")
    assert out.data["points_lost"] == lost


def test_structure_table_and_destruction():
    door = rules.STRUCTURES["iron-door"]
    assert (door.ac_missile, door.ac_melee, door.points) == (-10, 2, 35)
    out = DD.procedure("structure_attack").resolve(
        {"structure": "wooden-building", "attack_bonus": 0, "damage": "10", "damage_taken": 36},
        Scripted(20),
    )
    assert out.name == "destroyed" and out.data["points_left"] == 0
    odds = DD.procedure("structure_attack").odds(
        {
            "structure": "castle-wall",
            "attack_bonus": 4,
            "kind": "melee",
            "damage": "1d4",
            "source": "large-creature",
        }
    )
    # to-hit value 4 + 6 = 10 needs a 10; 1d4 // 5 never costs a point
    assert odds["damaged"] == 0 and odds["miss"] == Fraction(9, 20)


# -- properties: odds sum to 1, sampling agrees with odds ----------------------------------------

GRID: list[tuple[str, dict[str, Any]]] = [
    *[
        ("attack", {"attack_bonus": ab, "ac": ac, "hit_bonus": hb})
        for ab in (0, 5, 20, 37)
        for ac in (20, 9, 0, -10, -20)
        for hb in (-5, 0, 4)
    ],
    (
        "attack",
        {
            "attack_bonus": 3,
            "ac": 4,
            "kind": "missile",
            "cover": "soft-waist",
            "speed": "hasted",
            "range_band": "long",
        },
    ),
    ("smash", {"attack_bonus": 8, "ac": 2, "damage": "1d10", "strength": 16}),
    ("damage", {"damage": "3d6+1", "target_hp": 12, "extra_damage": 2}),
    ("damage", {"damage": "1d4", "target_hp": 3, "halved": True}),
    ("initiative", {"dex_mod": 1, "foe_modifier": 2}),
    ("initiative", {"speed": "double-hasted", "foe_auto": "win"}),
    ("surprise", {"chance": 3}),
    ("morale", {"morale": 8, "modifier": -2}),
    ("death_save", {"save": 14, "previous_saves": 3}),
    ("attack_routine", {"attack_bonus": 6, "ac": 4, "attacks": 2, "second_weapon": "plain"}),
    ("attack_routine", {"attack_bonus": 6, "ac": 4, "speed": "double-slowed", "round": 2}),
    (
        "structure_attack",
        {
            "structure": "wooden-stockade",
            "attack_bonus": 5,
            "kind": "missile",
            "damage": "3d6",
            "source": "siege-weapon",
            "damage_taken": 292,
        },
    ),
]


@pytest.mark.parametrize(("name", "params"), GRID)
def test_odds_sum_to_one(name, params):
    odds = DD.procedure(name).odds(params)
    assert odds is not None
    assert set(odds) == set(DD.procedure(name).outcomes)
    assert sum(odds.values()) == 1
    assert all(0 <= p <= 1 for p in odds.values())


SAMPLED = [GRID[7], *GRID[-13:]]


@pytest.mark.parametrize(("name", "params"), SAMPLED)
def test_resolve_frequencies_match_odds(name, params):
    proc = DD.procedure(name)
    odds = proc.odds(params)
    assert odds is not None
    rng = random.Random(20261121)
    n = 3000
    seen = Counter(proc.resolve(params, rng).name for _ in range(n))
    assert all(odds[k] > 0 for k in seen), "an impossible outcome came up"
    cells = [k for k in odds if odds[k] > 0]
    if len(cells) < 2:
        assert seen[cells[0]] == n
        return
    stat = sum((seen[k] - n * odds[k]) ** 2 / (n * odds[k]) for k in cells)
    assert float(stat) < chi_square_critical(len(cells) - 1)


# -- every procedure over a random grid of its parameters ----------------------------------------


@pytest.mark.parametrize("name", list(DD.procedures))
def test_every_procedure_on_a_random_grid(name):
    check_procedure_on_random_grid(DD, name)


# -- fights --------------------------------------------------------------------------------------

SIDES = {
    "heroes": [
        {
            "name": "Gretchen",
            "hp": 14,
            "ac": 3,
            "attack_bonus": 3,
            "hit_bonus": 1,
            "damage": "1d8",
            "damage_bonus": 1,
            "death_save": 11,
            "initiative_mod": 1,
        },
        {
            "name": "Elfstar",
            "hp": 9,
            "ac": 5,
            "attack_bonus": 1,
            "damage": "1d6",
            "death_save": 12,
            "off_hand": "plain",
            "off_hand_damage": "1d4",
        },
    ],
    "monsters": [
        {
            "name": "Ogre",
            "hp": 22,
            "ac": 5,
            "attack_bonus": 4,
            "damage": "1d10",
            "morale": 10,
            "two_handed": True,
        },
        {
            "name": "Goblin 1",
            "hp": 4,
            "ac": 6,
            "attack_bonus": 1,
            "damage": "1d6",
            "morale": 7,
            "group": "goblins",
        },
        {
            "name": "Goblin 2",
            "hp": 5,
            "ac": 6,
            "attack_bonus": 1,
            "damage": "1d6",
            "morale": 7,
            "group": "goblins",
            "speed": "slowed",
        },
    ],
}


def test_fight_is_deterministic_per_seed():
    a = Fight.start(DD, SIDES, random.Random(42))
    a.run()
    b = Fight.start(DD, SIDES, random.Random(42))
    b.run()
    assert a.lines == b.lines
    assert a.result == b.result


@pytest.mark.parametrize("seed", range(40))
def test_fights_terminate_with_a_winner(seed):
    fight = Fight.start(DD, SIDES, random.Random(seed))
    result = fight.run()
    assert result.winner in ("heroes", "monsters")
    assert result.rounds < 60
    loser = "monsters" if result.winner == "heroes" else "heroes"
    assert all(not c.active for c in fight.sides[loser])
    assert any("Initiative" in line for line in fight.lines)


def test_dying_heroes_make_saves_in_fights():
    lines = []
    for seed in range(30):
        fight = Fight.start(DD, SIDES, random.Random(seed))
        fight.run()
        lines += fight.lines
    assert any("saves vs death ray" in line for line in lines)
    assert any("Morale" in line for line in lines)


def test_surprised_side_loses_round_one():
    for seed in range(200):
        fight = Fight.start(DD, SIDES, random.Random(seed))
        if fight.state.surprised == "heroes":
            fight.step()
            assert not any(
                line.startswith("R1: Gretchen") or line.startswith("R1: Elfstar")
                for line in fight.lines
            )
            return
    pytest.fail("no seed gave a one-sided surprise")


def test_bad_stat_block_is_a_sentence():
    with pytest.raises(RulesError, match="damage must look like"):
        Fight.start(
            DD,
            {"a": [{"name": "X", "hp": 3, "damage": "lots"}], "b": [{"name": "Y", "hp": 3}]},
            random.Random(0),
        )
    with pytest.raises(RulesError, match="missing parameter 'hp'"):
        Fight.start(DD, {"a": [{"name": "X"}], "b": [{"name": "Y", "hp": 3}]}, random.Random(0))


def test_quiet_fights_roll_the_same_dice_and_stepping_equals_running():
    from rollbook.engine.systems.encounter import build_sides

    for seed in range(15):
        loud = Fight.start(DD, SIDES, random.Random(seed))
        loud.run()
        quiet = Fight.from_combatants(DD, build_sides(DD, SIDES), random.Random(seed), quiet=True)
        quiet.run()
        assert quiet.lines == []
        assert quiet.to_dict()["result"] == loud.to_dict()["result"]
        assert quiet.to_dict()["combatants"] == loud.to_dict()["combatants"]
    stepped = Fight.start(DD, SIDES, random.Random(5))
    while not stepped.ended:
        stepped.step()
    whole = Fight.start(DD, SIDES, random.Random(5))
    whole.run()
    assert stepped.to_dict() == whole.to_dict()


def test_monte_carlo_runs():
    from rollbook.engine.systems.montecarlo import simulate

    report = simulate(DD.id, SIDES, 200, seed=3)
    assert report == simulate(DD.id, SIDES, 200, seed=3)
    assert sum(report["wins"].values()) + report["stalemate"] == 200
