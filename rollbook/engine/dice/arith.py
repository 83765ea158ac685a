"""Exact arithmetic and math functions shared by rolling and exact odds.

Values are ``int`` when whole and ``Fraction`` otherwise. Where rpg-dice-roller (which
evaluates with floating point and mathjs) has a convention we follow it on exact values:
``%`` takes the sign of the divisor and ``x % 0`` is ``x``; ``round`` rounds halves away from
zero. Division by zero is a ``DiceValueError``, never ``ZeroDivisionError``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction

from rollbook.engine.limits import value as limit
from rollbook.engine.messages import Message

from .errors import DiceLimitError, DiceValueError
from .nodes import Value

__all__ = ["BINARY", "FUNCTION_IMPL", "SQRT_BITS", "check_size", "clean"]

#: Square roots of non-squares are rounded down to a multiple of 2**-SQRT_BITS: exact,
#: platform-independent integer arithmetic instead of a float.
SQRT_BITS = 64


def clean(value: Fraction | int) -> Value:
    """Return ``value`` as an int when it is whole."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def check_size(value: Value, pos: int) -> Value:
    """Raise ``DiceLimitError`` when ``value`` is larger than the ``value_bits`` limit."""
    if isinstance(value, int):
        bits = value.bit_length()
    else:
        bits = max(value.numerator.bit_length(), value.denominator.bit_length())
    if bits > limit("value_bits"):
        raise DiceLimitError(Message("error.dice.value_bits", {"bits": limit("value_bits")}), pos)
    return value


def _add(a: Value, b: Value, pos: int) -> Value:
    return clean(a + b)


def _sub(a: Value, b: Value, pos: int) -> Value:
    return clean(a - b)


def _mul(a: Value, b: Value, pos: int) -> Value:
    return check_size(clean(a * b), pos)


def _div(a: Value, b: Value, pos: int) -> Value:
    if b == 0:
        raise DiceValueError(Message("error.dice.division_by_zero"), pos)
    return clean(Fraction(a) / b)


def _mod(a: Value, b: Value, pos: int) -> Value:
    if b == 0:
        return a  # mathjs convention, as rpg-dice-roller does
    return clean(a - b * math.floor(Fraction(a) / b))


def _int_root(x: int, k: int) -> int | None:
    """The exact k-th root of x >= 0, or None."""
    if x < 2:
        return x
    r = round(x ** (1.0 / k)) if x.bit_length() < 1000 else 1 << (x.bit_length() // k)
    # Newton refinement on integers keeps the result exact whatever the float said.
    r = max(r, 1)
    while True:
        nxt = ((k - 1) * r + x // r ** (k - 1)) // k
        if nxt >= r:
            break
        r = nxt
    for cand in (r - 1, r, r + 1):
        if cand >= 0 and cand**k == x:
            return cand
    return None


def _pow(a: Value, b: Value, pos: int) -> Value:
    exp = Fraction(b)
    if abs(exp) > limit("exponent"):
        said = Message(
            "error.dice.exponent_limit", {"exponent": clean(exp), "limit": limit("exponent")}
        )
        raise DiceLimitError(said, pos)
    base = Fraction(a)
    if base == 0 and exp < 0:
        raise DiceValueError(Message("error.dice.zero_negative_power"), pos)
    if exp.denominator != 1:
        # Only exact roots are allowed: an irrational power has no exact value.
        if base < 0:
            raise DiceValueError(Message("error.dice.negative_root"), pos)
        if exp.denominator > limit("exponent"):
            raise DiceValueError(Message("error.dice.inexact_power"), pos)
        p = _int_root(base.numerator, exp.denominator)
        q = _int_root(base.denominator, exp.denominator)
        if p is None or q is None:
            raise DiceValueError(Message("error.dice.inexact_power"), pos)
        base = Fraction(p, q)
        exp = Fraction(exp.numerator)
    bits = max(base.numerator.bit_length(), base.denominator.bit_length())
    if bits * abs(exp.numerator) > limit("value_bits") + 64:
        raise DiceLimitError(Message("error.dice.power_bits", {"bits": limit("value_bits")}), pos)
    return check_size(clean(base**exp.numerator), pos)


def _round(x: Value) -> int:
    half = Fraction(1, 2)
    return math.floor(x + half) if x >= 0 else -math.floor(-x + half)


def _sqrt(x: Value, pos: int) -> Value:
    if x < 0:
        raise DiceValueError(Message("error.dice.negative_sqrt"), pos)
    f = Fraction(x)
    p, q = math.isqrt(f.numerator), math.isqrt(f.denominator)
    if p * p == f.numerator and q * q == f.denominator:
        return clean(Fraction(p, q))
    scale = 1 << SQRT_BITS
    return clean(Fraction(math.isqrt(f.numerator * scale * scale // f.denominator), scale))


def _sign(x: Value) -> int:
    return (x > 0) - (x < 0)


BINARY: dict[str, Callable[[Value, Value, int], Value]] = {
    "+": _add,
    "-": _sub,
    "*": _mul,
    "/": _div,
    "%": _mod,
    "**": _pow,
}

FUNCTION_IMPL: dict[str, Callable[..., Value]] = {
    "abs": lambda pos, x: abs(x),
    "ceil": lambda pos, x: math.ceil(x),
    "floor": lambda pos, x: math.floor(x),
    "round": lambda pos, x: _round(x),
    "sqrt": lambda pos, x: _sqrt(x, pos),
    "sign": lambda pos, x: _sign(x),
    "max": lambda pos, x, y: max(x, y),
    "min": lambda pos, x, y: min(x, y),
    "pow": lambda pos, x, y: _pow(x, y, pos),
}
