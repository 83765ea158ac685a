"""The browser bridge: JSON in, JSON out, a sentence (never a traceback) on bad input."""

from __future__ import annotations

import json
import random

import pytest

from rollbook.engine import bridge
from rollbook.engine.tables import Table

D6_TABLE = {
    "roll": "1d6",
    "results": {"1--3": "a <em>low</em> roll", "4--6": "a high roll"},
}


def _payload(data: dict) -> dict:
    """The table as the page sends it: Table.to_dict() through JSON."""
    return json.loads(json.dumps(Table.from_dict(data).to_dict()))


@pytest.mark.parametrize(
    ("request_", "fragment"),
    [
        ([], "JSON object"),
        ({}, "Unknown operation"),
        ({"op": "explode"}, "Unknown operation 'explode'"),
        ({"op": "roll"}, "'expr' as text"),
        ({"op": "roll", "expr": "1d6", "seed": -1}, "seed must be a whole number"),
        ({"op": "roll", "expr": "1d6", "seed": "12"}, "seed must be a whole number"),
        ({"op": "roll", "expr": "1d6", "seed": True}, "seed must be a whole number"),
        ({"op": "roll", "expr": "1d6", "seed": 2**53}, "seed must be a whole number"),
        ({"op": "table", "table": "nope"}, "table payload"),
        ({"op": "table", "table": _payload(D6_TABLE), "prompts": [1]}, "mapping"),
        ({"op": "rules", "system": "no-such-game", "procedure": "x"}, "unknown system"),
        ({"op": "fight", "system": "scars", "sides": {}, "rounds": -1}, "number of rounds"),
        ({"op": "fight", "system": "scars"}, "two named lists"),
    ],
)
def test_bad_requests_get_a_sentence(request_: object, fragment: str) -> None:
    reply = bridge.handle(request_)
    assert set(reply) == {"error", "kind"}
    assert fragment.lower() in reply["error"].lower()
    assert reply["error"][0].isupper() and reply["error"].endswith(".")
    assert "Traceback" not in reply["error"]


def test_bad_dice_are_a_sentence_with_the_engine_error_kind() -> None:
    reply = bridge.handle({"op": "roll", "expr": "2d6+", "seed": 1})
    assert reply["kind"] == "DiceError" or reply["kind"].endswith("Error")
    assert "error" in reply and "Traceback" not in reply["error"]


def test_roll_is_the_engine_roll_for_the_seed() -> None:
    from rollbook.engine import dice

    reply = bridge.handle({"op": "roll", "expr": "3d6+1", "seed": 42})
    expected = dice.roll("3d6+1", random.Random(42)).to_dict()
    assert reply == json.loads(json.dumps(expected))
    assert 4 <= reply["total"] <= 19


def test_table_reply_matches_table_roll_for_the_seed() -> None:
    table = Table.from_dict(D6_TABLE)
    for seed in range(20):
        reply = bridge.handle({"op": "table", "table": _payload(D6_TABLE), "seed": seed})
        rolled = table.roll(random.Random(seed), {})
        assert set(reply) == {"roll", "row", "text", "tab"}
        assert reply["row"] == rolled.row_index
        assert reply["text"] == rolled.text
        assert reply["roll"]["total"] == rolled.value
        assert reply["row"] == (0 if rolled.value <= 3 else 1)


def test_table_prompts_are_enforced() -> None:
    data = {
        "roll": "1d6+{{ bonus }}",
        "prompts": [{"name": "bonus", "min": 0, "max": 3}],
        "results": {"1--6": "fine", ">=7": "great"},
    }
    ok = bridge.handle({"op": "table", "table": _payload(data), "seed": 3, "prompts": {"bonus": 3}})
    assert ok["roll"]["total"] >= 4
    refused = bridge.handle(
        {"op": "table", "table": _payload(data), "seed": 3, "prompts": {"bonus": 9}}
    )
    assert "error" in refused and "bonus" in refused["error"].lower()


def test_d66_table_reports_the_tab_and_a_tuple_roll_as_a_list() -> None:
    data = {
        "roll": "d6,d6",
        "results": {f"{a}-{b}": f"cell {a}{b}" for a in range(1, 7) for b in range(1, 7)},
        "tabs": {str(a): f"Tab {a}" for a in range(1, 7)},
    }
    reply = bridge.handle({"op": "table", "table": _payload(data), "seed": 7})
    first, second = reply["roll"]["total"]
    assert reply["tab"] == str(first)
    assert reply["text"].endswith(f"cell {first}{second}")


def test_handle_json_round_trips_and_refuses_bad_json() -> None:
    reply = json.loads(bridge.handle_json(json.dumps({"op": "roll", "expr": "1d4", "seed": 5})))
    assert reply == bridge.handle({"op": "roll", "expr": "1d4", "seed": 5})
    assert json.loads(bridge.handle_json("{not json"))["kind"] == "BridgeError"


def test_odds_are_exact_fractions() -> None:
    reply = bridge.handle({"op": "odds", "expr": "2d6"})
    assert reply["min"] == 2 and reply["max"] == 12 and reply["mean"] == "7/1"
    assert dict((v, p) for v, p in reply["distribution"])[7] == "1/6"


def test_unmatched_roll_says_so_plainly() -> None:
    data = {"roll": "1d6", "results": {"1--2": "low"}}
    replies = [
        bridge.handle({"op": "table", "table": _payload(data), "seed": s}) for s in range(30)
    ]
    misses = [r for r in replies if r["row"] is None]
    assert misses and len(misses) < len(replies)
    for reply in misses:
        assert reply["text"] == f"No row for {reply['roll']['total']}."
