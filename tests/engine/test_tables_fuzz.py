"""Any fence body gives a table or problems, never an exception (hypothesis)."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rollbook.engine.tables import ERROR, Table, TableError, check

_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 15),
    st.sampled_from(
        ["2d6", "d6,d6", "1d4+{{ n }}", "2--5", ">=9", "<3", "1-2", "x", "", "{{ n }}"]
    ),
)
_keys = st.one_of(
    st.integers(-2, 14), st.sampled_from(["2--4", "5-6", ">=10", ">7", "<=3", "1-1", "6-6", "zz"])
)
_results = st.one_of(
    _scalars,
    st.lists(_scalars, max_size=8),
    st.dictionaries(_keys, st.one_of(_scalars, st.lists(_scalars, max_size=3)), max_size=8),
)
_prompts = st.one_of(
    st.none(),
    st.lists(
        st.one_of(
            st.sampled_from(["n", "bonus"]),
            st.fixed_dictionaries(
                {"name": st.sampled_from(["n", "bonus", "bad name"])},
                optional={
                    "min": st.integers(-2, 3),
                    "max": st.integers(-2, 3),
                    "type": st.just("x"),
                },
            ),
        ),
        max_size=3,
    ),
)
_cells = st.sampled_from(["calm", "<em>rain</em>", "fog"])
_good_results = st.one_of(
    st.lists(_cells, min_size=1, max_size=12),
    st.dictionaries(_keys, _cells, min_size=1, max_size=8),
)
_bodies = st.fixed_dictionaries(
    {
        "roll": st.one_of(
            st.sampled_from(["2d6", "1d6", "d6,d6", "1d4+{{ n }}", "1d6+1"]), _scalars
        ),
        "results": st.one_of(_good_results, _good_results, _results),
    },
    optional={
        "headers": st.one_of(_scalars, st.lists(st.sampled_from(["A", "B", "a"]), max_size=3)),
        "result_text": st.one_of(_scalars, st.just("{{ result }} {{ n }} {{ b }}")),
        "tabs": st.one_of(_scalars, st.dictionaries(_keys, _scalars, max_size=3)),
        "prompts": _prompts,
        "column_count": _scalars,
        "colour": _scalars,
    },
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(body=_bodies, kind=st.sampled_from(["table", "list"]), seed=st.integers(0, 2**32))
def test_a_table_or_problems_never_a_traceback(body: dict, kind: str, seed: int) -> None:
    table, problems = check(body, kind=kind)
    assert all(p.message and p.line >= 1 for p in problems)
    if table is None:
        assert any(p.severity == ERROR for p in problems)
        return
    assert Table.from_dict(table.to_dict()) == table
    try:
        rolled = table.roll(random.Random(seed), {p.name: p.default for p in table.prompts})
    except ValueError as exc:  # TableError / DiceError: a sentence for a broken table
        assert str(exc)
        assert any(p.severity == ERROR for p in problems) or isinstance(exc, TableError)
    else:
        assert rolled.row_index is None or table.rows[rolled.row_index].index == rolled.row_index
