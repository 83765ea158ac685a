"""rollbook's engine: dice, tables and game systems in pure Python.

Runs unchanged in CPython and in Pyodide; imports neither mkdocs, markdown nor yaml.
"""

from __future__ import annotations

from typing import Any

from .dice import (
    LIMITS,
    DiceError,
    DiceLimitError,
    DiceSyntaxError,
    DiceValueError,
    Expression,
    Limits,
    OddsUnavailableError,
    PlaceholderError,
    RollResult,
    fill,
    odds,
    parse,
    placeholders,
    roll,
    support,
)

__all__ = [
    "LIMITS",
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "DiceValueError",
    "Distribution",
    "Expression",
    "Limits",
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


def __getattr__(name: str) -> Any:
    if name == "Distribution":  # lives with the icepool adapter: loaded on demand
        from .dice.exact import Distribution

        return Distribution
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
