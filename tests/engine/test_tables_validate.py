"""Validation: every kind of problem, with its message, severity and line in the YAML body."""

from __future__ import annotations

import textwrap

import pytest

from rollbook.engine.tables import ERROR, WARNING, Problem, Table, check, describe_values, validate
from tests.engine.tables_helpers import load


def problems_of(body: str, kind: str = "table") -> list[tuple[int, str, str]]:
    data, positions = load(textwrap.dedent(body))
    _, found = check(data, positions, kind=kind)
    return [(p.line, p.severity, p.message) for p in found]


GOOD = """\
    roll: 2d6
    headers: [Mood, Tip]
    result_text: "{{ roll }}: {{ mood }} ({{ tip }}, {{ coins }} coins)"
    prompts:
      - name: coins
        min: 0
        max: 5
    results:
      2--6: [Gloomy, none]
      7: [Fine, small]
      ">7": [Cheerful, large]
"""


def test_a_good_table_has_no_problems() -> None:
    assert problems_of(GOOD) == []


CASES = [
    pytest.param(
        """\
        roll: 2d6
        results:
          2--6: low
          7--11: high
        """,
        (2, ERROR, "results: no row covers 12 (2d6 gives 2–12)"),
        id="uncovered",
    ),
    pytest.param(
        """\
        roll: 2d6
        results:
          2--7: low
          7--12: high
        """,
        (4, ERROR, "results: keys '2--7' and '7--12' overlap (both cover 7)"),
        id="overlap",
    ),
    pytest.param(
        """\
        roll: 2d6
        results:
          "<=7": low
          ">=7": high
        """,
        (4, ERROR, "results: keys '<=7' and '>=7' overlap (both cover 7)"),
        id="overlap-open-ended",
    ),
    pytest.param(
        """\
        roll: 2d6
        results:
          2--12: any
          13: never
        """,
        (4, ERROR, "results: key '13' can never be rolled (2d6 gives 2–12)"),
        id="unreachable",
    ),
    pytest.param(
        """\
        roll: 2d6
        results:
          2--12: any
          "<2": never
        """,
        (4, ERROR, "results: key '<2' can never be rolled (2d6 gives 2–12)"),
        id="unreachable-open-ended",
    ),
    pytest.param(
        """\
        roll: 1d6+1
        results: [a, b, c, d, e]
        """,
        (2, ERROR, "results: the list has 5 items, fewer than the 6 values 1d6+1 can give (2–7)"),
        id="list-too-short",
    ),
    pytest.param(
        """\
        roll: 1d4
        results: [a, b, c, d, e]
        """,
        (2, ERROR, "results: the list has 5 items, more than the 4 values 1d4 can give (1–4)"),
        id="list-too-long",
    ),
    pytest.param(
        """\
        roll: 1d4
        rol_name: Luck
        results: [a, b, c, d]
        """,
        (2, ERROR, "unknown key 'rol_name' (did you mean 'roll_name'?)"),
        id="unknown-key",
    ),
    pytest.param(
        """\
        roll: 1d4
        results: the whole table
        """,
        (2, ERROR, "results must be a mapping (key: text) or a list, not text"),
        id="results-is-text",
    ),
    pytest.param(
        """\
        roll: 1d4
        """,
        (1, ERROR, "results is missing: the roll-table needs its rows"),
        id="results-missing",
    ),
    pytest.param(
        """\
        results: [a, b]
        """,
        (1, ERROR, "roll is missing: say which dice to roll, e.g. roll: 2d6"),
        id="roll-missing",
    ),
    pytest.param(
        """\
        roll: [2d6]
        results: [a, b]
        """,
        (1, ERROR, "roll must be dice notation, not a list"),
        id="roll-wrong-type",
    ),
    pytest.param(
        """\
        roll: 2d6+
        results:
          2--12: any
        """,
        (
            1,
            ERROR,
            "roll '2d6+': The notation ends too early: expected a number, dice, '(' or '{'.",
        ),
        id="bad-notation",
    ),
    pytest.param(
        """\
        roll: 2d6
        results:
          2--12: any
          seven: lucky
        """,
        (4, ERROR, "results: 'seven' is not a result key (write 7, 2--3, >=10 or <3)"),
        id="bad-key",
    ),
    pytest.param(
        """\
        roll: 1d6
        results:
          1-3: low
          4--6: high
        """,
        (
            3,
            WARNING,
            "results: '1-3' is read as the range 1--3; write 1--3 (two hyphens), "
            "the documented form",
        ),
        id="single-dash-range",
    ),
    pytest.param(
        """\
        roll: d6,d6
        results:
          1-1: a
          7: b
        """,
        (
            4,
            ERROR,
            "results: '7' is not a key for a roll of 2 comma parts; write one number per die, "
            "like 1-1",
        ),
        id="not-a-tuple",
    ),
    pytest.param(
        """\
        roll: 1d6+{{ edge }}
        prompts:
          - name: edge
            min: 3
            max: 1
        results:
          1--9: any
        """,
        (4, ERROR, "prompts: 'edge' has min 3 above max 1"),
        id="prompt-min-above-max",
    ),
    pytest.param(
        """\
        roll: 1d6+{{ edge }}
        prompts:
          - name: edge
            type: colour
            min: 0
            max: 1
        results:
          1--7: any
        """,
        (4, ERROR, "prompts: type 'colour' of 'edge' is not one of number, range"),
        id="prompt-unknown-type",
    ),
    pytest.param(
        """\
        roll: 1d6+{{ edge }}
        prompts:
          - {name: edge, min: 0, max: 1}
          - edge
        results:
          1--7: any
        """,
        (4, ERROR, "prompts: 'edge' is defined twice"),
        id="prompt-duplicate",
    ),
    pytest.param(
        """\
        roll: 1d6+{{ egde }}
        prompts:
          - {name: edge, min: 0, max: 1}
        results:
          1--7: any
        """,
        (
            1,
            ERROR,
            "roll uses {{ egde }} but no prompt is named 'egde' (did you mean 'edge'?); "
            "add it to prompts",
        ),
        id="placeholder-without-prompt",
    ),
    pytest.param(
        """\
        roll: 1d6
        prompts:
          - {name: edge, min: 0, max: 1}
        results:
          1--6: any
        """,
        (3, WARNING, "prompt 'edge' is used neither in roll nor in result_text"),
        id="prompt-unused",
    ),
    pytest.param(
        """\
        roll: 1d6+{{ edge }}
        prompts:
          - edge
        results:
          1--6: any
        """,
        (
            3,
            WARNING,
            "coverage not checked: prompt 'edge' has no min, so the values of roll are unknown",
        ),
        id="prompt-without-bounds",
    ),
    pytest.param(
        """\
        roll: 1d6
        prompts:
          - name: edge
            min: 0
            mx: 1
        result_text: "{{ result }} {{ edge }}"
        results:
          1--6: any
        """,
        (5, ERROR, "prompts: item 1 has an unknown key 'mx' (did you mean 'max'?)"),
        id="prompt-unknown-key",
    ),
    pytest.param(
        """\
        roll: d6,d6
        tabs:
          1: Head
          2:
            name: Body
            results: [2-1, 2-7]
        results:
          1-1: a
          2-1: b
        """,
        (6, ERROR, "tabs: tab 2 lists key '2-7', which is not in results (did you mean '2-1'?)"),
        id="tab-missing-key",
    ),
    pytest.param(
        """\
        roll: d6,d6
        tabs:
          1: Head
          3: Legs
        results:
          1-1: a
        """,
        (4, ERROR, "tabs: tab 3 (Legs) holds no rows (no row's first die is 3)"),
        id="tab-empty",
    ),
    pytest.param(
        """\
        roll: 1d6
        result_text: "{{ reslt }} on {{ roll }}"
        results:
          1--6: any
        """,
        (
            2,
            ERROR,
            "result_text uses {{ reslt }}, which is neither roll, result, dice, a column nor "
            "a prompt (did you mean 'result'?)",
        ),
        id="result-text-unknown-placeholder",
    ),
    pytest.param(
        """\
        roll: 1d6
        headers: [Name, Effect]
        results:
          1--3: [Rain, wet, cold]
          4--6: [Sun, warm]
        """,
        (4, ERROR, "results: row 1--3 has 3 cells but headers name 2 columns"),
        id="cells-too-many",
    ),
    pytest.param(
        """\
        roll: 1d6
        headers: [Name, Effect]
        results:
          1--3: {Name: Rain, Efect: wet}
          4--6: [Sun, warm]
        """,
        (
            4,
            ERROR,
            "results: row 1--3 has a cell for 'Efect', which is not a column in headers "
            "(did you mean 'Effect'?)",
        ),
        id="cells-unknown-column",
    ),
    pytest.param(
        """\
        roll: 1d6
        headers: [Name, Effect]
        results:
          1--3: Rain
          4--6: [Sun, warm]
        """,
        (4, ERROR, "results: row 1--3 has 1 cell but headers name 2 columns"),
        id="cells-too-few",
    ),
    pytest.param(
        """\
        results: [a, b, c]
        column_count: 0
        """,
        (2, ERROR, "column_count must be a whole number of 1 or more, not 0"),
        id="column-count",
    ),
    pytest.param(
        """\
        results: [a, b, c]
        button: {label: Go, placement: sideways}
        """,
        (2, ERROR, "button: placement must be above or below, not 'sideways'"),
        id="button-placement",
    ),
]


@pytest.mark.parametrize(("body", "expected"), CASES)
def test_each_problem_names_the_key_with_its_line(
    body: str, expected: tuple[int, str, str]
) -> None:
    kind = "list" if "column_count" in body or "button" in body else "table"
    found = problems_of(body, kind)
    assert expected in found, found


def test_roll_list_specific_problems() -> None:
    found = problems_of(
        """\
        tabs: {1: One}
        results: {1: a}
        """,
        "list",
    )
    assert (1, ERROR, "tabs is not a roll-list key; it belongs to roll-table") in found
    assert (2, ERROR, "results of a roll-list must be a list, not a mapping") in found


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("", "the roll-table is empty: it needs at least results"),
        (
            "- a\n- b\n",
            "the roll-table body must be a mapping of keys (roll, results, ...), not a list",
        ),
    ],
)
def test_body_that_is_not_a_mapping(body: str, message: str) -> None:
    data, positions = load(body) if body else (None, {})
    table, found = check(data, positions)
    assert table is None
    assert [p.message for p in found] == [message]


def test_validation_uses_prompt_bounds_for_coverage() -> None:
    body = """\
        roll: 1d6+{{ edge }}
        prompts:
          - {name: edge, min: 0, max: 2}
        results:
          1--6: steady
          7: shaky
    """
    assert (4, ERROR, "results: no row covers 8 (1d6+{{ edge }} gives 1–8)") in problems_of(body)
    data, positions = load(textwrap.dedent(body))
    table = Table.from_dict(data, positions)
    assert validate(table, {"edge": 1}) == []


def test_too_many_prompt_combinations_skip_coverage_with_a_warning() -> None:
    data = {
        "roll": "1d6+{{ a }}+{{ b }}",
        "prompts": [{"name": "a", "min": 0, "max": 100}, {"name": "b", "min": 0, "max": 100}],
        "results": {"1--206": "x"},
    }
    _, found = check(data)
    assert [p.message for p in found] == [
        "coverage not checked: the prompts allow 10201 combinations (at most 1000 are checked)"
    ]
    assert found[0].severity == WARNING


def test_line_falls_back_to_the_nearest_parent_then_line_one() -> None:
    data = {"roll": "2d6", "results": {"2--6": "a", "7--11": "b"}}
    _, found = check(data, {("results",): 5})
    assert [(p.line, p.path) for p in found] == [(5, ("results",))]
    _, found = check(data)
    assert found[0].line == 1


def test_several_problems_are_reported_at_once_sorted_by_line() -> None:
    found = problems_of(
        """\
        roll: 2d6
        colour: red
        result_text: "{{ nope }}"
        results:
          2--7: low
          7--11: high
          14: never
        """
    )
    assert [line for line, _, _ in found] == sorted(line for line, _, _ in found)
    assert {m.split(" ")[0] for _, _, m in found} >= {"unknown", "result_text", "results:"}
    assert len(found) == 5  # unknown key, placeholder, overlap, uncovered 12, unreachable 14


def test_problem_key_names_the_path() -> None:
    assert Problem(1, "m", path=("results", "2--3")).key == "results.2--3"
    assert Problem(1, "m", path=("prompts", 0, "max")).key == "prompts[0].max"
    assert Problem(1, "m").key == "(table)"


def test_describe_values_compacts_runs() -> None:
    assert describe_values([2, 3, 4, 7, 9, 10]) == "2–4, 7, 9–10"
    assert describe_values([(1, 1), (1, 2)]) == "1-1, 1-2"
    assert describe_values(range(0, 60, 2)).endswith("and 18 more")


def test_a_roll_without_exact_values_skips_coverage_with_a_warning() -> None:
    _, found = check({"roll": "3d6!pkh2", "results": {"1--12": "low", ">12": "high"}})
    assert [(p.severity, p.message) for p in found] == [
        (
            WARNING,
            "coverage not checked: Exact odds are not available for exploding dice that are also "
            "kept or dropped together with re-rolls, min/max or penetration.",
        )
    ]
