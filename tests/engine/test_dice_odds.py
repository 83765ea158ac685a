"""Exact odds against brute-force oracles written independently of the engine."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction

import pytest

from rollbook.engine.dice import odds, support
from rollbook.engine.limits import value as limit

Pmf = dict[object, Fraction]


def enumerate_pmf(outcomes: Iterable[tuple[Fraction, object]]) -> Pmf:
    pmf: dict[object, Fraction] = {}
    for p, v in outcomes:
        pmf[v] = pmf.get(v, Fraction(0)) + p
    return {k: p for k, p in pmf.items() if p}


def die_values(
    sides: int,
    *,
    low: int | None = None,
    high: int | None = None,
    reroll: Callable[[int], bool] | None = None,
    once: bool = False,
) -> list[tuple[Fraction, int]]:
    """One die after min/max clamps and re-rolls, as (probability, value) pairs."""
    faces = range(1, sides + 1)
    out = []
    for f in faces:
        v = f
        if low is not None:
            v = max(v, low)
        if high is not None:
            v = min(v, high)
        if reroll is not None and reroll(v):
            pool = list(faces) if once else [g for g in faces if not reroll(g)]
            out += [(Fraction(1, sides * len(pool)), g) for g in pool]
        else:
            out.append((Fraction(1, sides), v))
    return out


def pool_pmf(
    qty: int,
    per_die: list[tuple[Fraction, int]],
    total: Callable[[list[int]], object] = sum,
) -> Pmf:
    def outcomes() -> Iterable[tuple[Fraction, object]]:
        for combo in itertools.product(per_die, repeat=qty):
            p = math.prod((c[0] for c in combo), start=Fraction(1))
            yield p, total([c[1] for c in combo])

    return enumerate_pmf(outcomes())


def keep_high(k: int) -> Callable[[list[int]], int]:
    return lambda vs: sum(sorted(vs)[len(vs) - k :])


def keep_low(k: int) -> Callable[[list[int]], int]:
    return lambda vs: sum(sorted(vs)[:k])


def successes(hit: Callable[[int], bool], miss: Callable[[int], bool] | None = None):
    return lambda vs: sum(1 if hit(v) else -1 if miss and miss(v) else 0 for v in vs)


CASES: list[tuple[str, Pmf]] = [
    ("3d6", pool_pmf(3, die_values(6))),
    ("2d8", pool_pmf(2, die_values(8))),
    ("4d6kh3", pool_pmf(4, die_values(6), keep_high(3))),
    ("4d6k3", pool_pmf(4, die_values(6), keep_high(3))),
    ("3d6kl2", pool_pmf(3, die_values(6), keep_low(2))),
    ("4d6d1", pool_pmf(4, die_values(6), keep_high(3))),
    ("4d6dh1", pool_pmf(4, die_values(6), keep_low(3))),
    ("2d20kh1", pool_pmf(2, die_values(20), keep_high(1))),
    ("5d4dl1dh1", pool_pmf(5, die_values(4), lambda vs: sum(sorted(vs)[1:4]))),
    ("2d6k3", pool_pmf(2, die_values(6))),
    ("4d6min3", pool_pmf(4, die_values(6, low=3))),
    ("3d6max4", pool_pmf(3, die_values(6, high=4))),
    ("2d6r<3", pool_pmf(2, die_values(6, reroll=lambda v: v < 3))),
    ("2d6r", pool_pmf(2, die_values(6, reroll=lambda v: v == 1))),
    ("3d6ro<3", pool_pmf(3, die_values(6, reroll=lambda v: v < 3, once=True))),
    ("3d4r=1kh2", pool_pmf(3, die_values(4, reroll=lambda v: v == 1), keep_high(2))),
    ("5d10>=8", pool_pmf(5, die_values(10), successes(lambda v: v >= 8))),
    ("4d10>=8f<3", pool_pmf(4, die_values(10), successes(lambda v: v >= 8, lambda v: v < 3))),
    ("4d6kh2>4", pool_pmf(4, die_values(6), lambda vs: sum(v > 4 for v in sorted(vs)[2:]))),
    ("4d6<>3", pool_pmf(4, die_values(6), successes(lambda v: v != 3))),
    (
        "2d6+1d4",
        enumerate_pmf(
            (Fraction(1, 144), a + b + c)
            for a in range(1, 7)
            for b in range(1, 7)
            for c in range(1, 5)
        ),
    ),
]
CASES += [
    (
        "2d6/2",
        enumerate_pmf(
            (Fraction(1, 36), Fraction(a + b, 2)) for a in range(1, 7) for b in range(1, 7)
        ),
    ),
    ("floor(1d6/2)+1", enumerate_pmf((Fraction(1, 6), a // 2 + 1) for a in range(1, 7))),
    ("1d6*1d6", enumerate_pmf((Fraction(1, 36), a * b) for a in range(1, 7) for b in range(1, 7))),
    ("1d6-1d6", enumerate_pmf((Fraction(1, 36), a - b) for a in range(1, 7) for b in range(1, 7))),
    ("-1d4", enumerate_pmf((Fraction(1, 4), -a) for a in range(1, 5))),
    (
        "max(1d6,1d6)",
        enumerate_pmf((Fraction(1, 36), max(a, b)) for a in range(1, 7) for b in range(1, 7)),
    ),
    ("1d6%3", enumerate_pmf((Fraction(1, 6), a % 3) for a in range(1, 7))),
    ("4dF", pool_pmf(4, [(Fraction(1, 3), v) for v in (-1, 0, 1)])),
    ("2dF.1", pool_pmf(2, [(Fraction(1, 6), v) for v in (-1, 0, 0, 0, 0, 1)])),
    ("d%", pool_pmf(1, die_values(100))),
    ("{1d6,1d6}kh1", pool_pmf(2, die_values(6), keep_high(1))),
    (
        "{1d6,1d8}",
        enumerate_pmf((Fraction(1, 48), a + b) for a in range(1, 7) for b in range(1, 9)),
    ),
    (
        "{2d4,1d6}>=4",
        enumerate_pmf(
            (Fraction(1, 96), ((a + b) >= 4) + (c >= 4))
            for a in range(1, 5)
            for b in range(1, 5)
            for c in range(1, 7)
        ),
    ),
    ("{1d6,1d6,1d6}dl1", pool_pmf(3, die_values(6), keep_high(2))),
    ("{3d6}kh1", pool_pmf(3, die_values(6), keep_high(1))),
    (
        "{2d6+1d4+2}kh2",
        enumerate_pmf(
            (Fraction(1, 144), sum(sorted((a, b, c))[1:]) + 2)
            for a in range(1, 7)
            for b in range(1, 7)
            for c in range(1, 5)
        ),
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_matches_brute_force(text: str, expected: Pmf) -> None:
    dist = odds(text)
    assert dist.pmf == dict(sorted(expected.items()))  # type: ignore[arg-type]
    assert sum(dist.pmf.values()) == 1
    assert dist.min == min(expected)  # type: ignore[type-var]
    assert dist.max == max(expected)  # type: ignore[type-var]
    assert dist.mean == sum(k * p for k, p in expected.items())  # type: ignore[operator]
    assert support(text) == set(expected)


def _explode_ref(sides: int, hit: Callable[[int], bool], penetrate: bool, depth: int) -> Pmf:
    """Sum of one exploding die: the first roll plus up to ``depth`` extra rolls."""
    pen = 1 if penetrate else 0

    def chain(check: int, left: int) -> Pmf:
        if left == 0 or not hit(check):
            return {0: Fraction(1)}
        out: dict[object, Fraction] = {}
        for f in range(1, sides + 1):
            for rest, p in chain(f, left - 1).items():
                key = f - pen + rest  # type: ignore[operator]
                out[key] = out.get(key, Fraction(0)) + p / sides
        return out

    total: dict[object, Fraction] = {}
    for f in range(1, sides + 1):
        for rest, p in chain(f, depth).items():
            key = f + rest  # type: ignore[operator]
            total[key] = total.get(key, Fraction(0)) + p / sides
    return total


@pytest.mark.parametrize(
    ("text", "sides", "hit", "penetrate"),
    [
        ("1d6!", 6, lambda v: v == 6, False),
        ("1d6!!", 6, lambda v: v == 6, False),
        ("1d4!>=3", 4, lambda v: v >= 3, False),
        ("1d6!p", 6, lambda v: v == 6, True),
        ("1d6!!p", 6, lambda v: v == 6, True),
        ("1d3!<2", 3, lambda v: v < 2, False),
    ],
)
def test_explosions_match_reference(
    text: str, sides: int, hit: Callable[[int], bool], penetrate: bool
) -> None:
    expected = _explode_ref(sides, hit, penetrate, limit("explosions"))
    assert odds(text).pmf == dict(sorted(expected.items()))  # type: ignore[arg-type]


def test_two_exploding_dice_convolve() -> None:
    one = _explode_ref(6, lambda v: v == 6, False, limit("explosions"))
    expected: dict[object, Fraction] = {}
    for a, pa in one.items():
        for b, pb in one.items():
            expected[a + b] = expected.get(a + b, Fraction(0)) + pa * pb  # type: ignore[operator]
    assert odds("2d6!").pmf == dict(sorted(expected.items()))  # type: ignore[arg-type]


def test_exploding_dice_kept() -> None:
    # 2d4!kh1 by brute force over chains (each chain is a list of rolls).
    def chains(left: int) -> list[tuple[Fraction, list[int]]]:
        out = []
        for f in range(1, 5):
            if f == 4 and left:
                out += [(p / 4, [f, *rest]) for p, rest in chains(left - 1)]
            else:
                out.append((Fraction(1, 4), [f]))
        return out

    per_die = chains(limit("explosions"))
    expected = enumerate_pmf((pa * pb, max(a + b)) for pa, a in per_die for pb, b in per_die)
    assert odds("2d4!kh1").pmf == dict(sorted(expected.items()))  # type: ignore[arg-type]


def _unique_ref(qty: int, sides: int, once: bool) -> Pmf:
    def walk(i: int, seen: list[int], p: Fraction) -> Iterable[tuple[Fraction, int]]:
        if i == qty:
            yield p, sum(seen)
            return
        for f in range(1, sides + 1):
            if f in seen:
                if once:
                    for g in range(1, sides + 1):
                        yield from walk(i + 1, [*seen, g], p / sides / sides)
                else:
                    fresh = [g for g in range(1, sides + 1) if g not in seen]
                    for g in fresh:
                        yield from walk(i + 1, [*seen, g], p / sides / len(fresh))
            else:
                yield from walk(i + 1, [*seen, f], p / sides)

    return enumerate_pmf(walk(0, [], Fraction(1)))


@pytest.mark.parametrize(
    ("text", "qty", "sides", "once"),
    [("3d4u", 3, 4, False), ("3d5uo", 3, 5, True), ("4d4u", 4, 4, False)],
)
def test_unique_matches_reference(text: str, qty: int, sides: int, once: bool) -> None:
    assert odds(text).pmf == dict(sorted(_unique_ref(qty, sides, once).items()))  # type: ignore[arg-type]


def test_unique_is_a_random_subset() -> None:
    subsets = list(itertools.combinations(range(1, 7), 3))
    expected = Counter(sum(s) for s in subsets)
    assert odds("3d6u").pmf == {k: Fraction(v, len(subsets)) for k, v in sorted(expected.items())}


def test_comma_rolls_joint() -> None:
    dist = odds("d6,d4")
    assert len(dist.pmf) == 24 and set(dist.pmf.values()) == {Fraction(1, 24)}
    assert (dist.min, dist.max, dist.mean) == ((1, 1), (6, 4), (Fraction(7, 2), Fraction(5, 2)))
    assert dist.at_least((6, 4)) == Fraction(1, 24)


def test_at_least_and_fraction_values() -> None:
    dist = odds("2d6")
    assert [dist.at_least(t) for t in (2, 7, 12, 13)] == [1, Fraction(21, 36), Fraction(1, 36), 0]
    assert odds("1d4/2").pmf == {
        Fraction(1, 2): Fraction(1, 4),
        1: Fraction(1, 4),
        Fraction(3, 2): Fraction(1, 4),
        2: Fraction(1, 4),
    }


def test_twenty_d6_keep_ten() -> None:
    dist = odds("20d6kh10")
    assert (dist.min, dist.max) == (10, 60)
    assert sum(dist.pmf.values()) == 1
    assert dist.pmf[60] == Fraction(
        sum(math.comb(20, k) * 5 ** (20 - k) for k in range(10, 21)), 6**20
    )


def _general_sum(die: object, qty: int) -> object:
    """The Kronecker convolution path, applied ``qty`` times (the oracle for the fast one)."""
    from rollbook.engine.dice import dist

    total = die
    for _ in range(qty - 1):
        total = dist.convolve(total, die)
    return total


@pytest.mark.parametrize(
    ("low", "faces", "weight", "qty"),
    [(1, 6, 1, 3), (-1, 3, 1, 7), (0, 1, 5, 4), (1, 100, 1, 2), (-3, 5, 4, 6), (2, 11, 3, 9)],
)
def test_sums_of_flat_dice_equal_the_general_convolution(
    low: int, faces: int, weight: int, qty: int
) -> None:
    from rollbook.engine.dice import dist

    die = dist.Dist({low + i: weight for i in range(faces)})
    fast = dist.sum_flat(die, qty, qty * (faces - 1) + 1)
    slow = _general_sum(die, qty)
    assert fast.w == slow.w and fast.total == slow.total  # type: ignore[attr-defined]


def test_big_sums_of_plain_dice_are_exact_and_counted() -> None:
    # 20d999 by the general convolution multiplies 5-million-bit numbers; sum_flat adds windows.
    pmf = odds("20d999").pmf
    assert min(pmf) == 20 and max(pmf) == 19980 and len(pmf) == 19961
    assert pmf[20] == Fraction(1, 999**20)
    assert pmf[21] == Fraction(20, 999**20)
    assert sum(pmf.values()) == 1
    assert odds("3d6").pmf[10] == Fraction(27, 216)


def test_a_hundred_plain_dice_get_exact_odds() -> None:
    # Refused until the window sum was tried before the size check of the general one.
    dist = odds("100d100")
    assert (dist.min, dist.max, dist.mean) == (100, 10000, 5050)
    assert dist.pmf[100] == Fraction(1, 100**100)
    assert dist.pmf[101] == Fraction(100, 100**100)
    assert sum(dist.pmf.values()) == 1
