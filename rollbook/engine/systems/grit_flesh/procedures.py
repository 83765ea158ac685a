"""Grit & Flesh's rule procedures: each rolls (`resolve`) and gives exact odds (`odds`)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rollbook.engine.systems.base import Outcome, Param, Procedure, by_name, tally
from rollbook.engine.systems.dice import SmallDice, edge_faces, roll_die, roll_edge
from rollbook.engine.systems.grit_flesh.rules import (
    ATTACK_OUTCOMES,
    DAMAGE_OUTCOMES,
    EFFECTS,
    MORALE_NAMES,
    TAGS,
    apply_damage,
    attack_result,
    combine,
    morale_chance,
    reaction_result,
)
from rollbook.engine.systems.mechanics import (
    EDGE,
    attr_param,
    d20_check,
    dice_param,
    reaction_procedure,
)

__all__ = ["DIFFICULTY", "PROCEDURES", "edge_note"]

DIFFICULTY = Param(
    "difficulty", int, 10, "number the d20 + attribute must reach", minimum=-20, maximum=60
)

#: The character's Savvy: initiative is a Test of it, surprise a Save against it.
SAVVY = attr_param("savvy", "the character's Savvy")


def edge_note(edge: str) -> str:
    """`` with a Boon`` / `` with a Bane`` for the log, or nothing without an edge."""
    return "" if edge == "none" else f" with a {edge.capitalize()}"


def _test_edge(p: dict[str, Any]) -> str:
    return combine(p["edge"], "bane" if p.get("stealthy") else "none")


def _test(
    name: str, title: str, attr: Param, said: dict[str, str], extra: tuple[Param, ...] = ()
) -> Procedure:
    """A plain Test: d20 (+ edge) + attribute >= difficulty (``said``: success, failure)."""

    def head(p: dict[str, Any], edge: str, die: int, total: int) -> str:
        return (
            f"d20{edge_note(edge)} rolled {die}, +{attr.name} "
            f"{p[attr.name]} = {total} vs {p['difficulty']}"
        )

    params = (attr, DIFFICULTY, EDGE, *extra)
    return d20_check(
        name, title, attr, said, head, against=DIFFICULTY, params=params, edge_of=_test_edge
    )


def _attack_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    die = roll_edge(rng, 20, p["edge"])
    name = attack_result(die, p["violence"], p["defense"])
    said = {
        "critical_hit": "a critical hit: the damage goes straight to Flesh",
        "hit": "a hit",
        "miss": "a miss",
        "critical_miss": "a critical miss: a melee weapon takes a Notch, a ranged one is "
        "out of ammunition",
    }[name]
    return Outcome(
        name,
        f"d20{edge_note(p['edge'])} rolled {die}, + Violence "
        f"{p['violence']} = {die + p['violence']} vs Defense {p['defense']}: "
        f"{said}.",
        {"roll": die, "total": die + p["violence"]},
    )


def _attack_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(
        ATTACK_OUTCOMES,
        ((attack_result(f, p["violence"], p["defense"]), w) for f, w in edge_faces(20, p["edge"])),
    )


def _damage_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    dice = SmallDice.parse(p["weapon"], "weapon")
    rolled = dice.roll(rng)
    amount = max(0, rolled)
    grit, flesh, name = apply_damage(amount, p["grit"], p["flesh"], p["critical"])
    top = rolled == dice.maximum and dice.count > 0
    special = "none"
    if top and p["on_max"] != "none":
        special = "armour notched" if p["on_max"] == "armour" else EFFECTS[p["tag"]]
    said = {
        "grit_only": "Grit soaks it all",
        "flesh": "it cuts into Flesh",
        "down": "Flesh is gone: the target is out",
    }[name]
    tail = (
        f"; maximum damage: the weapon takes a Notch and the target is {special}"
        if special not in ("none", "armour notched")
        else "; maximum damage: the weapon and the target's armour each take a Notch"
        if special == "armour notched"
        else ""
    )
    return Outcome(
        name,
        f"{dice} rolled {rolled}{' (critical)' if p['critical'] else ''}: "
        f"Grit {p['grit']} -> {grit}, Flesh {p['flesh']} -> {flesh}; {said}{tail}.",
        {"roll": rolled, "grit": grit, "flesh": flesh, "max_damage": top, "special": special},
    )


def _damage_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    dice = SmallDice.parse(p["weapon"], "weapon")
    grit, flesh, critical = p["grit"], p["flesh"], p["critical"]
    return tally(
        DAMAGE_OUTCOMES,
        (
            (apply_damage(max(0, total), grit, flesh, critical)[2], ways)
            for total, ways in dice.weights().items()
        ),
    )


def _morale_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    m = p["morale"]
    die = roll_die(rng, 20)
    name = "stands" if die <= m + 1 else "flees"
    label = MORALE_NAMES.get(m)
    chance = morale_chance(m)
    said = "they keep fighting" if name == "stands" else "they try to run or give up"
    return Outcome(
        name,
        f"Morale {m}{f' ({label})' if label else ''}, {chance * 100}% to "
        f"hold: d20 rolled {die} (holds on {m + 1} or less): {said}.",
        {"roll": die, "percent": float(chance * 100)},
    )


def _morale_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    chance = morale_chance(p["morale"])
    return {"stands": chance, "flees": 1 - chance}


_REACTION_SAID = {
    "bloodthirsty": "out for blood, attacking at once",
    "hostile": "hostile: threats, extortion, maybe violence",
    "wary": "unsure and watchful, waiting to learn more",
    "cooperative": "willing to deal or trade",
    "friendly": "warm and helpful, even ready to join",
}


PROCEDURES = by_name(
    _test(
        "initiative",
        "Initiative (Test Savvy each round)",
        SAVVY,
        {"first": "acts before the enemies", "after": "acts after the enemies"},
    ),
    _test(
        "surprise",
        "Surprise (Save vs Savvy)",
        SAVVY,
        {"alert": "ready for them", "surprised": "caught out: no action this round"},
        (Param("stealthy", bool, False, "the foes are stealthy (a Bane)"),),
    ),
    Procedure(
        "attack",
        "Attack (d20 + Violence vs Defense)",
        (
            attr_param("violence", "the attacker's Violence"),
            attr_param("defense", "the target's Defense", None),
            EDGE,
        ),
        ATTACK_OUTCOMES,
        _attack_resolve,
        _attack_odds,
    ),
    Procedure(
        "damage",
        "Damage (Grit, then Flesh; tag effect on maximum)",
        (
            dice_param("weapon", "weapon damage dice", "1d6"),
            Param("grit", int, 0, "the target's Grit", minimum=0, maximum=1000),
            Param("flesh", int, None, "the target's Flesh", minimum=1, maximum=1000),
            Param("critical", bool, False, "a critical hit (skips Grit)"),
            Param("tag", str, "slashing", "the weapon's damage tag", choices=TAGS),
            Param(
                "on_max",
                str,
                "effect",
                "on maximum damage: effect, armour or none",
                choices=("effect", "armour", "none"),
            ),
        ),
        DAMAGE_OUTCOMES,
        _damage_resolve,
        _damage_odds,
    ),
    _test(
        "effect_save",
        "Shaking off a tag effect (MIG Save)",
        attr_param("might", "the target's MIG"),
        {"recovers": "the effect ends", "still_affected": "the effect holds"},
    ),
    _test(
        "gambit",
        "Gambit (Test the fitting attribute)",
        attr_param("attribute", "the attribute the gambit tests"),
        {"succeeds": "it works", "backfires": "it backfires: the opponent gets a free action"},
    ),
    Procedure(
        "morale",
        "Morale Test (Morale 0-20)",
        (Param("morale", int, 10, "Morale score", minimum=0, maximum=20),),
        ("stands", "flees"),
        _morale_resolve,
        _morale_odds,
    ),
    reaction_procedure(
        "Reaction (2d6 luck roll)",
        reaction_result,
        roll_die,
        lambda a, b, name: f"2d6 rolled {a + b}: {_REACTION_SAID[name]}.",
    ),
)
