"""Property tests: any text gives a result or a DiceError; rolls agree with exact odds."""

from __future__ import annotations

import contextlib
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rollbook.engine.dice import DiceError, odds, parse

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

_ALPHABET = "0123456789d%F.+-*/^(){}[],!<>=khlrousfcmaxinpbqtgew #\n{}"


@SETTINGS
@given(st.text(alphabet=_ALPHABET, max_size=40) | st.text(max_size=20))
def test_any_text_gives_a_result_or_a_dice_error(text: str) -> None:
    try:
        expr = parse(text)
    except DiceError as err:
        assert err.message and isinstance(err.message, str)
        return
    with contextlib.suppress(DiceError):
        expr.roll(random.Random(0))


# --- grammar-generated expressions ---------------------------------------------------------

_compare = st.builds(
    lambda op, n: f"{op}{n}",
    st.sampled_from(["=", "<", ">", "<=", ">=", "!=", "<>"]),
    st.integers(-1, 7),
)
_modifier = st.one_of(
    st.builds(
        lambda k, n: f"{k}{n}",
        st.sampled_from(["k", "kh", "kl", "d", "dh", "dl"]),
        st.integers(1, 4),
    ),
    st.builds(
        lambda e, c: f"{e}{c}",
        st.sampled_from(["!", "!!", "!p", "!!p"]),
        st.sampled_from(["", ">=5", "=1", "<2"]),
    ),
    st.builds(
        lambda r, c: f"{r}{c}", st.sampled_from(["r", "ro"]), st.sampled_from(["", "<2", "=3"])
    ),
    st.builds(lambda u, c: f"{u}{c}", st.sampled_from(["u", "uo"]), st.sampled_from(["", "=2"])),
    st.builds(lambda m, n: f"{m}{n}", st.sampled_from(["min", "max"]), st.integers(1, 5)),
    st.sampled_from(["s", "sa", "sd", "cs", "cf>4"]),
    _compare,
    st.builds(lambda a, b: f"{a}f{b}", _compare, _compare),
)
_dice = st.builds(
    lambda q, s, mods, label: f"{q}d{s}{''.join(mods)}{label}",
    st.sampled_from(["", "1", "2", "3", "4"]),
    st.sampled_from(["1", "2", "3", "4", "6", "8", "10", "20", "%", "F", "F.1"]),
    st.lists(_modifier, max_size=2),
    st.sampled_from(["", "", " [x]", " # note"]),
)
_number = st.builds(str, st.integers(0, 12)) | st.sampled_from(["1.5", "0.25"])


def _extend(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.builds(
            lambda a, op, b: f"{a}{op}{b}",
            children,
            st.sampled_from(["+", "-", "*", "/", "%", " + ", "**"]),
            children,
        ),
        st.builds(lambda a: f"({a})", children),
        st.builds(lambda a: f"-{a}", children),
        st.builds(
            lambda f, a: f"{f}({a})",
            st.sampled_from(["abs", "ceil", "floor", "round", "sign", "sqrt"]),
            children,
        ),
        st.builds(
            lambda f, a, b: f"{f}({a}, {b})",
            st.sampled_from(["max", "min", "pow"]),
            children,
            children,
        ),
        st.builds(
            lambda items, mod: "{" + ", ".join(items) + "}" + mod,
            st.lists(children, min_size=1, max_size=3),
            st.sampled_from(["", "kh1", "dl1", ">=3", "sd", "k2"]),
        ),
    )


_expression = st.recursive(_dice | _number, _extend, max_leaves=4)
_notation = st.lists(_expression, min_size=1, max_size=2).map(",".join)


@SETTINGS
@given(_notation, st.integers(0, 2**32 - 1))
def test_rolls_lie_in_the_exact_distribution(text: str, seed: int) -> None:
    try:
        expr = parse(text)
    except DiceError:
        return
    try:
        dist = odds(expr)
    except DiceError:
        dist = None
    rng = random.Random(seed)
    for _ in range(5):
        try:
            total = expr.roll(rng).total
        except DiceError:
            continue
        if dist is None:
            continue
        assert total in dist.pmf, (text, total)
        if isinstance(total, tuple):
            assert all(lo <= t <= hi for lo, t, hi in zip(dist.min, total, dist.max, strict=True))
        else:
            assert dist.min <= total <= dist.max
    if dist is not None:
        assert sum(dist.pmf.values()) == 1


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(
        [
            "2d6",
            "4d6kh3",
            "3d6!",
            "2d10!!p",
            "4d4u",
            "3d6r<3",
            "5d10>=8f<3",
            "{2d6,1d8}kh1",
            "d6,d6",
            "2d6/3",
            "4dF.1",
            "3d6ro<2kl2",
        ]
    ),
    st.integers(0, 2**32 - 1),
)
def test_sampled_totals_are_inside_the_support(text: str, seed: int) -> None:
    rng = random.Random(seed)
    seen = {parse(text).roll(rng).total for _ in range(200)}
    assert seen <= set(odds(text).pmf)
