"""Table and RollList models: building, defaults, serialization, templates, prompts, tabs."""

from __future__ import annotations

import json

import pytest

from rollbook.engine.tables import (
    DEFAULT_RESULT_TEXT,
    Button,
    Prompt,
    RollList,
    Table,
    TableError,
    humanize,
)

# Our own invented content: a tavern's weather, a ferryman's mood, a wound location chart.
FERRY = {
    "roll": "2d6",
    "results": {
        "2--4": "Sullen",
        "5--6": "Chatty",
        7: "Asleep",
        "8--9": "Greedy",
        ">=10": "Generous",
    },
}

WOUNDS = {
    "roll": "d6,d6",
    "roll_name": "Where",
    "id": "wound-chart",
    "class": "compact",
    "preset": "grim",
    "prompt_title": "Before the blow lands",
    "headers": ["Part", "Effect"],
    "result_text": "{{ Part }} takes it ({{roll}}): {{effect}}",
    "button": {"label": "Strike", "placement": "below", "colour": "red"},
    "tabs": {1: "Head", 2: {"name": "Torso", "results": ["2-1", "2-2"]}},
    "results": {
        "1-1": {"Part": "Scalp", "Effect": "bleeds <em>a lot</em>"},
        "1-2": ["Jaw", "teeth rattle"],
        "2-1": ["Ribs", "winded"],
        "2-2": {"part": "Belly", "effect": "doubled over"},
    },
}


def test_defaults_of_a_minimal_table() -> None:
    table = Table.from_dict(FERRY)
    assert table.expr == "2d6"
    assert table.roll_name == "2d6"
    assert table.headers == ("Result",)
    assert table.result_text == DEFAULT_RESULT_TEXT
    assert table.button == Button("Roll on the table", "above")
    assert (table.prompts, table.tabs, table.id, table.css_class, table.preset) == (
        (),
        (),
        None,
        None,
        None,
    )
    assert [r.cells for r in table.rows] == [
        ("Sullen",),
        ("Chatty",),
        ("Asleep",),
        ("Greedy",),
        ("Generous",),
    ]
    assert table.labels() == ["2–4", "5–6", "7", "8–9", "≥10"]
    assert table.notes == ()


def test_every_key_is_kept() -> None:
    table = Table.from_dict(WOUNDS)
    assert table.roll_name == "Where"
    assert (table.id, table.css_class, table.preset) == ("wound-chart", "compact", "grim")
    assert table.prompt_title == "Before the blow lands"
    assert table.button == Button("Strike", "below")  # the colour hint is ignored
    assert table.headers == ("Part", "Effect")
    assert table.rows[0].cells == ("Scalp", "bleeds <em>a lot</em>")
    assert table.rows[3].cells == ("Belly", "doubled over")  # column names match loosely
    assert [(t.key, t.name, t.results) for t in table.tabs] == [
        ("1", "Head", None),
        ("2", "Torso", ("2-1", "2-2")),
    ]
    assert table.notes == ()


def test_one_header_names_the_single_column() -> None:
    table = Table.from_dict({**FERRY, "headers": ["Mood"]})
    assert table.headers == ("Mood",)
    assert table.sentence(table.rows[2], 7, {}) == "Rolled 7: Asleep"
    custom = Table.from_dict({**FERRY, "headers": "Mood", "result_text": "He is {{ mood }}."})
    assert custom.sentence(custom.rows[0], 3, {}) == "He is Sullen."


@pytest.mark.parametrize("table_data", [FERRY, WOUNDS])
def test_to_dict_round_trip_is_json_and_equal(table_data) -> None:
    table = Table.from_dict(table_data)
    payload = json.loads(json.dumps(table.to_dict()))
    again = Table.from_dict(payload)
    assert again == table
    assert again.to_dict() == payload
    assert [r.cells for r in again.rows] == [r.cells for r in table.rows]


def test_to_dict_keeps_row_order_as_a_list() -> None:
    payload = Table.from_dict({"roll": "1d20", "results": {"10--20": "b", "1--9": "a"}}).to_dict()
    assert [row["key"] for row in payload["rows"]] == ["10--20", "1--9"]


def test_roll_list_defaults_and_round_trip() -> None:
    items = ["a lantern", "a rope", "<b>a key</b>"]
    lst = RollList.from_dict({"results": items, "column_count": 2, "result_text": False})
    assert lst.expr == "1d3"
    assert lst.roll_name == "1d3"
    assert lst.column_count == 2
    assert lst.result_text is None
    assert [r.key for r in lst.rows] == [None, None, None]
    back = Table.from_dict(json.loads(json.dumps(lst.to_dict())))
    assert isinstance(back, RollList)
    assert back == lst


def test_multi_column_template_and_result() -> None:
    table = Table.from_dict(WOUNDS)
    assert (
        table.sentence(table.rows[0], (1, 1), {}) == "Scalp takes it (1, 1): bleeds <em>a lot</em>"
    )
    plain = Table.from_dict({**WOUNDS, "result_text": True})
    assert (
        plain.sentence(plain.rows[1], (1, 2), {}) == "Rolled 1, 2: Part: Jaw; Effect: teeth rattle"
    )


def test_result_text_false_gives_no_sentence() -> None:
    table = Table.from_dict({**FERRY, "result_text": False})
    assert table.result_text is None
    assert table.sentence(table.rows[0], 2, {}) is None


def test_template_spacing_prompts_and_html() -> None:
    data = {
        **FERRY,
        "prompts": [{"name": "coins", "min": 0, "max": 9}],
        "result_text": (
            "Paid {{coins}} coins, rolled {{   roll }}:<br /><blockquote>{{ result}}</blockquote>"
            " {{ roll }}"
        ),
    }
    table = Table.from_dict(data)
    text = table.sentence(table.rows[4], 11, {"coins": 3})
    assert text == "Paid 3 coins, rolled 11:<br /><blockquote>Generous</blockquote> 11"


def test_unknown_placeholders_are_left_visible() -> None:
    table = Table.from_dict({**FERRY, "result_text": "{{ result }} {{ mystery }}"})
    assert table.sentence(table.rows[0], 2, {}) == "Sullen {{ mystery }}"


@pytest.mark.parametrize(
    ("name", "label"),
    [("failed_roll", "Failed Roll"), ("bonus", "Bonus"), ("HP-left", "HP Left"), ("x", "X")],
)
def test_prompt_labels_are_humanized(name, label) -> None:
    assert humanize(name) == label


def test_prompts_bare_names_and_full_form() -> None:
    table = Table.from_dict(
        {
            **FERRY,
            "roll": "2d6+{{ failed_roll }}",
            "prompts": [
                "failed_roll",
                {
                    "name": "rank",
                    "label": "Your rank",
                    "help-text": "from 1 to 3",
                    "min": 1,
                    "max": 3,
                },
            ],
            "result_text": "{{ result }} at rank {{ rank }}",
        }
    )
    assert table.prompts == (
        Prompt("failed_roll", "Failed Roll"),
        Prompt("rank", "Your rank", "from 1 to 3", "number", 1, 3),
    )
    assert table.prompts[1].default == 1
    assert table.prompt_values({"failed_roll": "2"}) == {"failed_roll": 2, "rank": 1}


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"rank": 4, "failed_roll": 0}, "prompt 'rank' must be from 1 to 3, not 4"),
        ({"rank": 0, "failed_roll": 0}, "prompt 'rank' must be from 1 to 3, not 0"),
        (
            {"rank": "two", "failed_roll": 0},
            "prompt 'rank' needs a whole number from 1 to 3, not 'two'",
        ),
        ({"rank": True, "failed_roll": 0}, "prompt 'rank' needs a whole number, not True"),
        (
            {"rnak": 1, "failed_roll": 0},
            "this table has no prompt 'rnak' (its prompts: failed_roll, rank)",
        ),
        ({"rank": 2}, "prompt 'failed_roll' (Failed Roll) needs a value"),
    ],
)
def test_prompt_values_are_enforced(given, message) -> None:
    table = Table.from_dict(
        {
            **FERRY,
            "roll": "2d6+{{failed_roll}}",
            "prompts": ["failed_roll", {"name": "rank", "min": 1, "max": 3}],
        }
    )
    with pytest.raises(TableError) as info:
        table.prompt_values(given, strict=True)
    assert str(info.value) == message


def test_tabs_of_a_comma_roll_hold_rows_by_first_die() -> None:
    table = Table.from_dict(WOUNDS)
    assert table.tab_rows() == {"1": (0, 1), "2": (2, 3)}
    assert table.tab_of(table.rows[1]) == "1"
    assert table.tab_of(table.rows[3]) == "2"


def test_tabs_of_a_single_roll_hold_the_rows_inside_their_key() -> None:
    table = Table.from_dict({**FERRY, "tabs": {"<=6": "Bad day", "7--12": "Good day"}})
    assert table.tab_rows() == {"<=6": (0, 1), "7--12": (2, 3)}
    assert table.tab_of(table.rows[4]) is None  # >=10 reaches past 12: inside neither tab
    explicit = Table.from_dict({**FERRY, "tabs": {"a": {"name": "A", "results": [7, ">=10"]}}})
    assert explicit.tab_rows() == {"a": (2, 4)}


def test_damaged_payload_is_a_sentence() -> None:
    with pytest.raises(TableError) as info:
        Table.from_dict({"rollbook": 1, "kind": "table", "roll": "2d6"})
    assert "damaged" in str(info.value)
