"""A combat fence as read and checked: the encounter the widget and its odds are made from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rollbook.markup.statblock.model import Problems

__all__ = ["DEFAULT_RUNS", "Encounter", "Problems", "Unit"]

DEFAULT_RUNS = 1000  # Monte Carlo fights unless the block says ``runs``


@dataclass
class Unit:
    """One entry of a side: a stat block, possibly standing for several combatants."""

    label: str
    members: list[dict[str, Any]]
    stats: dict[str, Any]


@dataclass
class Encounter:
    """A checked ``combat`` block, ready to render."""

    line: int
    system: Any = None
    sides: dict[str, list[Unit]] = field(default_factory=dict)
    seed: int | None = None
    runs: int = DEFAULT_RUNS
    id: str | None = None
    title: str | None = None
    problems: Problems = field(default_factory=list)

    def resolved(self) -> dict[str, list[dict[str, Any]]]:
        """The sides as plain stat blocks: what ``rollbook fight`` and the bridge take."""
        return {
            side: [m for unit in units for m in unit.members] for side, units in self.sides.items()
        }
