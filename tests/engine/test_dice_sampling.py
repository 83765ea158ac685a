"""The roller and the exact odds describe the same process: sampled frequencies match.

Seeds are fixed, so these tests are deterministic; the bound is loose enough that a correct
engine passes with a wide margin, and tight enough to catch a roller and an odds module that
disagree about what a modifier does.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rollbook.engine.dice import odds, parse

SAMPLES = 4000

NOTATIONS = [
    "4d6kh3",
    "3d6kl2",
    "4d4u",
    "3d6uo",
    "3d6u=2",
    "2d6r<3",
    "3d6ro<3",
    "2d4!",
    "2d4!!p",
    "2d4!p",
    "3d4!kh1",
    "2d6min3max5",
    "5d6>=5f<2",
    "2dF.1",
    "3d4!!u",
    "2d4r=1u",
    "{2d4,1d6}kh1",
    "{3d4}kh2",
    "{1d4+1d6}dl1",
    "{1d6,1d6,1d6}>=4",
    "d4,d3",
    "floor(2d6/3)",
]


@pytest.mark.parametrize("text", NOTATIONS)
def test_sampled_frequencies_match_exact_odds(text: str) -> None:
    expr = parse(text)
    rng = random.Random(20261122)
    counts = Counter(expr.roll(rng).total for _ in range(SAMPLES))
    pmf = odds(expr).pmf
    assert set(counts) <= set(pmf)
    distance = sum(abs(counts[v] / SAMPLES - float(p)) for v, p in pmf.items()) / 2
    assert distance < 0.05, (text, distance)
