"""A long flat chain of operators is long, not deep: it rolls, gets odds and renders.

The notation length limit allows about 500 terms; ``1+1+...+1`` must never be refused as
"nested too deeply" (only brackets, groups, calls and signs nest). Every walker folds chains
with an explicit stack, so these pass even with a small recursion limit.
"""

from __future__ import annotations

import inspect
import random
import sys
from pathlib import Path

import pytest

from rollbook.engine.bridge import handle
from rollbook.engine.dice import odds, parse
from rollbook.engine.dice.moments import extremes_and_mean
from rollbook.engine.limits import value as limit
from tests.hardening.bounded import rollbook

CHAINS = {
    "flat_sum_497": "+".join(["1"] * 497),
    "flat_sum_500": "+".join(["1"] * 500),
    "minus": "-".join(["d2"] * 333),
    "times": "*".join(["1"] * 500),
    "mixed": "+".join(["2*1-1"] * 166),
    "power_chain": "**".join(["1"] * 333),
    "divide": "/".join(["1"] * 500),
    "in_brackets": "(" + "+".join(["d3"] * 300) + ")*2",
}


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_a_long_chain_rolls_gets_odds_and_renders(name: str) -> None:
    text = CHAINS[name]
    assert len(text) <= limit("notation_length")
    expr = parse(text)  # parsed (and cached) before the limit is lowered
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 120)
    try:
        result = expr.roll(random.Random(3))
        shown = result.text()
        data = result.to_dict()
        dist = odds(expr)
        extremes_and_mean(expr)
    finally:
        sys.setrecursionlimit(old)
    assert shown.endswith(f" = {data['text'].rsplit(' = ', 1)[1]}")
    assert dist.min <= result.total <= dist.max


def test_flat_sum_totals_are_right() -> None:
    assert parse(CHAINS["flat_sum_497"]).roll(random.Random(1)).total == 497
    assert odds(CHAINS["minus"]).max == 2 - 332
    assert parse("2-1-1").roll(random.Random(1)).total == 0  # still left-associative
    assert parse("2**3**2").roll(random.Random(1)).total == 512  # still right-associative
    assert parse("(-2)**2").roll(random.Random(1)).text() == "(-2)**2: (-2)^2 = 4"


@pytest.mark.parametrize("op", ["roll", "odds"])
def test_the_bridge_answers_a_flat_sum(op: str) -> None:
    reply = handle({"op": op, "expr": CHAINS["flat_sum_497"], "seed": 1})
    assert "error" not in reply, reply


def test_commands_and_check_take_a_flat_sum(tmp_path: Path) -> None:
    text = CHAINS["flat_sum_497"]
    for command in ("roll", "odds"):
        done = rollbook(tmp_path, command, text)
        assert done.returncode == 0, done.stderr
        assert "497" in done.stdout
    (tmp_path / "page.md").write_text(f"# P\n\nRoll ![roll:{text}]().\n", encoding="utf-8")
    done = rollbook(tmp_path, "check", "page.md")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "too deeply" not in done.stdout + done.stderr
