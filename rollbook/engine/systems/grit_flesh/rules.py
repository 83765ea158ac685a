"""Grit & Flesh rules as plain functions: outcome sets, edges, damage, morale (no dice here)."""

from __future__ import annotations

from fractions import Fraction

from rollbook.engine.systems.mechanics import Bands

__all__ = [
    "ATTACK_OUTCOMES",
    "DAMAGE_OUTCOMES",
    "EFFECTS",
    "MORALE_NAMES",
    "REACTION_OUTCOMES",
    "TAGS",
    "apply_damage",
    "attack_result",
    "combine",
    "morale_chance",
    "reaction_result",
]


TAGS = ("crushing", "slashing", "piercing")
EFFECTS = {"crushing": "dazed", "slashing": "bleeding", "piercing": "pinned"}


def combine(*edges: str) -> str:
    """Boons and Banes cancel one for one; what is left decides the roll."""
    score = 0
    for edge in edges:  # a plain loop: every character's initiative asks this every round
        if edge == "boon":
            score += 1
        elif edge == "bane":
            score -= 1
    return "boon" if score > 0 else "bane" if score < 0 else "none"


ATTACK_OUTCOMES = ("critical_hit", "hit", "miss", "critical_miss")


def attack_result(die: int, violence: int, defense: int) -> str:
    """A kept d20 plus Violence against Defense; natural 20 and 1 decide on their own."""
    if die == 20:
        return "critical_hit"
    if die == 1:
        return "critical_miss"
    return "hit" if die + violence >= defense else "miss"


DAMAGE_OUTCOMES = ("grit_only", "flesh", "down")


def apply_damage(amount: int, grit: int, flesh: int, critical: bool) -> tuple[int, int, str]:
    """Take ``amount`` off Grit then Flesh (criticals skip Grit): new grit, flesh, outcome."""
    if not critical:
        soak = min(grit, amount)
        grit, amount = grit - soak, amount - soak
    flesh = max(0, flesh - amount)
    name = "down" if flesh == 0 else "flesh" if amount > 0 else "grit_only"
    return grit, flesh, name


MORALE_NAMES = {0: "craven", 4: "cowardly", 10: "impulsive", 14: "brave", 20: "suicidal"}


def morale_chance(morale: int) -> Fraction:
    """Chance to pass a Morale Test: 5 % per point plus 5 %, at most 100 %."""
    return Fraction(min(morale + 1, 20), 20)


#: The disposition bands of a 2d6 luck roll.
reaction_result = Bands(
    ((2, "bloodthirsty"), (5, "hostile"), (8, "wary"), (11, "cooperative"), (12, "friendly"))
)
REACTION_OUTCOMES = reaction_result.outcomes
