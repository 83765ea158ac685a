"""Roll-under-atk: roll-under d20 checks, ATK minus defense, breakage, chases.

Readers' summary: docs/systems/roll-under-atk/.

`rules` holds the arithmetic, `procedures` the rollable procedures with exact odds and
`combat` the fight hooks. The registry reads ``SYSTEM``.
"""

from __future__ import annotations

from rollbook.engine.systems.roll_under_atk.combat import FIELDS, RollUnderAtkSystem
from rollbook.engine.systems.roll_under_atk.procedures import PROCEDURES

__all__ = ["SYSTEM", "RollUnderAtkSystem"]

SYSTEM = RollUnderAtkSystem("Roll-under ATK", procedures=PROCEDURES, fields=FIELDS)
