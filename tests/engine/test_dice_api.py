"""The public dice API of ARCHITECTURE.md, with seeded worked examples."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from rollbook import engine
from rollbook.engine import DiceError, fill, odds, parse, roll, support


def test_parse_is_cached_and_rolls() -> None:
    assert parse("2d6") is parse("2d6")
    result = parse("2d6").roll(random.Random(1))
    assert 2 <= result.total <= 12
    assert result.text().startswith("2d6: [")
    data = result.to_dict()
    assert set(data) >= {"notation", "total", "text", "parts"}
    assert data["parts"][0]["dice"][0]["value"] in range(1, 7)


def test_same_seed_same_roll() -> None:
    a = roll("4d6kh3+2d8", random.Random(42)).to_dict()
    b = roll("4d6kh3+2d8", random.Random(42)).to_dict()
    assert a == b


def test_comma_rolls_are_tuples() -> None:
    result = roll("d6,d6", random.Random(3))
    assert isinstance(result.total, tuple) and len(result.total) == 2
    assert support("d6,d6") == {(a, b) for a in range(1, 7) for b in range(1, 7)}
    assert odds("d6,d6").pmf[(1, 1)] == Fraction(1, 36)


@pytest.mark.parametrize(
    ("text", "low", "high", "mean"),
    [
        ("2d6", 2, 12, Fraction(7)),
        ("1d6+1", 2, 7, Fraction(9, 2)),
        ("1d20+5", 6, 25, Fraction(31, 2)),
        ("d%", 1, 100, Fraction(101, 2)),
        ("4d6kh3", 3, 18, Fraction(15869, 1296)),
    ],
)
def test_odds(text: str, low: int, high: int, mean: Fraction) -> None:
    dist = odds(text)
    assert (dist.min, dist.max, dist.mean) == (low, high, mean)
    assert sum(dist.pmf.values()) == 1
    assert dist.at_least(low) == 1
    assert support(text) == frozenset(range(low, high + 1))


def test_at_least() -> None:
    assert odds("2d6").at_least(11) == Fraction(3, 36)


def test_placeholders() -> None:
    text = "{{ n }}d6 + {{bonus}} + {{  n}}"
    assert parse(text, allow_placeholders=True).placeholders == {"n", "bonus"}
    assert fill(text, {"n": 2, "bonus": 3}) == "2d6 + 3 + 2"
    with pytest.raises(DiceError, match="'n'"):
        parse("{{ n }}d6")


def test_error_has_position_and_caret() -> None:
    with pytest.raises(DiceError) as info:
        parse("3d6+")
    assert info.value.position == 4
    assert info.value.caret() == "3d6+\n    ^"


def test_dice_limits_are_rows_of_the_one_limits_table() -> None:
    from rollbook.engine.limits import value

    assert value("dice_per_term") >= 100


def test_distribution_is_exported_lazily() -> None:
    dist = odds("1d4")
    assert isinstance(dist, engine.Distribution)
    assert dist.support() == {1, 2, 3, 4}


def test_is_multi() -> None:
    assert parse("d6,d6").is_multi and not parse("2d6").is_multi
