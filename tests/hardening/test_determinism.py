"""A seed gives the same reply in CPython and in Pyodide (the page's worker).

A corpus of expressions, the crafted site's tables and lists, and fights of every system
with a fight file goes through `rollbook.engine.bridge.handle` here and through the worker in
Chromium; the JSON must be identical. (Two builds byte-identical: proved by
tests/build/test_demo_build.py::test_two_builds_are_byte_identical.)
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml
from playwright.sync_api import Page

from rollbook.engine.bridge import handle
from tests.browser.conftest import ROOT, payload
from tests.hardening.browser_helpers import ready, request
from tests.hardening.exprgen import valid

pytestmark = pytest.mark.browser

EXPRESSIONS = [
    "4d6kh3", "d%", "4dF", "dF.1", "3d6!", "2d6!!", "1d6!p", "2d10r<3", "2d10ro<3", "3d6u",
    "5d10>=7f<2", "1d6min3", "2d6max4", "4d6sa", "4d6sd", "{2d6,3d4}kh1", "{1d20,1d20}kl1",
    "d6,d6", "2d6,1d4+1", "5/2", "1/3+1d6", "round(7/2)", "ceil(1d6/4)", "sqrt(16)", "2**10",
    "-2**2", "7%3", "-7%3", "abs(-1d6)", "max(1d6,1d6)", "min(1d8,1d8)", "floor(1d6/4)",
    "1d6[fire]+2", "1d20 # attack", "2d6 + (15 - 12)", "2d6*10", "1d6-1", "1d3+1", "8d6",
    "3d6cs>5cf<2", "10d10!>=9", "1d4/0", "2d6+{{ x }}", "", "1001d6",
]  # fmt: skip
SEEDS = [0, 1, 42, 2**32 - 1, 2**53 - 1]


def _requests() -> list[dict]:
    rng = random.Random(5)
    exprs = EXPRESSIONS + [valid(rng, small=True).text for _ in range(30)]
    out: list[dict] = [
        {"op": "roll", "expr": e, "seed": SEEDS[k % len(SEEDS)]} for k, e in enumerate(exprs)
    ]
    out += [{"op": "roll", "expr": "3d6!kh2+1d20", "seed": s} for s in SEEDS]
    for path in sorted((ROOT / "tests/engine/fights").glob("*.yaml")):
        data = yaml.safe_load(path.read_text())
        sides = [[name, members] for name, members in data["sides"].items()]
        for seed, rounds in ((7, 200), (2**40, 3)):
            out.append({"op": "fight", "system": data["system"], "sides": sides,
                        "seed": seed, "rounds": rounds})  # fmt: skip
        out.append({"op": "simulate", "system": data["system"], "sides": sides,
                    "runs": 20, "seed": 11})  # fmt: skip
    return out


def _engines_words(reply: dict) -> dict:
    """A reply without the texts the page rewords in the reader's language (`error` where a
    `message` says it, `log` where `events` do): those keys and arguments are compared."""
    said = {"error": "message", "log": "events", "text": "said"}
    return {k: v for k, v in reply.items() if not (k in said and said[k] in reply)}


def _same(page: Page, req: dict) -> None:
    here = json.loads(json.dumps(handle(req)))
    there = request(page, req)
    assert _engines_words(there) == _engines_words(here), req


def test_same_seed_same_reply_in_cpython_and_pyodide(page: Page, hard_site: str) -> None:
    page.goto(hard_site)
    ready(page)
    compared = 0
    for req in _requests():
        _same(page, req)
        compared += 1
    for anchor, prompt_sets in (
        ("loot", [{"bonus": 0}, {"bonus": 3}, {"bonus": 9}, {}]),
        ("d66", [{}]),
        ("omens", [{}]),
        ('"><img src=x onerror="window.__pwned=1">', [{}]),
    ):
        table = payload(page, anchor)
        for prompts in prompt_sets:
            for seed in SEEDS:
                _same(page, {"op": "table", "table": table, "seed": seed, "prompts": prompts})
                compared += 1
    print(f"\nrequests compared between CPython and Pyodide: {compared}")
    assert compared > 100


def test_the_corpus_covers_every_op_but_rules() -> None:
    ops = {req["op"] for req in _requests()}
    assert ops == {"roll", "fight", "simulate"}
    assert len(list(Path(ROOT / "tests/engine/fights").glob("*.yaml"))) >= 3
