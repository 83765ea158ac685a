"""Result keys: the left-hand side of a ``results`` mapping, parsed once.

Forms (docs/authoring/roll-tables.md, "Result keys"): ``7``; ``2--3`` (inclusive range,
shown "2–3"); ``1-1`` on a roll with that many comma parts (a tuple of dice, d66); ``2-3``
on a single roll (a range, with a warning that ``--`` is the documented form); ``>=17``
``>17`` ``<=2`` ``<2`` (open-ended: inclusive with ``=``, exclusive without, so ``>N``
never covers ``N``). The en dash display form ``2–3`` is accepted as a range too.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

__all__ = [
    "Key",
    "KeyError_",
    "Summed",
    "chances",
    "count_parts",
    "covered",
    "parse_key",
    "plain_values",
    "reached",
    "summed",
    "value_text",
]

_INT = r"[+-]?\d+"
_EXACT = re.compile(rf"^({_INT})$")
_RANGE = re.compile(rf"^({_INT})\s*(?:--|–|—)\s*({_INT})$")
_OPEN = re.compile(rf"^(>=|>|<=|<|≥|≤)\s*({_INT})$")
_DASHED = re.compile(r"^\d+(?:\s*-\s*\d+)+$")
_SYMBOLS = {"≥": ">=", "≤": "<="}
_SHOWN = {">=": "≥", ">": ">", "<=": "≤", "<": "<"}


class KeyError_(ValueError):  # not the builtin KeyError
    """A result key that is not one of the documented forms; the message is a sentence."""


def value_text(value: Any) -> str:
    """Show a rolled value: ``7``, or ``3, 5`` for a multi-dice roll."""
    if isinstance(value, tuple):
        return ", ".join(value_text(v) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


@dataclass(frozen=True)
class Key:
    """A parsed result key.

    Attributes:
        op: ``"="`` (exact), ``"--"`` (inclusive range), ``">="``, ``">"``, ``"<="``, ``"<"``
            or ``"tuple"``.
        lo: Smallest integer covered (``None``: unbounded below).
        hi: Largest integer covered (``None``: unbounded above).
        dice: The tuple for ``op == "tuple"``.
    """

    op: str
    lo: int | None
    hi: int | None
    dice: tuple[int, ...] = ()

    @property
    def text(self) -> str:
        """Canonical source spelling (``7``, ``2--3``, ``>=17``, ``1-1``)."""
        if self.op == "tuple":
            return "-".join(str(d) for d in self.dice)
        if self.op == "=":
            return str(self.lo)
        if self.op == "--":
            return f"{self.lo}--{self.hi}"
        bound = {">=": self.lo, "<=": self.hi}.get(self.op)
        if bound is None:
            bound = self.lo - 1 if self.op == ">" else self.hi + 1  # type: ignore[operator]
        return f"{self.op}{bound}"

    @property
    def label(self) -> str:
        """Display form: ``7``, ``2–3`` (en dash), ``≥17``, ``>17``, ``3, 5``."""
        if self.op == "tuple":
            return value_text(self.dice)
        if self.op == "--":
            return f"{self.lo}–{self.hi}"
        if self.op == "=":
            return str(self.lo)
        return _SHOWN[self.op] + self.text[len(self.op) :]

    def matches(self, value: Any) -> bool:
        """Whether a rolled value (number or tuple) falls under this key."""
        if self.op == "tuple":
            return isinstance(value, tuple) and value == self.dice
        if isinstance(value, tuple | bool):
            return False
        if self.op == ">":
            return value > self.lo - 1  # type: ignore[operator]
        if self.op == "<":
            return value < self.hi + 1  # type: ignore[operator]
        return (self.lo is None or value >= self.lo) and (self.hi is None or value <= self.hi)

    def overlap(self, other: Key) -> Any:
        """A value both keys cover, or ``None`` when they are disjoint."""
        if (self.op == "tuple") != (other.op == "tuple"):
            return None
        if self.op == "tuple":
            return self.dice if self.dice == other.dice else None
        los = [b for b in (self.lo, other.lo) if b is not None]
        his = [b for b in (self.hi, other.hi) if b is not None]
        lo = max(los) if los else None
        hi = min(his) if his else None
        if lo is not None and hi is not None and lo > hi:
            return None
        return lo if lo is not None else hi

    def contains(self, other: Key) -> bool:
        """Whether every value ``other`` covers is covered by this key (tabs use this)."""
        if self.op == "tuple" or other.op == "tuple":
            return self == other
        low_ok = self.lo is None or (other.lo is not None and other.lo >= self.lo)
        high_ok = self.hi is None or (other.hi is not None and other.hi <= self.hi)
        return low_ok and high_ok


def plain_values(values: Sequence[Any]) -> bool:
    """Whether every value is a whole number or a tuple (what rolls give unless they divide).

    For such values a number key covers exactly the whole numbers from ``lo`` to ``hi``, so
    sorted bounds answer "which keys cover which values" without trying every pair (a
    10,000-row table took minutes that way).
    """
    return all(isinstance(v, tuple) or (type(v) is int) for v in values)


def _span(key: Key) -> tuple[float, float]:
    return (-math.inf if key.lo is None else key.lo, math.inf if key.hi is None else key.hi)


def covered(keys: Sequence[Key], values: Sequence[Any]) -> list[bool]:
    """For each value, whether any key matches it (same answers as ``Key.matches``)."""
    if not plain_values(values):
        return [any(k.matches(v) for k in keys) for v in values]
    tuples = {k.dice for k in keys if k.op == "tuple"}
    merged: list[list[float]] = []
    for lo, hi in sorted(_span(k) for k in keys if k.op != "tuple"):
        if merged and lo <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    starts = [lo for lo, _ in merged]
    out = []
    for v in values:
        if isinstance(v, tuple):
            out.append(v in tuples)
            continue
        i = bisect_right(starts, v) - 1
        out.append(i >= 0 and v <= merged[i][1])
    return out


def reached(keys: Sequence[Key], values: Sequence[Any]) -> list[bool]:
    """For each key, whether it matches any of the values (same answers as ``Key.matches``)."""
    if not plain_values(values):
        return [any(k.matches(v) for v in values) for k in keys]
    numbers = sorted(v for v in values if not isinstance(v, tuple))
    tuples = {v for v in values if isinstance(v, tuple)}
    out = []
    for k in keys:
        if k.op == "tuple":
            out.append(k.dice in tuples)
            continue
        lo, hi = _span(k)
        i = bisect_left(numbers, lo)
        out.append(i < len(numbers) and numbers[i] <= hi)
    return out


@dataclass(frozen=True)
class Summed:
    """A roll's odds as running sums over its sorted whole values (what `chances` reads).

    ``running[i]`` is the chance of the ``i`` lowest values, in ``whole``-ths. Built once
    per notation (``dicework.summed_odds``): a site of a thousand d100 tables sorts and
    sums a d100's hundred chances once, not once a table (bench 1b).

    Attributes:
        plain: Whether every value is a whole number or a tuple (else nothing else is set).
        numbers: The whole values, sorted.
        running: The running sums, one more than ``numbers``.
        whole: The common denominator.
    """

    plain: bool
    numbers: tuple[int, ...] = ()
    running: tuple[int, ...] = (0,)
    whole: int = 1

    def __len__(self) -> int:  # its size, for the engine's size-bounded caches
        return max(1, len(self.numbers))


def summed(pmf: Mapping[Any, Fraction]) -> Summed:
    """``pmf`` as running sums in whole numbers over one common denominator."""
    if not plain_values(list(pmf)):
        return Summed(plain=False)
    numbers = sorted(v for v in pmf if not isinstance(v, tuple))
    # Exact, and a d100 table no longer normalises a hundred Fractions (bench 1b).
    whole = math.lcm(*(pmf[v].denominator for v in numbers)) if numbers else 1
    running = [0]
    for v in numbers:
        chance = pmf[v]
        running.append(running[-1] + chance.numerator * (whole // chance.denominator))
    return Summed(True, tuple(numbers), tuple(running), whole)


def chances(
    keys: Sequence[Key | None], pmf: Mapping[Any, Fraction], sums: Summed | None = None
) -> list[Fraction] | None:
    """Each key's summed chance over ``pmf`` (``None`` keys get 0); ``None`` if not plain.

    ``sums`` is ``summed(pmf)`` when the caller has it already.
    """
    sums = sums if sums is not None else summed(pmf)
    if not sums.plain:
        return None
    numbers, running, whole = sums.numbers, sums.running, sums.whole
    out = []
    for k in keys:
        if k is None:
            out.append(Fraction(0))
        elif k.op == "tuple":
            out.append(pmf.get(k.dice, Fraction(0)))
        else:
            lo, hi = _span(k)
            share = running[bisect_right(numbers, hi)] - running[bisect_left(numbers, lo)]
            out.append(Fraction(share, whole))
    return out


def count_parts(notation: str) -> int:
    """Count the comma-separated parts of a roll at the top level (``d6,d6`` -> 2).

    Commas inside ``( )``, roll groups ``{ }`` and ``{{ name }}`` placeholders do not count.
    """
    depth = 0
    parts = 1
    for char in notation:
        if char in "({[":
            depth += 1
        elif char in ")}]":
            depth = max(depth - 1, 0)
        elif char == "," and depth == 0:
            parts += 1
    return parts


def parse_key(raw: Any, parts: int = 1) -> tuple[Key, str | None]:
    """Parse one result key for a roll with ``parts`` comma parts.

    Args:
        raw: The key as YAML gave it (``int`` or ``str``).
        parts: Number of comma parts of the roll (1 for an ordinary roll).

    Returns:
        The key and a warning sentence (or ``None``).

    Raises:
        KeyError_: When the key is not a documented form, with a sentence saying why.
    """
    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise KeyError_(f"{raw!r} is not a result key (write 7, 2--3, >=10 or <3)")
    return _parse_text(str(raw).strip(), parts)


# Pure, and a site spells the same few keys in every table ("1", "2--3", "01-20"): each
# spelling is parsed once (bench 1b). A key that is refused raises each time.
@lru_cache(maxsize=4096)
def _parse_text(text: str, parts: int) -> tuple[Key, str | None]:
    """``parse_key`` of a key's text (``str(raw).strip()``)."""
    if parts > 1:
        if _DASHED.match(text):
            dice = tuple(int(d) for d in text.split("-"))
            if len(dice) == parts:
                return Key("tuple", None, None, dice), None
            raise KeyError_(
                f"{text!r} has {len(dice)} part(s) but the roll has {parts} comma parts; "
                f"write one number per die, like {'-'.join(['1'] * parts)}"
            )
        raise KeyError_(
            f"{text!r} is not a key for a roll of {parts} comma parts; "
            f"write one number per die, like {'-'.join(['1'] * parts)}"
        )
    if match := _EXACT.match(text):
        value = int(match[1])
        return Key("=", value, value), None
    if match := _RANGE.match(text):
        lo, hi = int(match[1]), int(match[2])
        if lo > hi:
            raise KeyError_(f"{text!r} runs backwards; write {hi}--{lo}")
        return Key("--", lo, hi), None
    if match := _OPEN.match(text):
        op = _SYMBOLS.get(match[1], match[1])
        bound = int(match[2])
        if op.startswith(">"):
            return Key(op, bound if op == ">=" else bound + 1, None), None
        return Key(op, None, bound if op == "<=" else bound - 1), None
    if (match := re.match(r"^(\d+)\s*-\s*(\d+)$", text)) is not None:
        lo, hi = int(match[1]), int(match[2])
        if lo > hi:
            raise KeyError_(f"{text!r} runs backwards; write {hi}--{lo}")
        return Key("--", lo, hi), (
            f"{text!r} is read as the range {lo}--{hi}; "
            f"write {lo}--{hi} (two hyphens), the documented form"
        )
    if _DASHED.match(text):
        raise KeyError_(f"{text!r} looks like a multi-dice key but the roll has no comma parts")
    raise KeyError_(f"{text!r} is not a result key (write 7, 2--3, >=10 or <3)")
