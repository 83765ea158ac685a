"""Result keys: each form docs/authoring/roll-tables.md documents parses, displays and matches."""

from __future__ import annotations

import pytest

from rollbook.engine.tables import Key, Table, TableError, parse_key


@pytest.mark.parametrize(
    ("raw", "parts", "text", "label", "inside", "outside"),
    [
        (7, 1, "7", "7", [7], [6, 8]),
        ("7", 1, "7", "7", [7], [6, 8]),
        ("2--3", 1, "2--3", "2–3", [2, 3], [1, 4]),
        ("2 -- 3", 1, "2--3", "2–3", [2, 3], [1, 4]),
        ("2–3", 1, "2--3", "2–3", [2, 3], [1, 4]),
        ("2-3", 1, "2--3", "2–3", [2, 3], [1, 4]),
        (">=17", 1, ">=17", "≥17", [17, 18, 99], [16]),
        (">17", 1, ">17", ">17", [18, 99], [17, 16]),
        ("<=2", 1, "<=2", "≤2", [2, 1, -5], [3]),
        ("<2", 1, "<2", "<2", [1, 0], [2, 3]),
        ("-3--1", 1, "-3--1", "-3–1", [-3, 0, 1], [-4, 2]),
        ("-3---1", 1, "-3---1", "-3–-1", [-3, -1], [0, -4]),
        ("1-1", 2, "1-1", "1, 1", [(1, 1)], [(1, 2), (2, 1), 1]),
        ("6-4", 2, "6-4", "6, 4", [(6, 4)], [(4, 6)]),
        ("1-2-3", 3, "1-2-3", "1, 2, 3", [(1, 2, 3)], [(1, 2)]),
    ],
)
def test_key_forms(raw, parts, text, label, inside, outside) -> None:
    key, _ = parse_key(raw, parts)
    assert key.label == label
    assert all(key.matches(v) for v in inside)
    assert not any(key.matches(v) for v in outside)
    # the canonical spelling parses back to the same key (to_dict relies on it)
    assert key.text == text
    assert parse_key(key.text, parts)[0] == key


def test_single_dash_range_warns_but_works() -> None:
    key, warning = parse_key("2-3")
    assert key == Key("--", 2, 3)
    assert warning is not None and "2--3" in warning and "documented" in warning
    assert parse_key("2--3")[1] is None


@pytest.mark.parametrize(
    ("raw", "parts", "words"),
    [
        ("two", 1, "is not a result key"),
        ("5--3", 1, "runs backwards; write 3--5"),
        ("7-2", 1, "runs backwards"),
        ("1-2-3", 1, "multi-dice key but the roll has no comma parts"),
        (7, 2, "is not a key for a roll of 2 comma parts"),
        ("1-2-3", 2, "has 3 part(s) but the roll has 2 comma parts"),
        (2.5, 1, "is not a result key"),
        (True, 1, "is not a result key"),
        ("=>7", 1, "is not a result key"),
    ],
)
def test_bad_keys_say_why(raw, parts, words) -> None:
    with pytest.raises(ValueError, match=None) as info:
        parse_key(raw, parts)
    assert words in str(info.value)


def _table(results, roll: str = "2d6") -> Table:
    return Table.from_dict({"roll": roll, "results": results})


def test_lookup_every_key_form_on_one_table() -> None:
    table = _table(
        {"<3": "low", "3--4": "edge", 5: "five", "6-7": "mid", ">11": "top", ">=9": "high"}
    )
    found = {v: (row.cells[0] if (row := table.lookup(v)) else None) for v in range(1, 14)}
    assert found == {
        1: "low", 2: "low", 3: "edge", 4: "edge", 5: "five", 6: "mid", 7: "mid",
        8: None, 9: "high", 10: "high", 11: "high", 12: "top", 13: "top",
    }  # fmt: skip


def test_lookup_is_first_match_and_none_when_nothing_covers() -> None:
    table = _table({"2--6": "a", 7: "b"})
    assert table.lookup(7).index == 1  # type: ignore[union-attr]
    assert table.lookup(13) is None
    assert table.lookup((1, 1)) is None


def test_lookup_tuples_of_a_comma_roll() -> None:
    table = _table({"1-1": "snake eyes", "1-2": "low pair", "6-6": "boxcars"}, roll="d6,d6")
    assert table.lookup((1, 2)).cells == ("low pair",)  # type: ignore[union-attr]
    assert table.lookup((2, 1)) is None
    assert table.lookup(2) is None
    assert table.labels() == ["1, 1", "1, 2", "6, 6"]


def test_a_bad_key_blocks_building_with_its_line() -> None:
    with pytest.raises(TableError) as info:
        Table.from_dict(
            {"roll": "2d6", "results": {"2--7": "a", "eight": "b"}}, {("results", "eight"): 4}
        )
    assert info.value.line == 4
    assert "'eight' is not a result key" in str(info.value)
