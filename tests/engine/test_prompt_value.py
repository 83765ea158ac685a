"""The one judge of prompt values (forms, links and ``rollbook table --set`` alike)."""

from __future__ import annotations

import json

import pytest

from rollbook.engine.bridge import MAX_SEED, BridgeError, handle, parse_seed
from rollbook.engine.tables import (
    MAX_PROMPT_MAGNITUDE,
    Prompt,
    PromptError,
    Table,
    prompt_value,
)

BOUNDED = Prompt(name="difficulty", label="Difficulty", type="range", min=1, max=19)
OPEN = Prompt(name="level", label="Level")
LIMIT = MAX_PROMPT_MAGNITUDE


@pytest.mark.parametrize(
    ("raw", "value"),
    [("7", 7), ("007", 7), (" 7\t", 7), ("19", 19), ("1", 1), (7, 7)],
)
def test_accepted_values(raw: object, value: int) -> None:
    assert prompt_value(BOUNDED, raw) == value


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("١٠", "prompt 'difficulty' needs a whole number from 1 to 19, not '١٠'"),
        ("+7", "prompt 'difficulty' needs a whole number from 1 to 19, not '+7'"),
        ("７", "prompt 'difficulty' needs a whole number from 1 to 19, not '７'"),
        ("\u00a07", "prompt 'difficulty' needs a whole number from 1 to 19, not '\\xa07'"),
        ("7.0", "prompt 'difficulty' needs a whole number from 1 to 19, not '7.0'"),
        ("1e1", "prompt 'difficulty' needs a whole number from 1 to 19, not '1e1'"),
        ("1_0", "prompt 'difficulty' needs a whole number from 1 to 19, not '1_0'"),
        ("--5", "prompt 'difficulty' needs a whole number from 1 to 19, not '--5'"),
        ("", "prompt 'difficulty' (Difficulty) needs a value"),
        ("  ", "prompt 'difficulty' (Difficulty) needs a value"),
        ("0", "prompt 'difficulty' must be from 1 to 19, not 0"),
        ("20", "prompt 'difficulty' must be from 1 to 19, not 20"),
        (20, "prompt 'difficulty' must be from 1 to 19, not 20"),
        (True, "prompt 'difficulty' needs a whole number, not True"),
        (7.0, "prompt 'difficulty' needs a whole number, not 7.0"),
        (None, "prompt 'difficulty' needs a whole number, not None"),
    ],
)
def test_refused_values_say_why(raw: object, message: str) -> None:
    with pytest.raises(PromptError) as info:
        prompt_value(BOUNDED, raw)
    assert str(info.value) == message and info.value.prompt == "difficulty"


def test_unbounded_prompts_stay_exact_in_javascript() -> None:
    assert prompt_value(OPEN, str(LIMIT)) == LIMIT
    assert prompt_value(OPEN, f"-{LIMIT}") == -LIMIT
    assert LIMIT < 2**53  # every accepted value is exact as a JavaScript number
    for raw in (str(LIMIT + 1), "99999999999999999999999", "9" * 5000):
        with pytest.raises(PromptError, match=f"must be from -{LIMIT} to {LIMIT}, not '?[19]"):
            prompt_value(OPEN, raw)
    long = "9" * 5000
    with pytest.raises(PromptError) as info:
        prompt_value(OPEN, long)
    assert len(str(info.value)) < 120  # the value is quoted shortened


def test_the_bridge_names_the_refused_prompt() -> None:
    table = Table.from_dict(
        {
            "roll": "1d20 + {{ difficulty }}",
            "prompts": [{"name": "difficulty", "min": 1, "max": 19}],
            "results": {"<=10": "Low", ">=11": "High"},
        }
    )
    payload = json.loads(json.dumps(table.to_dict()))
    reply = handle({"op": "table", "table": payload, "seed": 1, "prompts": {"difficulty": "+7"}})
    assert reply == {
        "error": "Prompt 'difficulty' needs a whole number from 1 to 19, not '+7'.",
        "kind": "PromptError",
        "prompt": "difficulty",
        "message": {  # the same sentence for the page to say in the reader's language
            "key": "error.prompt.not_number",
            "args": {"name": "difficulty", "low": 1, "high": 19, "value": "'+7'"},
        },
    }
    odds = handle({"op": "table_odds", "table": payload, "prompts": {"difficulty": "20"}})
    assert odds["prompt"] == "difficulty" and "from 1 to 19" in odds["error"]
    rolled = handle({"op": "table", "table": payload, "seed": 1, "prompts": {"difficulty": "7"}})
    assert "error" not in rolled


@pytest.mark.parametrize("text", ["0", "007", str(MAX_SEED)])
def test_seed_text_accepted(text: str) -> None:
    assert parse_seed(text) == int(text)


@pytest.mark.parametrize("text", ["-5", "+5", " 5", "٥", "1e3", "", str(MAX_SEED + 1), "9" * 17])
def test_seed_text_refused(text: str) -> None:
    with pytest.raises(BridgeError, match=f"the seed must be a whole number from 0 to {MAX_SEED}"):
        parse_seed(text)


def test_bounds_beyond_the_magnitude_are_an_author_error() -> None:
    from rollbook.engine.tables import check

    data = {"roll": "1d6+{{ n }}", "prompts": [{"name": "n", "min": 0, "max": LIMIT + 1}],
            "results": {">=-99": "Any"}}  # fmt: skip
    _, problems = check(data)
    assert [p.message for p in problems if p.severity == "error"] == [
        f"prompts: max of 'n' must be within ±{LIMIT}, not {LIMIT + 1}"
    ]


@pytest.mark.parametrize("name", ["seed", "roll"])
def test_prompts_named_like_link_parameters_are_an_author_error(name: str) -> None:
    from rollbook.engine.tables import check

    text = f"{{{{ result }}}} {{{{ {name} }}}}"
    data = {"roll": "1d6", "prompts": [{"name": name, "min": 0, "max": 3}],
            "result_text": text, "results": {">=1": "Any"}}  # fmt: skip
    _, problems = check(data)
    errors = [p.message for p in problems if p.severity == "error"]
    assert f"prompt {name!r} cannot be given in a link" in errors[0]
