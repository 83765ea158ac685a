"""The small interface every game system implements.

A system is a set of named procedures (attack, morale, reaction, ...) plus the hooks the shared
encounter resolver (`rollbook.engine.systems.encounter`) calls to run a fight round by
round. Core dice code knows nothing of any system; systems use `rollbook.engine.dice` and an
injected `random.Random`.
"""

from __future__ import annotations

import functools
import itertools
import random
import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rollbook.engine.systems.encounter import Fight

__all__ = [
    "CARD_KEYS",
    "EDGES",
    "Combatant",
    "Outcome",
    "Param",
    "Procedure",
    "RulesError",
    "SmallDice",
    "System",
    "bind",
    "draw_dice",
    "draw_die",
    "edge_faces",
    "product_faces",
    "roll_die",
    "roll_edge",
    "tally",
]


# Keys a stat block may carry for its card on a page; they mean nothing to the rules.
CARD_KEYS = frozenset({"id", "notes"})


class RulesError(ValueError):
    """A parameter or stat block the rules cannot work with; the message is a plain sentence."""


@dataclass(frozen=True)
class Param:
    """One named, typed input of a procedure (or one field of a stat block).

    ``default`` of ``None`` means the parameter is required. ``kind`` is ``int``, ``bool`` or
    ``str``; ``choices`` restricts a ``str``; ``minimum``/``maximum`` bound an ``int``.
    """

    name: str
    kind: type = int
    default: Any = None
    help: str = ""
    choices: tuple[str, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None

    def coerce(self, value: Any) -> Any:
        """Turn ``value`` (possibly a string from the command line) into this param's type."""
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in {"1", "true", "yes", "on"}:
                return True
            if text in {"0", "false", "no", "off"}:
                return False
            raise RulesError(f"{self.name} must be true or false, not {value!r}.")
        if self.kind is int:
            if isinstance(value, bool):
                raise RulesError(f"{self.name} must be a whole number, not {value!r}.")
            try:
                number = int(str(value).strip()) if not isinstance(value, int) else value
            except ValueError:
                raise RulesError(f"{self.name} must be a whole number, not {value!r}.") from None
            if self.minimum is not None and number < self.minimum:
                raise RulesError(f"{self.name} must be at least {self.minimum}, not {number}.")
            if self.maximum is not None and number > self.maximum:
                raise RulesError(f"{self.name} must be at most {self.maximum}, not {number}.")
            return number
        text = str(value)
        if self.choices is not None and text not in self.choices:
            raise RulesError(f"{self.name} must be one of {', '.join(self.choices)}, not {text!r}.")
        return text

    def describe(self) -> dict[str, Any]:
        """A JSON-safe description, for `rollbook rules SYSTEM` and the browser."""
        out: dict[str, Any] = {"name": self.name, "type": self.kind.__name__, "help": self.help}
        if self.default is not None:
            out["default"] = self.default
        else:
            out["required"] = True
        for key in ("choices", "minimum", "maximum"):
            value = getattr(self, key)
            if value is not None:
                out[key] = list(value) if key == "choices" else value
        return out


def bind(params: tuple[Param, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``given`` against ``params``: unknown names, missing ones, types and bounds."""
    known = {p.name for p in params}
    unknown = sorted(set(given) - known)
    if unknown:
        raise RulesError(
            f"unknown parameter {unknown[0]!r}; expected one of: {', '.join(sorted(known))}."
        )
    out: dict[str, Any] = {}
    for p in params:
        if p.name in given:
            out[p.name] = p.coerce(given[p.name])
        elif p.default is not None:
            out[p.name] = p.default
        else:
            raise RulesError(f"missing parameter {p.name!r} ({p.help or p.kind.__name__}).")
    return out


@dataclass(frozen=True)
class Outcome:
    """What one procedure produced: a name from its outcome set, a readable line, the numbers."""

    name: str
    log: str
    data: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"outcome": self.name, "log": self.log, **self.data}


@dataclass(frozen=True)
class Procedure:
    """A named rule procedure.

    ``resolve(params, rng)`` rolls it; ``odds(params)`` gives the exact probability of each
    outcome name (``None`` where the outcome depends on more than dice). Both receive params
    already checked by `bind`.
    """

    name: str
    title: str
    params: tuple[Param, ...]
    outcomes: tuple[str, ...]
    resolve_fn: Callable[[dict[str, Any], random.Random], Outcome]
    odds_fn: Callable[[dict[str, Any]], dict[str, Fraction]] | None = None

    def resolve(self, given: Mapping[str, Any], rng: random.Random) -> Outcome:
        return self.resolve_fn(bind(self.params, given), rng)

    def odds(self, given: Mapping[str, Any]) -> dict[str, Fraction] | None:
        if self.odds_fn is None:
            return None
        return self.odds_fn(bind(self.params, given))

    def describe(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "params": [p.describe() for p in self.params],
            "outcomes": list(self.outcomes),
            "has_odds": self.odds_fn is not None,
        }


@dataclass(slots=True)  # slots: Monte Carlo makes and reads thousands of these a second
class Combatant:
    """One fighter in an encounter. ``stats`` holds the system's stat-block fields."""

    name: str
    side: str
    stats: dict[str, Any]
    hp: int
    max_hp: int
    state: dict[str, Any] = field(default_factory=dict)  # system-specific running state
    out: str | None = None  # None while fighting; else "dead", "down", "fled", "surrendered"

    @property
    def active(self) -> bool:
        return self.out is None

    def fresh(self) -> Combatant:
        """A copy at full health with no running state (stats are shared: never mutated)."""
        return Combatant(self.name, self.side, self.stats, self.max_hp, self.max_hp)

    def reset(self) -> None:
        """Back to what `fresh` gives, in place: full health, no running state, fighting."""
        self.hp = self.max_hp
        self.state = {}
        self.out = None


class System(ABC):
    """A game system: procedures plus the hooks the encounter resolver calls."""

    id: str
    title: str
    procedures: dict[str, Procedure]
    combatant_fields: tuple[Param, ...]

    def procedure(self, name: str) -> Procedure:
        try:
            return self.procedures[name]
        except KeyError:
            raise RulesError(
                f"{self.id} has no procedure {name!r}; it has: {', '.join(self.procedures)}."
            ) from None

    def make_combatant(self, side: str, data: Mapping[str, Any]) -> Combatant:
        """Build a combatant from a stat block (a mapping with ``name`` and the fields)."""
        if not isinstance(data, Mapping):
            raise RulesError(f"each combatant of side {side!r} must be a mapping of fields.")
        data = {k: v for k, v in data.items() if k not in CARD_KEYS}
        name = str(data.pop("name", "")).strip() or "Unnamed"
        stats = bind(self.combatant_fields, data)
        hp = self.starting_hp(stats)
        return Combatant(name=name, side=side, stats=stats, hp=hp, max_hp=hp)

    @abstractmethod
    def starting_hp(self, stats: dict[str, Any]) -> int:
        """Hit points (or the system's first health layer) a stat block starts with."""

    @abstractmethod
    def begin(self, fight: Fight, rng: random.Random) -> None:
        """Before round 1: surprise and anything else the system does once."""

    @abstractmethod
    def play_round(self, fight: Fight, rng: random.Random) -> None:
        """One full round in the system's order (initiative, actions, morale, dying).

        Logs through ``fight.log(...)`` and marks combatants ``out``; the resolver stops when
        one side has no active combatant or ``fight.ended`` is set.
        """

    def status(self, combatant: Combatant) -> dict[str, Any]:
        """JSON-safe running numbers worth showing for a combatant (health layers, AC...)."""
        return {}

    def describe(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "procedures": [p.describe() for p in self.procedures.values()],
            "combatant_fields": [p.describe() for p in self.combatant_fields],
        }


# -- helpers shared by the systems ------------------------------------------------------------

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


def tally(
    outcomes: Sequence[str], weighted: Iterable[tuple[str, int | Fraction]]
) -> dict[str, Fraction]:
    """Exact outcome probabilities from ``(outcome, weight)`` pairs, in ``outcomes`` order.

    Every outcome of the set is present (possibly 0), so callers can show the whole set.
    """
    counts: dict[str, Fraction] = dict.fromkeys(outcomes, Fraction(0))
    for name, weight in weighted:
        if name not in counts:
            raise KeyError(f"outcome {name!r} is not in the set {outcomes}")
        counts[name] += weight
    total = sum(counts.values(), Fraction(0))
    return {name: count / total for name, count in counts.items()}


def product_faces(*sides: int) -> Iterable[tuple[int, ...]]:
    """Every equally likely combination of faces of the given dice."""
    return itertools.product(*(range(1, s + 1) for s in sides))


_SMALL_DICE = re.compile(r"^\s*(\d*)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$|^\s*(\d+)\s*$")


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

    @functools.cached_property  # asked after every hit in some systems; the dice never change
    def maximum(self) -> int:
        return self.count * self.sides + self.bonus

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.bonus)
        tail = f"{self.bonus:+d}" if self.bonus else ""
        return f"{self.count}d{self.sides}{tail}"
