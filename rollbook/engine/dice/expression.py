"""The public face of the dice engine: ``parse`` -> ``Expression`` -> ``RollResult``."""

from __future__ import annotations

import functools
import random
from fractions import Fraction
from typing import Any

from rollbook.engine.messages import Message

from .errors import DiceError, DiceSyntaxError, PlaceholderError
from .nodes import Multi, Node, Value
from .parser import fill, find_placeholders, parse_tree
from .render import json_value, result_parts, result_text
from .results import Result
from .roller import Roller, compile_node

__all__ = ["Expression", "RollResult", "fill", "parse", "placeholders", "roll"]

Total = Value | tuple[Value, ...]


class RollResult:
    """One roll of an expression: the total and the full result tree.

    Attributes:
        expression: The ``Expression`` that was rolled.
        tree: The rolled result tree (``rollbook.engine.dice.results``).
    """

    __slots__ = ("expression", "tree")

    def __init__(self, expression: Expression, tree: Result) -> None:
        self.expression = expression
        self.tree = tree

    @property
    def total(self) -> Total:
        """An int, a ``Fraction`` after division, or a tuple for comma rolls (``d6,d6``)."""
        return self.tree.value

    def text(self) -> str:
        """A one-line breakdown such as ``"2d6+1: [3, 5]+1 = 9"``."""
        return result_text(self.expression.notation, self.tree)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"notation", "total", "text", "parts"}`` (+ ``"exact"`` for fractions).

        ``total`` is an int, a number rounded to 2 decimals, or a list for comma rolls;
        ``parts`` lists every dice term and group with each die's value and flags.
        """
        out: dict[str, Any] = {
            "notation": self.expression.notation,
            "total": json_value(self.total),
            "text": self.text(),
            "parts": result_parts(self.tree),
        }
        total = self.total
        values = total if isinstance(total, tuple) else (total,)
        if any(isinstance(v, Fraction) for v in values):
            exact = [str(v) for v in values]
            out["exact"] = exact if isinstance(total, tuple) else exact[0]
        return out

    def __repr__(self) -> str:
        return f"RollResult({self.text()!r})"


class Expression:
    """A parsed, immutable dice expression; roll it as often as needed.

    Attributes:
        text: The notation as given.
        notation: The notation without surrounding whitespace.
        tree: The parsed tree (``rollbook.engine.dice.nodes``).
        placeholders: Names of ``{{ name }}`` placeholders (only non-empty when parsed with
            ``allow_placeholders=True``; such an expression cannot be rolled).
    """

    __slots__ = ("_roller", "notation", "placeholders", "text", "tree")

    def __init__(self, text: str, tree: Node, placeholders: frozenset[str] = frozenset()) -> None:
        self.text = text
        self.notation = text.strip()
        self.tree = tree
        self.placeholders = placeholders
        self._roller: Roller = compile_node(tree)

    @property
    def is_multi(self) -> bool:
        """True for comma rolls, whose totals are tuples."""
        return isinstance(self.tree, Multi)

    def roll(self, rng: random.Random) -> RollResult:
        """Roll once with the injected ``rng``.

        Raises:
            DiceError: e.g. division by zero happened on this roll, or placeholders are unfilled.
        """
        if self.placeholders:
            names = ", ".join(sorted(self.placeholders))
            said = Message("error.dice.fill_before_rolling", {"names": names})
            raise PlaceholderError(said, 0, self.text)
        try:
            return RollResult(self, self._roller(rng))
        except DiceError as err:
            if not err.text:
                err.text = self.text
            raise

    def __repr__(self) -> str:
        return f"Expression({self.text!r})"

    def __str__(self) -> str:
        return self.notation


@functools.lru_cache(maxsize=1024)
def _parse_cached(text: str) -> Expression:
    return Expression(text, parse_tree(text))


def parse(text: str, *, allow_placeholders: bool = False) -> Expression:
    """Parse dice notation (cached on the text).

    Args:
        text: The notation, e.g. ``"4d6kh3"``; surrounding whitespace is ignored.
        allow_placeholders: Accept ``{{ name }}`` placeholders: they are checked as if filled
            with 2 and listed in ``Expression.placeholders``; the result cannot be rolled.

    Raises:
        DiceError: a subclass with the position and a plain sentence.
    """
    if not isinstance(text, str):
        raise DiceSyntaxError(Message("error.dice.not_text", {"type": type(text).__name__}))
    if allow_placeholders and "{{" in text:
        names = find_placeholders(text)
        if names:
            try:
                filled = _parse_cached(fill(text, dict.fromkeys(names, 2)))
            except DiceError as err:
                # Positions refer to the filled text; report against the original.
                raise type(err)(err.said or err.message, None, text) from None
            return Expression(text, filled.tree, names)
    return _parse_cached(text)


def placeholders(text: str) -> frozenset[str]:
    """Names of the ``{{ name }}`` placeholders in ``text`` (without parsing it)."""
    return find_placeholders(text)


def roll(text: str | Expression, rng: random.Random | int | None = None) -> RollResult:
    """Parse (if needed) and roll once.

    Args:
        text: Notation or an ``Expression``.
        rng: A ``random.Random``, or an int seed. ``None`` means a fresh, unseeded generator
            (never the global one).
    """
    expr = text if isinstance(text, Expression) else parse(text)
    if not isinstance(rng, random.Random):
        rng = random.Random(rng)
    return expr.roll(rng)
