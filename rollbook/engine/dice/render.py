"""Text and JSON renderings of a rolled result tree.

The text form follows rpg-dice-roller's so readers of existing pages see what they know:
``4d6kh3: [6, 3, 1d, 5] = 14``. Non-whole values are shown rounded to 2 decimal places, as
rpg-dice-roller shows them; JSON also carries the exact value as ``"p/q"``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .chains import fold
from .results import (
    DROPPED,
    FAILURE,
    FLAG_NAMES,
    SUCCESS,
    BinOpResult,
    CallResult,
    DiceResult,
    Die,
    GroupResult,
    MultiResult,
    NegateResult,
    NumberResult,
    Result,
)

__all__ = ["die_text", "format_value", "json_value", "result_parts", "result_text"]

_PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "%": 2, "**": 4}


def format_value(value: object) -> str:
    """Show a value: ints as they are, fractions rounded to 2 decimals, tuples joined."""
    if isinstance(value, tuple):
        return ", ".join(format_value(v) for v in value)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        hundredths = abs(value) * 100
        rounded = int(hundredths + Fraction(1, 2))  # half away from zero
        sign = "-" if value < 0 and rounded else ""
        whole, frac = divmod(rounded, 100)
        return f"{sign}{whole}.{frac:02d}".rstrip("0").rstrip(".")
    return str(value)


def json_value(value: object) -> Any:
    """A JSON-ready value: int, float rounded to 2 decimals, or a list for comma rolls."""
    if isinstance(value, tuple):
        return [json_value(v) for v in value]
    if isinstance(value, Fraction):
        return float(format_value(value))
    return value


def die_text(d: Die) -> str:
    """One die as the breakdown shows it: its value and the marks of its flags."""
    marks = "".join(mark for bit, _, mark in FLAG_NAMES if d.flags & bit)
    return f"{format_value(d.value)}{marks}"


def _text(r: Result, parent: int = 0) -> str:
    if isinstance(r, NumberResult):
        return format_value(r.value)
    if isinstance(r, DiceResult):
        return "[" + ", ".join(die_text(d) for d in r.rolls) + "]"
    if isinstance(r, BinOpResult):
        s, prec = fold(r, _operands, _ranked, _joined)  # type: ignore[arg-type]
        return f"({s})" if prec < parent else s
    if isinstance(r, NegateResult):
        s = f"-{_text(r.operand, 3)}"
        return f"({s})" if parent > 4 else s
    if isinstance(r, CallResult):
        return f"{r.node.name}(" + ",".join(_text(a) for a in r.args) + ")"
    if isinstance(r, GroupResult):
        parts = []
        for item, flags in zip(r.items, r.flags, strict=True):
            s = _text(item)
            marks = ("*" if flags & SUCCESS else "") + ("_" if flags & FAILURE else "")
            marks += "d" if flags & DROPPED else ""
            parts.append(f"({s}){marks}" if marks else s)
        return "{" + ", ".join(parts) + "}"
    if isinstance(r, MultiResult):
        return ", ".join(_text(i) for i in r.items)
    raise TypeError(type(r))  # pragma: no cover - every result type is handled above


def _operands(r: Result) -> tuple[Result, Result] | None:
    return (r.left, r.right) if isinstance(r, BinOpResult) else None


def _ranked(r: Result) -> tuple[str, float]:
    """An operand's text and the rank below which its parent's operator wraps it."""
    if isinstance(r, NegateResult):
        return _text(r, 0), 4.5  # wrapped under a parent of rank 5 (a power)
    return _text(r, 0), float("inf")


def _joined(r: BinOpResult, left: tuple[str, float], right: tuple[str, float]) -> tuple[str, float]:
    prec = _PRECEDENCE[r.node.op]
    op = "^" if r.node.op == "**" else r.node.op
    # (-2)**2: a negated base needs its parentheses back, as the sign binds looser.
    left_parent = 5 if r.node.op == "**" else prec
    right_parent = prec + (0 if r.node.op == "**" else 1)
    a = f"({left[0]})" if left[1] < left_parent else left[0]
    b = f"({right[0]})" if right[1] < right_parent else right[0]
    return f"{a}{op}{b}", prec


def result_text(notation: str, r: Result) -> str:
    """``"2d6+1: [3, 5]+1 = 9"``."""
    return f"{notation}: {_text(r)} = {format_value(r.value)}"


def _die_dict(d: Die) -> dict[str, Any]:
    out: dict[str, Any] = {"value": json_value(d.value), "flags": d.flag_names()}
    if d.previous:
        out["previous"] = [json_value(v) for v in d.previous]
    return out


def result_parts(r: Result) -> list[dict[str, Any]]:
    """Every dice term and group in the tree, depth first, with every die."""
    out: list[dict[str, Any]] = []
    stack: list[Result] = [r]
    while stack:
        node = stack.pop()
        if isinstance(node, DiceResult):
            out.append(
                {
                    "type": "dice",
                    "notation": node.node.notation,
                    "label": node.node.label,
                    "value": json_value(node.value),
                    "dice": [_die_dict(d) for d in node.rolls],
                }
            )
        elif isinstance(node, GroupResult):
            out.append(
                {
                    "type": "group",
                    "label": node.node.label,
                    "value": json_value(node.value),
                    "items": [
                        {
                            "value": json_value(i.value),
                            "flags": [n for bit, n, _ in FLAG_NAMES if f & bit],
                        }
                        for i, f in zip(node.items, node.flags, strict=True)
                    ],
                }
            )
            stack.extend(reversed(node.items))
        elif isinstance(node, BinOpResult):
            stack.extend((node.right, node.left))
        elif isinstance(node, NegateResult):
            stack.append(node.operand)
        elif isinstance(node, CallResult | MultiResult):
            stack.extend(reversed(node.args if isinstance(node, CallResult) else node.items))
    return out
