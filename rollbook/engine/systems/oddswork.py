"""How much work a procedure's exact odds take, checked against the limit before starting.

Procedures add up stat-block dice (``SmallDice``: up to 100 dice of up to 1000 sides) one
die at a time, each step touching every total so far for every face; some list every face
combination instead. Both costs are known from the dice alone, so an impossible request is
refused at once (``procedure_odds_work`` in `rollbook.engine.limits`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rollbook.engine.limits import value
from rollbook.engine.systems.base import RulesError

if TYPE_CHECKING:
    from rollbook.engine.systems.dice import SmallDice

__all__ = ["check_odds_work", "odds_work"]


def odds_work(dice: SmallDice, *, every_combination: bool = False) -> int:
    """Steps to find the exact totals of ``dice``: face by face, or every face combination."""
    if every_combination:
        return int(dice.sides) ** int(dice.count)
    # after k dice there are k*(sides-1)+1 totals; each meets every face of the next die
    return sum((k * (dice.sides - 1) + 1) * dice.sides for k in range(dice.count))


def check_odds_work(dice: SmallDice, *, every_combination: bool = False) -> None:
    """Raise `RulesError` (one sentence) when ``dice`` are over the odds-work limit."""
    limit = value("procedure_odds_work")
    if odds_work(dice, every_combination=every_combination) > limit:
        raise RulesError(
            f"the exact odds of {dice} would take more than {limit:,} steps "
            "(the procedure_odds_work limit); use fewer or smaller dice."
        )
