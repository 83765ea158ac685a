"""`grit-flesh`: d20 + attribute Tests, Grit then Flesh, damage tags, Notches, Morale 0-20.

Rules as implemented (readers' summary: docs/systems/grit-flesh/):

- A Test is d20 + attribute against a difficulty (an attack: Violence against Defense).
  The rules give no difficulty for Savvy or MIG Tests and Saves; we use 10 unless told.
  A Boon rolls two d20 and keeps the higher, a Bane the lower; one of each cancels.
- Attack: natural 20 is a critical hit (damage skips Grit, straight to Flesh); natural 1 is a
  critical miss (a melee weapon takes a Notch, a ranged one runs out of ammunition).
- Damage comes off Grit first, then Flesh; Flesh 0 takes the target out of the fight. On
  maximum damage the attacker may Notch their weapon to either Notch the target's armour or
  apply their damage tag's effect: crushing dazes (a Bane on everything), slashing bleeds
  (1d4 damage each round), piercing pins (cannot move, so cannot run). Each lasts until the
  target makes a MIG Save.
- Initiative each round: characters Test Savvy; success acts before the enemies.
- Surprise: a Save vs Savvy (a Bane against stealthy foes); failure loses round 1.
- Morale Test: the chance is 5 % per point plus 5 % (Morale 0: 5 %, 10: 55 %, 19+: 100 %).
- Gambit: a Test of the relevant attribute; failure gives the opponent a free action.
- Reaction: 2d6 luck roll, five bands.
"""

from __future__ import annotations

from rollbook.engine.systems.grit_flesh.combat import FIELDS, GritFleshSystem
from rollbook.engine.systems.grit_flesh.procedures import PROCEDURES

__all__ = ["SYSTEM", "GritFleshSystem"]

SYSTEM = GritFleshSystem(
    "Grit & Flesh",
    "d20 + attribute, damage tags, Morale 0-20",
    procedures=PROCEDURES,
    fields=FIELDS,
)
