"""Extremes and mean from the parts alone equal the exact odds wherever both exist."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rollbook.engine.dice import DiceError, odds, parse
from rollbook.engine.dice.moments import extremes_and_mean


def _random_expression(rng: random.Random, depth: int = 0) -> str:
    """A small expression of the grammar extremes_and_mean covers."""
    if depth > 2 or rng.random() < 0.4:
        return rng.choice(
            [
                f"{rng.randint(1, 3)}d{rng.choice([2, 4, 6, 8, 10])}",
                f"{rng.randint(1, 2)}dF",
                str(rng.randint(0, 12)),
                f"{{{rng.randint(1, 2)}d4, d6}}",
            ]
        )
    left, right = _random_expression(rng, depth + 1), _random_expression(rng, depth + 1)
    return rng.choice(
        [f"{left} + {right}", f"{left} - {right}", f"({left}) * ({right})", f"-({left})"]
    )


@pytest.mark.parametrize("seed", range(150))
def test_equals_the_exact_odds(seed: int) -> None:
    text = _random_expression(random.Random(seed))
    try:
        exact = odds(text)
    except DiceError:
        pytest.fail(f"{text}: small enough for exact odds")
    assert extremes_and_mean(text) == (exact.min, exact.max, exact.mean), text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1000d6", (1000, 6000, Fraction(3500))),
        ("10d100*10d100", (100, 1_000_000, Fraction(255_025))),
        ("3 - 1000dF.1", (-997, 1003, Fraction(3))),
    ],
)
def test_rolls_too_large_for_exact_odds(text: str, expected: tuple) -> None:
    with pytest.raises(DiceError):
        odds(text)
    assert extremes_and_mean(text) == expected


@pytest.mark.parametrize(
    "text", ["4d6kh3", "2d6/2", "3d6!", "floor(2d6)", "d6,d6", "2d6**2", "{2d6, 1d8}kh1"]
)
def test_parts_it_cannot_work_out_give_none(text: str) -> None:
    assert extremes_and_mean(text) is None


def test_placeholders_give_none() -> None:
    assert extremes_and_mean(parse("{{ n }}d6 + 2", allow_placeholders=True)) is None
