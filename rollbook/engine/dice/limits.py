"""The engine's limits: checked before any work so no input can hang or exhaust memory."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LIMITS", "Limits"]


@dataclass(frozen=True, slots=True)
class Limits:
    """Upper bounds on what a notation may ask for.

    Attributes:
        max_length: Characters in the notation (after trimming surrounding whitespace).
        max_depth: Nesting of parentheses, groups, function calls and signs.
        max_dice: Dice rolled by one term (``NdX``: N).
        max_sides: Sides of one die.
        max_total_dice: Dice named by the whole notation, summed over all terms.
        max_explosions: Extra rolls one die may explode into; rolling stops there and
            exact odds use the same depth, so both describe the same process.
        max_rolled_dice: Dice the whole notation may roll in the worst case, counting each
            exploding die as ``1 + max_explosions`` rolls (bounds the work of one roll).
        max_exponent: Absolute value of an exponent in ``**``, ``^`` or ``pow``.
        max_value_bits: Size of any intermediate value, in bits.
        max_odds_outcomes: Distinct values an exact-odds distribution may hold at any step.
        max_odds_states: States explored when odds are computed by enumeration.
    """

    max_length: int = 1000
    max_depth: int = 40
    max_dice: int = 1000
    max_sides: int = 10_000
    max_total_dice: int = 2000
    max_explosions: int = 10
    max_rolled_dice: int = 5000
    max_exponent: int = 100
    max_value_bits: int = 4096
    max_odds_outcomes: int = 200_000
    max_odds_states: int = 300_000


LIMITS = Limits()
