"""Dark Dungeons: to-hit values, Table 10-2, initiative, death saves, structures.

Readers' summary: docs/systems/dark-dungeons/.

`rules` holds the arithmetic, `procedures` the rollable procedures with exact odds and
`combat` the fight hooks. The registry reads ``SYSTEM``.
"""

from __future__ import annotations

from rollbook.engine.systems.dark_dungeons.combat import FIELDS, DarkDungeonsSystem
from rollbook.engine.systems.dark_dungeons.procedures import PROCEDURES

__all__ = ["SYSTEM", "DarkDungeonsSystem"]

SYSTEM = DarkDungeonsSystem("Dark Dungeons", procedures=PROCEDURES, fields=FIELDS)
