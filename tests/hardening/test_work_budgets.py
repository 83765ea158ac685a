"""Budgets checked before the work: exact odds, and what a page's markup asks of them.

A notation whose exact odds would take too long is refused at the first step that would
pass ``odds_work``, before that step runs: on the command line (one sentence, exit 2),
through the bridge (an ordinary engine error the browser shows), and in a page, where the
inline roll still renders (odds are an extra) and a table says so at its line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rollbook.engine.bridge import handle
from rollbook.engine.dice import DiceError, arith, odds
from rollbook.engine.limits import value
from tests.hardening.bounded import assert_one_sentence, rollbook

SLOW = "1d10000/1d20" + "+1" * 100
ALSO_SLOW = [
    "1d10000/1d20",
    "1d10000/1d20" + "+1" * 20,
    "(1d10000/1d20)*2",
    "1d100*1d100*1d100*1d10",
]


@pytest.mark.parametrize("text", [SLOW, *ALSO_SLOW])
def test_odds_over_the_budget_are_refused_before_the_work(text, monkeypatch) -> None:
    divisions = 0
    real = arith.BINARY["/"]

    def counted(a, b, pos):  # type: ignore[no-untyped-def]
        nonlocal divisions
        divisions += 1
        return real(a, b, pos)

    monkeypatch.setitem(arith.BINARY, "/", counted)
    with pytest.raises(DiceError) as caught:
        odds(text)
    assert "odds_work" in caught.value.message and f"{value('odds_work'):,}" in caught.value.message
    if "/" in text:
        assert divisions == 0  # refused before the 200,000 divisions, not after them


@pytest.mark.parametrize("text", ["100d100", "20d999", "4d6kh3", "1d1000/1d20+1+1+1", "10d10!"])
def test_ordinary_and_large_odds_stay_within_it(text: str) -> None:
    assert odds(text).pmf


def test_the_command_and_the_bridge_say_it_in_one_sentence(tmp_path: Path) -> None:
    done = rollbook(tmp_path, "odds", SLOW)
    assert_one_sentence(done)
    assert done.returncode == 2 and "odds_work" in done.stderr
    reply = handle({"op": "odds", "expr": SLOW})
    assert reply["kind"] == "DiceLimitError" and "odds_work" in reply["error"]
    rolled = handle({"op": "roll", "expr": SLOW, "seed": 1})
    assert "error" not in rolled  # rolling it is cheap and still works


def test_check_and_import_are_not_stalled_by_such_a_notation(tmp_path: Path) -> None:
    page = (
        f"# P\n\nInline ![roll:{SLOW}]().\n\n```roll-table\nroll: {SLOW}\n"
        "results:\n  '<=200': low\n  '>200': high\n```\n"
    )
    (tmp_path / "page.md").write_text(page, encoding="utf-8")
    done = rollbook(tmp_path, "check", "page.md")
    assert_one_sentence(done)
    assert done.returncode == 1
    assert "page.md:6: roll-table: " in done.stdout and "odds_work" in done.stdout
    assert "page.md:3:" not in done.stdout  # the inline roll rolls; only its odds are left out
    src = tmp_path / "hugo" / "content"
    src.mkdir(parents=True)
    (src / "_index.md").write_text(page, encoding="utf-8")
    done = rollbook(tmp_path, "import", "hugo", "out")
    assert_one_sentence(done)
    assert done.returncode == 0 and "odds_work" in done.stdout
