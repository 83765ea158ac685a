"""Dice the rule systems roll: fast single dice, boon/bane pairs and stat-block damage.

Monte Carlo fights roll hundreds of thousands of dice, so these skip `random.Random.randint`'s
Python frames where they can while drawing from the same stream (see `draw_die`). They never
parse notation: stat-block dice (`SmallDice`) are read once per text (`stat_dice`), into the
combatant's typed state; their exact totals come from the dice engine's sums (`weights`).
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass

from rollbook.engine.dice.dist import Dist, sum_iid
from rollbook.engine.systems.base import RulesError
from rollbook.engine.systems.oddswork import check_odds_work

__all__ = [
    "EDGES",
    "NO_DICE",
    "SmallDice",
    "dice_weights",
    "draw_dice",
    "draw_die",
    "edge_faces",
    "roll_die",
    "roll_edge",
    "stat_dice",
]

EDGES = ("none", "boon", "bane")  # roll one d20, or two keeping the better / the worse
_PLAIN = random.Random


def roll_die(rng: random.Random, sides: int) -> int:
    """One fair die from 1 to ``sides``.

    A plain `random.Random` takes the fast path (one C call instead of ``randint``'s four
    Python frames: Monte Carlo fights roll hundreds of thousands of dice); any subclass, such
    as a test's scripted dice, is asked through ``randint``. The bias of scaling a 53-bit
    float is below 1e-14 for any die we roll.
    """
    if type(rng) is _PLAIN:
        return int(rng.random() * sides) + 1
    return rng.randint(1, sides)


# `random.Random.randint(1, n)` is ``1 + _randbelow(n)``, and for the Mersenne Twister
# ``_randbelow`` takes ``getrandbits(n.bit_length())`` until the draw is below ``n`` (the same in
# CPython 3.13 and Pyodide's 3.14). `draw_die` repeats that loop inline when the method is that
# one, so it gives exactly randint's numbers; elsewhere it asks randint.
_EXACT = getattr(_PLAIN, "_randbelow", None) is getattr(_PLAIN, "_randbelow_with_getrandbits", 0)


def draw_die(rng: random.Random, sides: int) -> int:
    """One die from 1 to ``sides``, exactly what ``rng.randint(1, sides)`` would give.

    Systems whose seeded fights were defined with ``randint`` use this: the same numbers from
    the same stream (so logs replayed by seed do not change), without randint's three Python
    frames per die, which were a quarter of a Monte Carlo run. A subclass, such as a test's
    scripted dice, is asked through ``randint``.
    """
    if type(rng) is _PLAIN and _EXACT and sides > 0:  # randint itself refuses 0 sides
        bits = sides.bit_length()
        value: int = rng.getrandbits(bits)
        while value >= sides:
            value = rng.getrandbits(bits)
        return value + 1
    return rng.randint(1, sides)


def draw_dice(rng: random.Random, sides: int, count: int) -> list[int]:
    """``count`` dice drawn one after another as by `draw_die` (one call for a whole set)."""
    if type(rng) is _PLAIN and _EXACT and sides > 0:
        bits = sides.bit_length()
        getrandbits = rng.getrandbits
        out = []
        for _ in range(count):
            value: int = getrandbits(bits)
            while value >= sides:
                value = getrandbits(bits)
            out.append(value + 1)
        return out
    return [rng.randint(1, sides) for _ in range(count)]


def roll_edge(rng: random.Random, sides: int, edge: str) -> int:
    """One die, or with a boon/bane two dice keeping the higher/lower (``edge`` in `EDGES`)."""
    first = roll_die(rng, sides)
    if edge == "none":
        return first
    second = roll_die(rng, sides)
    return max(first, second) if edge == "boon" else min(first, second)


def edge_faces(sides: int, edge: str) -> list[tuple[int, int]]:
    """Exact weights of the kept face under `roll_edge`: ``[(face, weight), ...]``."""
    if edge == "none":
        return [(face, 1) for face in range(1, sides + 1)]
    # Two dice: the higher is k in 2k-1 of the s*s ways; the lower is k in 2(s-k)+1 ways.
    if edge == "boon":
        return [(k, 2 * k - 1) for k in range(1, sides + 1)]
    return [(k, 2 * (sides - k) + 1) for k in range(1, sides + 1)]


# Digits are capped so int() never meets a number too long to convert (a ValueError).
_SMALL_DICE = re.compile(
    r"^\s*(\d{0,6})\s*[dD]\s*(\d{1,6})\s*(?:([+-])\s*(\d{1,9}))?\s*$|^\s*(\d{1,9})\s*$"
)


@dataclass(frozen=True)
class SmallDice:
    """A stat-block damage expression ``NdS+B`` (or a flat number), rolled without parsing.

    Stat blocks are rolled thousands of times in a Monte Carlo run, so they are parsed once.
    """

    count: int
    sides: int
    bonus: int = 0

    @classmethod
    def parse(cls, text: str, what: str = "damage") -> SmallDice:
        """Read ``1d6``, ``2d4+1`` or ``3``; `RulesError` naming ``what`` otherwise."""
        match = _SMALL_DICE.match(str(text))
        if not match:
            raise RulesError(f"{what} must look like 1d6, 2d4+1 or 3, not {text!r}.")
        if match.group(5) is not None:
            return cls(0, 1, int(match.group(5)))
        count = int(match.group(1) or 1)
        sides = int(match.group(2))
        if not 1 <= count <= 100 or not 1 <= sides <= 1000:
            raise RulesError(f"{what} {text!r} needs 1-100 dice of 1-1000 sides.")
        bonus = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
        return cls(count, sides, bonus)

    def roll(self, rng: random.Random) -> int:
        """The dice by `roll_die`, plus the bonus (one call for the whole roll)."""
        if type(rng) is _PLAIN:  # roll_die's fast path, without a call per die
            random_, sides = rng.random, self.sides
            if self.count == 1:
                return int(random_() * sides) + 1 + self.bonus
            return sum(int(random_() * sides) + 1 for _ in range(self.count)) + self.bonus
        if self.count == 1:
            return roll_die(rng, self.sides) + self.bonus
        return sum(roll_die(rng, self.sides) for _ in range(self.count)) + self.bonus

    def weights(self) -> dict[int, int]:
        """Every total with its weight (the ways to roll it), lowest first.

        `RulesError` first when the dice are over the ``procedure_odds_work`` limit.
        """
        check_odds_work(self)
        return {total + self.bonus: ways for total, ways in dice_weights(self.count, self.sides)}

    @functools.cached_property  # asked after every hit in some systems; the dice never change
    def maximum(self) -> int:
        """The highest total these dice can roll."""
        return self.count * self.sides + self.bonus

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.bonus)
        tail = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{tail}"


#: No dice at all (rolls 0): the default of a state's dice before `stat_dice` reads them.
NO_DICE = SmallDice(0, 1, 0)


def dice_weights(count: int, sides: int) -> list[tuple[int, int]]:
    """``(total, ways)`` of ``count`` dice of ``sides`` faces, lowest total first.

    The dice engine's `rollbook.engine.dice.dist.sum_iid` adds them up (exact integers).
    """
    summed = sum_iid(Dist.uniform(range(1, sides + 1)), count)
    return sorted(summed.w.items())


@functools.lru_cache(maxsize=512)
def stat_dice(text: str, what: str = "damage") -> SmallDice:
    """A stat block's dice (``damage``, ``weapon``), read once per text.

    Every state's `CombatantState.start` reads its dice through this, so each fight of a
    Monte Carlo run finds them parsed; a bad expression is a `RulesError` naming ``what``.
    """
    return SmallDice.parse(text, what)
