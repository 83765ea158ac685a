"""The table engine's only door to `rollbook.engine.dice`: filling, possible values, odds, rolling.

Results are cached per filled notation: a page shows the same table's odds and labels
several times, and validation asks for the same supports again. The caches are bounded by
the values they hold (``coverage_values`` each), so many large rolls cannot pile up.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from rollbook.engine.limits import value
from rollbook.engine.tables.keys import Summed, summed
from rollbook.engine.tables.sizedcache import SizedCache
from rollbook.engine.tables.template import PLACEHOLDER

__all__ = ["fill_roll", "pmf", "possible_values", "roll_dice", "summed_odds"]


def fill_roll(notation: str, values: Mapping[str, int]) -> str:
    """Substitute prompt values into ``{{ name }}`` placeholders of a notation."""
    if not PLACEHOLDER.search(notation):
        return notation
    from rollbook.engine import dice

    return dice.fill(notation, values)


_SUPPORTS: SizedCache[str, tuple[Any, ...]] = SizedCache(value("coverage_values"))
_PMFS: SizedCache[str, dict[Any, Fraction]] = SizedCache(value("coverage_values"))
_SUMMED: SizedCache[str, Summed] = SizedCache(value("coverage_values"))


def possible_values(notation: str) -> tuple[Any, ...]:
    """Every value the filled notation can produce, sorted. Raises ``DiceError``."""
    return _SUPPORTS(notation, _support)


def pmf(notation: str) -> Mapping[Any, Fraction]:
    """Exact chance of each value of the filled notation. Raises ``DiceError``."""
    return _PMFS(notation, _pmf)


def summed_odds(notation: str) -> Summed:
    """``pmf(notation)`` as running sums (``keys.summed``). Raises ``DiceError``."""
    return _SUMMED(notation, lambda filled: summed(pmf(filled)))


def _support(notation: str) -> tuple[Any, ...]:
    from rollbook.engine import dice

    return tuple(sorted(dice.support(notation)))


def _pmf(notation: str) -> dict[Any, Fraction]:
    from rollbook.engine import dice

    return dict(dice.odds(notation).pmf)


def roll_dice(notation: str, rng: random.Random) -> Any:
    """Roll the filled notation with the dice engine (the only use of ``rng``)."""
    from rollbook.engine import dice

    return dice.roll(notation, rng)
