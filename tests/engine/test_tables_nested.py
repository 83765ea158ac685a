"""Nested rolls: dice and tables a row rolls together with it, from the same rng."""

from __future__ import annotations

import random

import pytest

from rollbook.engine import dice
from rollbook.engine.bridge import handle
from rollbook.engine.tables import Table, TableError
from rollbook.engine.tables.nested import MAX_DEPTH, NestedPart, fill_slots, parts_of


def nest(value: str, label: str = "", table: str = "") -> str:
    """A cell's nested part as the Markdown side writes it (a button and an output inside)."""
    extra = f' data-rb-label="{label}"' if label else ""
    extra += f' data-rb-table="{table}"' if table else ""
    return (
        f'<span class="rb-inline" data-rb-nest="{value}"{extra}><button>{label or value}'
        '</button><output class="rb-out"><span>inner</span></output></span>'
    )


def camp() -> dict:
    """A table whose rows hold a die and a reference, with its referenced table."""
    backlash = Table.from_dict(
        {
            "roll": "1d4 + {{ power }}",
            "prompts": [{"name": "power", "min": 0, "max": 3}],
            "results": {"1--3": "Sparks", ">=4": f"Burn {nest('1d4')}"},
        }
    )
    table = Table.from_dict(
        {
            "roll": "1d2",
            "results": {
                1: f"Buy {nest('1d3')} torches and {nest('2d6*10', '2d6 x 10 feet')}",
                2: f"Magic: {nest('magic.md#backlash', table='m.md#backlash')}",
            },
        }
    )
    data = table.to_dict()
    data["refs"] = {"m.md#backlash": backlash.to_dict()}
    return data


def test_parts_are_read_from_the_cells_in_order() -> None:
    cells = (f"a {nest('1d3')} b {nest('#x', table='p.md#x')}", f"{nest('2d6', 'two dice')}")
    assert parts_of(cells) == (
        NestedPart(roll="1d3"),
        NestedPart(ref="#x", table="p.md#x"),
        NestedPart(roll="2d6", label="two dice"),
    )
    # Each whole element (nested spans included) gives way to its value.
    assert fill_slots(cells, ["1", "T", "7"]) == ("a 1 b T", "7")


def test_canonical_dict_carries_nested_parts_and_refs() -> None:
    data = camp()
    assert data["rows"][0]["nested"] == [
        {"roll": "1d3"},
        {"roll": "2d6*10", "label": "2d6 x 10 feet"},
    ]
    assert data["rows"][1]["nested"] == [{"ref": "magic.md#backlash", "table": "m.md#backlash"}]
    table = Table.from_dict(data)
    assert table.to_dict() == data
    assert (
        "nested" not in Table.from_dict({"roll": "1d2", "results": ["a", "b"]}).to_dict()["rows"][0]
    )


def test_row_then_its_dice_in_order_from_the_same_rng() -> None:
    data = camp()
    for seed in range(1, 40):
        reply = handle({"op": "table", "table": data, "seed": seed})
        if reply["row"] == 0:
            break
    rng = random.Random(seed)
    assert dice.roll("1d2", rng).total == 1
    first, second = dice.roll("1d3", rng), dice.roll("2d6*10", rng)
    assert [n["roll"]["total"] for n in reply["nested"]] == [first.total, second.total]
    assert [n["kind"] for n in reply["nested"]] == ["dice", "dice"]
    assert reply["text"] == (
        f'Rolled 1: Buy <span class="rb-nested" title="{first.text()}">{first.total}</span> '
        f'torches and <span class="rb-nested" title="{second.text()}">{second.total}</span>'
        " (2d6 x 10 feet)"
    )


def test_a_referenced_table_is_rolled_with_its_prompt_and_its_own_dice() -> None:
    data = camp()
    seen = set()
    for seed in range(1, 80):
        reply = handle(
            {"op": "table", "table": data, "seed": seed, "prompts": {"backlash.power": 3}}
        )
        if reply["row"] != 1:
            continue
        inner = reply["nested"][0]
        assert inner["kind"] == "table" and inner["ref"] == "magic.md#backlash"
        assert inner["roll"]["notation"] == "1d4 + 3"
        seen.add(inner["row"])
        if inner["row"] == 1:  # "Burn 1d4": the inner table's die, in its own list
            burn = inner["nested"][0]["roll"]["total"]
            assert reply["text"].startswith('Rolled 2: Magic: <span class="rb-nested">Burn <span')
            assert f">{burn}</span></span>" in reply["text"]
    assert seen == {1}  # 1d4+3 is at least 4
    # Missing values take the prompt's default (0); out of range is refused.
    low = handle({"op": "table", "table": data, "seed": 5, "prompts": {}})
    assert "error" not in low
    bad = handle({"op": "table", "table": data, "seed": 2, "prompts": {"backlash.power": 9}})
    assert bad["error"] == "Prompt 'power' must be from 0 to 3, not 9."


def test_a_referenced_tables_prompt_is_judged_whichever_row_comes_up() -> None:
    data = camp()
    for seed in range(1, 20):  # both rows come up among these seeds; each is refused
        bad = {"op": "table", "table": data, "seed": seed, "prompts": {"backlash.power": "9"}}
        reply = handle(bad)
        assert reply["error"] == "Prompt 'power' must be from 0 to 3, not 9."
        assert reply["prompt"] == "backlash.power"  # the input the browser marks


def test_odds_ignore_the_referenced_tables_prompts() -> None:
    reply = handle({"op": "table_odds", "table": camp(), "prompts": {"backlash.power": 2}})
    assert reply == {"chances": ["1/2", "1/2"], "prompts": {}}


def chain(length: int) -> dict:
    """Table t0 rolling t1 rolling ... t<length> (one row each)."""
    refs = {}
    for i in range(length, -1, -1):
        cell = "end" if i == length else nest(f"#t{i + 1}", table=f"p#t{i + 1}")
        refs[f"p#t{i}"] = Table.from_dict({"roll": "1d1", "results": {1: cell}}).to_dict()
    root = dict(refs.pop("p#t0"))
    root["refs"] = refs
    return root


def test_depth_is_limited() -> None:
    ok = handle({"op": "table", "table": chain(MAX_DEPTH), "seed": 1})
    assert "error" not in ok
    too_deep = handle({"op": "table", "table": chain(MAX_DEPTH + 1), "seed": 1})
    assert too_deep["error"] == f"Table references nest deeper than {MAX_DEPTH} levels."


def test_a_reference_missing_from_the_payload_is_a_sentence() -> None:
    data = camp()
    data["refs"] = "rb-refs:unresolved"  # what a build without a host leaves
    replies = [handle({"op": "table", "table": data, "seed": s}) for s in range(1, 20)]
    errors = {r["error"] for r in replies if "error" in r}
    assert errors == {"The table 'magic.md#backlash' that this row rolls is not available."}


def test_rows_without_nested_parts_roll_as_before() -> None:
    table = Table.from_dict({"roll": "1d6", "results": {"1--6": "x"}})
    rolled = table.roll(random.Random(3))
    assert rolled.nested == () and "nested" not in rolled.to_dict()
    with pytest.raises(TableError):
        table.roll(random.Random(3), {"bogus": 1})
