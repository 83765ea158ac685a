"""Roll-under-atk's rule procedures: each rolls (`resolve`) and gives exact odds (`odds`).

The core combat checks live here; chases, manoeuvres, fire and backpacks in `special`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from rollbook.engine.systems.base import Outcome, Param, Procedure, RulesError, by_name, tally
from rollbook.engine.systems.dice import dice_weights, draw_die
from rollbook.engine.systems.mechanics import number, reaction_procedure
from rollbook.engine.systems.roll_under_atk import rules
from rollbook.engine.systems.roll_under_atk.special import SPECIAL

__all__ = ["PROCEDURES", "damage_weights", "roll_breakage"]

D20 = range(1, 21)
D6 = range(1, 7)


def _two_d6() -> Iterable[int]:
    return (a + b for a in D6 for b in D6)


# -- shared parameters -------------------------------------------------------------------------

P_WEAPON = Param("weapon", str, "medium", "weapon class", choices=tuple(rules.WEAPONS))
P_TWO_HANDS = Param("two_hands", bool, False, "medium weapon held in two hands (d8)")
P_STR_MOD = Param("str_mod", int, 0, "strength modifier", minimum=-5, maximum=10)
P_BONUS_DICE = Param(
    "bonus_dice", int, 0, "extra weapon dice (ideal weapon, from hiding)", minimum=0, maximum=10
)
P_QUALITY = Param("quality", str, "standard", "weapon quality", choices=rules.QUALITIES)


def _die(p: dict[str, Any]) -> int:
    w = rules.WEAPONS[p["weapon"]]
    return w.two_hands_die if p.get("two_hands") and w.two_hands_die else w.die


def damage_weights(p: dict[str, Any], critical: bool = False) -> dict[int, int]:
    """Every damage total of a hit with its integer weight (never below 0)."""
    w = rules.WEAPONS[p["weapon"]]
    die = _die(p)
    flat = (p["str_mod"] if w.strength else 0) - (1 if p.get("non_lethal") else 0)
    count = 1 + p["bonus_dice"] + (1 if critical else 0)
    mult = p.get("multiplier", 1)
    # fists: a flat 1, extra "dice" add nothing
    ways = dice_weights(count, die) if die else [(1, 1)]
    out: dict[int, int] = {}
    for t, n in ways:
        total = max(0, (t + flat) * mult)
        out[total] = out.get(total, 0) + n
    return out


def roll_damage(p: dict[str, Any], rng: random.Random, critical: bool = False) -> tuple[int, str]:
    """Roll a hit's damage; returns the total and a short account."""
    w = rules.WEAPONS[p["weapon"]]
    die = _die(p)
    count = 1 + p["bonus_dice"] + (1 if critical else 0)
    faces = [draw_die(rng, die) for _ in range(count)] if die else [1]
    flat = (p["str_mod"] if w.strength else 0) - (1 if p.get("non_lethal") else 0)
    mult = p.get("multiplier", 1)
    total = max(0, (sum(faces) + flat) * mult)
    dice = f"{count}d{die}" if die else "1"
    text = f"{dice} {faces}{flat:+d}" + (f" x{mult}" if mult != 1 else "") + f" = {total}"
    return total, text


# -- surprise ----------------------------------------------------------------------------------


#: Each outcome of the surprise d6 and what it means.
SURPRISE_SAID = {
    "party_surprises": "the party gets the drop: +4 ATK and acts first in round 1",
    "foes_surprise": "the foes get the drop: +4 ATK and act first in round 1",
    "no_surprise": "nobody is caught unawares",
}


def _surprise_name(roll: int, p: dict[str, Any]) -> str:
    # A side without light cannot be surprised by a side that carries one.
    party_safe = p["foes_have_light"] and not p["party_has_light"]
    foes_safe = p["party_has_light"] and not p["foes_have_light"]
    if roll == 1 and not foes_safe:
        return "party_surprises"
    if roll == 6 and not party_safe:
        return "foes_surprise"
    return "no_surprise"


def _surprise_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    roll = draw_die(rng, 6)
    name = _surprise_name(roll, p)
    return Outcome(name, f"Surprise d6: {roll}; {SURPRISE_SAID[name]}.", {"roll": roll})


def _surprise_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(tuple(SURPRISE_SAID), ((_surprise_name(r, p), 1) for r in D6))


# -- reaction ----------------------------------------------------------------------------------


# -- initiative --------------------------------------------------------------------------------


def stat_check(
    name: str,
    title: str,
    stat: Param,
    outcomes: tuple[str, str],
    said: Callable[[dict[str, Any], int, str], tuple[str, dict[str, Any]]],
) -> Procedure:
    """A plain check: d20 at or under ``stat`` -> ``outcomes`` (success, failure).

    ``said(p, roll, outcome)`` gives the log line and the outcome's numbers besides the roll.
    """
    good, bad = outcomes

    def resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
        roll = draw_die(rng, 20)
        outcome = good if roll <= p[stat.name] else bad
        line, data = said(p, roll, outcome)
        return Outcome(outcome, line, {"roll": roll, **data})

    def odds(p: dict[str, Any]) -> dict[str, Fraction]:
        return tally(outcomes, ((good if r <= p[stat.name] else bad, 1) for r in D20))

    return Procedure(name, title, (stat,), outcomes, resolve, odds)


# -- attack ------------------------------------------------------------------------------------


def _attack_target(p: dict[str, Any]) -> int:
    """The number an attack rolls under; `RulesError` for a weapon broken past use."""
    if (p["quality"] == "masterwork" and p["breaks"] >= 2) or (
        p["quality"] != "masterwork" and p["breaks"] >= 1
    ):
        raise RulesError("that weapon is already broken and useless.")
    w = rules.WEAPONS[p["weapon"]]
    atk = p["atk"] + p["modifier"] + w.atk + rules.range_penalty(p["weapon"], p["distance"])
    atk += 4 if p["surprise"] else 0
    atk += 2 if p["from_behind"] else 0
    atk -= 1 if p["non_lethal"] else 0
    atk -= 1 if p["quality"] == "masterwork" and p["breaks"] >= 1 else 0
    return atk - p["enemy_def"]


def _check_name(roll: int, target: int, p: dict[str, Any], pos: str, neg: str) -> str:
    total = roll + p["roll_modifier"]
    if roll == 1 or (p["more_crits"] and total <= 1):
        return "critical"
    if roll == 20 or (p["more_crits"] and total >= 20):
        return "fumble"
    return pos if total <= target else neg


def roll_breakage(rng: random.Random, quality: str) -> tuple[int, bool]:
    """The breakage d6 after a natural 20: the die, and whether an item of ``quality`` breaks."""
    die = draw_die(rng, 6)
    return die, die <= rules.break_chance(quality)


def _check_roll(
    p: dict[str, Any],
    rng: random.Random,
    target: int,
    outcomes: tuple[str, ...],
    quality: str | None,
) -> tuple[str, dict[str, Any]]:
    """Roll a check as `_check_odds` counts it: its outcome and numbers.

    A natural 20 rolls the breakage d6 (``break_roll``) of an item of ``quality``, None
    when nothing can break.
    """
    _, pos, neg, _, breaks = outcomes
    roll = draw_die(rng, 20)
    name = _check_name(roll, target, p, pos, neg)
    data: dict[str, Any] = {"roll": roll, "target": target}
    if name == "fumble" and quality is not None:
        data["break_roll"], broke = roll_breakage(rng, quality)
        name = breaks if broke else name
    return name, data


def _attack_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    target = _attack_target(p)
    name, data = _check_roll(p, rng, target, ATTACK_OUTCOMES, p["quality"])
    line = f"Attack: d20 {data['roll']}, needs {target} or less: "
    if name in ("hit", "critical"):
        total, text = roll_damage(p, rng, critical=name == "critical")
        data["damage"] = total
        line += ("critical hit, an extra damage die" if name == "critical" else "hit") + f"; {text}"
    elif name == "miss":
        line += "miss"
    else:
        broke = name == "weapon_breaks"
        fate = f"the {p['quality']} weapon breaks" if broke else "the weapon holds"
        line += f"natural 20, breakage d6 {data['break_roll']}: {fate}"
    return Outcome(name, line + ".", data)


ATTACK_OUTCOMES = ("critical", "hit", "miss", "fumble", "weapon_breaks")


def _check_odds(
    p: dict[str, Any], target: int, outcomes: tuple[str, ...], quality: str | None
) -> dict[str, Fraction]:
    """Odds of a check whose natural 20 may break an item of ``quality`` (None: nothing).

    ``outcomes``: critical, success, failure, fumble, and what a fumble breaks.
    """
    _, pos, neg, _, breaks = outcomes
    broke = Fraction(rules.break_chance(quality), 6) if quality is not None else Fraction(0)
    weights: list[tuple[str, Fraction]] = []
    for r in D20:
        name = _check_name(r, target, p, pos, neg)
        if name == "fumble":
            weights += [(breaks, broke), ("fumble", 1 - broke)]
        else:
            weights.append((name, Fraction(1)))
    return tally(outcomes, weights)


def _attack_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return _check_odds(p, _attack_target(p), ATTACK_OUTCOMES, p["quality"])


P_MORE_CRITS = Param(
    "more_crits",
    bool,
    False,
    "optional rule: modified totals of 1 or less / 20 or more are criticals",
)
P_ROLL_MOD = number(
    "roll_modifier",
    0,
    "added to the d20 (only matters with more_crits or for modifiers applied to the roll)",
    -20,
    20,
)


# -- defend ------------------------------------------------------------------------------------


def _defend_target(p: dict[str, Any]) -> int:
    """The number a defence rolls under; `RulesError` for more breaks than armour."""
    if p["armor_breaks"] > p["armor"]:
        raise RulesError("armor_breaks cannot exceed the armour's bonus.")
    return 10 + p["armor"] - p["armor_breaks"] - p["enemy_hd"] - p["enemy_bonus"]


def _armor_quality(p: dict[str, Any]) -> str | None:
    """The quality of armour a natural 20 may break: None once it has no bonus left."""
    return p["armor_quality"] if p["armor"] - p["armor_breaks"] > 0 else None


def _defend_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    target = _defend_target(p)
    name, data = _check_roll(p, rng, target, DEFEND_OUTCOMES, _armor_quality(p))
    b = data.get("break_roll")
    holds = "" if b is None else f"; the armour holds (d6 {b})"
    said = {
        "critical": "critical defence, a free manoeuvre",
        "blocked": "blocked",
        "hit": "the blow lands",
        "fumble": f"natural 20, the blow lands{holds}",
        "armor_breaks": f"natural 20, the blow lands and the armour cracks (d6 {b}): -1 DEF",
    }[name]
    return Outcome(
        name,
        f"Defence: d20 {data['roll']}, needs DEF {10 + p['armor'] - p['armor_breaks']} minus the "
        f"attacker's HD = {target} or less: {said}.",
        data,
    )


DEFEND_OUTCOMES = ("critical", "blocked", "hit", "fumble", "armor_breaks")


def _defend_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return _check_odds(p, _defend_target(p), DEFEND_OUTCOMES, _armor_quality(p))


# -- breakage ----------------------------------------------------------------------------------


def _break_effect(p: dict[str, Any]) -> str:
    """What one more break does: "damaged" (still usable) or "ruined"."""
    if p["item"] == "armor":
        return "ruined" if p["breaks"] + 1 >= p["armor"] else "damaged"
    if p["quality"] == "masterwork" and p["breaks"] == 0:
        return "damaged"
    return "ruined"


def _break_checked(p: dict[str, Any]) -> None:
    if p["item"] == "armor" and p["armor"] < 1:
        raise RulesError("armour with no bonus has nothing left to break.")


def _breakage_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    _break_checked(p)
    roll, broke = roll_breakage(rng, p["quality"])
    name = _break_effect(p) if broke else "holds"
    effect = {
        "holds": "it holds",
        "damaged": "it is damaged (-1 DEF)" if p["item"] == "armor" else "it is damaged (-1 ATK)",
        "ruined": "it is ruined and useless",
    }[name]
    return Outcome(
        name, f"Breakage d6 {roll} for a {p['quality']} {p['item']}: {effect}.", {"roll": roll}
    )


def _breakage_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    _break_checked(p)
    chance = rules.break_chance(p["quality"])
    return tally(
        ("holds", "damaged", "ruined"),
        ((_break_effect(p) if r <= chance else "holds", 1) for r in D6),
    )


# -- damage ------------------------------------------------------------------------------------


DAMAGE_OUTCOMES = ("down", "standing")


def _damage_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    total, text = roll_damage(p, rng, critical=p["critical"])
    left = max(0, p["target_hp"] - total)
    name = "down" if left == 0 else "standing"
    return Outcome(
        name, f"Damage {text}; {p['target_hp']} -> {left} HP.", {"damage": total, "hp_left": left}
    )


def _damage_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(
        DAMAGE_OUTCOMES,
        (
            ("down" if t >= p["target_hp"] else "standing", n)
            for t, n in damage_weights(p, p["critical"]).items()
        ),
    )


# -- stealth attack from behind ----------------------------------------------------------------


# -- morale ------------------------------------------------------------------------------------


def _morale_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    a, b = draw_die(rng, 6), draw_die(rng, 6)
    holds = a + b <= p["morale"]
    who = "the retainer" if p["who"] == "retainer" else "the enemy"
    verdict = "stands firm" if holds else "runs or gives up"
    return Outcome(
        "stands" if holds else "breaks",
        f"Morale 2d6 {a}+{b} = {a + b} against {p['morale']}: {who} {verdict}.",
        {"roll": a + b},
    )


def _morale_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(
        ("stands", "breaks"), (("stands" if t <= p["morale"] else "breaks", 1) for t in _two_d6())
    )


PROCEDURES = by_name(
    Procedure(
        "surprise",
        "Surprise: one d6, 1 the party surprises, 6 the party is surprised",
        (
            Param("party_has_light", bool, False, "the party carries a light source"),
            Param("foes_have_light", bool, False, "the foes carry a light source"),
        ),
        tuple(SURPRISE_SAID),
        _surprise_resolve,
        _surprise_odds,
    ),
    reaction_procedure(
        "Reaction of a creature met: 2d6 from helpful (2) to hostile (12)",
        rules.reaction_for,
        draw_die,
        lambda a, b, name: f"Reaction 2d6: {a}+{b} = {a + b}: {name.replace('_', ' ')}.",
    ),
    stat_check(
        "initiative",
        "Initiative: a WIS check; success acts before the enemy, failure after",
        Param("wis", int, None, "wisdom score", minimum=0, maximum=30),
        ("before", "after"),
        lambda p, roll, name: (
            f"WIS check d20 {roll} against {p['wis']}: acts {name} the enemy "
            f"(ties within a group go lowest roll first).",
            {},
        ),
    ),
    Procedure(
        "attack",
        "Attack: d20 at or under ATK minus the enemy's defense; 1 critical, 20 risks breakage",
        (
            number("atk", None, "attack score (8 poor, 11 standard, 15 great)", 0, 40),
            number(
                "enemy_def", 0, "enemy defense (armour bonus; another game's AC minus 10)", -10, 30
            ),
            Param("modifier", int, 0, "other ATK modifiers", minimum=-20, maximum=20),
            Param("surprise", bool, False, "surprise round: +4 ATK"),
            Param("from_behind", bool, False, "attacking from behind: +2 ATK"),
            Param("non_lethal", bool, False, "pulling blows: -1 ATK and -1 damage"),
            P_WEAPON,
            P_TWO_HANDS,
            number("distance", 0, "range in feet for thrown and missile weapons", 0, 2000),
            P_STR_MOD,
            P_BONUS_DICE,
            P_QUALITY,
            number("breaks", 0, "earlier breaks of this weapon (masterwork: 1 = -1 ATK)", 0, 2),
            P_MORE_CRITS,
            P_ROLL_MOD,
        ),
        ATTACK_OUTCOMES,
        _attack_resolve,
        _attack_odds,
    ),
    Procedure(
        "defend",
        "Defend: d20 at or under DEF (10 + armour) minus the enemy's hit dice; "
        "a 20 risks the armour",
        (
            Param("armor", int, 0, "worn armour bonus", minimum=0, maximum=20),
            Param("enemy_hd", int, 1, "attacker's hit dice", minimum=0, maximum=30),
            number("armor_breaks", 0, "earlier breaks of this armour (-1 DEF each)", 0, 20),
            Param("armor_quality", str, "standard", "armour quality", choices=rules.QUALITIES),
            number(
                "enemy_bonus", 0, "other penalties to the defence (e.g. 4 when surprised)", -20, 20
            ),
            P_MORE_CRITS,
            P_ROLL_MOD,
        ),
        DEFEND_OUTCOMES,
        _defend_resolve,
        _defend_odds,
    ),
    Procedure(
        "damage",
        "Damage by weapon class plus STR, extra dice for criticals and the ideal weapon",
        (
            Param("target_hp", int, None, "target's hit points", minimum=1, maximum=10000),
            P_WEAPON,
            P_TWO_HANDS,
            P_STR_MOD,
            P_BONUS_DICE,
            Param("critical", bool, False, "critical hit: one more damage die"),
            number("multiplier", 1, "2 or 3 for a stealthy attack from behind", 1, 3),
            Param("non_lethal", bool, False, "pulling blows: -1 damage"),
        ),
        DAMAGE_OUTCOMES,
        _damage_resolve,
        _damage_odds,
    ),
    Procedure(
        "breakage",
        "Breakage after a natural 20: fragile always, standard 3 in 6, masterwork 1 in 6",
        (
            Param("item", str, "weapon", "weapon or armour", choices=("weapon", "armor")),
            P_QUALITY,
            Param("breaks", int, 0, "breaks it has already suffered", minimum=0, maximum=20),
            number("armor", 1, "armour bonus (armour is useless when breaks reach it)", 0, 20),
        ),
        ("holds", "damaged", "ruined"),
        _breakage_resolve,
        _breakage_odds,
    ),
    stat_check(
        "stealth_attack",
        "Attack from hiding behind the foe: a DEX or STR check; "
        "success triples damage, else doubles",
        Param("stat", int, None, "DEX or STR score", minimum=0, maximum=30),
        ("triple", "double"),
        lambda p, roll, name: (
            f"Stealth check d20 {roll} against {p['stat']}: {name} damage.",
            {"multiplier": 3 if name == "triple" else 2},
        ),
    ),
    Procedure(
        "morale",
        "Morale (enemy or retainer): 2d6 at or under morale holds; 12 never breaks",
        (
            Param("morale", int, None, "morale score", minimum=2, maximum=12),
            Param("who", str, "enemy", "enemy or retainer", choices=("enemy", "retainer")),
        ),
        ("stands", "breaks"),
        _morale_resolve,
        _morale_odds,
    ),
    *SPECIAL,
)
