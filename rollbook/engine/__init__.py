"""rollbook's engine: dice, tables and game systems in pure Python.

Runs unchanged in CPython and in Pyodide; imports neither mkdocs, markdown nor yaml.
"""

from __future__ import annotations

from typing import Any

from . import dice

# Tables (rollbook.engine.tables), loaded on first use so a plain dice roll never imports them.
_TABLE_NAMES = frozenset({"Problem", "RollList", "Table", "TableError", "TableRoll"})

__all__ = [*dice.__all__, *sorted(_TABLE_NAMES)]


def __getattr__(name: str) -> Any:
    """The dice names (``dice``, its ``Distribution`` loaded on demand) and the tables'.

    The tables' are imported on first use, so a plain dice roll never imports them.
    """
    if name in _TABLE_NAMES:
        from . import tables

        return getattr(tables, name)
    return getattr(dice, name)  # Distribution, or dice's AttributeError
