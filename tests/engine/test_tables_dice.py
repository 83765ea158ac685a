"""Tables with real dice: exact row odds, list mapping, rolling, seeds, unmatched rolls."""

from __future__ import annotations

import json
import random
from fractions import Fraction as F

import pytest

from rollbook.engine import dice
from rollbook.engine.tables import RollList, Table, TableError

REACTION = {
    "roll": "2d6",
    "result_text": "The stranger ({{ roll }}) is {{ result }}.",
    "results": {"2--4": "wary", "5--6": "curious", 7: "neutral", "8--9": "warm", ">=10": "eager"},
}


def test_exact_row_probabilities_of_a_2d6_table() -> None:
    table = Table.from_dict(REACTION)
    assert table.probabilities() == [F(6, 36), F(9, 36), F(6, 36), F(9, 36), F(6, 36)]
    assert sum(table.probabilities()) == 1


def test_open_ended_keys_exclusive_without_equals() -> None:
    table = Table.from_dict({"roll": "2d6", "results": {"<3": "a", "3--9": "b", ">9": "c"}})
    assert table.probabilities() == [F(1, 36), F(29, 36), F(6, 36)]
    inclusive = Table.from_dict({"roll": "2d6", "results": {"<=3": "a", "4--8": "b", ">=9": "c"}})
    assert inclusive.probabilities() == [F(3, 36), F(23, 36), F(10, 36)]


def test_d66_tuples_each_one_in_36_and_tabs_by_first_die() -> None:
    results = {f"{a}-{b}": f"cell {a}{b}" for a in range(1, 7) for b in range(1, 7)}
    tabs = {1: "Crown", 2: "Face", 3: "Neck", 4: "Arms", 5: "Gut", 6: "Legs"}
    table = Table.from_dict({"roll": "d6,d6", "results": results, "tabs": tabs})
    assert table.probabilities() == [F(1, 36)] * 36
    assert table.tab_rows()["4"] == tuple(range(18, 24))
    rolled = table.roll(random.Random(5))
    assert isinstance(rolled.value, tuple) and len(rolled.value) == 2
    assert rolled.row_index == (rolled.value[0] - 1) * 6 + rolled.value[1] - 1
    assert rolled.tab == str(rolled.value[0])
    assert (
        rolled.text
        == f"Rolled {rolled.value[0]}, {rolled.value[1]}: cell {rolled.value[0]}{rolled.value[1]}"
    )


def test_list_results_start_at_the_lowest_total() -> None:
    table = Table.from_dict(
        {"roll": "1d6+1", "results": ["two", "three", "four", "five", "six", "seven"]}
    )
    assert table.labels() == ["2", "3", "4", "5", "6", "7"]
    assert table.lookup(2).cells == ("two",)  # type: ignore[union-attr]
    assert table.lookup(7).cells == ("seven",)  # type: ignore[union-attr]
    assert table.lookup(1) is None
    assert table.probabilities() == [F(1, 6)] * 6
    two_dice = Table.from_dict({"roll": "2d6", "results": [str(v) for v in range(2, 13)]})
    assert two_dice.probabilities()[5] == F(6, 36)  # the sixth item is 7


def test_list_with_a_prompt_moves_with_the_bonus() -> None:
    table = Table.from_dict(
        {
            "roll": "1d4+{{ edge }}",
            "prompts": [{"name": "edge", "min": 0, "max": 2}],
            "results": ["a", "b", "c", "d"],
        }
    )
    assert table.labels({"edge": 2}) == ["3", "4", "5", "6"]
    assert table.lookup(3, {"edge": 2}).cells == ("a",)  # type: ignore[union-attr]
    assert table.lookup(3).cells == ("c",)  # type: ignore[union-attr]  # default edge = min = 0


def test_roll_list_rolls_by_position() -> None:
    lst = RollList.from_dict({"results": ["moth", "crow", "toad"]})
    seen = {lst.roll(random.Random(seed)).row_index for seed in range(40)}
    assert seen == {0, 1, 2}
    rolled = lst.roll(random.Random(3))
    assert rolled.text == f"Rolled {rolled.value}: {lst.rows[rolled.value - 1].cells[0]}"


@pytest.mark.parametrize("seed", [0, 1, 7, 2024, 99999])
def test_same_seed_same_row_in_cli_and_worker(seed: int) -> None:
    table = Table.from_dict(REACTION)
    here = table.roll(random.Random(seed))
    # the worker rebuilds the table from its JSON payload and rolls with the same seed
    there = Table.from_dict(json.loads(json.dumps(table.to_dict()))).roll(random.Random(seed))
    assert (here.value, here.row_index, here.text, here.tab) == (
        there.value,
        there.row_index,
        there.text,
        there.tab,
    )
    # rolling a table consumes the rng exactly as the dice engine rolling its notation does
    assert here.value == dice.roll("2d6", random.Random(seed)).total
    assert table.rows[here.row_index].key.matches(here.value)  # type: ignore[index,union-attr]
    assert here.text == f"The stranger ({here.value}) is {table.rows[here.row_index].cells[0]}."  # type: ignore[index]


def test_roll_reply_for_the_bridge() -> None:
    reply = Table.from_dict(REACTION).roll(random.Random(11)).to_dict()
    assert set(reply) == {"roll", "row", "text", "tab"}
    assert reply["roll"]["notation"] == "2d6"
    assert isinstance(reply["row"], int)
    assert reply["tab"] is None
    json.dumps(reply)


def test_unmatched_roll_says_so_plainly() -> None:
    table = Table.from_dict({"roll": "1d1+12", "results": {"1--12": "never"}})
    rolled = table.roll(random.Random(1))
    assert (rolled.value, rolled.row_index, rolled.tab) == (13, None, None)
    assert rolled.text == "No row for 13."
    quiet = Table.from_dict({"roll": "1d1+12", "results": {"1--12": "never"}, "result_text": False})
    assert quiet.roll(random.Random(1)).text == "No row for 13."


def test_template_filled_with_prompt_values() -> None:
    table = Table.from_dict(
        {
            "roll": "1d6+{{ failed_roll }}",
            "prompts": [{"name": "failed_roll", "min": 0, "max": 3}],
            "result_text": "Shaken by {{ failed_roll }}, rolled {{ roll }}: {{ result }}",
            "results": {"1--4": "holds", "5--9": "flees"},
        }
    )
    for seed in range(10):
        rolled = table.roll(random.Random(seed), {"failed_roll": "3"})
        assert 4 <= rolled.value <= 9
        assert rolled.value == dice.roll("1d6+3", random.Random(seed)).total
        word = "holds" if rolled.value <= 4 else "flees"
        assert rolled.text == f"Shaken by 3, rolled {rolled.value}: {word}"
    assert table.probabilities({"failed_roll": 3}) == [F(1, 6), F(5, 6)]
    assert table.probabilities() == [F(4, 6), F(2, 6)]  # default: the prompt's min


def test_rolling_enforces_prompts() -> None:
    table = Table.from_dict(
        {
            "roll": "1d6+{{ n }}",
            "prompts": [{"name": "n", "min": 0, "max": 3}],
            "results": {"1--9": "x"},
        }
    )
    with pytest.raises(TableError, match="prompt 'n' must be from 0 to 3, not 5"):
        table.roll(random.Random(1), {"n": 5})
    with pytest.raises(TableError, match="needs a value"):
        table.roll(random.Random(1))


def test_a_list_under_a_comma_roll_maps_onto_sorted_tuples_and_tabs() -> None:
    table = Table.from_dict(
        {"roll": "d2,d2", "tabs": {1: "First", 2: "Second"}, "results": ["aa", "ab", "ba", "bb"]}
    )
    assert table.labels() == ["1, 1", "1, 2", "2, 1", "2, 2"]
    assert table.lookup((2, 1)).cells == ("ba",)  # type: ignore[union-attr]
    assert table.tab_rows() == {"1": (0, 1), "2": (2, 3)}
    assert table.probabilities() == [F(1, 4)] * 4


def test_fractional_totals_are_shown_and_matched() -> None:
    table = Table.from_dict({"roll": "1d4/2", "results": {"<1": "half", "1--2": "whole"}})
    assert table.probabilities() == [F(1, 4), F(3, 4)]
    rolled = table.roll(random.Random(0))
    assert rolled.row_index == (0 if rolled.value < 1 else 1)
