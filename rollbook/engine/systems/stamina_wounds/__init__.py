"""`stamina-wounds`: side initiative on a d6, damage minus Armor Value, exploding dice.

Rules as implemented (readers' summary: docs/systems/stamina-wounds/):

- Initiative each round on a d6: 1-3 the player characters' side acts first, 4-6 the enemies.
  A side that catches the other unaware simply acts first.
- An attack always connects: roll the weapon's one damage die, subtract the target's AV
  (direct damage ignores AV). A die showing its maximum explodes: roll another of the same
  kind, which can explode too, at most once per slot the weapon fills (light 1, medium 2,
  heavy 3) per attack. A 1 on a damage die marks Usage on the weapon.
- Sneak attack: one more die of the weapon's kind, which can explode too (sharing the cap).
- Defend: attacks on the defender take a Bane. The rules do not say how a Bane works on a
  damage die; we roll two and keep the lower.
- Damage comes off Stamina first, the rest become Wounds. Wounds from one attack give an
  effect: 1-3 pain only, 4-6 damaged gear (d20 slot, 1d4 Usage), 7-9 bleeding out, 10+ a
  mortal wound (death in 1d4 rounds unless healed). Wounds reaching Max Wounds kill.
- Saves (maneuvers, morale): d20 + attribute against the opponent's Target. The rules give no
  formula; we use "total at least the Target". Morale: the players' WIL against the enemy
  leader's Target at a breaking point; success sends the enemies running.
- Rests: a Turn restores 1d6 + END Stamina; a Watch all Stamina and 1d6 + END Wounds; a Week
  everything.
"""

from __future__ import annotations

from rollbook.engine.systems.stamina_wounds.combat import FIELDS, StaminaWoundsSystem
from rollbook.engine.systems.stamina_wounds.procedures import PROCEDURES

__all__ = ["SYSTEM", "StaminaWoundsSystem"]

SYSTEM = StaminaWoundsSystem(
    "Stamina & Wounds",
    "side initiative, damage - AV, exploding dice",
    procedures=PROCEDURES,
    fields=FIELDS,
)
