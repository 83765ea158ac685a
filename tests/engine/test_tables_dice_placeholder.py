"""The ``{{ dice }}`` placeholder: each die that counts, as text, in ``result_text``."""

from __future__ import annotations

import random

import pytest

from rollbook.engine.dice import roll as roll_dice
from rollbook.engine.tables import RollList, Table, check
from rollbook.engine.tables.template import RESERVED, dice_text

# Our own invented content: a cellar door that sticks, a crow's omens.
DOOR = {
    "roll": "1d20+2",
    "results": {"<=10": "It holds.", "11--19": "It gives.", ">=20": "It flies open."},
    "result_text": "Shoulder ({{ dice }} on the die, {{ roll }} in all): {{ result }}",
}


def _dice_of(expr: str, seed: int) -> list[int]:
    """The kept dice of a roll, read straight from the dice engine."""
    parts = roll_dice(expr, random.Random(seed)).to_dict()["parts"]
    return [
        d["value"]
        for p in parts
        if p["type"] == "dice"
        for d in p["dice"]
        if "dropped" not in d["flags"]
    ]


def test_dice_is_reserved_next_to_roll_and_result() -> None:
    assert RESERVED == ("roll", "result", "dice")


@pytest.mark.parametrize(
    ("expr", "seed"),
    [("2d6", 3), ("1d20+3", 3), ("4d6kh3", 3), ("d6,d6", 3), ("2d20kh1", 8), ("3d6!", 11)],
)
def test_dice_text_lists_the_kept_dice_in_order(expr: str, seed: int) -> None:
    parts = roll_dice(expr, random.Random(seed)).to_dict()["parts"]
    assert dice_text(parts) == ", ".join(str(v) for v in _dice_of(expr, seed))


def test_dropped_dice_are_left_out() -> None:
    parts = [
        {
            "type": "dice",
            "dice": [
                {"value": 2, "flags": ["dropped"]},
                {"value": 5, "flags": []},
                {"value": 6, "flags": ["exploded"]},
            ],
        },
        {"type": "group", "items": [{"value": 4, "flags": []}]},
    ]
    assert dice_text(parts) == "5, 6"
    assert dice_text([]) == ""


def test_a_table_roll_shows_the_die_not_the_total() -> None:
    table = Table.from_dict(DOOR)
    for seed in range(20):
        rolled = table.roll(random.Random(seed))
        die = _dice_of("1d20+2", seed)[0]
        assert rolled.value == die + 2
        assert rolled.text is not None
        assert rolled.text.startswith(f"Shoulder ({die} on the die, {die + 2} in all): ")
        # The bridge reply carries the same filled sentence for the browser.
        assert rolled.to_dict()["text"] == rolled.text


def test_a_roll_list_fills_dice_too() -> None:
    lst = RollList.from_dict(
        {"results": ["crow", "raven", "magpie"], "result_text": "{{ dice }}: a {{ result }}"}
    )
    rolled = lst.roll(random.Random(5))
    assert rolled.row_index is not None
    assert rolled.text == f"{rolled.value}: a {lst.rows[rolled.row_index].cells[0]}"


def test_sentence_without_dice_falls_back_to_the_total() -> None:
    table = Table.from_dict(DOOR)
    assert (
        table.sentence(table.rows[2], 21, {})
        == "Shoulder (21 on the die, 21 in all): It flies open."
    )
    assert table.sentence(table.rows[2], 21, {}, "19") == (
        "Shoulder (19 on the die, 21 in all): It flies open."
    )


def test_dice_overrides_a_column_of_the_same_name_like_roll_does() -> None:
    table = Table.from_dict(
        {
            "roll": "1d6",
            "headers": ["Dice", "Effect"],
            "result_text": "{{ dice }} / {{ roll }} / {{ effect }}",
            "results": {"1--6": ["bones", "rattle"]},
        }
    )
    assert table.sentence(table.rows[0], 4, {}, "4") == "4 / 4 / rattle"


def test_validation_accepts_dice_and_suggests_it() -> None:
    body = {"roll": "1d20", "results": {"1--20": "any"}}
    table, good = check({**body, "result_text": "natural {{ dice }}"})
    assert table is not None
    assert good == []
    _, bad = check({**body, "result_text": "natural {{ dise }}"})
    messages = [p.message for p in bad]
    assert any("{{ dise }}" in m and "did you mean 'dice'?" in m for m in messages), messages
