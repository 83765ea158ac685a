"""Lowest total, highest total and mean of a roll, without its whole distribution.

For rolls too large for exact odds (``1000d6``, ``10d100*10d100``), so that an inline roll
still shows its average and range. Only where these follow from the parts alone: numbers,
dice without modifiers, groups that just add up their parts, ``+``, ``-``, negation, and
``*`` of independent parts (every die in a notation is its own roll, so the mean of a
product is the product of the means, and its extremes are among the corner products).
Anything else (keep/drop, explosions, division, functions, comma rolls) gives ``None``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .chains import fold
from .nodes import BinOp, Dice, Group, Negate, Number

__all__ = ["extremes_and_mean"]

Summary = tuple[Any, Any, Fraction]


def extremes_and_mean(expr: Any) -> Summary | None:
    """(lowest total, highest total, exact mean) of ``expr`` (text or ``Expression``).

    ``None`` when the expression has parts these cannot be worked out from (see the module
    docstring) or placeholders. Raises ``DiceError`` when the notation does not parse.
    """
    from .expression import Expression, parse

    parsed = expr if isinstance(expr, Expression) else parse(expr)
    if parsed.placeholders:
        return None
    return _summary(parsed.tree)


def _summary(node: Any) -> Summary | None:
    if isinstance(node, Number):
        return node.value, node.value, Fraction(node.value)
    if isinstance(node, Dice):
        if node.modifiers or not node.faces:
            return None
        mean = Fraction(sum(node.faces), len(node.faces))
        return min(node.faces) * node.qty, max(node.faces) * node.qty, mean * node.qty
    if isinstance(node, Negate):
        inner = _summary(node.operand)
        return None if inner is None else _negated(inner)
    if isinstance(node, Group):
        if node.modifiers:
            return None
        parts = [_summary(item) for item in node.items]
        return None if None in parts else _total([p for p in parts if p is not None])
    if isinstance(node, BinOp):
        return fold(node, _arith_parts, _summary, _combined)
    return None


def _arith_parts(node: Any) -> tuple[Any, Any] | None:
    return (node.left, node.right) if isinstance(node, BinOp) else None


def _combined(node: BinOp, left: Summary | None, right: Summary | None) -> Summary | None:
    if left is None or right is None or node.op not in ("+", "-", "*"):
        return None
    if node.op == "*":
        corners = [a * b for a in left[:2] for b in right[:2]]
        return min(corners), max(corners), left[2] * right[2]
    return _total([left, right if node.op == "+" else _negated(right)])


def _negated(part: Summary) -> Summary:
    return -part[1], -part[0], -part[2]


def _total(parts: list[Summary]) -> Summary:
    return (
        sum(p[0] for p in parts),
        sum(p[1] for p in parts),
        sum((p[2] for p in parts), Fraction(0)),
    )
