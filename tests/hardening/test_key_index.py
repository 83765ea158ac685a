"""The sorted-bounds answers of rollbook.engine.tables.keys equal trying every key on every value.

Regression guard for the fix that made a 10,000-row table build in seconds instead of
minutes: `covered`, `reached`, `chances` and the overlap report must not change answers.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.engine.tables import check
from rollbook.engine.tables.keys import chances, covered, parse_key, reached

_OPS = st.sampled_from([">=", ">", "<=", "<"])
_number_key = st.one_of(
    st.integers(-5, 30).map(str),
    st.tuples(st.integers(-5, 30), st.integers(0, 10)).map(lambda t: f"{t[0]}--{t[0] + t[1]}"),
    st.builds(lambda op, n: f"{op}{n}", _OPS, st.integers(-5, 30)),
).map(lambda text: parse_key(text, 1)[0])
_tuple_key = st.tuples(st.integers(1, 3), st.integers(1, 3)).map(
    lambda t: parse_key(f"{t[0]}-{t[1]}", 2)[0]
)
_values = st.lists(
    st.one_of(
        st.integers(-10, 40),
        st.tuples(st.integers(1, 3), st.integers(1, 3)),
        st.fractions(-10, 40, max_denominator=4),
    ),
    max_size=30,
    unique=True,
)


@settings(max_examples=400, derandomize=True, database=None, deadline=None)
@given(st.lists(st.one_of(_number_key, _tuple_key), max_size=12), _values)
def test_bounds_answers_equal_the_brute_force(keys: list, values: list) -> None:
    assert covered(keys, values) == [any(k.matches(v) for k in keys) for v in values]
    assert reached(keys, values) == [any(k.matches(v) for v in values) for k in keys]
    pmf = {v: Fraction(1, len(values)) for v in values}
    fast = chances(keys, pmf)
    if fast is not None:
        slow = [sum((p for v, p in pmf.items() if k.matches(v)), Fraction(0)) for k in keys]
        assert fast == slow


def test_overlaps_in_a_big_table_are_reported_like_in_a_small_one() -> None:
    rows = {f"{n}": f"r{n}" for n in range(1, 3001)}
    rows["2999--3000"] = "late overlap"
    rows["5--6"] = "early overlap"
    _, found = check({"roll": "1d3000", "results": rows})
    messages = [p.message for p in found if "overlap" in p.message]
    assert messages == [
        "results: keys '2999' and '2999--3000' overlap (both cover 2999)",
        "results: keys '5' and '5--6' overlap (both cover 5)",
    ]
