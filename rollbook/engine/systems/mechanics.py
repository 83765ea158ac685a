"""Mechanics several systems share, written once: parameters, the d20 check, 2d6 reactions.

A system's package declares what is its own (outcome names, texts, numbers) and builds its
procedures from these; which dice function it rolls with (`dice.roll_die` or
`dice.draw_die`) stays its own too, since seeded results depend on it. Stat-block dice are
read by `rollbook.engine.systems.dice.stat_dice` into each system's typed state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rollbook.engine.systems.base import Outcome, Param, Procedure, product_faces, tally
from rollbook.engine.systems.dice import EDGES, edge_faces, roll_edge

__all__ = [
    "EDGE",
    "KINDS",
    "Bands",
    "attr_param",
    "d20_check",
    "dice_param",
    "edge_param",
    "kind_param",
    "number",
    "reaction_procedure",
]

#: Who a combatant is, in the systems with characters, hirelings and enemies.
KINDS = ("pc", "hireling", "enemy")


def kind_param(kinds: tuple[str, ...] = KINDS, default: str = "enemy", why: str = "") -> Param:
    """The stat-block field ``kind`` (who fights how: characters, their help, the enemy).

    ``why`` says what the kind decides, after the choices in the help.
    """
    help_text = f"{', '.join(kinds[:-1])} or {kinds[-1]}" + (f" ({why})" if why else "")
    return Param("kind", str, default, help_text, choices=kinds)


def number(name: str, default: int | None, help_text: str, minimum: int, maximum: int) -> Param:
    """A whole-number parameter from ``minimum`` to ``maximum`` (``default`` None: required)."""
    return Param(name, int, default, help_text, minimum=minimum, maximum=maximum)


def attr_param(name: str, help_text: str, default: int | None = 0) -> Param:
    """An attribute added to a d20 (-20 to 40)."""
    return Param(name, int, default, help_text, minimum=-20, maximum=40)


def dice_param(name: str, help_text: str, default: str | None = None) -> Param:
    """Dice notation a procedure or stat block rolls (``1d8+1``, ``d6``)."""
    return Param(name, str, default, help_text)


def edge_param(help_text: str) -> Param:
    """``edge``: none, boon (two d20, the better) or bane (the worse)."""
    return Param("edge", str, "none", help_text, choices=EDGES)


#: The ``edge`` of a d20 check or attack (the systems with boons and banes).
EDGE = edge_param("none, boon (best of 2d20) or bane (worst of 2d20)")


@dataclass(frozen=True)
class Bands:
    """A table of totals: ``(highest total, outcome)`` pairs, lowest first."""

    bands: tuple[tuple[int, str], ...]

    @property
    def outcomes(self) -> tuple[str, ...]:
        """The outcome names, in table order."""
        return tuple(name for _, name in self.bands)

    def __call__(self, total: int) -> str:
        """The outcome of ``total`` (the last band takes anything above it)."""
        for top, name in self.bands:
            if total <= top:
                return name
        return self.bands[-1][1]


def reaction_procedure(
    title: str,
    table: Bands,
    roll: Callable[[random.Random, int], int],
    said: Callable[[int, int, str], str],
) -> Procedure:
    """The 2d6 reaction roll: ``table`` of the total; ``said(a, b, outcome)`` the text."""

    def resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
        a = roll(rng, 6)
        b = roll(rng, 6)
        name = table(a + b)
        return Outcome(name, said(a, b, name), {"roll": a + b})

    def odds(p: dict[str, Any]) -> dict[str, Fraction]:
        return tally(table.outcomes, ((table(a + b), 1) for a, b in product_faces(6, 6)))

    return Procedure("reaction", title, (), table.outcomes, resolve, odds)


def d20_check(
    name: str,
    title: str,
    attr: Param,
    said: Mapping[str, str],
    head: Callable[[dict[str, Any], str, int, int], str],
    *,
    against: Param,
    params: tuple[Param, ...],
    edge_of: Callable[[dict[str, Any]], str] = lambda p: str(p["edge"]),
) -> Procedure:
    """A d20 check: d20 (boon/bane: two, the better/worse) + ``attr`` >= ``against``.

    Args:
        name: The procedure's name.
        title: Its title.
        attr: The attribute added to the die.
        said: Success, then failure: each outcome's name and what it means (the log's end).
        head: ``head(p, edge, die, total)`` -> how the roll went (the log's start).
        against: The number to reach (a difficulty, a target).
        params: The procedure's parameters, in the order they are described.
        edge_of: The edge the roll takes (a system may combine several sources).
    """
    outcomes = tuple(said)
    good, bad = outcomes

    def resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
        edge = edge_of(p)
        die = roll_edge(rng, 20, edge)
        total = die + p[attr.name]
        name = good if total >= p[against.name] else bad
        line = f"{head(p, edge, die, total)}: {said[name]}."
        return Outcome(name, line, {"roll": die, "total": total})

    def odds(p: dict[str, Any]) -> dict[str, Fraction]:
        bonus, goal = p[attr.name], p[against.name]
        faces = edge_faces(20, edge_of(p))
        return tally(outcomes, ((good if f + bonus >= goal else bad, w) for f, w in faces))

    return Procedure(name, title, params, outcomes, resolve, odds)
