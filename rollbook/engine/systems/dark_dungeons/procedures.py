"""Dark Dungeons' rule procedures: each rolls (`resolve`) and gives exact odds (`odds`)."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache
from typing import Any

from rollbook.engine.systems.base import Outcome, Param, Procedure, RulesError, by_name, tally
from rollbook.engine.systems.dark_dungeons import rules
from rollbook.engine.systems.dice import draw_die, stat_dice
from rollbook.engine.systems.mechanics import dice_param, number

__all__ = ["PROCEDURES", "damage_weights"]


@lru_cache(maxsize=256)
def damage_weights(text: str) -> tuple[tuple[int, int], ...]:
    """Every total of a damage expression with its integer weight (ways to roll it)."""
    return tuple(stat_dice(text).weights().items())


def final_damage(rolled: int, *, bonus: int = 0, double: bool = False, halve: bool = False) -> int:
    """Damage after flat additions, doubling and a saved-for-half; never below 0."""
    total = rolled + bonus
    if double:
        total *= 2
    if halve:
        total //= 2  # the rules do not say how to round; we round down
    return max(0, total)


# -- parameters shared by several procedures ---------------------------------------------------

P_ATTACK_BONUS = number(
    "attack_bonus", None, "attack bonus from class and level or hit dice", -20, 100
)
P_HIT_BONUS = number(
    "hit_bonus", 0, "other to-hit bonuses (strength, weapon feats, magic)", -50, 50
)
P_AC = Param("ac", int, None, "defender's armour class (lower is better)", minimum=-50, maximum=50)
P_KIND = Param(
    "kind",
    str,
    "melee",
    "melee, thrown (or hurled) or missile",
    choices=("melee", "thrown", "missile"),
)
P_SPEED = Param("speed", str, "normal", "attacker's speed", choices=rules.SPEEDS)
P_TARGET_SPEED = Param("target_speed", str, "normal", "defender's speed", choices=rules.SPEEDS)
P_DAMAGE = dice_param("damage", "damage dice such as 1d8+1 (empty: no damage roll)", "")
P_DAMAGE_BONUS = Param(
    "damage_bonus", int, 0, "flat damage bonus (strength, magic)", minimum=-50, maximum=100
)


def _modifier(p: dict[str, Any], **fixed: Any) -> int:
    """The situational to-hit modifier of an attack's parameters; a bad combination -> error."""
    keys = (
        "kind",
        "cover",
        "speed",
        "target_speed",
        "off_hand",
        "range_band",
        "smash",
        "sneak",
        "unseen",
        "target_shield",
        "target_unseen",
        "target_parrying",
    )
    args = {k: p[k] for k in keys if k in p}
    args.update(fixed)
    try:
        return rules.to_hit_modifier(**args)
    except ValueError as exc:
        raise RulesError(str(exc)) from None


def _to_hit(p: dict[str, Any], **fixed: Any) -> int:
    return rules.to_hit_value(p["attack_bonus"] + p["hit_bonus"], p["ac"], _modifier(p, **fixed))


def _roll_hit(value: int, rng: random.Random) -> tuple[int, bool]:
    roll = draw_die(rng, 20)
    return roll, roll != 1 and (roll == 20 or roll + value >= rules.HIT_TARGET)


def _attack_data(value: int, roll: int, hit: bool) -> dict[str, Any]:
    return {
        "roll": roll,
        "to_hit_value": value,
        "needed": rules.needed_roll(value),
        "extra_damage": rules.extra_damage(value),
        "hit": hit,
    }


def _hit_line(value: int, roll: int, hit: bool) -> str:
    needed = rules.needed_roll(value)
    why = " (natural 1)" if roll == 1 else " (natural 20)" if roll == 20 and needed > 20 else ""
    verdict = "hit" if hit else "miss"
    return f"d20 {roll} with to-hit value {value} (needs {needed}+): {verdict}{why}"


def _roll_damage(
    p: dict[str, Any], value: int, rng: random.Random, **extra: Any
) -> tuple[int, str]:
    dice = stat_dice(p["damage"])
    rolled = dice.roll(rng)
    bonus = p.get("damage_bonus", 0) + rules.extra_damage(value) + extra.get("strength", 0)
    total = final_damage(rolled, bonus=bonus, double=extra.get("double", False))
    note = " doubled" if extra.get("double") else ""
    return total, f"{dice} rolled {rolled}, {bonus:+d} = {total} damage{note}"


# -- attack ----------------------------------------------------------------------------------


def _attack_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    value = _to_hit(p)
    roll, hit = _roll_hit(value, rng)
    data = _attack_data(value, roll, hit)
    data["table_entry"] = rules.table_entry(
        p["attack_bonus"] + p["hit_bonus"] + _modifier(p), p["ac"]
    )
    line = _hit_line(value, roll, hit)
    if hit and p["damage"]:
        strength = p["strength"] if p["smash"] else 0
        total, text = _roll_damage(p, value, rng, strength=strength, double=p["double"])
        data["damage"] = total
        line += f"; {text}"
    elif hit and data["extra_damage"]:
        line += f"; +{data['extra_damage']} extra damage"
    return Outcome("hit" if hit else "miss", line + ".", data)


def _hit_odds(value: int) -> dict[str, Fraction]:
    """The exact odds of one attack roll with this to-hit value."""
    chance = rules.hit_chance(value)
    return {"hit": chance, "miss": 1 - chance}


def _attack_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return _hit_odds(_to_hit(p))


# -- smash -----------------------------------------------------------------------------------


def _smash_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    value = _to_hit(p, smash=True)
    roll, hit = _roll_hit(value, rng)
    data = _attack_data(value, roll, hit)
    line = "Smash: " + _hit_line(value, roll, hit)
    if hit:
        total, text = _roll_damage(p, value, rng, strength=p["strength"])
        data["damage"] = total
        line += f"; {text} (strength score added)"
    return Outcome("hit" if hit else "miss", line + ".", data)


def _smash_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return _hit_odds(_to_hit(p, smash=True))


# -- damage ----------------------------------------------------------------------------------


def _damage_total(p: dict[str, Any], rolled: int) -> int:
    return final_damage(
        rolled,
        bonus=p["damage_bonus"] + p["extra_damage"] + p["strength"],
        double=p["double"],
        halve=p["halved"],
    )


def _damage_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    rolled = stat_dice(p["damage"]).roll(rng)
    total = _damage_total(p, rolled)
    left = max(0, p["target_hp"] - total)  # no negative hit points: extra damage is lost
    name = "down" if left == 0 else "standing"
    line = (
        f"{p['damage']} rolled {rolled}: {total} damage; the target goes from "
        f"{p['target_hp']} to {left} hit points" + (" and falls unconscious." if left == 0 else ".")
    )
    return Outcome(name, line, {"rolled": rolled, "damage": total, "hp_left": left})


def _damage_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(
        ("down", "standing"),
        (
            ("down" if _damage_total(p, t) >= p["target_hp"] else "standing", w)
            for t, w in damage_weights(p["damage"])
        ),
    )


# -- initiative ------------------------------------------------------------------------------


def _init_parts(p: dict[str, Any]) -> tuple[int, str]:
    mod = rules.initiative_modifier(
        declared=p["declared"],
        halfling=p["halfling"],
        dex_mod=p["dex_mod"],
        speed=p["speed"],
        other=p["modifier"],
    )
    auto = rules.initiative_auto(
        speed=p["speed"], two_handed=p["two_handed"], smash=p["smash"], forced=p["auto"]
    )
    return mod, auto


def _init_compare(mod: int, auto: str, foe_mod: int, foe_auto: str, a: int, b: int) -> str:
    rank = {"win": 0, "none": 1, "lose": 2}
    if rank[auto] != rank[foe_auto]:
        return "first" if rank[auto] < rank[foe_auto] else "second"
    ours, theirs = a + mod, b + foe_mod
    return "first" if ours > theirs else "second" if ours < theirs else "together"


def _initiative_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    mod, auto = _init_parts(p)
    a, b = draw_die(rng, 6), draw_die(rng, 6)
    name = _init_compare(mod, auto, p["foe_modifier"], p["foe_auto"], a, b)
    if auto != p["foe_auto"]:
        how = "wins" if name == "first" else "loses"
        line = f"No contest: the combatant automatically {how} initiative."
    else:
        line = (
            f"Initiative: d6 {a} {mod:+d} = {a + mod} against the foe's d6 {b} "
            f"{p['foe_modifier']:+d} = {b + p['foe_modifier']}"
        )
        line += {
            "first": "; we act first.",
            "second": "; the foe acts first.",
            "together": "; tied, both act at once.",
        }[name]
    return Outcome(name, line, {"modifier": mod, "auto": auto, "roll": a, "foe_roll": b})


def _initiative_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    mod, auto = _init_parts(p)
    return tally(
        ("first", "together", "second"),
        (
            (_init_compare(mod, auto, p["foe_modifier"], p["foe_auto"], a, b), 1)
            for a in range(1, 7)
            for b in range(1, 7)
        ),
    )


# -- surprise --------------------------------------------------------------------------------


def _surprise_name(we: bool, they: bool) -> str:
    return (
        "both" if we and they else "we_surprised" if we else "they_surprised" if they else "neither"
    )


def _surprise_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    a, b = draw_die(rng, 6), draw_die(rng, 6)
    we = p["we_can_be_surprised"] and a <= p["chance"]
    they = p["they_can_be_surprised"] and b <= p["chance"]
    name = _surprise_name(we, they)
    effect = {
        "both": "both sides are caught off guard, so the fight starts normally",
        "neither": "nobody is caught off guard",
        "we_surprised": "we are caught off guard: they get a free round",
        "they_surprised": "they are caught off guard: we get a free round",
    }[name]
    return Outcome(
        name, f"Surprise: we roll {a}, they roll {b}; {effect}.", {"our_roll": a, "their_roll": b}
    )


def _surprise_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    q = p["chance"]
    return tally(
        ("neither", "both", "we_surprised", "they_surprised"),
        (
            (
                _surprise_name(
                    p["we_can_be_surprised"] and a <= q, p["they_can_be_surprised"] and b <= q
                ),
                1,
            )
            for a in range(1, 7)
            for b in range(1, 7)
        ),
    )


# -- morale ----------------------------------------------------------------------------------


def _morale_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    a, b = draw_die(rng, 6), draw_die(rng, 6)
    score = p["morale"] + p["modifier"]
    holds = a + b <= score
    line = f"Morale: 2d6 {a}+{b} = {a + b} against {score}: " + (
        "they keep fighting." if holds else "they flee, give up or ask to talk."
    )
    return Outcome("stands" if holds else "breaks", line, {"roll": a + b, "score": score})


def _morale_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    score = p["morale"] + p["modifier"]
    return tally(
        ("stands", "breaks"),
        (("stands" if a + b <= score else "breaks", 1) for a in range(1, 7) for b in range(1, 7)),
    )


# -- death saves -----------------------------------------------------------------------------


def death_save_penalty(previous_saves: int) -> int:
    """The cumulative penalty: none on the first save, -1 more for each save before it."""
    return -previous_saves


def _death_save_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    roll = draw_die(rng, 20)
    mod = death_save_penalty(p["previous_saves"]) + p["modifier"]
    lives = roll + mod >= p["save"]
    line = (
        f"Save vs death ray no. {p['previous_saves'] + 1}: d20 {roll} {mod:+d} = {roll + mod} "
        f"against {p['save']}: " + ("still alive." if lives else "dies.")
    )
    return Outcome("survives" if lives else "dies", line, {"roll": roll, "modifier": mod})


def _death_save_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    mod = death_save_penalty(p["previous_saves"]) + p["modifier"]
    return tally(
        ("survives", "dies"),
        (("survives" if r + mod >= p["save"] else "dies", 1) for r in range(1, 21)),
    )


# -- a full attack routine: multiple attacks, haste/slow, two weapons --------------------------


def _routine_parts(p: dict[str, Any]) -> tuple[int, int, int, int]:
    """(main attacks, main to-hit value, off-hand attacks, off-hand to-hit value)."""
    main_n = rules.attacks_this_round(p["attacks"], p["speed"], p["round"])
    base = p["attack_bonus"] + p["hit_bonus"]
    mod = _modifier(p)
    main_v = rules.to_hit_value(base, p["ac"], mod)
    off_n = 1 if p["second_weapon"] != "none" else 0  # haste, slow and level never change it
    off_mod = -4 if p["second_weapon"] == "plain" else 0
    off_v = rules.to_hit_value(base, p["ac"], mod + off_mod)
    return main_n, main_v, off_n, off_v


def _routine_name(hits: int, total: int) -> str:
    if total == 0:
        return "no_attacks"
    return "all_hit" if hits == total else "none_hit" if hits == 0 else "some_hit"


def _attack_routine_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    main_n, main_v, off_n, off_v = _routine_parts(p)
    rolls: list[dict[str, Any]] = []
    for hand, n, value in (("main", main_n, main_v), ("off", off_n, off_v)):
        for _ in range(n):
            roll, hit = _roll_hit(value, rng)
            rolls.append(
                {
                    "hand": hand,
                    "roll": roll,
                    "hit": hit,
                    "extra_damage": rules.extra_damage(value) if hit else 0,
                }
            )
    hits = sum(r["hit"] for r in rolls)
    name = _routine_name(hits, len(rolls))
    shown = ", ".join(f"{r['roll']}{'*' if r['hit'] else ''}" for r in rolls) or "none"
    line = (
        f"{main_n} main-hand attack(s) needing {rules.needed_roll(main_v)}+"
        + (f" and {off_n} off-hand needing {rules.needed_roll(off_v)}+" if off_n else "")
        + f": rolls {shown} -> {hits} hit(s)."
    )
    return Outcome(
        name,
        line,
        {"main_attacks": main_n, "off_hand_attacks": off_n, "hits": hits, "rolls": rolls},
    )


def _attack_routine_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    main_n, main_v, off_n, off_v = _routine_parts(p)
    if main_n + off_n == 0:
        return {
            "all_hit": Fraction(0),
            "some_hit": Fraction(0),
            "none_hit": Fraction(0),
            "no_attacks": Fraction(1),
        }
    pm, po = rules.hit_chance(main_v), rules.hit_chance(off_v)
    all_hit = pm**main_n * po**off_n
    none_hit = (1 - pm) ** main_n * (1 - po) ** off_n
    return {
        "all_hit": all_hit,
        "some_hit": 1 - all_hit - none_hit,
        "none_hit": none_hit,
        "no_attacks": Fraction(0),
    }


# -- structures ------------------------------------------------------------------------------

SOURCES = ("hand-weapon", "large-creature", "siege-weapon", "spell")


def _structure_parts(p: dict[str, Any]) -> tuple[rules.Structure, int, int]:
    s = rules.STRUCTURES[p["structure"]]
    ac = s.ac_melee if p["kind"] == "melee" else s.ac_missile
    value = rules.to_hit_value(p["attack_bonus"] + p["hit_bonus"], ac)
    left = s.points - p["damage_taken"]
    if left <= 0:
        raise RulesError(f"the {s.title} has only {s.points} structure points.")
    return s, value, left


def _structure_name(p: dict[str, Any], s: rules.Structure, left: int, dmg: int) -> str:
    if p["source"] == "hand-weapon":
        return "no_effect"
    lost = rules.structure_loss(dmg, s.material, p["full_damage"])
    return "destroyed" if lost >= left else "damaged" if lost else "no_effect"


def _structure_attack_resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
    s, value, left = _structure_parts(p)
    roll, hit = _roll_hit(value, rng)
    line = f"Against the {s.title}: " + _hit_line(value, roll, hit)
    data: dict[str, Any] = {"roll": roll, "to_hit_value": value, "points_left": left}
    if not hit:
        return Outcome("miss", line + ".", data)
    dmg = max(0, stat_dice(p["damage"]).roll(rng) + rules.extra_damage(value))
    name = _structure_name(p, s, left, dmg)
    lost = (
        0
        if p["source"] == "hand-weapon"
        else min(left, rules.structure_loss(dmg, s.material, p["full_damage"]))
    )
    data.update(damage=dmg, points_lost=lost, points_left=left - lost)
    if p["source"] == "hand-weapon":
        line += "; hand-held weapons cannot harm a structure"
    else:
        line += f"; {dmg} damage costs it {lost} structure points, {left - lost} left"
    return Outcome(name, line + ".", data)


def _structure_attack_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    s, value, left = _structure_parts(p)
    chance = rules.hit_chance(value)
    extra = rules.extra_damage(value)
    weights = damage_weights(p["damage"])
    whole = sum(w for _, w in weights)
    out = {
        "miss": 1 - chance,
        "no_effect": Fraction(0),
        "damaged": Fraction(0),
        "destroyed": Fraction(0),
    }
    for total, w in weights:
        out[_structure_name(p, s, left, max(0, total + extra))] += chance * Fraction(w, whole)
    return out


PROCEDURES = by_name(
    Procedure(
        "attack",
        "Attack roll: d20 + to-hit value must reach 20",
        (
            P_ATTACK_BONUS,
            P_AC,
            P_HIT_BONUS,
            P_KIND,
            Param(
                "cover",
                str,
                "none",
                "cover of the target (missile and thrown attacks only)",
                choices=tuple(rules.COVER),
            ),
            P_SPEED,
            P_TARGET_SPEED,
            Param("off_hand", bool, False, "off-hand weapon without the Off Hand ability (-4)"),
            Param(
                "range_band",
                str,
                "none",
                "range of a missile or thrown attack (short +1, long -1)",
                choices=("none", "short", "medium", "long"),
            ),
            Param("smash", bool, False, "a smash: -5 to hit, strength score added to damage"),
            Param("sneak", bool, False, "a thief's sneak attack: +4 and counts as unseen"),
            Param("unseen", bool, False, "attacker unseen (from behind, above, invisible): +2"),
            Param("target_shield", bool, False, "target carries a shield (lost to unseen attacks)"),
            Param("target_unseen", bool, False, "attacker cannot see the target: -4 melee only"),
            Param("target_parrying", bool, False, "target is parrying: -4 to melee and thrown"),
            P_DAMAGE,
            P_DAMAGE_BONUS,
            number("strength", 0, "strength score, added to a smash's damage", 0, 30),
            Param("double", bool, False, "double damage (charge, set spear, sneak attack)"),
        ),
        ("hit", "miss"),
        _attack_resolve,
        _attack_odds,
    ),
    Procedure(
        "damage",
        "Damage: hit points never go below 0; at 0 the target falls unconscious",
        (
            dice_param("damage", "damage dice such as 1d8+1"),
            Param("target_hp", int, None, "target's current hit points", minimum=1, maximum=10000),
            P_DAMAGE_BONUS,
            number("extra_damage", 0, "extra damage from a to-hit value above 20", 0, 100),
            Param("strength", int, 0, "strength score added by a smash", minimum=0, maximum=30),
            Param("double", bool, False, "double damage (charge, set spear, sneak attack)"),
            Param("halved", bool, False, "target saved against a hurled weapon: half damage"),
        ),
        ("down", "standing"),
        _damage_resolve,
        _damage_odds,
    ),
    Procedure(
        "initiative",
        "Initiative: 1d6 plus modifiers against a foe; higher acts first, ties act together",
        (
            Param(
                "declared",
                str,
                "normal",
                "stated intent before the monsters (+1) or after (-1)",
                choices=tuple(rules.DECLARED),
            ),
            Param("halfling", bool, False, "halflings get +1"),
            Param("dex_mod", int, 0, "dexterity initiative modifier", minimum=-5, maximum=5),
            Param(
                "speed",
                str,
                "normal",
                "hasted +2, slowed -2; double: automatic win or loss",
                choices=rules.SPEEDS,
            ),
            Param(
                "two_handed", bool, False, "attacking with a two-handed melee weapon: always last"
            ),
            Param("smash", bool, False, "making a smash: always last"),
            number("modifier", 0, "any other bonus or penalty (spells, monster ability)", -20, 20),
            Param(
                "auto",
                str,
                "none",
                "an item or ability that always wins or always loses",
                choices=rules.AUTO,
            ),
            number("foe_modifier", 0, "the foe's total initiative modifier", -20, 20),
            Param(
                "foe_auto",
                str,
                "none",
                "the foe automatically wins or loses initiative",
                choices=rules.AUTO,
            ),
        ),
        ("first", "together", "second"),
        _initiative_resolve,
        _initiative_odds,
    ),
    Procedure(
        "surprise",
        "Surprise: each side rolls 1d6 and is surprised on 1-2",
        (
            Param("chance", int, 2, "surprised on a d6 roll of this or less", minimum=0, maximum=6),
            Param("we_can_be_surprised", bool, True, "false if we knew they were there"),
            Param("they_can_be_surprised", bool, True, "false if they knew we were there"),
        ),
        ("neither", "both", "we_surprised", "they_surprised"),
        _surprise_resolve,
        _surprise_odds,
    ),
    Procedure(
        "morale",
        "Morale check (monsters and hirelings): 2d6 at or under the morale score holds",
        (
            Param("morale", int, None, "base morale score", minimum=0, maximum=30),
            Param("modifier", int, 0, "situational modifier to the score", minimum=-12, maximum=12),
        ),
        ("stands", "breaks"),
        _morale_resolve,
        _morale_odds,
    ),
    Procedure(
        "death_save",
        "Dying: a save vs death ray at the end of each round, -1 more for each earlier save",
        (
            number("save", None, "saving throw vs death ray (roll this or more on d20)", 1, 40),
            Param(
                "previous_saves", int, 0, "saves already made while dying", minimum=0, maximum=100
            ),
            Param("modifier", int, 0, "other bonus or penalty", minimum=-20, maximum=20),
        ),
        ("survives", "dies"),
        _death_save_resolve,
        _death_save_odds,
    ),
    Procedure(
        "attack_routine",
        "A round's attacks: several attacks, haste and slow, and a second weapon in the off hand",
        (
            P_ATTACK_BONUS,
            P_AC,
            P_HIT_BONUS,
            Param("attacks", int, 1, "attacks per round at normal speed", minimum=0, maximum=20),
            P_SPEED,
            P_TARGET_SPEED,
            number(
                "round", 1, "round number (slowed half attacks come every other round)", 1, 10000
            ),
            Param(
                "second_weapon",
                str,
                "none",
                "off-hand weapon: none, plain (-4) or one with the Off Hand ability",
                choices=("none", "plain", "off-hand"),
            ),
        ),
        ("all_hit", "some_hit", "none_hit", "no_attacks"),
        _attack_routine_resolve,
        _attack_routine_odds,
    ),
    Procedure(
        "smash",
        "Smash: one melee attack at -5 that adds the strength score to damage (loses initiative)",
        (
            P_ATTACK_BONUS,
            P_AC,
            P_HIT_BONUS,
            dice_param("damage", "weapon damage dice such as 1d8"),
            number("damage_bonus", 0, "strength modifier and other flat damage bonuses", -50, 100),
            Param("strength", int, None, "strength score", minimum=0, maximum=30),
        ),
        ("hit", "miss"),
        _smash_resolve,
        _smash_odds,
    ),
    Procedure(
        "structure_attack",
        "Attacking a structure from Table 10-3: wood loses 1 point per 2 damage, stone 1 per 5",
        (
            Param("structure", str, None, "which structure", choices=tuple(rules.STRUCTURES)),
            P_ATTACK_BONUS,
            P_HIT_BONUS,
            Param(
                "kind",
                str,
                "melee",
                "melee or missile (each has its own armour class)",
                choices=("melee", "missile"),
            ),
            Param("source", str, "large-creature", "what is attacking", choices=SOURCES),
            dice_param("damage", "damage dice such as 3d6"),
            Param("full_damage", bool, False, "a wood-eater or rock-burrower does full damage"),
            Param(
                "damage_taken", int, 0, "structure points already lost", minimum=0, maximum=100000
            ),
        ),
        ("miss", "no_effect", "damaged", "destroyed"),
        _structure_attack_resolve,
        _structure_attack_odds,
    ),
)
