"""The reader's variants composed around labels: every form the grammar documents."""

from __future__ import annotations

import random

import pytest

from rollbook.engine.dice import DiceError, odds, parse, roll
from rollbook.engine.dice.variants import MODIFIED, compose, offered

LABELLED = [
    ("1d6 # fire", "fire"),
    ("1d6 // fire", "fire"),
    ("2d6+1 # x", None),
    ("1d20 // y", "y"),
    ("1d20 # a+b #c", "a+b #c"),
    ("2d6+1 // a + b // c", None),
    ("4d6kh3 [strength]", "strength"),
    ("4d6 [str] + 2 # total", "str"),
    ("1d8 /* x+1 */", "x+1"),
    ("{2d6, 1d10} # best", None),
    ("3 # just a number", None),
]


@pytest.mark.parametrize(("written", "label"), LABELLED)
def test_every_variant_of_a_labelled_roll_rolls_with_its_label(
    written: str, label: str | None
) -> None:
    variants = offered(written)
    assert set(variants) == {"advantage", "disadvantage", MODIFIED}
    for variant, composed in variants.items():
        assert composed == compose(written, variant)
        for modifier in ("", "+2", "-1", "+9999"):
            result = roll(composed + modifier, random.Random(3))
            labels = [part.get("label") for part in result.to_dict()["parts"]]
            if label is not None:
                assert label in labels, (composed, labels)
        # The modifier adds to the whole total, not to what the label ended at.
        base = roll(composed, random.Random(5)).total
        assert roll(composed + "+2", random.Random(5)).total == base + 2


def test_a_modifier_shifts_the_written_rolls_odds() -> None:
    written = "2d6+1 // attack"
    shifted = odds(offered(written)[MODIFIED] + "+3").pmf
    assert shifted == {value + 3: p for value, p in odds("2d6+1").pmf.items()}


def test_advantage_of_a_plain_die_stays_the_short_form() -> None:
    assert offered("1d20") == {
        "advantage": "2d20kh1",
        "disadvantage": "2d20kl1",
        MODIFIED: "(1d20)",
    }


@pytest.mark.parametrize("written", ["d6,d6", "1d6 [a], 1d6", "", "2d", "1d6 [open"])
def test_no_variants_for_comma_rolls_or_what_does_not_parse(written: str) -> None:
    assert offered(written) == {}


def test_a_variant_past_a_limit_is_not_offered() -> None:
    written = "1000d6+200d6"  # twice over the dice one notation may name
    parse(written)
    with pytest.raises(DiceError):
        parse(compose(written, "advantage"))
    assert set(offered(written)) == {MODIFIED}
