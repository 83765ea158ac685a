"""Exact hit chances for every attacker/defender pair of a ``combat`` block, at build time.

Each system says which of its procedures gives the chance and from which stat-block fields
(`System.blow_odds`, declared in the system's package); this module asks that procedure for
its exact odds and adds up the outcomes that mean the blow lands. The page then shows the
chances without starting the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["PairOdds", "pair_odds"]

Stats = dict[str, Any]


@dataclass(frozen=True)
class PairOdds:
    """One attacker against one defender: the chance the blow lands and every outcome."""

    hit: Fraction
    outcomes: dict[str, Fraction]
    procedure: str


def pair_odds(system: Any, attacker: Stats, defender: Stats) -> PairOdds | None:
    """The exact chance that ``attacker``'s ordinary attack lands on ``defender``.

    Args:
        system: The `rollbook.engine.systems.base.System`.
        attacker: The attacker's bound stats (`Combatant.stats`).
        defender: The defender's bound stats.

    Returns:
        The odds, or ``None`` for a system that shows none or odds the engine cannot give.
    """
    blow = system.blow_odds(attacker, defender)
    if blow is None:
        return None
    name, params, landing = blow.procedure, blow.params, blow.landing
    try:
        procedure = system.procedure(name)
        odds = procedure.odds(
            {k: v for k, v in params.items() if k in {p.name for p in procedure.params}}
        )
    except ValueError:  # e.g. a broken weapon: no chance to show, not a page error
        return None
    if odds is None:
        return None
    if blow.lands_unless:
        hit = 1 - sum((odds.get(n, Fraction(0)) for n in landing), Fraction(0))
    else:
        hit = sum((odds.get(n, Fraction(0)) for n in landing), Fraction(0))
    return PairOdds(hit=hit, outcomes=dict(odds), procedure=name)
