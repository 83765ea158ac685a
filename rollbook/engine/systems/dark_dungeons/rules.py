"""Dark Dungeons' combat arithmetic as plain functions (no dice, no state).

The to-hit rule: to-hit value = attack bonus + armour class + every to-hit modifier; an attack
hits when the to-hit value plus 1d20 reaches 20, except that a natural 1 always misses and a
natural 20 always hits. A to-hit value above 20 adds 1 damage per 2 points of excess (odd
points round up). Table 10-2 of the rules is this rule printed out; `table_entry` reproduces
one of its cells.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

__all__ = [
    "AUTO",
    "COVER",
    "DECLARED",
    "SPEEDS",
    "SPEED_LEVEL",
    "STRUCTURES",
    "Structure",
    "attacks_this_round",
    "extra_damage",
    "hit_chance",
    "initiative_auto",
    "initiative_modifier",
    "needed_roll",
    "speed_level",
    "structure_loss",
    "table_entry",
    "to_hit_modifier",
    "to_hit_value",
]

HIT_TARGET = 20  # to-hit value + d20 must reach this

# Cover against missile, thrown and hurled attacks: to-hit modifier, None = cannot be attacked.
COVER: dict[str, int | None] = {
    "none": 0,
    "soft-knees": -1,
    "soft-waist": -2,
    "soft-peeking": -3,
    "soft-full": -4,
    "hard-knees": -2,
    "hard-waist": -4,
    "hard-peeking": -6,
    "hard-full": None,
}

# Speed levels, slowest first; each level apart is worth 2 points to hit.
SPEEDS = ("double-slowed", "slowed", "normal", "hasted", "double-hasted")

# Attack rate per speed level, as a fraction (numerator, denominator) of the normal number.
_RATE = {
    "double-slowed": (1, 4),
    "slowed": (1, 2),
    "normal": (1, 1),
    "hasted": (2, 1),
    "double-hasted": (4, 1),
}

AUTO = ("none", "win", "lose")  # automatic initiative results


def to_hit_value(attack_bonus: int, ac: int, modifier: int = 0) -> int:
    """Attack bonus plus the defender's armour class plus all to-hit modifiers."""
    return attack_bonus + ac + modifier


def needed_roll(value: int) -> int:
    """The lowest d20 face that hits with this to-hit value (2 at best, 20 at worst)."""
    return min(20, max(2, HIT_TARGET - value))


def hit_chance(value: int) -> Fraction:
    """Exact chance that a d20 hits with this to-hit value."""
    return Fraction(21 - needed_roll(value), 20)


def extra_damage(value: int) -> int:
    """Bonus damage on a hit: half the excess of the to-hit value over 20, rounded up."""
    excess = value - HIT_TARGET
    return (excess + 1) // 2 if excess > 0 else 0


def table_entry(attack_bonus: int, ac: int) -> str:
    """One cell of Table 10-2: the roll needed (may be 0, 1 or above 20), or ``"N!"``."""
    value = to_hit_value(attack_bonus, ac)
    if value > HIT_TARGET:
        return f"{extra_damage(value)}!"
    return str(HIT_TARGET - value)


SPEED_LEVEL = {speed: i - SPEEDS.index("normal") for i, speed in enumerate(SPEEDS)}


def speed_level(speed: str) -> int:
    """Position of a speed on the slow-to-fast scale (normal is 0)."""
    return SPEED_LEVEL[speed]


def to_hit_modifier(
    *,
    kind: str = "melee",
    cover: str = "none",
    speed: str = "normal",
    target_speed: str = "normal",
    off_hand: bool = False,
    range_band: str = "none",
    smash: bool = False,
    sneak: bool = False,
    unseen: bool = False,
    target_shield: bool = False,
    target_unseen: bool = False,
    target_parrying: bool = False,
) -> int:
    """Sum of the listed situational to-hit modifiers (a shield lost to unseen attacks too).

    Raises:
        ValueError: with a plain sentence when the attack cannot be made at all.
    """
    total = 0
    ranged = kind in ("missile", "thrown")
    if ranged:
        cover_mod = COVER[cover]
        if cover_mod is None:
            raise ValueError("a target fully behind hard cover cannot be attacked.")
        total += cover_mod
        total += {"none": 0, "short": 1, "medium": 0, "long": -1}[range_band]
    total += 2 * (speed_level(speed) - speed_level(target_speed))
    if off_hand:
        total -= 4
    if smash:
        total -= 5
    if sneak:
        total += 4
        unseen = True  # a sneak attack is always an unseen one as well
    if unseen:
        total += 2
        if target_shield:
            total += 1  # the shield's 1 point of armour class does not count
    if target_unseen:
        if ranged:
            raise ValueError("a ranged attack cannot be made at a target the attacker cannot see.")
        total -= 4
    if target_parrying and kind != "missile":
        total -= 4
    return total


#: When a side states its intent, before the monsters or after: its initiative modifier.
DECLARED = {"early": 1, "normal": 0, "late": -1}


def initiative_modifier(
    *,
    declared: str = "normal",
    halfling: bool = False,
    dex_mod: int = 0,
    speed: str = "normal",
    other: int = 0,
) -> int:
    """The total added to a 1d6 initiative roll."""
    total = DECLARED[declared] + dex_mod + other
    if halfling:
        total += 1
    total += {"slowed": -2, "hasted": 2}.get(speed, 0)
    return total


def initiative_auto(
    *, speed: str = "normal", two_handed: bool = False, smash: bool = False, forced: str = "none"
) -> str:
    """``"win"``, ``"lose"`` or ``"none"``: whether the combatant skips the initiative contest.

    Winning and losing automatically at once cancel out (our reading; the rules are silent).
    """
    wins = speed == "double-hasted" or forced == "win"
    loses = speed == "double-slowed" or two_handed or smash or forced == "lose"
    if wins and not loses:
        return "win"
    if loses and not wins:
        return "lose"
    return "none"


def attacks_this_round(base: int, speed: str, round_no: int) -> int:
    """Attacks made in round ``round_no`` (1-based) at a speed; fractional rates alternate.

    A slowed fighter with 3 attacks makes 1.5 a round: 1 in odd rounds, 2 in even ones.
    """
    num, den = _RATE[speed]
    num *= base
    if den == 1:
        return num
    return (num * round_no) // den - (num * (round_no - 1)) // den


@dataclass(frozen=True)
class Structure:
    """A structure from Table 10-3."""

    title: str
    ac_missile: int
    ac_melee: int
    points: int
    material: str  # "wood", "stone" or "iron"


STRUCTURES: dict[str, Structure] = {
    "wooden-building": Structure("simple wooden building", -4, 6, 40, "wood"),
    "stone-building": Structure("simple stone building", -4, 6, 60, "stone"),
    "wooden-stockade": Structure("reinforced wooden stockade", -4, 6, 300, "wood"),
    "palisade-gate": Structure("barred wooden palisade gate", -8, 2, 100, "wood"),
    "castle-wall": Structure("reinforced stone castle wall", -4, 6, 500, "stone"),
    "iron-door": Structure("reinforced iron door", -10, 2, 35, "iron"),
    "portcullis": Structure("iron portcullis", -4, 6, 150, "iron"),
}


def structure_loss(damage: int, material: str, full: bool = False) -> int:
    """Structure points lost to ``damage``: wood 1 per 2, stone (and iron) 1 per 5.

    ``full`` is for creatures that eat wood or burrow through rock. Iron is not covered by the
    rules; we treat it like stone.
    """
    if full:
        return damage
    return damage // (2 if material == "wood" else 5)
