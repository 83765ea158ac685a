"""Roll-under-atk's situational procedures: chases, manoeuvres and grapples, fire, backpacks."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rollbook.engine.systems.base import Outcome, Param, Procedure, RulesError, tally
from rollbook.engine.systems.dice import draw_die
from rollbook.engine.systems.mechanics import number
from rollbook.engine.systems.roll_under_atk import rules

__all__ = ["SPECIAL"]

D20 = range(1, 21)
D6 = range(1, 7)


def _two_d6_totals() -> list[int]:
    return [a + b for a in D6 for b in D6]


# -- chases ------------------------------------------------------------------------------------

ESCAPE_GAP = 5  # steps ahead at which the pursued are lost


def _chase_step(gap: int, fleer: int, pursuer: int, a: int, b: int) -> int:
    return gap + rules.chase_gain(fleer, a) - rules.chase_gain(pursuer, b)


def _chase_state(gap: int) -> str:
    return "escaped" if gap >= ESCAPE_GAP else "caught" if gap <= 0 else "running"


#: Each outcome of one chase exchange (`_chase_state`) and what it means.
CHASE_STEP_SAID = {
    "escaped": "the pursuers lose the trail",
    "caught": "caught: the pursuers win initiative",
    "running": "the chase goes on",
}


def _chase_step_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    a, b = draw_die(rng, 20), draw_die(rng, 20)
    gap = _chase_step(p["gap"], p["fleer_move"], p["pursuer_move"], a, b)
    name = _chase_state(gap)
    return Outcome(
        name,
        f"Chase: fleeing MOVE check {a}, pursuing {b}: gap {p['gap']} -> {gap} steps; "
        f"{CHASE_STEP_SAID[name]}.",
        {"gap": gap, "fleer_roll": a, "pursuer_roll": b},
    )


P_FLEER = Param(
    "fleer_move", int, None, "MOVE of the slowest fleeing member", minimum=0, maximum=30
)
P_PURSUER = Param("pursuer_move", int, None, "MOVE of the pursuers", minimum=0, maximum=30)
P_GAP = Param(
    "gap", int, 1, "steps (about 10 feet each) between them", minimum=1, maximum=ESCAPE_GAP - 1
)


def _chase_step_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(
        tuple(CHASE_STEP_SAID),
        (
            (_chase_state(_chase_step(p["gap"], p["fleer_move"], p["pursuer_move"], a, b)), 1)
            for a in D20
            for b in D20
        ),
    )


def _chase_checked(p: dict[str, Any]) -> None:
    if p["fleer_move"] < 2 and p["pursuer_move"] < 2:
        raise RulesError("with both MOVE scores below 2 nobody can ever gain a step.")


def _chase_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    _chase_checked(p)
    steps: list[str] = []
    if p["bait_morale"]:
        a, b = draw_die(rng, 6), draw_die(rng, 6)
        if a + b > p["bait_morale"]:
            return Outcome(
                "distracted",
                f"A dropped item tempts the pursuers: morale {a + b} "
                f"against {p['bait_morale']}; they stop for it.",
                {"exchanges": 0},
            )
        steps.append(f"bait ignored ({a + b})")
    gap, n = p["gap"], 0
    while _chase_state(gap) == "running":
        a, b = draw_die(rng, 20), draw_die(rng, 20)
        gap = _chase_step(gap, p["fleer_move"], p["pursuer_move"], a, b)
        n += 1
        steps.append(str(gap))
    name = _chase_state(gap)
    return Outcome(
        name,
        f"Chase over {n} exchange(s), gap by exchange: {', '.join(steps)}: "
        + ("escaped." if name == "escaped" else "caught."),
        {"exchanges": n, "gap": gap},
    )


def _chase_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    """Exact absorption chances of the gap's Markov chain (Gauss-Jordan with Fractions)."""
    _chase_checked(p)
    gaps = list(range(1, ESCAPE_GAP))
    idx = {g: i for i, g in enumerate(gaps)}
    n = len(gaps)
    # Rows: x_g - sum_h P(g->h) x_h = P(g -> escape); x = chance of escaping from gap g.
    move: dict[int, int] = {}
    for a in D20:
        for b in D20:
            d = rules.chase_gain(p["fleer_move"], a) - rules.chase_gain(p["pursuer_move"], b)
            move[d] = move.get(d, 0) + 1
    rows = []
    for g in gaps:
        row = [Fraction(0)] * (n + 1)
        row[idx[g]] += 1
        for d, w in move.items():
            h = g + d
            pr = Fraction(w, 400)
            if h >= ESCAPE_GAP:
                row[n] += pr
            elif h > 0:
                row[idx[h]] -= pr
        rows.append(row)
    for col in range(n):
        pivot = next(r for r in range(col, n) if rows[r][col] != 0)
        rows[col], rows[pivot] = rows[pivot], rows[col]
        lead = rows[col][col]
        rows[col] = [v / lead for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                rows[r] = [v - f * w for v, w in zip(rows[r], rows[col], strict=True)]
    escape = rows[idx[p["gap"]]][n]
    stop = Fraction(0)
    if p["bait_morale"]:
        stop = Fraction(sum(1 for t in _two_d6_totals() if t > p["bait_morale"]), 36)
    return {"escaped": (1 - stop) * escape, "caught": (1 - stop) * (1 - escape), "distracted": stop}


# -- manoeuvres and grapples -------------------------------------------------------------------


def _maneuver_parts(p: dict[str, Any], a: int, b: int, c: int) -> tuple[bool, str]:
    """(countered, opposed result) for the three d20s of a manoeuvre."""
    countered = a > p["atk"] - p["target_hd"]
    return countered, rules.opposed(p["stat"], b, p["target_stat"], c)


P_MANEUVER = (
    Param("atk", int, None, "attacker's ATK", minimum=0, maximum=40),
    Param("target_hd", int, 1, "target's hit dice", minimum=0, maximum=30),
    Param("stat", int, None, "attacker's score for the opposed check", minimum=0, maximum=30),
    Param("target_stat", int, None, "target's score for the opposed check", minimum=0, maximum=30),
)


def _maneuver_roll(p: dict[str, Any], rng: random.Random) -> tuple[bool, str, str]:
    a, b, c = (draw_die(rng, 20) for _ in range(3))
    countered, won = _maneuver_parts(p, a, b, c)
    line = (
        f"ATK check: d20 {a}, needs {p['atk'] - p['target_hd']} or less: "
        + ("failed, the target lands a hit" if countered else "no opening given")
        + f"; opposed check {b} against {c}"
    )
    return countered, won, line


#: The opposed check's winner ("a" the attacker, "b" the target) -> the manoeuvre's outcome.
MANEUVER_NAMES = {"a": "succeeds", "b": "fails", "tie": "fails"}
#: Each outcome of a manoeuvre and what the stunt then does.
MANEUVER_SAID = {"succeeds": "works", "fails": "does not work"}


def _maneuver_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    countered, won, line = _maneuver_roll(p, rng)
    name = MANEUVER_NAMES[won]
    said = f"{line}: the {p['kind']} {MANEUVER_SAID[name]}."
    return Outcome(name, said, {"countered": countered})


def _contest_odds(
    p: dict[str, Any], names: dict[str, str], order: tuple[str, ...]
) -> dict[str, Fraction]:
    return tally(
        order,
        ((names[rules.opposed(p["stat"], b, p["target_stat"], c)], 1) for b in D20 for c in D20),
    )


def _maneuver_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return _contest_odds(p, MANEUVER_NAMES, tuple(MANEUVER_SAID))


#: The opposed check's winner -> the grapple's outcome (as `MANEUVER_NAMES`).
GRAPPLE_NAMES = {"a": "pinned", "b": "attacker_stunned", "tie": "no_effect"}
#: Each outcome of a grapple and what it means.
GRAPPLE_SAID = {
    "pinned": "the target is pinned and helpless",
    "attacker_stunned": "the target wins and stuns the grappler",
    "no_effect": "a tie, nothing happens until next round",
}


def _grapple_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    countered, won, line = _maneuver_roll(p, rng)
    name = GRAPPLE_NAMES[won]
    return Outcome(name, f"{line}: {GRAPPLE_SAID[name]}.", {"countered": countered})


def _grapple_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return _contest_odds(p, GRAPPLE_NAMES, tuple(GRAPPLE_SAID))


# -- fire and fetching things ------------------------------------------------------------------


#: The DEX check's success, then its failure, and what each means.
ON_FIRE_SAID = {"put_out": "the flames are out", "still_burning": "still alight"}
_PUT_OUT, _BURNING = ON_FIRE_SAID


def _on_fire_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    burn = draw_die(rng, 6)
    roll = draw_die(rng, 20)
    name = _PUT_OUT if roll <= p["dex"] else _BURNING
    said = f"Burning: {burn} damage; DEX check {roll} against {p['dex']}: {ON_FIRE_SAID[name]}."
    return Outcome(name, said, {"damage": burn, "roll": roll})


def _on_fire_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(tuple(ON_FIRE_SAID), ((_PUT_OUT if r <= p["dex"] else _BURNING, 1) for r in D20))


RETRIEVE_NAMES = ("one_round", "two_rounds", "three_rounds")


def _retrieve_item_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(RETRIEVE_NAMES, ((n, 1) for n in RETRIEVE_NAMES))


#: The situational procedures, in the order `rollbook rules` lists them after the core ones.
SPECIAL = (
    Procedure(
        "chase_step",
        "One chase exchange: opposed MOVE checks, each success gains its margin in steps",
        (P_FLEER, P_PURSUER, P_GAP),
        tuple(CHASE_STEP_SAID),
        _chase_step_resolve,
        _chase_step_odds,
    ),
    Procedure(
        "chase",
        "A whole chase: exchanges until the fleeing are 5 steps ahead or caught",
        (
            P_FLEER,
            P_PURSUER,
            P_GAP,
            number(
                "bait_morale", 0, "morale of pursuers tempted by a dropped item (0: none)", 0, 12
            ),
        ),
        ("escaped", "caught", "distracted"),
        _chase_resolve,
        _chase_odds,
    ),
    Procedure(
        "maneuver",
        "Combat manoeuvre (shove, trip, disarm...): ATK minus target HD, then an opposed check",
        (
            *P_MANEUVER,
            Param(
                "kind", str, "shove", "which stunt", choices=("shove", "trip", "disarm", "other")
            ),
        ),
        tuple(MANEUVER_SAID),
        _maneuver_resolve,
        _maneuver_odds,
    ),
    Procedure(
        "grapple",
        "Grapple: like a manoeuvre; the attacker winning pins, the defender winning stuns",
        P_MANEUVER,
        tuple(GRAPPLE_SAID),
        _grapple_resolve,
        _grapple_odds,
    ),
    Procedure(
        "on_fire",
        "On fire: 1d6 damage a round; spending the round on a DEX check puts it out",
        (Param("dex", int, None, "DEX score", minimum=0, maximum=30),),
        tuple(ON_FIRE_SAID),
        _on_fire_resolve,
        _on_fire_odds,
    ),
    Procedure(
        "retrieve_item",
        "Digging something out of a backpack takes 1d3 rounds",
        (),
        RETRIEVE_NAMES,
        lambda p, rng: (
            lambda r: Outcome(
                RETRIEVE_NAMES[r - 1], f"Rummaging takes {r} round(s).", {"rounds": r}
            )
        )(draw_die(rng, 3)),
        _retrieve_item_odds,
    ),
)
