"""The rolled result tree: a separate tree that remembers every die and what happened to it.

Result nodes are small ``__slots__`` classes (cheap to build on every roll). Each has a
``value``; dice results keep every roll, including dropped, exploded and re-rolled ones.
"""

from __future__ import annotations

from typing import Any

from .nodes import BinOp, Call, Dice, Group, Multi, Negate, Number, Value

__all__ = [
    "COMPOUNDED",
    "CRIT_FAILURE",
    "CRIT_SUCCESS",
    "DROPPED",
    "EXPLODED",
    "FAILURE",
    "FLAG_NAMES",
    "MAX_CLAMPED",
    "MIN_CLAMPED",
    "PENETRATED",
    "REROLLED",
    "REROLLED_ONCE",
    "SUCCESS",
    "UNIQUE",
    "UNIQUE_ONCE",
    "BinOpResult",
    "CallResult",
    "DiceResult",
    "Die",
    "GroupResult",
    "MultiResult",
    "NegateResult",
    "NumberResult",
    "Result",
]

DROPPED = 1
EXPLODED = 2
COMPOUNDED = 4
PENETRATED = 8
REROLLED = 16
REROLLED_ONCE = 32
UNIQUE = 64
UNIQUE_ONCE = 128
SUCCESS = 256
FAILURE = 512
MIN_CLAMPED = 1024
MAX_CLAMPED = 2048
CRIT_SUCCESS = 4096
CRIT_FAILURE = 8192

#: Flag bit -> (JSON name, text mark), in display order.
FLAG_NAMES: tuple[tuple[int, str, str], ...] = (
    (MIN_CLAMPED, "min", "^"),
    (MAX_CLAMPED, "max", "v"),
    (EXPLODED, "exploded", "!"),
    (COMPOUNDED, "compounded", "!"),
    (PENETRATED, "penetrated", "p"),
    (REROLLED, "rerolled", "r"),
    (REROLLED_ONCE, "rerolled_once", "ro"),
    (UNIQUE, "unique", "u"),
    (UNIQUE_ONCE, "unique_once", "uo"),
    (SUCCESS, "success", "*"),
    (FAILURE, "failure", "_"),
    (CRIT_SUCCESS, "critical_success", "**"),
    (CRIT_FAILURE, "critical_failure", "__"),
    (DROPPED, "dropped", "d"),
)


class Die:
    """One die as rolled: its value, flags, and values it had before being re-rolled."""

    __slots__ = ("flags", "previous", "value")

    def __init__(self, value: Value, flags: int = 0, previous: tuple[Value, ...] = ()) -> None:
        self.value: Any = value
        self.flags = flags
        self.previous = previous

    def __repr__(self) -> str:
        return f"Die({self.value!r}, flags={self.flags})"

    @property
    def dropped(self) -> bool:
        """Whether a keep/drop modifier dropped this die."""
        return bool(self.flags & DROPPED)

    def flag_names(self) -> list[str]:
        """Names of the flags set on this die (``"dropped"``, ``"exploded"``, ...)."""
        return [name for bit, name, _ in FLAG_NAMES if self.flags & bit]


class NumberResult:
    """A plain number of the expression, rolled (it is itself)."""

    __slots__ = ("node", "value")

    def __init__(self, node: Number, value: Value) -> None:
        self.node = node
        self.value: Any = value


class DiceResult:
    """A dice term's rolls, in display order, and its total (or success count)."""

    __slots__ = ("node", "rolls", "value")

    def __init__(self, node: Dice, rolls: list[Die], value: Value) -> None:
        self.node = node
        self.rolls = rolls
        self.value: Any = value


class BinOpResult:
    """An arithmetic operation, rolled: both operands and the value."""

    __slots__ = ("left", "node", "right", "value")

    def __init__(self, node: BinOp, left: Result, right: Result, value: Value) -> None:
        self.node = node
        self.left = left
        self.right = right
        self.value: Any = value


class NegateResult:
    """A negation, rolled."""

    __slots__ = ("node", "operand", "value")

    def __init__(self, node: Negate, operand: Result, value: Value) -> None:
        self.node = node
        self.operand = operand
        self.value: Any = value


class CallResult:
    """A function call (``max(...)``), rolled: its arguments and the value."""

    __slots__ = ("args", "node", "value")

    def __init__(self, node: Call, args: list[Result], value: Value) -> None:
        self.node = node
        self.args = args
        self.value: Any = value


class GroupResult:
    """A roll group's items; ``flags[i]`` marks item ``i`` (dropped, success, failure)."""

    __slots__ = ("flags", "items", "node", "value")

    def __init__(self, node: Group, items: list[Result], flags: list[int], value: Value) -> None:
        self.node = node
        self.items = items
        self.flags = flags
        self.value: Any = value


class MultiResult:
    """A comma roll (``d6,d6``), rolled: each item and the tuple of values."""

    __slots__ = ("items", "node", "value")

    def __init__(self, node: Multi, items: list[Result], value: tuple[Value, ...]) -> None:
        self.node = node
        self.items = items
        self.value: Any = value


Result = (
    NumberResult | DiceResult | BinOpResult | NegateResult | CallResult | GroupResult | MultiResult
)
