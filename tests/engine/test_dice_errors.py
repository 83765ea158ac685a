"""Malformed notation and limits: a DiceError subclass with a position and a caret."""

from __future__ import annotations

import random

import pytest

from rollbook.engine.dice import (
    DiceError,
    DiceLimitError,
    DiceSyntaxError,
    DiceValueError,
    OddsUnavailableError,
    PlaceholderError,
    odds,
    parse,
    roll,
)
from rollbook.engine.limits import value as limit

MALFORMED = [
    ("2d", 2, "number of sides"),
    ("d", 1, "number of sides"),
    ("1d0", 2, "1 or more sides"),
    ("0d6", 0, "1 or more"),
    ("3d6+", 4, "ends too early"),
    ("abc", 0, "Unknown word 'abc'"),
    ("1d1!", 3, "single possible value"),
    ("1d6!>=1", 3, "explode forever"),
    ("1d6r<7", 3, "re-rolled forever"),
    ("7d6u", 3, "7 unique dice"),
    ("5d6!u", 4, "cannot also explode"),
    ("", 0, "empty"),
    ("   ", 0, "empty"),
    ("(1", 2, "close the '('"),
    ("1)", 1, "without a matching '('"),
    ("{1d6", 4, "close the group"),
    ("2d6kh", 5, "count of 1 or more"),
    ("2d6k0", 4, "count of 1 or more"),
    ("2d6f<3", 3, "must follow a success"),
    ("2d6>=", 5, "number after '>='"),
    ("foo(1)", 0, "Unknown word 'foo'"),
    ("max(1)", 0, "takes 2 arguments"),
    ("abs(1,2)", 0, "takes 1 argument"),
    ("2d6 kh3", 4, "no space"),
    ("{1d6}!", 5, "roll group"),
    ("1.", 1, "decimal point"),
    ("2d6 [x", 4, "closing ']'"),
    ("2d6 /* x", 4, "closing '*/'"),
    ("1d6 + {{ n }}", 6, "placeholder 'n'"),
    ("2d6 ** ", 7, "ends too early"),
    ("2D6", 1, "no space"),
    ("d6,", 3, "ends too early"),
]


@pytest.mark.parametrize(("text", "position", "words"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed(text: str, position: int, words: str) -> None:
    with pytest.raises(DiceError) as info:
        parse(text)
    err = info.value
    assert words in err.message
    assert err.position == position
    caret = err.caret()
    if text.strip():
        assert caret.splitlines()[1] == " " * position + "^"
    assert "Traceback" not in str(err)


def test_placeholder_error_is_named() -> None:
    with pytest.raises(PlaceholderError, match="'bonus'"):
        parse("1d6+{{ bonus }}")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (f"{limit('dice_per_term') + 1}d6", "dice in one roll"),
        (f"1d{limit('die_sides') + 1}", "sides"),
        (
            "(" * (limit("notation_depth") + 1) + "1" + ")" * (limit("notation_depth") + 1),
            "levels deep",
        ),
        (
            "{" * (limit("notation_depth") + 1) + "1" + "}" * (limit("notation_depth") + 1),
            "levels deep",
        ),
        (
            "abs(" * (limit("notation_depth") + 1) + "1" + ")" * (limit("notation_depth") + 1),
            "levels deep",
        ),
        ("-" * (limit("notation_depth") + 2) + "1", "signs in a row"),
        ("1+" * 600 + "1", "longer than"),
        ("+".join(["1000d6"] * 3), "dice in all"),
    ],
)
def test_limits_before_work(text: str, words: str) -> None:
    with pytest.raises(DiceLimitError, match=words) as info:
        parse(text)
    assert info.value.position is not None


def test_deep_nesting_within_limit_is_fine() -> None:
    depth = limit("notation_depth")
    assert roll("(" * depth + "1" + ")" * depth, 1).total == 1
    assert roll("2" + "**1" * 300, 1).total == 2  # long power chains use loops, not recursion


@pytest.mark.parametrize("text", ["2**101", "pow(2, 1d6*100)", "(10**100)**100*(10**100)**100"])
def test_exponent_and_size_limits(text: str) -> None:
    with pytest.raises(DiceLimitError):
        roll(text, random.Random(1))


@pytest.mark.parametrize("text", ["1/0", "1d6/(1d1-1)", "0**-1", "5%0/0"])
def test_division_by_zero_is_a_dice_error(text: str) -> None:
    with pytest.raises(DiceValueError) as info:
        roll(text, random.Random(1))
    assert info.value.text == text
    with pytest.raises(DiceValueError):
        odds(text)


def test_odds_with_possible_division_by_zero() -> None:
    totals = set()
    for seed in range(20):  # one roll may or may not divide by zero...
        try:
            totals.add(roll("6/(1d2-1)", random.Random(seed)).total)
        except DiceValueError:
            totals.add(None)
    assert totals == {6, None}
    with pytest.raises(DiceValueError, match="Division by zero"):
        odds("6/(1d2-1)")  # ...but the odds say plainly that it can


@pytest.mark.parametrize("text", ["sqrt(-1)", "(-8)**(1/3)", "2**(1/2)"])
def test_inexact_math_is_refused(text: str) -> None:
    with pytest.raises(DiceValueError):
        roll(text, 1)


def test_exact_fractional_power() -> None:
    assert roll("4**(1/2)", 1).total == 2
    assert roll("(8/27)**(2/3)", 1).total == parse("4/9").roll(random.Random()).total


def test_odds_unavailable_is_said_plainly() -> None:
    with pytest.raises(OddsUnavailableError, match="not available"):
        odds("{4d6*2}k1")


def test_odds_too_large_refused_quickly() -> None:
    with pytest.raises(DiceLimitError):
        odds("1000d6")


def test_not_text() -> None:
    with pytest.raises(DiceSyntaxError):
        parse(12)  # type: ignore[arg-type]


def test_root_of_huge_degree_is_refused_at_once() -> None:
    # sqrt(sqrt(8)) is a fraction with a 2**64 denominator; as an exponent it asks for a
    # root of that degree, which must be refused, not attempted.
    with pytest.raises(DiceValueError, match="exact value"):
        roll("pow(0.25, 3d2)**sqrt(sqrt(8))", random.Random(1))


@pytest.mark.parametrize("text", ["3d%uo", "3d%u=2", "d%!!,d%!!"])
def test_large_enumerations_are_refused_before_work(text: str) -> None:
    with pytest.raises(DiceError):
        odds(text)


def test_plain_unique_uses_subset_counting() -> None:
    dist = odds("3d%u")
    assert (dist.min, dist.max) == (6, 297)
    assert dist.pmf[6] * 161700 == 1  # one subset {1, 2, 3} of C(100, 3)
