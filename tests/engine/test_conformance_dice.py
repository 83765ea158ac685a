"""Conformance with rpg-dice-roller 5.5.1 (npm), the library real pages were written against.

For every notation in ``SAME`` both engines accept it, and our exact minimum and maximum equal
its totals under its ``min`` and ``max`` number generators (every die at its lowest/highest
face). ``BOTH_REJECT`` are refused by both. ``DIFFERENT`` lists every known difference with
the reason; the test checks each one still differs in the stated way, so the list (and
docs/reference/dice-grammar.md, which explains them) stays true.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rollbook.engine.dice import DiceError, odds, parse

SCRIPT = Path(__file__).with_name("conformance_dice.mjs")

SAME = [
    # what real pages use
    "1d20",
    "d20",
    "1d3",
    "1d6",
    "2d6",
    "3d6",
    "4d6",
    "5d6",
    "6d6",
    "7d6",
    "8d6",
    "1d3+1",
    "1d6-1",
    "2d6+1",
    "2d6k1",
    "2d6*10",
    "2d6 + (15 - 12)",
    # dice kinds
    "d%",
    "3d%",
    "dF",
    "4dF",
    "dF.1",
    "4dF.2",
    "10d10",
    # arithmetic
    "1d6+ 1",
    "1d6 +1",
    "2d6 * 10",
    "1d6**2",
    "2^3",
    "2**3**2",
    "-2**2",
    "2--2",
    "5/2",
    "1/3",
    "7%3",
    "1.5*2",
    "(1d4+1)*(1d6+2)",
    "1d8/2",
    # keep and drop
    "4d6kh3",
    "4d6k3",
    "4d6kl3",
    "4d6d1",
    "4d6dl1",
    "4d6dh1",
    "2d20kh1",
    "2d20kl1",
    "4d6dl1kh2",
    "2d6kh1d1",
    # success and failure counting
    "5d10>=8",
    "5d10>=8f<3",
    "3d6>3",
    "4d6kh3>=5",
    # min/max, sorting, criticals
    "4d6min2",
    "4d6max3",
    "2d6min7",
    "2d6max0",
    "4d6s",
    "4d6sa",
    "4d6sd",
    "2d20cs>=19",
    "2d20cf",
    # functions
    "abs(-3)",
    "floor(1d6/2)",
    "ceil(1d6/2)",
    "round(1d6/4)",
    "max(1d6,3)",
    "min(1d6,3)",
    "pow(1d4,2)",
    "sqrt(16)",
    "sign(1d6)",
    "round(5/2)",
    # groups
    "{1d6,2d6}",
    "{2d6}",
    "{4d6+2d8, 3d20}k1",
    "{2d6,3d6}>=4",
    "{3d6}kh1",
    "{3d6,1d4}dl1",
    "{1,2,3}kh1",
    "{2d6,3d6}sd",
    "{-1}",
    # labels and comments
    "4d6 [label]",
    "3d6[a]+2",
    "4d6 # comment",
    "2d6 // c",
    "2d6 /* c */ + 1",
    # explosions and re-rolls whose compare point the extreme faces never meet
    "sqrt(2)",
    "2d6r=3",
    "4d6u=3",
]

BOTH_REJECT = [
    "2d",
    "d",
    "1d0",
    "0d6",
    "3d6+",
    "abc",
    "1d1!",
    "2D6",
    "4d6KH3",
    "4d6 kh3",
    "2d6kh",
    "2d6k0",
    "(1",
    "max(1)",
    "min(1,2,3)",
    "foo(1)",
    "1.",
    ".5",
    "2 d6",
    "2d 6",
    "(2)d6",
    "5d10>=8f",
    "{1d6}!",
]

# notation -> (how it differs, why); kinds: "we reject", "they reject", "min/max".
DIFFERENT: dict[str, tuple[str, str]] = {
    " 2d6 ": ("they reject", "surrounding spaces are allowed here (real pages have them)"),
    "d6,d6": ("they reject", "comma multi-rolls (the d66 case) are part of our markup"),
    "-(1d6)+7": ("they reject", "a sign may precede any factor here, not only a number"),
    "abs(-1d6)": ("they reject", "a sign may precede any factor here, not only a number"),
    "3d6 + 2 # note": (
        "they reject",
        "a description may follow any expression here, so a roll composes around it",
    ),
    "7d6u": ("we reject", "more unique dice than faces cannot all be unique"),
    "1d6!>=1": ("we reject", "every face explodes: it would never stop"),
    "1d6r<7": ("we reject", "every face is re-rolled: it would never stop"),
    "2**0.5": ("we reject", "irrational powers have no exact value"),
    "sqrt(-4)": ("we reject", "no real square root"),
    "2d6/0": ("we reject", "division by zero is an error, not Infinity"),
    "2d6k3": ("min/max", "keeping more dice than rolled keeps them all (there: drops one)"),
    "1d6!": ("min/max", "an explosion chain stops after 10 extra dice here, 1000 there"),
    "2d6!!": ("min/max", "an explosion chain stops after 10 extra dice here, 1000 there"),
    "1d6r": ("min/max", "re-rolls here end on a face that misses; their min engine cannot"),
    "2d6r<3": ("min/max", "re-rolls here end on a face that misses; their min engine cannot"),
    "3d6u": ("min/max", "unique dice differ; their min engine rolls 1 forever"),
    "2d6*-1": ("min/max", "lowest dice do not give the lowest total when multiplied by -1"),
    "1d6-1d6": ("min/max", "lowest dice do not give the lowest total of a difference"),
    "5d6<>3": ("min/max", "counting dice that are not 3: extreme faces all count"),
    "1d6%4": ("min/max", "modulo is not monotonic"),
    "d6=3": ("min/max", "counting exact matches: the extreme faces never equal 3"),
    "3d6!=3": ("min/max", "exploding on a middle face: the extreme faces never explode"),
}


@pytest.fixture(scope="module")
def theirs() -> dict[str, Any]:
    node = shutil.which("node")
    assert node, "node is needed for the conformance test (it runs in CI)"
    corpus = SAME + BOTH_REJECT + list(DIFFERENT)
    proc = subprocess.run(
        [node, str(SCRIPT)],
        input=json.dumps(corpus),
        capture_output=True,
        text=True,
        check=True,
        cwd=SCRIPT.parent,
        timeout=120,
    )
    return json.loads(proc.stdout)


def _ours(text: str) -> dict[str, Any]:
    try:
        parse(text)
        dist = odds(text)
    except DiceError as err:
        return {"error": err.message}
    return {"min": _js(dist.min), "max": _js(dist.max)}


def _js(value: Any) -> Any:
    """Our exact value as rpg-dice-roller shows a total (rounded to 2 decimals)."""
    if isinstance(value, Fraction):
        return float(round(value, 2)) if value.denominator != 1 else value.numerator
    return value


def test_corpus_size() -> None:
    assert len(SAME) + len(BOTH_REJECT) + len(DIFFERENT) >= 60
    assert len(set(SAME) | set(BOTH_REJECT) | set(DIFFERENT)) == (
        len(SAME) + len(BOTH_REJECT) + len(DIFFERENT)
    )


@pytest.mark.parametrize("text", SAME)
def test_same_min_and_max(theirs: dict[str, Any], text: str) -> None:
    assert "error" not in theirs[text], theirs[text]
    assert _ours(text) == theirs[text]


@pytest.mark.parametrize("text", BOTH_REJECT)
def test_both_reject(theirs: dict[str, Any], text: str) -> None:
    assert "error" in theirs[text]
    with pytest.raises(DiceError):
        parse(text)


@pytest.mark.parametrize("text", list(DIFFERENT))
def test_documented_differences_hold(theirs: dict[str, Any], text: str) -> None:
    kind, _why = DIFFERENT[text]
    ours = _ours(text)
    if kind == "they reject":
        assert "error" in theirs[text]
        assert "error" not in ours
    elif kind == "we reject":
        assert "error" not in theirs[text]
        assert "error" in ours
    else:
        assert "error" not in theirs[text] and "error" not in ours
        assert ours != theirs[text]


def test_differences_are_documented() -> None:
    doc = Path(__file__).parents[2] / "docs" / "reference" / "dice-grammar.md"
    text = doc.read_text(encoding="utf-8")
    for notation in DIFFERENT:
        assert f"`{notation.strip()}`" in text, f"{notation!r} is not explained in {doc.name}"
