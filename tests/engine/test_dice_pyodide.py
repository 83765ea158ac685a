"""The same seed gives the same roll in CPython and in Pyodide (the browser's Python)."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

from rollbook.engine.dice import DiceError, roll

SCRIPT = Path(__file__).with_name("pyodide_dice.mjs")

CASES = [
    (text, seed)
    for seed in (0, 1, 42, 2**31 - 1, 123456789)
    for text in (
        "2d6",
        "4d6kh3",
        "d%",
        "3d6!",
        "2d10!!p",
        "6d6u",
        "4d6r<3",
        "5d10>=8f<3",
        "{4d6+2d8, 3d20}k1",
        "d6,d6",
        "1d1000+1d7",
        "2d6/3",
        "4dF.1",
        "1d10000",
    )
]


def test_same_seed_same_roll_in_pyodide() -> None:
    node = shutil.which("node")
    assert node, "node is needed to run Pyodide (it runs in CI)"
    proc = subprocess.run(
        [node, str(SCRIPT)],
        input=json.dumps(CASES),
        capture_output=True,
        text=True,
        check=True,
        cwd=SCRIPT.parent,
        timeout=300,
    )
    theirs = json.loads(proc.stdout)
    ours = []
    for text, seed in CASES:
        try:
            ours.append(roll(text, random.Random(seed)).to_dict())
        except DiceError as err:
            ours.append({"error": err.message})
    ours = json.loads(json.dumps(ours, sort_keys=True))
    assert len(theirs) == len(CASES)
    for case, a, b in zip(CASES, ours, theirs, strict=True):
        assert a == b, case
