"""`scars`: a roll-under d20 game with Agility/Brawn/Cunning, armour that cracks, and Scars.

Rules as implemented (readers' summary: docs/systems/scars/):

- A check is one d20 against a number; rolling that number exactly is a special success.
- Attack: hit when AC < roll <= attack number. Roll == attack number: a hit that stuns the
  target (it loses its next action) and grants another attack at once. Roll == AC: no damage,
  the target's AC drops by 1 for the encounter; at 0 the armour is broken.
- Scars: any roll in combat may be moved by +X or -X (X = Scars) after seeing the die; the
  ``shift`` parameter says how (``best`` picks the most useful result).
- 0 health: gain a Scar, then 2d6; at most the Scars total -> death, else back at 1 health
  after (Scars)d6 rounds.
- Initiative: d20 vs Agility once per combat: at or under acts before enemies, over after,
  exactly -> also a quick action before combat starts.
- Enemy morale: d20 vs 10 + HD: under stands, exactly rallies (extra attack next round, no
  more tests), over flees. Hireling morale: d20 between the hireling's HD and the employer's
  Cunning; exactly HD wavers (HD x 15 sp keeps them), exactly Cunning inspires heroics.
- Reaction 2d6 table; encounter distance 2d6 x 10 (feet in a dungeon, yards outside).
"""

from __future__ import annotations

from rollbook.engine.systems.scars.combat import FIELDS, ScarsSystem
from rollbook.engine.systems.scars.procedures import PROCEDURES

__all__ = ["SYSTEM", "ScarsSystem"]

SYSTEM = ScarsSystem(
    "Scars", "roll-under d20, Agility/Brawn/Cunning", procedures=PROCEDURES, fields=FIELDS
)
