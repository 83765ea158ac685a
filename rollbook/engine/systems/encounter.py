"""The shared encounter resolver: two sides fight round by round until one side is done.

Systems supply the rules through `System.begin` and `System.play_round`; this module keeps
the bookkeeping (sides, log, end conditions) and the default tactics every system may use.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

from rollbook.engine.limits import value
from rollbook.engine.messages import Message
from rollbook.engine.systems.base import Combatant, CombatantState, FightState, RulesError, System

__all__ = [
    "MAX_COMBATANTS", "MAX_ROUNDS", "Fight", "FightResult", "build_sides", "check_combatant_count",
]  # fmt: skip

MAX_ROUNDS = value("fight_rounds")  # a fight that has not ended by then is a stalemate
MAX_COMBATANTS = value("fight_combatants")  # both sides together


def build_sides[S: CombatantState, F: FightState](
    system: System[S, F], sides: Mapping[str, Sequence[Mapping[str, Any]]]
) -> dict[str, list[Combatant[S]]]:
    """Check the two sides' stat blocks and build their combatants."""
    if not isinstance(sides, Mapping) or len(sides) != 2:
        raise RulesError("a fight needs exactly two sides.")
    check_combatant_count(sides)
    built: dict[str, list[Combatant[S]]] = {}
    for side, members in sides.items():
        if isinstance(members, Mapping):  # one stat block given without a list
            members = [members]
        if not isinstance(members, Sequence) or isinstance(members, str) or not members:
            raise RulesError(f"side {side!r} needs a list of one or more stat blocks.")
        built[str(side)] = []
        for number, member in enumerate(members, 1):
            try:
                built[str(side)].append(system.make_combatant(str(side), member))
            except RulesError as err:
                who = member.get("name") if isinstance(member, Mapping) else None
                label = f"{who!r}" if who else f"number {number}"
                raise RulesError(f"side {side!r}, combatant {label}: {err}") from None
    return built


def check_combatant_count(sides: Mapping[str, Any]) -> int:
    """The number of combatants of both sides; `RulesError` above the limit, before any work."""
    total = sum(
        len(m) if isinstance(m, Sequence) and not isinstance(m, str) else 1 for m in sides.values()
    )
    if total > MAX_COMBATANTS:
        raise RulesError(
            f"a fight may have at most {MAX_COMBATANTS} combatants, both sides together, "
            f"but this one has {total} (the fight_combatants limit)."
        )
    return total


@dataclass
class FightResult:
    """How a fight ended: the winning side (or ``None``), why, and after how many rounds."""

    winner: str | None
    reason: str  # "defeated", "fled", "surrendered", "stalemate"
    rounds: int

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON: winner, reason and rounds."""
        return {"winner": self.winner, "reason": self.reason, "rounds": self.rounds}


@dataclass
class Fight[S: CombatantState, F: FightState]:
    """A fight in progress. Create with `Fight.start`, then `step()` or `run()`."""

    system: System[S, F]
    sides: dict[str, list[Combatant[S]]]
    rng: random.Random
    round: int = 0
    lines: list[str] = field(default_factory=list)  # the log in English (the command line)
    events: list[Message] = field(default_factory=list)  # the same, said in any language
    result: FightResult | None = None
    quiet: bool = False  # Monte Carlo runs skip the log
    _ended_reason: str | None = None
    _ended_winner: str | None = None
    # side -> the other side's name and members, worked out once: targeting asks every action
    _other: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    _foes: dict[str, list[Combatant[S]]] = field(default_factory=dict, init=False, repr=False)
    # everyone in side order: the sides' members never change once the fight is set up
    _everyone: tuple[Combatant[S], ...] = field(default=(), init=False, repr=False)
    state: F = field(init=False)  # the system's fight-wide running state

    def __post_init__(self) -> None:
        self.state = self.system.fight_state_type()
        self._everyone = tuple(chain.from_iterable(self.sides.values()))
        if len(self.sides) == 2:
            a, b = self.sides
            self._other = {a: b, b: a}
            self._foes = {a: self.sides[b], b: self.sides[a]}

    @classmethod
    def start(
        cls,
        system: System[S, F],
        sides: Mapping[str, Sequence[Mapping[str, Any]]],
        rng: random.Random,
    ) -> Fight[S, F]:
        """A fight of ``sides`` (stat blocks by side name), begun."""
        return cls.from_combatants(system, build_sides(system, sides), rng)

    @classmethod
    def from_combatants(
        cls,
        system: System[S, F],
        sides: Mapping[str, Sequence[Combatant[S]]],
        rng: random.Random,
        quiet: bool = False,
    ) -> Fight[S, F]:
        """Start a fight from combatants already built (Monte Carlo builds them once)."""
        fight = cls(
            system=system, sides={s: list(m) for s, m in sides.items()}, rng=rng, quiet=quiet
        )
        system.begin(fight, rng)
        fight._check_end()
        return fight

    # -- helpers systems use -------------------------------------------------------------
    def say(self, key: str, **args: Any) -> None:
        """Add a line to the round log: a `Message` key (``log.*``) and its arguments.

        Nothing happens when the fight is quiet (Monte Carlo).
        """
        if not self.quiet:
            self._add(Message(key, args))

    def _add(self, line: Message) -> None:
        if self.round:
            line = Message("log.line", {"round": self.round, "text": line})
        self.events.append(line)
        self.lines.append(line.english())

    def side_names(self) -> list[str]:
        """The side names, in the order given."""
        return list(self.sides)

    def other(self, side: str) -> str:
        """The other side of a two-sided fight."""
        try:
            return self._other[side]
        except KeyError:  # not exactly two sides: unpacking them below raises the plain error
            a, b = self.sides
            return b if side == a else a

    def active(self, side: str) -> list[Combatant[S]]:
        """The combatants of ``side`` still fighting."""
        return [c for c in self.sides[side] if c.out is None]

    def everyone(self) -> list[Combatant[S]]:
        """Every combatant, both sides, in order."""
        return list(self._everyone)

    def decided(self) -> bool:
        """True once a side has nobody left standing (systems stop acting mid-round)."""
        if self._ended_reason is not None:
            return True
        for members in self.sides.values():  # plain loops: this runs before every action
            for c in members:
                if c.out is None:
                    break
            else:
                return True
        return False

    def target_for(self, attacker: Combatant[S]) -> Combatant[S] | None:
        """Default tactic: the weakest active enemy (fewest hit points, then first listed)."""
        best: Combatant[S] | None = None
        try:  # a subscript, not dict.get: a call into C costs several times more in Pyodide
            foes = self._foes[attacker.side]
        except KeyError:  # not exactly two sides
            foes = self.sides[self.other(attacker.side)]
        for c in foes:
            if c.out is None and (best is None or c.hp < best.hp):
                best = c
        return best

    def end(self, winner: str | None, reason: str) -> None:
        """Let a system end the fight (a side fled or surrendered)."""
        self._ended_winner, self._ended_reason = winner, reason

    # -- driving the fight ---------------------------------------------------------------
    @property
    def ended(self) -> bool:
        """Whether the fight has a result."""
        return self.result is not None

    def _check_end(self) -> None:
        if self.result is not None:
            return
        if self.round < MAX_ROUNDS and not self.decided():
            return  # the usual end of a round: both sides still have someone standing
        if self._ended_reason is not None:
            self.result = FightResult(self._ended_winner, self._ended_reason, self.round)
        else:
            standing = []
            for side, members in self.sides.items():  # plain loops: once every round
                for c in members:
                    if c.out is None:
                        standing.append(side)
                        break
            if len(standing) < 2:
                winner = standing[0] if standing else None
                # A side that broke (anyone fled or gave up) lost by flight, not by the sword.
                gone = {c.out for s in self.sides if s != winner for c in self.sides[s]}
                reason = (
                    "fled"
                    if "fled" in gone
                    else "surrendered"
                    if "surrendered" in gone
                    else "defeated"
                )
                self.result = FightResult(winner, reason, self.round)
            elif self.round >= MAX_ROUNDS:
                self.result = FightResult(None, "stalemate", self.round)
        if self.result is not None and not self.quiet:
            end = self.result
            who: str | Message = end.winner if end.winner is not None else Message("log.nobody")
            why = Message(f"log.reason.{end.reason}")
            over = Message("log.over", {"count": end.rounds, "winner": who, "reason": why})
            self.events.append(over)
            self.lines.append(over.english())

    def step(self) -> None:
        """Resolve one round."""
        if self.ended:
            return
        self.round += 1
        self.system.play_round(self, self.rng)
        self._check_end()

    def run(self) -> FightResult:
        """Play rounds until the fight ends; its result."""
        while self.result is None:  # not self.ended
            self.step()
        assert self.result is not None
        return self.result

    def to_dict(self) -> dict[str, Any]:
        """The fight so far as JSON: round, log, combatants and result.

        The log is English (``log``) and the same lines as messages (``events``).
        """
        return {
            "system": self.system.id,
            "round": self.round,
            "log": list(self.lines),
            "events": [line.to_dict() for line in self.events],
            "result": self.result.to_dict() if self.result else None,
            "combatants": [
                {
                    "name": c.name,
                    "side": c.side,
                    "hp": c.hp,
                    "max_hp": c.max_hp,
                    "out": c.out,
                    "status": self.system.status(c),
                }
                for c in self.everyone()
            ],
        }
