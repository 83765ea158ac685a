"""Dark Dungeons: to-hit values, Table 10-2, initiative, death saves, structures.

Readers' summary: docs/systems/dark-dungeons/.

`rules` holds the arithmetic, `procedures` the rollable procedures with exact odds and
`combat` the fight hooks. The registry reads ``SYSTEM``.
"""

from __future__ import annotations

from rollbook.engine.systems.dark_dungeons.combat import DarkDungeons

__all__ = ["SYSTEM", "DarkDungeons"]

SYSTEM = DarkDungeons("Dark Dungeons")
