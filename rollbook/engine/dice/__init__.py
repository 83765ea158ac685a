"""Dice notation: parse, roll with a full breakdown, and exact odds.

Modules, in the order data flows: ``parser`` (text -> ``nodes``), ``roller`` (``nodes`` ->
``results``), ``render`` (``results`` -> text/JSON), ``exact`` (``nodes`` -> exact
distribution via icepool, imported lazily), plus ``arith`` and ``errors``; their bounds
are rows of `rollbook.engine.limits`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import (
    DiceError,
    DiceLimitError,
    DiceSyntaxError,
    DiceValueError,
    OddsUnavailableError,
    PlaceholderError,
)
from .expression import Expression, RollResult, fill, parse, placeholders, roll

if TYPE_CHECKING:
    from .exact import Distribution

__all__ = [
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "DiceValueError",
    "Distribution",
    "Expression",
    "OddsUnavailableError",
    "PlaceholderError",
    "RollResult",
    "fill",
    "odds",
    "parse",
    "placeholders",
    "roll",
    "support",
]


def odds(expr: Any) -> Distribution:
    """Exact distribution of ``expr`` (text or ``Expression``); see ``.exact``."""
    from .exact import odds as _odds

    return _odds(expr)


def support(expr: Any) -> frozenset[Any]:
    """Possible totals of ``expr`` (tuples for comma rolls); see ``.exact``."""
    from .exact import support as _support

    return _support(expr)


def __getattr__(name: str) -> Any:
    # ``Distribution`` lives with the icepool adapter; load it only when asked for.
    if name == "Distribution":
        from .exact import Distribution

        return Distribution
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
