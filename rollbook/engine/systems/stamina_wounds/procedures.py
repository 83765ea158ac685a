"""Stamina & Wounds' rule procedures: each rolls (`resolve`) and gives exact odds (`odds`)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from rollbook.engine.systems.base import Outcome, Param, Procedure, RulesError, by_name, tally
from rollbook.engine.systems.dice import EDGES, roll_die, roll_edge, stat_dice
from rollbook.engine.systems.mechanics import EDGE, attr_param, d20_check, dice_param, number
from rollbook.engine.systems.stamina_wounds.rules import (
    ATTACK_OUTCOMES,
    WOUND_BANDS,
    damage_pmf,
    take_damage,
    wound_band,
)

__all__ = ["PROCEDURES", "roll_damage", "weapon_die", "wound_extras"]


def _initiative_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    if p["ambush"] != "none":
        name = f"{p['ambush']}_first"
        return Outcome(
            name, f"The {p['ambush']} caught the other side unaware and act first.", {"roll": None}
        )
    roll = roll_die(rng, 6)
    name = "players_first" if roll <= 3 else "enemies_first"
    said = "the player characters" if roll <= 3 else "the enemies"
    return Outcome(name, f"d6 rolled {roll}: {said} act first.", {"roll": roll})


def _initiative_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    if p["ambush"] != "none":
        first = f"{p['ambush']}_first"
        return {n: Fraction(n == first) for n in ("players_first", "enemies_first")}
    return {"players_first": Fraction(1, 2), "enemies_first": Fraction(1, 2)}


def roll_damage(
    rng: random.Random, sides: int, slots: int, edge: str = "none", sneak: bool = False
) -> tuple[list[int], int, bool]:
    """Roll an attack's damage dice: ``(faces, explosions, fumble)``.

    The weapon die (kept under a Boon/Bane) explodes first, then the sneak die, sharing the
    cap of ``slots`` explosions. A fumble is a 1 on the weapon or sneak die itself.
    """
    cap = slots
    faces: list[int] = []
    fumble = False
    for first in (
        (roll_edge(rng, sides, edge), roll_die(rng, sides))
        if sneak
        else (roll_edge(rng, sides, edge),)
    ):
        fumble = fumble or first == 1
        face = first
        faces.append(face)
        while face == sides and cap > 0:
            cap -= 1
            face = roll_die(rng, sides)
            faces.append(face)
    return faces, slots - cap, fumble


def weapon_die(text: str) -> int:
    """The sides of a weapon's one die (``d8``); `RulesError` for anything else."""
    dice = stat_dice(text, "weapon")
    if dice.count != 1 or dice.bonus:
        raise RulesError(f"weapon rolls one die here, like d8; {text!r} will not do.")
    return dice.sides


def _after_av(raw: int, p: dict[str, Any]) -> int:
    return max(0, raw - (0 if p["direct"] else p["av"]))


def wound_extras(band: str, rng: random.Random) -> tuple[dict[str, Any], str]:
    """What a wound band adds (rolled where it says so): JSON numbers and a log clause."""
    if band == "gear":
        slot, usage = roll_die(rng, 20), roll_die(rng, 4)
        return {"slot": slot, "usage": usage}, f"the item in slot {slot} takes {usage} Usage"
    if band == "bleeding":
        return {}, "bleeding out"
    if band == "mortal":
        rounds = roll_die(rng, 4)
        return {"rounds": rounds}, f"mortally wounded: dead in {rounds} rounds unless healed"
    if band == "pain":
        return {}, "pain and blood, nothing worse"
    return {}, ""


# What an attack that leaves no wound band did (the bands say their own: `wound_extras`).
_ATTACK_SAID = {
    "no_damage": "the armour turns it",
    "stamina": "Stamina takes it all",
    "dead": "Wounds reach the maximum: dead",
}


def _attack_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    sides = weapon_die(p["weapon"])
    if p["sneak"] and p["defenseless"]:
        return Outcome(
            "dead",
            "A sneak attack on a truly helpless target: killed outright, no dice needed.",
            {"dice": [], "damage": None},
        )
    faces, booms, fumble = roll_damage(rng, sides, p["slots"], p["edge"], p["sneak"])
    raw = sum(faces)
    dealt = _after_av(raw, p)
    stamina, wounds, fresh, name = take_damage(dealt, p["stamina"], p["wounds"], p["max_wounds"])
    data: dict[str, Any] = {
        "dice": faces,
        "explosions": booms,
        "raw": raw,
        "damage": dealt,
        "stamina": stamina,
        "wounds": wounds,
        "new_wounds": fresh,
        "usage_on_weapon": fumble,
    }
    extra, said = wound_extras(name, rng)
    data.update(extra)
    said = _ATTACK_SAID.get(name, said)
    av = "direct, AV ignored" if p["direct"] else f"AV {p['av']}"
    fum = "; a 1 came up, mark Usage on the weapon" if fumble else ""
    return Outcome(
        name,
        f"d{sides} rolled {'+'.join(map(str, faces))} = {raw} ({av}) -> "
        f"{dealt} damage: Stamina {stamina}, Wounds {wounds}/{p['max_wounds']}; "
        f"{said}{fum}.",
        data,
    )


def _attack_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    if p["sneak"] and p["defenseless"]:
        return {n: Fraction(n == "dead") for n in ATTACK_OUTCOMES}
    pmf = damage_pmf(weapon_die(p["weapon"]), p["slots"], p["edge"], p["sneak"])
    return tally(
        ATTACK_OUTCOMES,
        (
            (take_damage(_after_av(raw, p), p["stamina"], p["wounds"], p["max_wounds"])[3], w)
            for raw, w in pmf.items()
        ),
    )


def _wound_effect_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    name = wound_band(p["wounds"])
    data, said = wound_extras(name, rng)
    return Outcome(name, f"{p['wounds']} Wounds from one blow: {said}.", data)


def _wound_effect_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    band = wound_band(p["wounds"])
    return {n: Fraction(n == band) for n in WOUND_BANDS}


TARGET = Param("target", int, None, "the opponent's Target", minimum=-20, maximum=60)


def _save(name: str, title: str, attr: Param, said: dict[str, str]) -> Procedure:
    """A Save: d20 (+ edge) + stat >= the opponent's Target (``said``: success, failure)."""

    def head(p: dict[str, Any], edge: str, die: int, total: int) -> str:
        return (
            f"d20 rolled {die} + {attr.name.upper()} {p[attr.name]} = "
            f"{total} vs Target {p['target']}"
        )

    return d20_check(name, title, attr, said, head, against=TARGET, params=(attr, TARGET, EDGE))


def _rest_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    stamina, wounds, top = p["stamina"], p["wounds"], p["max_stamina"]
    if p["length"] == "turn":
        gain = roll_die(rng, 6) + p["end"]
        stamina = min(top, stamina + max(0, gain))
        said = f"1d6 + END restores {max(0, gain)} Stamina"
    elif p["length"] == "watch":
        heal = roll_die(rng, 6) + p["end"]
        stamina, wounds = top, max(0, wounds - max(0, heal))
        said = f"all Stamina back, 1d6 + END heals {max(0, heal)} Wounds (spells: 1d6 + WIL)"
    else:
        stamina, wounds = top, 0
        said = "everything restored"
    name = "full" if stamina == top and wounds == 0 else "partial"
    return Outcome(
        name,
        f"A {p['length']} of rest: {said}; now Stamina {stamina}/{top}, Wounds {wounds}.",
        {"stamina": stamina, "wounds": wounds},
    )


def _rest_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    top = p["max_stamina"]

    def outcome(face: int) -> str:
        if p["length"] == "turn":
            full = min(top, p["stamina"] + max(0, face + p["end"])) == top and p["wounds"] == 0
        elif p["length"] == "watch":
            full = p["wounds"] - max(0, face + p["end"]) <= 0
        else:
            full = True
        return "full" if full else "partial"

    return tally(("full", "partial"), ((outcome(f), 1) for f in range(1, 7)))


PROCEDURES = by_name(
    Procedure(
        "initiative",
        "Side initiative (d6: 1-3 players, 4-6 enemies)",
        (
            Param(
                "ambush",
                str,
                "none",
                "a side that caught the other unaware: none, players or enemies",
                choices=("none", "players", "enemies"),
            ),
        ),
        ("players_first", "enemies_first"),
        _initiative_resolve,
        _initiative_odds,
    ),
    Procedure(
        "attack",
        "Attack (damage die - AV, explosions, Stamina then Wounds)",
        (
            dice_param("weapon", "the weapon's damage die, e.g. d8", "d6"),
            number("slots", 1, "slots the weapon fills: the most explosions (1-3)", 1, 3),
            Param("av", int, 0, "the target's Armor Value", minimum=0, maximum=40),
            Param("direct", bool, False, "direct damage (ignores AV)"),
            Param("sneak", bool, False, "a sneak attack (one more die)"),
            Param(
                "defenseless",
                bool,
                False,
                "the target is truly defenceless (a sneak attack kills it outright)",
            ),
            Param("edge", str, "none", "bane when the target defends; boon or none", choices=EDGES),
            Param("stamina", int, 0, "the target's Stamina", minimum=0, maximum=1000),
            Param("wounds", int, 0, "the target's Wounds so far", minimum=0, maximum=1000),
            Param("max_wounds", int, None, "the target's Max Wounds", minimum=1, maximum=1000),
        ),
        ATTACK_OUTCOMES,
        _attack_resolve,
        _attack_odds,
    ),
    Procedure(
        "wound_effect",
        "What Wounds from one blow do",
        (Param("wounds", int, None, "Wounds from the one attack", minimum=1, maximum=1000),),
        WOUND_BANDS,
        _wound_effect_resolve,
        _wound_effect_odds,
    ),
    _save(
        "maneuver",
        "Maneuver (save vs the enemy's Target)",
        attr_param("stat", "the attribute that fits the maneuver"),
        {"succeeds": "it works", "fails": "it does not come off"},
    ),
    _save(
        "morale",
        "Morale (a PC's WIL save vs the enemy leader's Target)",
        attr_param("wil", "the PC's WIL"),
        {
            "flees": "the enemies run or give up",
            "stands": "they fight on; wait for another breaking point",
        },
    ),
    Procedure(
        "rest",
        "Rest and healing",
        (
            Param("length", str, "turn", "turn, watch or week", choices=("turn", "watch", "week")),
            attr_param("end", "END"),
            Param("stamina", int, 0, "Stamina now", minimum=0, maximum=1000),
            Param("max_stamina", int, None, "full Stamina", minimum=0, maximum=1000),
            Param("wounds", int, 0, "Wounds now", minimum=0, maximum=1000),
        ),
        ("full", "partial"),
        _rest_resolve,
        _rest_odds,
    ),
)
