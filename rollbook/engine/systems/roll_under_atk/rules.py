"""Roll-under-atk's combat arithmetic: weapons, targets, breakage, chases (no dice here).

Every check in this game is a d20 (morale: 2d6) rolled at or under a number. A natural 1 on
an attack or defence roll is a critical success, a natural 20 a critical failure that puts
the weapon (or the armour, when defending) at risk of breaking.
"""

from __future__ import annotations

from dataclasses import dataclass

from rollbook.engine.systems.mechanics import Bands

__all__ = [
    "QUALITIES",
    "WEAPONS",
    "Weapon",
    "break_chance",
    "chase_gain",
    "defense_from_ac",
    "opposed",
    "range_penalty",
]


@dataclass(frozen=True)
class Weapon:
    """One weapon class: its damage die, whether strength adds, its range step (feet)."""

    title: str
    die: int  # sides of the damage die; 0 for fists (flat 1)
    strength: bool
    range_step: int = 0  # -1 ATK per this many feet beyond the first step; 0: not ranged
    atk: int = 0  # flat ATK modifier (improvised weapons)
    two_hands_die: int = 0  # die when held in two hands (medium weapons)


WEAPONS: dict[str, Weapon] = {
    "light": Weapon("light weapon", 6, True, range_step=10),
    "medium": Weapon("medium weapon", 6, True, two_hands_die=8),
    "heavy": Weapon("heavy weapon", 10, True),
    "improvised": Weapon("improvised weapon", 6, True, atk=-2),
    "sling": Weapon("sling", 6, False, range_step=20),
    "bow": Weapon("bow", 6, False, range_step=30),
    "crossbow": Weapon("crossbow", 10, False, range_step=40),
    "fists": Weapon("fists and feet", 0, True),
}

QUALITIES = ("fragile", "standard", "masterwork")

REACTIONS = (  # (highest 2d6 total, outcome name)
    (2, "helpful"),
    (5, "somewhat_friendly"),
    (8, "instinctual"),
    (11, "aggressive"),
    (12, "hostile"),
)


reaction_for = Bands(REACTIONS)  # the reaction band of a 2d6 total


def range_penalty(weapon: str, distance: int) -> int:
    """ATK penalty (as a negative number) for a ranged attack at ``distance`` feet."""
    step = WEAPONS[weapon].range_step
    if not step or distance <= step:
        return 0
    return -((distance - step) // step)  # whole steps only: 15' past the first 10' costs 1


def break_chance(quality: str) -> int:
    """How many faces of a d6 (out of 6) break an item of this quality."""
    return {"fragile": 6, "standard": 3, "masterwork": 1}[quality]


def defense_from_ac(ac: int, scheme: str = "ascending") -> int:
    """An enemy's defense from another game's armour class.

    ``ascending`` and the given example: subtract 10 (18 -> 8); ``lotfp``: subtract 12;
    ``bx-descending``/``adnd-descending``: first turn descending into ascending (19 or 20
    minus it), then subtract 10.
    """
    if scheme == "ascending":
        return ac - 10
    if scheme == "lotfp":
        return ac - 12
    if scheme == "bx-descending":
        return (19 - ac) - 10
    if scheme == "adnd-descending":
        return (20 - ac) - 10
    raise ValueError(f"unknown armour class scheme {scheme!r}.")


def margin(stat: int, roll: int) -> int | None:
    """How far under (or at) the stat a d20 roll came; None if the check failed."""
    return stat - roll if roll <= stat else None


def opposed(stat_a: int, roll_a: int, stat_b: int, roll_b: int) -> str:
    """Winner of an opposed roll-under check: ``"a"``, ``"b"`` or ``"tie"``.

    Our reading: a success beats a failure; two successes compare how far under the stat they
    came; two failures, or equal margins, are a tie.
    """
    ma, mb = margin(stat_a, roll_a), margin(stat_b, roll_b)
    if ma is None and mb is None:
        return "tie"
    if mb is None or (ma is not None and ma > mb):
        return "a"
    if ma is None or mb > ma:
        return "b"
    return "tie"


def chase_gain(move: int, roll: int) -> int:
    """Steps gained in one chase exchange: the margin under MOVE, 0 on a failed check."""
    m = margin(move, roll)
    return m if m is not None else 0
