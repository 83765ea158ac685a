"""The engine's sentences for readers: each a catalogue key with its English in
`rollbook.engine.messages` (what the command line prints) and JSON the page says in the
reader's language (tests/browser/test_languages.py)."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from rollbook.engine import bridge
from rollbook.engine.messages import ENGLISH, Joined, Message, english
from rollbook.engine.systems import get, ids
from rollbook.engine.systems.encounter import Fight
from tests.engine.test_systems_common import load_sides

ENGINE = Path(__file__).resolve().parents[2] / "rollbook" / "engine"


def _keys(said: Any) -> set[str]:
    """Every catalogue key a message's JSON names, its parts' too."""
    if isinstance(said, list):
        return set().union(*map(_keys, said)) if said else set()
    if not isinstance(said, dict):
        return set()
    if "items" in said:
        return {said["sep"]} | _keys(said["items"])
    return {said["key"]} | _keys(list(said.get("args", {}).values()))


@pytest.mark.parametrize("system_id", tuple(ids()))
def test_every_line_of_a_fight_is_a_message_the_catalogue_knows(system_id: str) -> None:
    system, sides = get(system_id), load_sides(system_id)
    used: set[str] = set()
    for seed in range(40):
        fight = Fight.start(system, sides, random.Random(seed))
        fight.run()
        data = fight.to_dict()
        assert [line.english() for line in fight.events] == data["log"] == fight.lines
        used |= _keys(data["events"])
    assert used <= set(ENGLISH), sorted(used - set(ENGLISH))
    assert "log.over" in used and any(key.startswith("log.line") for key in used)


def test_every_key_the_engine_names_has_its_english() -> None:
    named = set()
    for path in ENGINE.rglob("*.py"):
        named |= set(re.findall(r"""["']((?:log|error|stat)\.[a-z_.-]+)["']""", path.read_text()))
    named -= {"log.", "error.", "stat."}
    assert len(named) > 60
    assert named <= set(ENGLISH), sorted(named - set(ENGLISH))


def test_english_fills_parts_counts_and_lists() -> None:
    over = Message(
        "log.over",
        {"count": 1, "winner": Message("log.nobody"), "reason": Message("log.reason.stalemate")},
    )
    assert over.english() == "Fight over after 1 round; winner: nobody (stalemate)."
    assert english("log.over", count=3, winner="Wolves", reason="fled") == (
        "Fight over after 3 rounds; winner: Wolves (fled)."
    )
    order = Joined("log.sep.then", (Message("log.dd.init_roll", {"who": "Aude", "roll": 5}), "B"))
    said = Message("log.dd.initiative", {"order": order})
    assert said.english() == "Initiative: Aude 5, then B."
    assert said.to_dict() == {
        "key": "log.dd.initiative",
        "args": {
            "order": {
                "sep": "log.sep.then",
                "items": [{"key": "log.dd.init_roll", "args": {"who": "Aude", "roll": 5}}, "B"],
            }
        },
    }


def test_a_fight_reply_carries_its_log_as_messages() -> None:
    sides = load_sides("dark-dungeons")
    reply = bridge.handle({"op": "fight", "system": "dark-dungeons", "sides": sides, "seed": 3})
    assert "error" not in reply
    assert len(reply["events"]) == len(reply["log"]) > 2
    assert reply["events"][-1]["key"] == "log.over"


@pytest.mark.parametrize(
    ("expr", "key", "args"),
    [
        ("2d6+", "error.dice.ends_early", {}),
        ("", "error.dice.empty", {}),
        ("2d6 k", "error.dice.modifier_space", {"char": "k"}),
        ("(1d6", "error.dice.close_paren",
         {"column": 1, "found": {"key": "error.dice.found_end", "args": {}}}),
        ("1d6/0", "error.dice.division_by_zero", {}),
        ("max(1d6)", "error.dice.function_args", {
            "name": "max", "given": 1,
            "want": {"key": "error.dice.arguments", "args": {"count": 2}},
        }),
    ],
)  # fmt: skip
def test_a_refused_roll_says_why_as_a_message(expr: str, key: str, args: dict[str, Any]) -> None:
    reply = bridge.handle({"op": "roll", "expr": expr, "seed": 1})
    assert reply["message"] == {"key": key, "args": args}
    said = Message(key, args)  # JSON args render the same English as the engine's
    assert reply["error"].startswith(english(key, **args)[:12])
    assert said.key in ENGLISH


def test_a_notation_in_the_languages_letters_is_refused_as_written() -> None:
    reply = bridge.handle({"op": "roll", "expr": "1W0", "language": "de", "seed": 1})
    assert reply["message"] == {"key": "error.dice.no_sides", "args": {}}
    assert reply["caret"].split("\n")[0] == "1W0"


def test_a_refused_prompt_value_is_a_message() -> None:
    table = {"roll": "1d6+{{ bonus }}", "prompts": [{"name": "bonus", "min": 0, "max": 3}],
             "results": {"1--6": "Low", "7--9": "High"}}  # fmt: skip
    refused = bridge.handle({"op": "table", "table": table, "prompts": {"bonus": "9"}})
    assert refused["kind"] == "PromptError" and refused["prompt"] == "bonus"
    assert refused["message"] == {
        "key": "error.prompt.range",
        "args": {"name": "bonus", "low": 0, "high": 3, "value": 9},
    }
    assert refused["error"] == "Prompt 'bonus' must be from 0 to 3, not 9."


def test_a_prompt_the_table_does_not_have_is_a_message() -> None:
    table = {"roll": "1d6", "results": {"1--3": "Low", "4--6": "High"}}
    refused = bridge.handle({"op": "table", "table": table, "prompts": {"nope": "1"}})
    assert refused["message"] == {
        "key": "error.table.no_prompt",
        "args": {"name": "nope", "names": "none"},
    }
    assert refused["error"] == "This table has no prompt 'nope' (its prompts: none)."
