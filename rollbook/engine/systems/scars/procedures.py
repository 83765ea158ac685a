"""Scars' rule procedures: each rolls (`resolve`) and gives exact odds (`odds`)."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from rollbook.engine.systems.base import Outcome, Param, Procedure, by_name, product_faces, tally
from rollbook.engine.systems.dice import SmallDice, roll_die
from rollbook.engine.systems.mechanics import dice_param, number, reaction_procedure
from rollbook.engine.systems.scars.rules import (
    ATTACK_OUTCOMES,
    ATTACK_RANK,
    DAMAGE_OUTCOMES,
    DISTANCES,
    HIRELING_OUTCOMES,
    HIRELING_RANK,
    INIT_RANK,
    INITIATIVE_OUTCOMES,
    MORALE_OUTCOMES,
    PACK_OUTCOMES,
    PACK_RANK,
    RITUAL_OUTCOMES,
    RITUAL_RANK,
    SHIFTS,
    attack_result,
    damage_result,
    damage_shift,
    dying_result,
    hireling_result,
    initiative_result,
    morale_result,
    pack_result,
    reaction_result,
    ritual_result,
    shift_note,
    shifted,
)

__all__ = [
    "PROCEDURES",
    "SCARS",
    "SHIFT",
    "roll_attack",
    "roll_dying",
    "roll_hireling",
    "roll_initiative",
    "roll_shifted",
    "score_param",
    "shifted_odds",
]

Rank = Mapping[str, int]  # how good each outcome is: Scars move a die to the best


def score_param(name: str, help_text: str, default: int | None = None, low: int = 0) -> Param:
    """A Scars score (rolled under on a d20), from ``low`` to 40."""
    return Param(name, int, default, help_text, minimum=low, maximum=40)


SCARS = Param(
    "scars", int, 0, "Scars the roller has (each roll may move by that much)", minimum=0, maximum=20
)


SHIFT = Param(
    "shift",
    str,
    "best",
    "how the roller uses Scars: best, none, up (+X), down (-X)",
    choices=SHIFTS,
)


def roll_shifted(
    rng: random.Random, scars: int, shift: str, result: Callable[[int], str], rank: Rank
) -> tuple[int, int, str]:
    """One d20 the roller may move by Scars: ``(raw die, used result, outcome)``.

    ``result`` says what a face means, ``rank`` how good each outcome is (for ``best``).
    """
    raw = roll_die(rng, 20)
    used = shifted(raw, scars, shift, lambda v: rank[result(v)])
    return raw, used, result(used)


def shifted_odds(
    outcomes: tuple[str, ...], scars: int, shift: str, result: Callable[[int], str], rank: Rank
) -> dict[str, Fraction]:
    """Exact odds of `roll_shifted`: each face of the d20, moved as the roller would."""

    def ranked(v: int) -> int:
        return rank[result(v)]

    return tally(outcomes, ((result(shifted(r, scars, shift, ranked)), 1) for r in range(1, 21)))


def roll_attack(
    rng: random.Random, attack: int, ac: int, scars: int, shift: str
) -> tuple[int, int, str]:
    """Roll one attack: ``(raw die, used result, outcome)``."""
    return roll_shifted(rng, scars, shift, lambda v: attack_result(v, attack, ac), ATTACK_RANK)


def _attack_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    raw, used, name = roll_attack(rng, p["attribute"], p["ac"], p["scars"], p["shift"])
    ac = p["ac"]
    said = {
        "stun": "a clean hit that staggers the foe and earns another attack at once",
        "hit": "a hit: roll the weapon's damage",
        "armour_dent": f"no damage, but the armour cracks: AC {ac} becomes {ac - 1}",
        "armour_broken": "no damage, and the armour gives way: AC drops to 0",
        "miss": "a miss",
    }[name]
    return Outcome(
        name,
        f"d20 rolled {shift_note(raw, used)} against attack {p['attribute']} and AC {ac}: {said}.",
        {
            "roll": raw,
            "result": used,
            "new_ac": ac - 1 if name.startswith("armour") else ac,
            "extra_attack": name == "stun",
        },
    )


def _attack_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    a, ac = p["attribute"], p["ac"]
    result = functools.partial(attack_result, attack=a, ac=ac)
    return shifted_odds(ATTACK_OUTCOMES, p["scars"], p["shift"], result, ATTACK_RANK)


def _damage_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    dice = SmallDice.parse(p["weapon"], "weapon")
    raw = dice.roll(rng)
    dealt = max(0, raw + damage_shift(p["scars"], p["shift"]))
    max_health = p["max_health"] or p["health"]
    after = max(0, p["health"] - dealt)
    name = damage_result(after, max_health)
    tail = {
        "wounded": "still in good shape",
        "bloodied": "at half health or worse",
        "down": "dropped to 0 health",
    }[name]
    return Outcome(
        name,
        f"{dice} rolled {raw}, dealing {dealt}: health {p['health']} -> {after}, {tail}.",
        {"roll": raw, "damage": dealt, "health": after},
    )


def _damage_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    dice = SmallDice.parse(p["weapon"], "weapon")
    bump = damage_shift(p["scars"], p["shift"])
    max_health = p["max_health"] or p["health"]
    return tally(
        DAMAGE_OUTCOMES,
        (
            (damage_result(max(0, p["health"] - max(0, total + bump)), max_health), ways)
            for total, ways in dice.weights().items()
        ),
    )


def roll_dying(rng: random.Random, scars_before: int) -> tuple[int, int, str, int]:
    """``(new scars, 2d6, outcome, rounds out)``; rounds is 0 on death."""
    scars = scars_before + 1
    total = roll_die(rng, 6) + roll_die(rng, 6)
    name = dying_result(total, scars)
    rounds = sum(roll_die(rng, 6) for _ in range(scars)) if name == "wakes" else 0
    return scars, total, name, rounds


def _dying_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    scars, total, name, rounds = roll_dying(rng, p["scars"])
    if name == "dies":
        text = f"new Scar (now {scars}); 2d6 rolled {total}, not above {scars}: the wounds win."
    else:
        text = (
            f"new Scar (now {scars}); 2d6 rolled {total}, above {scars}: back on their feet "
            f"with 1 health after {rounds} rounds ({scars}d6)."
        )
    return Outcome(name, text, {"roll": total, "scars": scars, "rounds": rounds})


def _dying_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    scars = p["scars"] + 1
    return tally(
        ("dies", "wakes"), ((dying_result(a + b, scars), 1) for a, b in product_faces(6, 6))
    )


def roll_initiative(
    rng: random.Random, agility: int, scars: int, shift: str
) -> tuple[int, int, str]:
    """Roll initiative: the raw d20, the face Scars moved it to, and the result."""
    result = functools.partial(initiative_result, agility=agility)
    return roll_shifted(rng, scars, shift, result, INIT_RANK)


def _initiative_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    raw, used, name = roll_initiative(rng, p["agility"], p["scars"], p["shift"])
    said = {
        "quick_action": "acts before the enemies and gets a quick action before the fight",
        "before": "acts before the enemies",
        "after": "acts after the enemies",
    }[name]
    return Outcome(
        name,
        f"d20 rolled {shift_note(raw, used)} against Agility {p['agility']}: {said}.",
        {"roll": raw, "result": used},
    )


def _initiative_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    result = functools.partial(initiative_result, agility=p["agility"])
    return shifted_odds(INITIATIVE_OUTCOMES, p["scars"], p["shift"], result, INIT_RANK)


def _morale_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    roll = roll_die(rng, 20)
    name = morale_result(roll, p["hd"])
    said = {
        "rallies": "they rally: an extra attack next round and no more morale tests",
        "stands": "they keep fighting",
        "flees": "they break and flee or give up",
    }[name]
    return Outcome(
        name,
        f"d20 rolled {roll} against {10 + p['hd']} (10 + HD): {said}.",
        {"roll": roll, "target": 10 + p["hd"]},
    )


def _morale_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(MORALE_OUTCOMES, ((morale_result(r, p["hd"]), 1) for r in range(1, 21)))


def roll_hireling(
    rng: random.Random, cunning: int, hd: int, scars: int, shift: str
) -> tuple[int, int, str]:
    """Roll a hireling's check: the raw d20, the face Scars moved it to, and the result."""
    result = functools.partial(hireling_result, cunning=cunning, hd=hd)
    return roll_shifted(rng, scars, shift, result, HIRELING_RANK)


def _hireling_morale_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    raw, used, name = roll_hireling(rng, p["cunning"], p["hd"], p["scars"], p["shift"])
    pay = 15 * p["hd"]
    said = {
        "heroic": "inspired: an extra attack next round and unbreakable for this fight",
        "holds": "their nerve holds",
        "wavers": f"they waver; {pay} sp more keeps them in the fight",
        "flees": "they run and will never sign on again",
    }[name]
    return Outcome(
        name,
        f"d20 rolled {shift_note(raw, used)} between HD {p['hd']} and "
        f"Cunning {p['cunning']}: {said}.",
        {"roll": raw, "result": used, "pay_sp": pay if name == "wavers" else 0},
    )


def _hireling_morale_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    result = functools.partial(hireling_result, cunning=p["cunning"], hd=p["hd"])
    return shifted_odds(HIRELING_OUTCOMES, p["scars"], p["shift"], result, HIRELING_RANK)


def _pack_search_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    c = p["cunning"]
    result = functools.partial(pack_result, cunning=c)
    raw, used, name = roll_shifted(rng, p["scars"], p["shift"], result, PACK_RANK)
    rounds = roll_die(rng, 3) if name == "lost" else 0
    said = {
        "ready_now": "in hand and usable this same round",
        "found": "found; it takes this action and can be used next round",
        "lost": f"not found: give up on it or rummage for {rounds} rounds (1d3), "
        "doing nothing else",
    }[name]
    return Outcome(
        name,
        f"d20 rolled {shift_note(raw, used)} against Cunning {c}: {said}.",
        {"roll": raw, "result": used, "search_rounds": rounds},
    )


def _pack_search_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    result = functools.partial(pack_result, cunning=p["cunning"])
    return shifted_odds(PACK_OUTCOMES, p["scars"], p["shift"], result, PACK_RANK)


def _ritual_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    c, hurt = p["cunning"], p["damage_taken"]
    result = functools.partial(ritual_result, cunning=c, hurt=hurt)
    raw, used, name = roll_shifted(rng, p["scars"], p["shift"], result, RITUAL_RANK)
    need = f"above {hurt} and at most {c}" if hurt else f"at most {c}"
    said = "the ritual works" if name == "casts" else "it goes wrong: roll a Mishap"
    return Outcome(
        name,
        f"d20 rolled {shift_note(raw, used)}, needing {need}: {said}.",
        {"roll": raw, "result": used},
    )


def _ritual_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    result = functools.partial(ritual_result, cunning=p["cunning"], hurt=p["damage_taken"])
    return shifted_odds(RITUAL_OUTCOMES, p["scars"], p["shift"], result, RITUAL_RANK)


def _encounter_distance_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    total = roll_die(rng, 6) + roll_die(rng, 6)
    unit = "feet" if p["where"] == "dungeon" else "yards"
    return Outcome(
        str(10 * total),
        f"2d6 rolled {total}: the encounter starts {10 * total} {unit} away.",
        {"roll": total, "distance": 10 * total, "unit": unit},
    )


def _encounter_distance_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(DISTANCES, ((str(10 * (a + b)), 1) for a, b in product_faces(6, 6)))


def _wandering_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    roll = roll_die(rng, 6)
    name = "encounter" if roll == 1 else "quiet"
    said = "something is coming" if roll == 1 else "nothing turns up"
    return Outcome(name, f"d6 rolled {roll}: {said}.", {"roll": roll})


def _wandering_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return {"encounter": Fraction(1, 6), "quiet": Fraction(5, 6)}


PROCEDURES = by_name(
    Procedure(
        "initiative",
        "Initiative (d20 vs Agility, once per combat)",
        (score_param("agility", "the character's Agility"), SCARS, SHIFT),
        INITIATIVE_OUTCOMES,
        _initiative_resolve,
        _initiative_odds,
    ),
    Procedure(
        "attack",
        "Attack (d20 at or under the attribute, above the AC)",
        (
            score_param("attribute", "attribute used to attack (or the enemy's Attack)"),
            score_param("ac", "the target's current Armour Class"),
            SCARS,
            SHIFT,
        ),
        ATTACK_OUTCOMES,
        _attack_resolve,
        _attack_odds,
    ),
    Procedure(
        "damage",
        "Damage (weapon dice, Scars may add)",
        (
            dice_param("weapon", "weapon damage dice, e.g. 1d6 or 2d4+1", "1d6"),
            Param("health", int, None, "target's health before the blow", minimum=1, maximum=1000),
            number("max_health", 0, "target's full health (0: same as health)", 0, 1000),
            SCARS,
            SHIFT,
        ),
        DAMAGE_OUTCOMES,
        _damage_resolve,
        _damage_odds,
    ),
    Procedure(
        "dying",
        "Dropping to 0 health (new Scar, 2d6 vs Scars)",
        (Param("scars", int, 0, "Scars before this one", minimum=0, maximum=20),),
        ("dies", "wakes"),
        _dying_resolve,
        _dying_odds,
    ),
    Procedure(
        "morale",
        "Enemy morale (d20 vs 10 + HD)",
        (Param("hd", int, 1, "the enemy's Hit Dice", minimum=0, maximum=30),),
        MORALE_OUTCOMES,
        _morale_resolve,
        _morale_odds,
    ),
    Procedure(
        "hireling_morale",
        "Hireling morale (d20 between HD and the employer's Cunning)",
        (
            score_param("cunning", "the employer's Cunning"),
            Param("hd", int, 1, "the hireling's Hit Dice", minimum=0, maximum=30),
            SCARS,
            SHIFT,
        ),
        HIRELING_OUTCOMES,
        _hireling_morale_resolve,
        _hireling_morale_odds,
    ),
    Procedure(
        "pack_search",
        "Digging in the pack mid-fight (d20 vs Cunning)",
        (score_param("cunning", "the character's Cunning"), SCARS, SHIFT),
        PACK_OUTCOMES,
        _pack_search_resolve,
        _pack_search_odds,
    ),
    Procedure(
        "ritual",
        "Ritual under fire (d20 at or under Cunning, above damage taken)",
        (
            score_param("cunning", "the caster's Cunning"),
            number("damage_taken", 0, "damage taken this round before acting", 0, 100),
            SCARS,
            SHIFT,
        ),
        RITUAL_OUTCOMES,
        _ritual_resolve,
        _ritual_odds,
    ),
    reaction_procedure(
        "Reaction (2d6)",
        reaction_result,
        roll_die,
        lambda a, b, name: f"2d6 rolled {a + b}: they seem {name}.",
    ),
    Procedure(
        "encounter_distance",
        "Encounter distance (2d6 x 10)",
        (
            Param(
                "where",
                str,
                "dungeon",
                "dungeon (feet) or outside (yards)",
                choices=("dungeon", "outside"),
            ),
        ),
        DISTANCES,
        _encounter_distance_resolve,
        _encounter_distance_odds,
    ),
    Procedure(
        "wandering",
        "Wandering encounter check (d6, 1 = encounter)",
        (),
        ("encounter", "quiet"),
        _wandering_resolve,
        _wandering_odds,
    ),
)
