"""Scars' rules as plain functions: outcome sets and what a die result means (no dice here)."""

from __future__ import annotations

from collections.abc import Callable

from rollbook.engine.systems.mechanics import Bands

__all__ = [
    "ATTACK_OUTCOMES",
    "ATTACK_RANK",
    "DAMAGE_OUTCOMES",
    "DISTANCES",
    "HIRELING_OUTCOMES",
    "HIRELING_RANK",
    "INITIATIVE_OUTCOMES",
    "INIT_RANK",
    "MORALE_OUTCOMES",
    "PACK_OUTCOMES",
    "PACK_RANK",
    "REACTION_OUTCOMES",
    "RITUAL_OUTCOMES",
    "RITUAL_RANK",
    "SHIFTS",
    "attack_result",
    "damage_result",
    "damage_shift",
    "dying_result",
    "hireling_result",
    "initiative_result",
    "morale_result",
    "pack_result",
    "reaction_result",
    "ritual_result",
    "shift_note",
    "shifted",
]


SHIFTS = ("best", "none", "up", "down")


def shifted(raw: int, scars: int, shift: str, rank: Callable[[int], int]) -> int:
    """The result after the roller applies (or not) the Scars modifier to a raw die."""
    if scars == 0 or shift == "none":
        return raw
    if shift == "up":
        return raw + scars
    if shift == "down":
        return raw - scars
    # best: unmodified wins ties, then up, then down (so the choice is reproducible)
    return max((raw, raw + scars, raw - scars), key=rank)


def shift_note(raw: int, used: int) -> str:
    """The die for the log: ``raw``, or how Scars moved it."""
    return f"{raw}" if raw == used else f"{raw} moved to {used} by Scars"


ATTACK_OUTCOMES = ("stun", "hit", "armour_dent", "armour_broken", "miss")
ATTACK_RANK = {"stun": 4, "hit": 3, "armour_broken": 2, "armour_dent": 1, "miss": 0}


def attack_result(value: int, attack: int, ac: int) -> str:
    """Classify a (possibly shifted) attack roll against an attack number and an AC."""
    if ac >= 1 and value == ac:
        return "armour_broken" if ac == 1 else "armour_dent"
    if ac < value <= attack:
        return "stun" if value == attack else "hit"
    return "miss"


DAMAGE_OUTCOMES = ("wounded", "bloodied", "down")


def damage_shift(scars: int, shift: str) -> int:
    """What Scars add to damage with this shift."""
    return {"best": scars, "up": scars, "down": -scars}.get(shift, 0)


def damage_result(after: int, max_health: int) -> str:
    """Where a blow leaves the target: ``wounded``, ``bloodied`` (half or less) or ``down``."""
    if after <= 0:
        return "down"
    return "bloodied" if 2 * after <= max_health else "wounded"


def dying_result(two_d6: int, scars_now: int) -> str:
    """At 0 health: 2d6 at or under the Scars total (the new one included) is death."""
    return "dies" if two_d6 <= scars_now else "wakes"


def _at_under_over(outcomes: tuple[str, str, str], value: int, score: int) -> str:
    """A d20 against a score: exactly it, under it, over it (best first)."""
    if value == score:
        return outcomes[0]
    return outcomes[1] if value < score else outcomes[2]


INITIATIVE_OUTCOMES = ("quick_action", "before", "after")
INIT_RANK = {"quick_action": 2, "before": 1, "after": 0}


def initiative_result(value: int, agility: int) -> str:
    """d20 against Agility: exactly is a quick action (and first), under first, over after."""
    return _at_under_over(INITIATIVE_OUTCOMES, value, agility)


MORALE_OUTCOMES = ("rallies", "stands", "flees")


def morale_result(roll: int, hd: int) -> str:
    """d20 against 10 + HD: under stands, exactly rallies, over flees."""
    target = 10 + hd
    if roll == target:
        return "rallies"
    return "stands" if roll < target else "flees"


HIRELING_OUTCOMES = ("heroic", "holds", "wavers", "flees")
HIRELING_RANK = {"heroic": 3, "holds": 2, "wavers": 1, "flees": 0}


def hireling_result(value: int, cunning: int, hd: int) -> str:
    """d20 between the hireling's HD and the employer's Cunning (exact values are special)."""
    if value == cunning:
        return "heroic"
    if value == hd:
        return "wavers"
    return "holds" if hd < value < cunning else "flees"


PACK_OUTCOMES = ("ready_now", "found", "lost")
PACK_RANK = {"ready_now": 2, "found": 1, "lost": 0}


def pack_result(value: int, cunning: int) -> str:
    """d20 against Cunning when digging in the pack mid-fight."""
    return _at_under_over(PACK_OUTCOMES, value, cunning)


RITUAL_OUTCOMES = ("casts", "mishap")
RITUAL_RANK = {"casts": 1, "mishap": 0}


def ritual_result(value: int, cunning: int, hurt: int) -> str:
    """A ritual works when the roll beats the damage taken and is at most Cunning."""
    return "casts" if hurt < value <= cunning else "mishap"


#: The attitude bands of a 2d6 reaction total.
reaction_result = Bands(
    ((3, "friendly"), (6, "helpful"), (7, "uninterested"), (10, "hostile"), (12, "murderous"))
)
REACTION_OUTCOMES = reaction_result.outcomes


DISTANCES = tuple(str(10 * n) for n in range(2, 13))
