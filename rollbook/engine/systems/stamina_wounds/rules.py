"""Stamina & Wounds rules as plain functions: wound bands, damage and its odds (no dice here)."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from rollbook.engine.systems.dice import edge_faces

__all__ = ["ATTACK_OUTCOMES", "DIE_SIZES", "WOUND_BANDS", "damage_pmf", "take_damage", "wound_band"]


DIE_SIZES = (4, 6, 8, 10, 12, 20)


def _chain(
    sides: int, cap: int, start: Iterable[tuple[int, int]]
) -> dict[tuple[int, int], Fraction]:
    """Exact (total, explosions left) after one exploding die whose first face has weights."""
    weights = list(start)
    whole = sum(w for _, w in weights)
    out: dict[tuple[int, int], Fraction] = {}
    for face, w in weights:
        p = Fraction(w, whole)
        if face == sides and cap > 0:
            for (total, left), q in _chain(
                sides, cap - 1, ((f, 1) for f in range(1, sides + 1))
            ).items():
                key = (face + total, left)
                out[key] = out.get(key, Fraction(0)) + p * q
        else:
            out[(face, cap)] = out.get((face, cap), Fraction(0)) + p
    return out


def damage_pmf(
    sides: int, slots: int, edge: str = "none", sneak: bool = False
) -> dict[int, Fraction]:
    """The exact distribution of an attack's raw damage (before AV)."""
    plain = [(f, 1) for f in range(1, sides + 1)]
    first = _chain(sides, slots, edge_faces(sides, edge))
    if sneak:
        joint: dict[tuple[int, int], Fraction] = {}
        for (total, left), p in first.items():
            for (more, rest), q in _chain(sides, left, plain).items():
                key = (total + more, rest)
                joint[key] = joint.get(key, Fraction(0)) + p * q
        first = joint
    pmf: dict[int, Fraction] = {}
    for (total, _), p in first.items():
        pmf[total] = pmf.get(total, Fraction(0)) + p
    return pmf


WOUND_BANDS = ("pain", "gear", "bleeding", "mortal")


def wound_band(wounds: int) -> str:
    """The effect of this many Wounds from one attack (at least 1)."""
    if wounds <= 3:
        return "pain"
    if wounds <= 6:
        return "gear"
    return "bleeding" if wounds <= 9 else "mortal"


ATTACK_OUTCOMES = ("no_damage", "stamina", *WOUND_BANDS, "dead")


def take_damage(
    amount: int, stamina: int, wounds: int, max_wounds: int
) -> tuple[int, int, int, str]:
    """Stamina first, then Wounds: ``(stamina, wounds, new wounds, outcome)``."""
    if amount <= 0:
        return stamina, wounds, 0, "no_damage"
    soak = min(stamina, amount)
    fresh = amount - soak
    stamina, wounds = stamina - soak, wounds + fresh
    if fresh and wounds >= max_wounds:
        return stamina, max_wounds, fresh, "dead"  # Wounds past the maximum mean nothing more
    return stamina, wounds, fresh, wound_band(fresh) if fresh else "stamina"
