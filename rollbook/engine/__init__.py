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


# Tables (rollbook.engine.tables), loaded on first use so a plain dice roll never imports them.
_TABLE_NAMES = frozenset({"Problem", "RollList", "Table", "TableError", "TableRoll"})
_dice_getattr = __getattr__


def __getattr__(name: str) -> Any:  # type: ignore[no-redef]
    if name in _TABLE_NAMES:
        from . import tables

        return getattr(tables, name)
    return _dice_getattr(name)


__all__ += sorted(_TABLE_NAMES)
