"""Roll-under-atk (docs/systems/roll-under-atk/): worked examples, tables, procedures and fights."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from rollbook.engine.systems import get
from rollbook.engine.systems.base import RulesError
from rollbook.engine.systems.encounter import Fight
from rollbook.engine.systems.roll_under_atk import rules
from tests.engine.systems_support import ScriptedDice as Scripted
from tests.engine.systems_support import check_procedure_on_random_grid, chi_square_critical

RU = get("roll-under-atk")


def run(name: str, *faces: int, **params: Any) -> Any:
    return RU.procedure(name).resolve(params, Scripted(*faces))


def odds(name: str, **params: Any) -> dict[str, Fraction]:
    result = RU.procedure(name).odds(params)
    assert result is not None
    return result


# -- surprise ------------------------------------------------------------------------------------


def test_surprise_one_and_six():
    assert run("surprise", 1).name == "party_surprises"
    assert run("surprise", 6).name == "foes_surprise"
    for face in (2, 3, 4, 5):
        assert run("surprise", face).name == "no_surprise"
    assert odds("surprise")["party_surprises"] == Fraction(1, 6)


def test_a_side_without_light_cannot_be_surprised_by_a_lit_one():
    assert run("surprise", 6, foes_have_light=True).name == "no_surprise"
    assert run("surprise", 1, foes_have_light=True).name == "party_surprises"
    assert run("surprise", 1, party_has_light=True).name == "no_surprise"
    assert run("surprise", 6, party_has_light=True, foes_have_light=True).name == "foes_surprise"


# -- reaction: every band ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "band"),
    [
        (2, "helpful"),
        (3, "somewhat_friendly"),
        (5, "somewhat_friendly"),
        (6, "instinctual"),
        (8, "instinctual"),
        (9, "aggressive"),
        (11, "aggressive"),
        (12, "hostile"),
    ],
)
def test_reaction_bands(total, band):
    assert rules.reaction_for(total) == band
    a = min(6, total - 1)
    assert run("reaction", a, total - a).name == band


def test_reaction_odds():
    assert odds("reaction") == {
        "helpful": Fraction(1, 36),
        "somewhat_friendly": Fraction(9, 36),
        "instinctual": Fraction(16, 36),
        "aggressive": Fraction(9, 36),
        "hostile": Fraction(1, 36),
    }


# -- initiative ----------------------------------------------------------------------------------


def test_initiative_is_a_wis_check():
    assert run("initiative", 12, wis=12).name == "before"
    assert run("initiative", 13, wis=12).name == "after"
    assert odds("initiative", wis=12)["before"] == Fraction(12, 20)


def test_fight_order_successes_then_monsters_then_failures_lowest_first():
    sides = {
        "party": [
            RU.make_combatant("party", {"name": n, "kind": "pc", "hp": 5, "wis": 10})
            for n in ("Ann", "Bo", "Cy", "Di")
        ],
        "foes": [RU.make_combatant("foes", {"name": "Orc", "hp": 5})],
    }
    fight = Fight(system=RU, sides=sides, rng=random.Random(0))
    fight.round = 2
    order = RU.initiative_order(fight, Scripted(9, 3, 15, 11))
    assert [c.name for c in order] == ["Bo", "Ann", "Orc", "Di", "Cy"]


# -- attack, criticals, breakage -----------------------------------------------------------------


def test_attack_is_atk_minus_defense_roll_under():
    # ATK 11 against a defense of 8 (AC 18 converted): 3 or less hits.
    assert run("attack", 3, 4, atk=11, enemy_def=8).name == "hit"
    assert run("attack", 4, atk=11, enemy_def=8).name == "miss"
    assert odds("attack", atk=11, enemy_def=8)["hit"] == Fraction(2, 20)  # 2 and 3; 1 is a crit


def test_natural_1_is_a_critical_with_an_extra_damage_die():
    out = run("attack", 1, 4, 5, atk=2, enemy_def=8, str_mod=1)
    assert out.name == "critical" and out.data["damage"] == 4 + 5 + 1


@pytest.mark.parametrize(
    ("quality", "faces", "broken"),
    [
        ("fragile", (1, 6), (True, True)),
        ("standard", (3, 4), (True, False)),
        ("masterwork", (1, 2), (True, False)),
    ],
)
def test_natural_20_checks_the_weapon(quality, faces, broken):
    for face, breaks in zip(faces, broken, strict=True):
        out = run("attack", 20, face, atk=30, enemy_def=0, quality=quality)
        assert out.name == ("weapon_breaks" if breaks else "fumble")
    chance = {"fragile": 6, "standard": 3, "masterwork": 1}[quality]
    assert odds("attack", atk=11, quality=quality)["weapon_breaks"] == Fraction(chance, 120)


def test_masterwork_breaks_twice_standard_once():
    assert run("breakage", 1, quality="masterwork").name == "damaged"
    assert run("breakage", 1, quality="masterwork", breaks=1).name == "ruined"
    assert run("breakage", 2, quality="masterwork").name == "holds"
    assert run("breakage", 3, quality="standard").name == "ruined"
    assert run("breakage", 4, quality="standard").name == "holds"
    assert odds("breakage", quality="fragile")["ruined"] == 1
    # a once-broken masterwork weapon attacks at -1
    assert odds("attack", atk=11, quality="masterwork", breaks=1)["hit"] == Fraction(9, 20)
    with pytest.raises(RulesError, match="already broken"):
        odds("attack", atk=11, breaks=1)


def test_armour_loses_a_point_per_break_until_useless():
    assert run("breakage", 2, item="armor", armor=3).name == "damaged"
    assert run("breakage", 2, item="armor", armor=3, breaks=2).name == "ruined"


def test_defend_is_def_minus_enemy_hd():
    # DEF 10 + 4 armour against a 3 HD monster: 11 or less blocks.
    assert run("defend", 11, armor=4, enemy_hd=3).name == "blocked"
    assert run("defend", 12, armor=4, enemy_hd=3).name == "hit"
    assert run("defend", 1, armor=4, enemy_hd=3).name == "critical"
    assert run("defend", 20, 3, armor=4, enemy_hd=3).name == "armor_breaks"
    assert run("defend", 20, 4, armor=4, enemy_hd=3).name == "fumble"
    assert run("defend", 20, armor=0, enemy_hd=3).name == "fumble"  # no armour to break


def test_more_crits_counts_modified_totals():
    assert run("attack", 18, 5, atk=30, roll_modifier=2, more_crits=True).name == "fumble"
    assert run("attack", 3, 2, 2, atk=11, roll_modifier=-2, more_crits=True).name == "critical"
    assert run("attack", 3, 2, atk=11, roll_modifier=-2).name == "hit"


@pytest.mark.parametrize(
    ("kw", "delta"),
    [
        ({"surprise": True}, 4),
        ({"from_behind": True}, 2),
        ({"weapon": "improvised"}, -2),
        ({"non_lethal": True}, -1),
        ({"weapon": "light", "distance": 30}, -2),
        ({"weapon": "sling", "distance": 40}, -1),
        ({"weapon": "bow", "distance": 90}, -2),
        ({"weapon": "crossbow", "distance": 80}, -1),
        ({"weapon": "crossbow", "distance": 40}, 0),
    ],
)
def test_attack_modifiers(kw, delta):
    base = odds("attack", atk=10)["hit"]
    assert odds("attack", atk=10, **kw)["hit"] - base == Fraction(delta, 20)


@pytest.mark.parametrize(
    ("ac", "scheme", "defense"),
    [
        (18, "ascending", 8),
        (10, "ascending", 0),
        (18, "lotfp", 6),
        (12, "lotfp", 0),
        (2, "bx-descending", 7),
        (2, "adnd-descending", 8),
    ],
)
def test_defense_from_other_games(ac, scheme, defense):
    assert rules.defense_from_ac(ac, scheme) == defense


@pytest.mark.parametrize(("atk", "chance"), [(8, 7), (11, 10), (15, 14)])
def test_enemy_attack_scores_against_no_armour(atk, chance):
    # 8 poor, 11 standard, 15 great: hits on 2..ATK plus the natural-1 critical
    result = odds("attack", atk=atk)
    assert result["hit"] + result["critical"] == Fraction(chance + 1, 20)


# -- damage --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("weapon", "two_hands", "low", "high"),
    [
        ("light", False, 2, 7),
        ("medium", False, 2, 7),
        ("medium", True, 2, 9),
        ("heavy", False, 2, 11),
        ("sling", False, 1, 6),
        ("bow", False, 1, 6),
        ("crossbow", False, 1, 10),
        ("fists", False, 2, 2),
    ],
)
def test_weapon_damage_ranges(weapon, two_hands, low, high):
    from rollbook.engine.systems.roll_under_atk.procedures import damage_weights

    totals = damage_weights(
        {"weapon": weapon, "two_hands": two_hands, "str_mod": 1, "bonus_dice": 0}
    )
    assert (min(totals), max(totals)) == (low, high)


def test_appropriate_weapon_dice():
    from rollbook.engine.systems.roll_under_atk.procedures import damage_weights

    # blunt weapon on a skeleton: one more die; silver and holy water on a vampire: two; on an
    # unaware vampire: three.
    for extra in (1, 2, 3):
        totals = damage_weights({"weapon": "medium", "str_mod": 0, "bonus_dice": extra})
        assert (min(totals), max(totals)) == (1 + extra, 6 * (1 + extra))


def test_stealth_attack_from_behind_multiplies():
    assert run("stealth_attack", 9, stat=12).name == "triple"
    assert run("stealth_attack", 13, stat=12).name == "double"
    out = run("damage", 4, target_hp=30, multiplier=3, str_mod=1)
    assert out.data["damage"] == 15


def test_non_lethal_costs_a_point_of_damage():
    assert run("damage", 4, target_hp=30, non_lethal=True).data["damage"] == 3


# -- morale --------------------------------------------------------------------------------------


def test_morale_12_never_breaks():
    assert odds("morale", morale=12)["breaks"] == 0
    assert odds("morale", morale=7) == {"stands": Fraction(21, 36), "breaks": Fraction(15, 36)}
    assert run("morale", 3, 4, morale=7).name == "stands"
    assert run("morale", 4, 4, morale=7, who="retainer").name == "breaks"


# -- chases --------------------------------------------------------------------------------------


def test_chase_steps():
    # fleeing MOVE 12 rolls 8 (+4), pursuers MOVE 10 roll 12 (fail): 1 -> 5, lost them
    out = run("chase_step", 8, 12, fleer_move=12, pursuer_move=10, gap=1)
    assert out.name == "escaped" and out.data["gap"] == 5
    out = run("chase_step", 15, 4, fleer_move=12, pursuer_move=10, gap=3)
    assert out.name == "caught" and out.data["gap"] == -3
    out = run("chase_step", 10, 9, fleer_move=12, pursuer_move=10, gap=2)
    assert out.name == "running" and out.data["gap"] == 3


def test_whole_chase_odds_are_a_markov_chain():
    even = odds("chase", fleer_move=10, pursuer_move=10, gap=1)
    assert sum(even.values()) == 1 and even["distracted"] == 0
    assert even["caught"] > even["escaped"]  # from one step away, capture is nearer
    # symmetric moves: escaping from gap g equals being caught from gap 5 - g
    assert (
        odds("chase", fleer_move=10, pursuer_move=10, gap=2)["escaped"]
        == odds("chase", fleer_move=10, pursuer_move=10, gap=3)["caught"]
    )
    assert odds("chase", fleer_move=10, pursuer_move=0, gap=1)["escaped"] == 1
    baited = odds("chase", fleer_move=10, pursuer_move=10, gap=1, bait_morale=7)
    assert baited["distracted"] == Fraction(15, 36)
    with pytest.raises(RulesError, match="nobody can ever gain"):
        odds("chase", fleer_move=1, pursuer_move=0)


def test_bait_stops_the_chase():
    out = run("chase", 5, 5, fleer_move=10, pursuer_move=10, bait_morale=7)
    assert out.name == "distracted"


# -- manoeuvres and grapples ---------------------------------------------------------------------


def test_opposed_checks():
    assert rules.opposed(12, 5, 12, 8) == "a"  # margin 7 beats 4
    assert rules.opposed(12, 13, 12, 8) == "b"
    assert rules.opposed(12, 15, 10, 18) == "tie"
    assert rules.opposed(12, 6, 10, 4) == "tie"  # equal margins


def test_grapple_results():
    out = run("grapple", 5, 3, 10, atk=12, target_hd=2, stat=12, target_stat=12)
    assert out.name == "pinned" and not out.data["countered"]
    out = run("grapple", 11, 10, 3, atk=12, target_hd=2, stat=12, target_stat=12)
    assert out.name == "attacker_stunned" and out.data["countered"]  # ATK check 11 > 10 failed
    out = run("grapple", 5, 14, 15, atk=12, target_hd=2, stat=12, target_stat=12)
    assert out.name == "no_effect"


def test_maneuver_needs_to_win_the_opposed_check():
    out = run("maneuver", 2, 2, 20, atk=12, stat=12, target_stat=12, kind="trip")
    assert out.name == "succeeds"
    assert run("maneuver", 2, 13, 20, atk=12, stat=12, target_stat=12).name == "fails"


def test_fire_and_backpack():
    out = run("on_fire", 4, 9, dex=10)
    assert out.name == "put_out" and out.data["damage"] == 4
    assert run("retrieve_item", 3).name == "three_rounds"
    assert odds("retrieve_item")["two_rounds"] == Fraction(1, 3)


# -- properties ----------------------------------------------------------------------------------

GRID: list[tuple[str, dict[str, Any]]] = [
    ("surprise", {"foes_have_light": True}),
    ("reaction", {}),
    ("initiative", {"wis": 9}),
    *[
        ("attack", {"atk": atk, "enemy_def": d, "quality": q})
        for atk in (4, 11, 15)
        for d in (0, 3, 8)
        for q in rules.QUALITIES
    ],
    ("attack", {"atk": 14, "more_crits": True, "roll_modifier": 3, "weapon": "heavy"}),
    ("defend", {"armor": 3, "enemy_hd": 4, "armor_quality": "fragile"}),
    ("defend", {"armor": 0, "enemy_hd": 1, "more_crits": True, "roll_modifier": -2}),
    ("damage", {"target_hp": 7, "weapon": "medium", "two_hands": True, "critical": True}),
    ("damage", {"target_hp": 9, "weapon": "heavy", "bonus_dice": 1, "multiplier": 2}),
    ("breakage", {"item": "armor", "armor": 2, "quality": "masterwork"}),
    ("stealth_attack", {"stat": 13}),
    ("morale", {"morale": 8}),
    ("chase_step", {"fleer_move": 12, "pursuer_move": 9, "gap": 2}),
    ("chase", {"fleer_move": 11, "pursuer_move": 12, "gap": 2, "bait_morale": 9}),
    ("maneuver", {"atk": 12, "stat": 11, "target_stat": 13}),
    ("grapple", {"atk": 12, "stat": 14, "target_stat": 10}),
    ("on_fire", {"dex": 11}),
    ("retrieve_item", {}),
]


@pytest.mark.parametrize(("name", "params"), GRID)
def test_odds_sum_to_one(name, params):
    result = odds(name, **params)
    assert set(result) == set(RU.procedure(name).outcomes)
    assert sum(result.values()) == 1
    assert all(0 <= p <= 1 for p in result.values())


SAMPLED = [g for g in GRID if g[0] != "attack"] + [GRID[3 + 9 * 1 + 3 * 0 + 1]]


@pytest.mark.parametrize(("name", "params"), SAMPLED)
def test_resolve_frequencies_match_odds(name, params):
    proc = RU.procedure(name)
    expected = odds(name, **params)
    rng = random.Random(4004)
    n = 3000
    seen = Counter(proc.resolve(params, rng).name for _ in range(n))
    assert all(expected[k] > 0 for k in seen), "an impossible outcome came up"
    cells = [k for k in expected if expected[k] > 0]
    stat = sum((seen[k] - n * expected[k]) ** 2 / (n * expected[k]) for k in cells)
    assert float(stat) < chi_square_critical(len(cells) - 1)


# -- every procedure over a random grid of its parameters ----------------------------------------


@pytest.mark.parametrize("name", list(RU.procedures))
def test_every_procedure_on_a_random_grid(name):
    check_procedure_on_random_grid(RU, name)


# -- fights --------------------------------------------------------------------------------------

SIDES = {
    "party": [
        {
            "name": "Ada",
            "kind": "pc",
            "hp": 9,
            "atk": 13,
            "armor": 3,
            "wis": 12,
            "str_mod": 1,
            "weapon_quality": "masterwork",
        },
        {
            "name": "Bram",
            "kind": "retainer",
            "hp": 6,
            "atk": 11,
            "armor": 1,
            "morale": 8,
            "weapon": "crossbow",
        },
    ],
    "goblins": [
        {
            "name": f"Goblin {i}",
            "hp": 4,
            "hd": 1,
            "armor": 1,
            "morale": 7,
            "damage": "1d6",
            "weapon_quality": "fragile",
        }
        for i in range(1, 4)
    ],
}


def test_fight_is_deterministic_per_seed():
    a = Fight.start(RU, SIDES, random.Random(7))
    a.run()
    b = Fight.start(RU, SIDES, random.Random(7))
    b.run()
    assert a.lines == b.lines and a.result == b.result


@pytest.mark.parametrize("seed", range(40))
def test_fights_terminate(seed):
    fight = Fight.start(RU, SIDES, random.Random(seed))
    result = fight.run()
    assert result.winner in ("party", "goblins")
    assert result.rounds < 60
    loser = "goblins" if result.winner == "party" else "party"
    assert all(not c.active for c in fight.sides[loser])


def test_fight_logs_show_the_rules_at_work():
    lines: list[str] = []
    for seed in range(60):
        fight = Fight.start(RU, SIDES, random.Random(seed))
        fight.run()
        lines += fight.lines
    text = "\n".join(lines)
    assert "who defends" in text  # monsters' attacks are rolled by the defender
    assert "reloads the crossbow" in text
    assert "Morale for" in text
    assert "Initiative (WIS)" in text


def test_surprise_gives_plus_four_and_the_first_move():
    for seed in range(100):
        fight = Fight.start(RU, SIDES, random.Random(seed))
        if fight.state.surprise == "party":
            fight.step()
            acting = [
                line for line in fight.lines if line.startswith("R1: ") and ("attacks" in line)
            ]
            assert acting[0].startswith(("R1: Ada", "R1: Bram"))
            assert "Initiative" not in "\n".join(fight.lines)
            return
    pytest.fail("no seed gave the party surprise")


def test_monster_versus_monster_uses_attack_rolls():
    sides = {
        "a": [{"name": "Wolf", "hp": 6, "atk": 12}],
        "b": [{"name": "Bear", "hp": 12, "atk": 13, "damage": "1d8"}],
    }
    fight = Fight.start(RU, sides, random.Random(3))
    fight.run()
    assert not any("defends" in line for line in fight.lines)
    assert fight.result is not None and fight.result.winner in ("a", "b")


def test_quiet_fights_roll_the_same_dice_and_stepping_equals_running():
    from rollbook.engine.systems.encounter import build_sides

    for seed in range(15):
        loud = Fight.start(RU, SIDES, random.Random(seed))
        loud.run()
        quiet = Fight.from_combatants(RU, build_sides(RU, SIDES), random.Random(seed), quiet=True)
        quiet.run()
        assert quiet.lines == []
        assert quiet.to_dict()["result"] == loud.to_dict()["result"]
        assert quiet.to_dict()["combatants"] == loud.to_dict()["combatants"]
    stepped = Fight.start(RU, SIDES, random.Random(5))
    while not stepped.ended:
        stepped.step()
    whole = Fight.start(RU, SIDES, random.Random(5))
    whole.run()
    assert stepped.to_dict() == whole.to_dict()


def test_monte_carlo_runs():
    from rollbook.engine.systems.montecarlo import simulate

    report = simulate(RU.id, SIDES, 200, seed=3)
    assert report == simulate(RU.id, SIDES, 200, seed=3)
    assert sum(report["wins"].values()) + report["stalemate"] == 200
