"""The small interface every game system implements.

A system is a set of named procedures (attack, morale, reaction, ...) plus the hooks the shared
encounter resolver (`rollbook.engine.systems.encounter`) calls to run a fight round by
round. Core dice code knows nothing of any system; systems use `rollbook.engine.dice` and an
injected `random.Random`.
"""

from __future__ import annotations

import itertools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Self, get_args, get_origin

from rollbook.engine.systems.blow import BlowOdds

if TYPE_CHECKING:
    from rollbook.engine.systems.encounter import Fight

__all__ = [
    "CARD_KEYS",
    "Combatant",
    "CombatantState",
    "FightState",
    "Outcome",
    "Param",
    "Procedure",
    "RulesError",
    "System",
    "bind",
    "product_faces",
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
        """The outcome as JSON: ``outcome``, ``log`` and the procedure's own numbers."""
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
        """Roll the procedure once with the given parameters (bound and checked first)."""
        return self.resolve_fn(bind(self.params, given), rng)

    def odds(self, given: Mapping[str, Any]) -> dict[str, Fraction] | None:
        """Exact outcome probabilities for these parameters, or None when it has none."""
        if self.odds_fn is None:
            return None
        return self.odds_fn(bind(self.params, given))

    def describe(self) -> dict[str, Any]:
        """The procedure as JSON: name, title, parameters, outcomes, whether it has odds."""
        return {
            "name": self.name,
            "title": self.title,
            "params": [p.describe() for p in self.params],
            "outcomes": list(self.outcomes),
            "has_odds": self.odds_fn is not None,
        }


class CombatantState:
    """A system's running state of one combatant: subclass it as a slotted dataclass.

    `start` gives the state a fight begins with (from the stat block): what changes during a
    fight, and what is read or worked out from the stat block once (its damage dice, by
    `rollbook.engine.systems.dice.stat_dice`). So a system reads and writes attributes,
    never string keys, and never stores anything in the stat block itself.
    """

    __slots__ = ()

    @classmethod
    def start(cls, stats: dict[str, Any]) -> Self:
        """The state a fight begins with, from the bound stat block.

        A `RulesError` here (a bad damage expression) is told with the combatant's name
        in front: ``Wolf's damage must look like ...``.
        """
        return cls()

    def restart(self, stats: dict[str, Any]) -> Self:
        """The state the next fight begins with (`start`, unless the state keeps work).

        A state that works numbers out of the stat block keeps them here rather than work
        them out again: Monte Carlo restarts every combatant before each fight.
        """
        return self.start(stats)


class FightState:
    """A system's fight-wide running state: subclass it as a slotted dataclass with defaults."""

    __slots__ = ()


@dataclass(slots=True)  # slots: Monte Carlo makes and reads thousands of these a second
class Combatant[S: CombatantState]:
    """One fighter in an encounter. ``stats`` holds the system's stat-block fields."""

    name: str
    side: str
    stats: dict[str, Any]
    hp: int
    max_hp: int
    state: S  # the system's running state, as `CombatantState.start` gives it
    out: str | None = None  # None while fighting; else "dead", "down", "fled", "surrendered"

    @property
    def active(self) -> bool:
        """Whether the combatant still fights (``out`` is None)."""
        return self.out is None

    def fresh(self) -> Combatant[S]:
        """A copy at full health with its starting state (stats are shared: never mutated)."""
        state = self.state.restart(self.stats)
        return Combatant(self.name, self.side, self.stats, self.max_hp, self.max_hp, state)

    def reset(self) -> None:
        """Back to what `fresh` gives, in place: full health, starting state, fighting."""
        self.hp = self.max_hp
        self.state = self.state.restart(self.stats)
        self.out = None


class System[S: CombatantState, F: FightState](ABC):
    """A game system: procedures plus the hooks the encounter resolver calls.

    ``S`` is its `CombatantState` (``state_type``), ``F`` its `FightState` (``fight_state_type``).
    """

    id: str  # what stat blocks and fights write: ``system: grit-flesh``
    name: str  # what pages show: "Grit & Flesh"
    summary: str  # the gist, after the name in the title (may be empty)
    procedures: dict[str, Procedure]
    combatant_fields: tuple[Param, ...]
    state_type: type[S]
    fight_state_type: type[F]

    @property
    def title(self) -> str:
        """The name, with the gist in parentheses when there is one."""
        return f"{self.name} ({self.summary})" if self.summary else self.name

    def blow_odds(self, attacker: dict[str, Any], defender: dict[str, Any]) -> BlowOdds | None:
        """Which procedure gives the chance of an ordinary blow landing, and with what.

        ``attacker`` and ``defender`` are bound stat blocks (`Combatant.stats`); the combat
        widget shows the chance for every pair. None: the system shows no such chance.
        """
        return None

    def __init__(
        self,
        name: str,
        summary: str = "",
        *,
        procedures: dict[str, Procedure],
        fields: tuple[Param, ...],
    ) -> None:
        """The system's one instance, ``SYSTEM`` of its package, which names it.

        Its id is its package's name with dashes (``grit_flesh``: ``grit-flesh``), the
        registry's (`rollbook.engine.systems.PACKAGES`); ``procedures`` are its
        ``procedures.PROCEDURES`` and ``fields`` its stat-block fields, ``combat.FIELDS``.
        """
        self.id = type(self).__module__.split(".")[-2].replace("_", "-")
        self.name = name
        self.summary = summary
        self.procedures = procedures
        self.combatant_fields = fields

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Read ``state_type`` and ``fight_state_type`` off ``System[S, F]`` of the class line."""
        super().__init_subclass__(**kwargs)
        for base in getattr(cls, "__orig_bases__", ()):
            if get_origin(base) is System:
                cls.state_type, cls.fight_state_type = get_args(base)

    def procedure(self, name: str) -> Procedure:
        """The procedure called ``name``; `RulesError` naming the known ones otherwise."""
        try:
            return self.procedures[name]
        except KeyError:
            raise RulesError(
                f"{self.id} has no procedure {name!r}; it has: {', '.join(self.procedures)}."
            ) from None

    def make_combatant(self, side: str, data: Mapping[str, Any]) -> Combatant[S]:
        """Build a combatant from a stat block (a mapping with ``name`` and the fields)."""
        if not isinstance(data, Mapping):
            raise RulesError(f"each combatant of side {side!r} must be a mapping of fields.")
        data = {k: v for k, v in data.items() if k not in CARD_KEYS}
        name = str(data.pop("name", "")).strip() or "Unnamed"
        stats = bind(self.combatant_fields, data)
        hp = self.starting_hp(stats)
        try:
            state = self.state_type.start(stats)
        except RulesError as err:  # the stat block's dice, read once: say whose they are
            raise RulesError(f"{name}'s {err}") from None
        return Combatant(name=name, side=side, stats=stats, hp=hp, max_hp=hp, state=state)

    def starting_hp(self, stats: dict[str, Any]) -> int:
        """Hit points (or the system's first health layer) a stat block starts with.

        The stat block's ``hp`` field unless the system says otherwise.
        """
        hp: int = stats["hp"]
        return hp

    @abstractmethod
    def begin(self, fight: Fight[S, F], rng: random.Random) -> None:
        """Before round 1: surprise and anything else the system does once."""

    @abstractmethod
    def play_round(self, fight: Fight[S, F], rng: random.Random) -> None:
        """One full round in the system's order (initiative, actions, morale, dying).

        Logs through ``fight.say(key, ...)`` (`rollbook.engine.messages`) and marks
        combatants ``out``; the resolver stops when one side has no active combatant or
        ``fight.ended`` is set.
        """

    def status(self, combatant: Combatant[S]) -> dict[str, Any]:
        """JSON-safe running numbers worth showing for a combatant (health layers, AC...)."""
        return {}

    def describe(self) -> dict[str, Any]:
        """The system as JSON: id, title, procedures and stat-block fields."""
        return {
            "id": self.id,
            "title": self.title,
            "procedures": [p.describe() for p in self.procedures.values()],
            "combatant_fields": [p.describe() for p in self.combatant_fields],
        }


# -- helpers shared by the systems ------------------------------------------------------------


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


def by_name(*procedures: Procedure) -> dict[str, Procedure]:
    """A system's procedures by name, in the order given."""
    return {p.name: p for p in procedures}


def product_faces(*sides: int) -> Iterable[tuple[int, ...]]:
    """Every equally likely combination of faces of the given dice."""
    return itertools.product(*(range(1, s + 1) for s in sides))
