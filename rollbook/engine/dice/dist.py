"""Whole-number-weighted distributions and the sums the exact odds need, in plain Python.

`Dist` holds integer weights per value and their total, so every probability stays exact
(``weight / total``). `convolve` adds two independent distributions (Kronecker substitution:
CPython's big-integer product does the work), `sum_flat` adds copies of a plain die one die
at a time, and `sum_iid` picks between them. `rollbook.engine.dice.exact` builds these from
the parsed notation and hands pools to icepool; this module never imports icepool.
"""

from __future__ import annotations

import itertools
import math
import operator
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

from rollbook.engine.limits import value as limit
from rollbook.engine.messages import Grouped, Message

from .arith import clean
from .errors import DiceLimitError

__all__ = [
    "FRACTION_WEIGHT",
    "KRONECKER_BITS",
    "STEP_WEIGHT",
    "Dist",
    "charge",
    "convolve",
    "is_flat",
    "plus",
    "sum_flat",
    "sum_iid",
    "work_budget",
]

#: What one step costs against ``odds_work``, in units of one element of a list summed in
#: C (``sum_flat``): a step of Python code on whole numbers (a pair combined, a value mapped
#: or unpacked) costs ``STEP_WEIGHT``; on fractions, which are added, compared and hashed
#: (a modular inverse each) several times slower, ``FRACTION_WEIGHT``. Measured: 100d100
#: (1M units) and 1d100*1d100*1d100 (2.1M units) take well under a second in CPython.
STEP_WEIGHT = 8
FRACTION_WEIGHT = 40
# [spent, cap] of the exact odds being worked out; cap 0: no budget (outside ``odds``).
_BUDGET = [0, 0]


class work_budget:
    """Count the work of one set of exact odds against the ``odds_work`` limit.

    Every step that combines, maps or sums distributions calls :func:`charge` with its
    size before it runs, so a notation over the budget is refused at the first step that
    would pass it, however long the whole computation would have taken.
    """

    def __enter__(self) -> None:
        from rollbook.engine.limits import value  # here: that module imports this package

        self._saved = list(_BUDGET)
        _BUDGET[:] = [0, value("odds_work")]

    def __exit__(self, *exc: object) -> None:
        _BUDGET[:] = self._saved


def charge(units: int) -> None:
    """Spend ``units`` of the ``odds_work`` budget; refuse before the work if it is over."""
    spent, cap = _BUDGET
    if not cap:
        return
    spent += units
    if spent > cap:
        raise DiceLimitError(Message("error.odds.work", {"cap": Grouped(cap)}))
    _BUDGET[0] = spent


def _weight(*dists: Dist) -> int:
    """Cost of one step over these distributions' values: STEP_ or FRACTION_WEIGHT."""
    for d in dists:
        for k in d.w:
            if type(k) is not int:
                return FRACTION_WEIGHT
    return STEP_WEIGHT


#: Pairs of values one ``combine`` may visit (about a second of Python at most).
_MAX_PAIRS = 1_000_000


class Dist:
    """Integer weights per value; probabilities are ``weight / total``."""

    __slots__ = ("total", "w")

    def __init__(self, w: dict[Any, int], total: int | None = None) -> None:
        self.w = {k: v for k, v in w.items() if v}
        self.total = sum(self.w.values()) if total is None else total
        if len(self.w) > limit("odds_outcomes"):
            raise DiceLimitError(Message("error.odds.outcomes", {"limit": limit("odds_outcomes")}))

    @staticmethod
    def const(v: Any) -> Dist:
        """The distribution that is always ``v``."""
        return Dist({v: 1}, 1)

    @staticmethod
    def uniform(values: Iterable[Any]) -> Dist:
        """Each of ``values`` equally likely (a value listed twice counts twice)."""
        w: dict[Any, int] = {}
        for v in values:
            w[v] = w.get(v, 0) + 1
        return Dist(w)

    def map(self, fn: Callable[[Any], Any]) -> Dist:
        """The distribution of ``fn(value)``."""
        charge(len(self.w) * _weight(self))
        w: dict[Any, int] = {}
        for k, q in self.w.items():
            v = fn(k)
            w[v] = w.get(v, 0) + q
        return Dist(w, self.total)

    def combine(
        self, other: Dist, fn: Callable[[Any, Any], Any], *, fractions: bool = False
    ) -> Dist:
        """The distribution of ``fn(a, b)`` for independent ``a`` from self and ``b`` from other.

        ``fractions``: ``fn`` may make fractions of whole numbers (a division), so each pair
        is counted as work on fractions.
        """
        work = len(self.w) * len(other.w)
        if work > _MAX_PAIRS:
            said = Message("error.odds.combinations", {"left": len(self.w), "right": len(other.w)})
            raise DiceLimitError(said)
        charge(work * (FRACTION_WEIGHT if fractions else _weight(self, other)))
        w: dict[Any, int] = {}
        for a, qa in self.w.items():
            for b, qb in other.w.items():
                v = fn(a, b)
                w[v] = w.get(v, 0) + qa * qb
        return Dist(w, self.total * other.total)

    @staticmethod
    def mix(parts: list[tuple[Fraction, Dist]]) -> Dist:
        """Mixture of distributions with the given probabilities."""
        den = 1
        for p, d in parts:
            den = math.lcm(den, p.denominator * d.total)
        charge(sum(len(d.w) * _weight(d) for _, d in parts))
        w: dict[Any, int] = {}
        for p, d in parts:
            scale = p.numerator * (den // (p.denominator * d.total))
            for k, q in d.w.items():
                w[k] = w.get(k, 0) + q * scale
        return Dist(w, den)

    def items_p(self) -> list[tuple[Any, Fraction]]:
        """Each value with its exact probability."""
        return [(k, Fraction(q, self.total)) for k, q in self.w.items()]


def plus(a: Any, b: Any) -> Any:
    """``a + b`` with a whole Fraction made an int (how totals are shown)."""
    return clean(a + b)


#: Size cap of one big-integer product in ``convolve`` (CPython multiplies such numbers in
#: well under a second; beyond it the time grows quickly, so we refuse instead).
KRONECKER_BITS = 6_000_000


def _pack(d: Dist, lo: int, width: int, span: int) -> int:
    buf = bytearray(span * width)
    for k, q in d.w.items():
        at = (k - lo) * width
        buf[at : at + width] = q.to_bytes(width, "little")
    return int.from_bytes(buf, "little")


def convolve(a: Dist, b: Dist) -> Dist:
    """Distribution of the sum of two independent whole-number distributions.

    Kronecker substitution: each distribution becomes one big integer with a fixed-width
    field per value, so CPython's big-integer product does the convolution.
    """
    if not (all(type(k) is int for k in a.w) and all(type(k) is int for k in b.w)):
        return a.combine(b, plus)
    lo_a, hi_a, lo_b, hi_b = min(a.w), max(a.w), min(b.w), max(b.w)
    span = (hi_a - lo_a) + (hi_b - lo_b) + 1
    if span > limit("odds_outcomes"):
        raise DiceLimitError(Message("error.odds.outcomes", {"limit": limit("odds_outcomes")}))
    width = ((a.total * b.total).bit_length() + 8) // 8  # bytes per field
    if span * width * 8 > KRONECKER_BITS:
        raise DiceLimitError(Message("error.odds.too_large"))
    charge((span + len(a.w) + len(b.w)) * STEP_WEIGHT)
    pa = _pack(a, lo_a, width, hi_a - lo_a + 1)
    pb = _pack(b, lo_b, width, hi_b - lo_b + 1)
    raw = (pa * pb).to_bytes(span * width, "little")
    w = {}
    for i in range(span):
        q = int.from_bytes(raw[i * width : (i + 1) * width], "little")
        if q:
            w[lo_a + lo_b + i] = q
    return Dist(w, a.total * b.total)


#: Totals x dice that ``sum_flat`` may walk (2M: about 0.1 s in CPython, 0.3 s in Pyodide;
#: ``100d100`` is 1M). Beyond it the general size check below decides.
_FLAT_WORK = 2_000_000


def is_flat(d: Dist) -> bool:
    """Whether ``d`` gives every whole number of one unbroken range the same weight (a die)."""
    return max(d.w) - min(d.w) + 1 == len(d.w) and len(set(d.w.values())) == 1


def sum_flat(d: Dist, qty: int, span: int) -> Dist:
    """Sum of ``qty`` copies of a flat ``d`` (see ``is_flat``), one die at a time.

    Adding a die with ``s`` faces makes each count the sum of a window of ``s`` counts
    before it, i.e. a difference of two prefix sums: linear work per die, where the general
    convolution multiplies numbers of millions of bits (``20d999``: 0.7 s -> 0.05 s).
    """
    if span > limit("odds_outcomes"):
        raise DiceLimitError(Message("error.odds.outcomes", {"limit": limit("odds_outcomes")}))
    faces = len(d.w)
    charge(span * qty)
    counts = [1]
    for _ in range(qty):
        prefix = [0, *itertools.accumulate(counts)]
        upper = prefix[1:] + [prefix[-1]] * (faces - 1)
        lower = [0] * (faces - 1) + prefix[:-1]
        counts = list(map(operator.sub, upper, lower))
    weight = next(iter(d.w.values())) ** qty
    low = min(d.w) * qty
    return Dist({low + i: c * weight for i, c in enumerate(counts)}, d.total**qty)


def sum_iid(d: Dist, qty: int) -> Dist:
    """Sum of ``qty`` independent copies of ``d`` (binary powering of the convolution)."""
    if len(d.w) == 1:
        (v,) = d.w
        return Dist.const(clean(v * qty))
    if all(type(k) is int for k in d.w):
        span = qty * (max(d.w) - min(d.w)) + 1
        flat = is_flat(d)
        # Plain dice cost one pass over the totals per die, however large the counts grow.
        if flat and span * qty <= _FLAT_WORK:
            return sum_flat(d, qty, span)
        if span * qty * d.total.bit_length() > KRONECKER_BITS:
            raise DiceLimitError(Message("error.odds.too_many_dice", {"qty": qty}))
        if flat:
            return sum_flat(d, qty, span)
    result: Dist | None = None
    base = d
    while qty:
        if qty & 1:
            result = base if result is None else convolve(result, base)
        qty >>= 1
        if qty:
            base = convolve(base, base)
    assert result is not None
    return result
