"""Budgets checked before the work: exact odds, and what a page's markup asks of them.

A notation whose exact odds would take too long is refused at the first step that would
pass ``odds_work``, before that step runs: on the command line (one sentence, exit 2),
through the bridge (an ordinary engine error the browser shows), and in a page, where the
inline roll still renders (odds are an extra) and a table says so at its line.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

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


def nest_page(levels: int = 6, fan: int = 12) -> str:
    """Tables t1..tN, each row 1 of which rolls the next table ``fan`` times."""
    parts = ["# Nest\n"]
    for i in range(1, levels + 1):
        rolls = " ".join([f"![roll:#t{i + 1}]()"] * fan) if i < levels else "end"
        parts.append(
            f"```roll-table\nid: t{i}\nroll: 1d2\nresults:\n  1: 'a {rolls}'\n  2: 'b'\n```\n"
        )
    return "\n".join(parts)


def test_nested_references_have_a_roll_budget(tmp_path: Path) -> None:
    (tmp_path / "page.md").write_text(nest_page(), encoding="utf-8")
    done = rollbook(tmp_path, "check", "page.md")
    assert_one_sentence(done)
    assert done.returncode == 1
    # t1 (row at line 7) may roll 12**5 tables; t2 (line 15) 12**4; t3 is within the budget
    assert "page.md:7: roll-table: one roll of this table may roll up to" in done.stdout
    assert "page.md:15: roll-table: " in done.stdout and "page.md:23:" not in done.stdout
    assert "nested_rolls limit of 2,000" in done.stdout
    done = rollbook(tmp_path, "table", "page.md", "t1", "--seed", "1")
    assert_one_sentence(done)
    assert done.returncode == 2 and "nested_rolls limit" in done.stderr
    assert done.stderr.strip().splitlines()[-1].startswith("rollbook: ")
    assert rollbook(tmp_path, "table", "page.md", "t3", "--seed", "1").returncode == 0


def test_a_page_embeds_referenced_tables_within_its_budget(monkeypatch) -> None:
    from rollbook.engine import limits
    from rollbook.markup.pages import MarkdownSetup
    from rollbook.markup.refs import convert_with_refs

    def convert(budget: int) -> Any:
        small = limits.Limit("page_embed_bytes", budget, "test")
        monkeypatch.setitem(limits._BY_NAME, "page_embed_bytes", small)
        page = Path(__file__).parent / "_embed_page.md"
        try:
            page.write_text(nest_page(levels=4, fan=2), encoding="utf-8")
            [result], _ = convert_with_refs([page], MarkdownSetup())
        finally:
            page.unlink()
        return result

    # t1 rolls t2..t4, t2 rolls t3 and t4, t3 rolls t4: six copies once (6.5 KB), each
    # table once now (2.6 KB), which 3,000 bytes hold.
    result = convert(3000)
    assert result.problems == []
    assert result.html.count('"refs":["') == 3
    # Past the budget a block embeds nothing more, and the build says where.
    result = convert(2000)
    said = [p for p in result.problems if "page_embed_bytes limit of 2,000" in p.message]
    assert [p.line for p in said] == [7], result.problems  # t1's row
    assert result.html.count('"refs":[]') == 3 and '"refs":["' not in result.html


def test_the_embed_budget_counts_each_referenced_table_once_per_page(
    tmp_path: Path, monkeypatch
) -> None:
    from rollbook.engine import limits
    from rollbook.markup.pages import MarkdownSetup
    from rollbook.markup.refs import convert_with_refs
    from rollbook.markup.refs_store import read_store

    def rows(word: str) -> str:
        return "\n".join(f"  {i}: '{word} {i}, a line long enough to weigh'" for i in range(1, 61))

    (tmp_path / "hoard.md").write_text(
        f"# Hoard\n\n```roll-table\nid: coins\nroll: 1d60\nresults:\n{rows('Coin')}\n```\n\n"
        f"```roll-table\nid: gems\nroll: 1d60\nresults:\n{rows('Gem')}\n```\n",
        encoding="utf-8",
    )
    rollers = [
        f"```roll-list\nid: r{i}\nresults: ['![roll:hoard.md#coins]()']\n```\n" for i in range(8)
    ]
    late = "```roll-list\nid: late\nresults: ['![roll:hoard.md#gems]()']\n```\n"
    page = tmp_path / "page.md"
    page.write_text("# Page\n\n" + "\n".join([*rollers, late]), encoding="utf-8")
    [result], _ = convert_with_refs([page], MarkdownSetup())
    assert result.problems == []
    stored = read_store(result.html)[0]
    assert [k.rpartition("#")[2] for k in sorted(stored)] == ["coins", "gems"]
    assert result.html.count("Coin 60, a line") == 1  # eight tables roll it: written once
    one = len(result.html.split('"rb-refs"')[1]) // 2  # about one table's bytes
    # A budget one table fits: the eight tables rolling it share it; the next table passes.
    small = limits.Limit("page_embed_bytes", one + one // 4, "test")
    monkeypatch.setitem(limits._BY_NAME, "page_embed_bytes", small)
    [result], _ = convert_with_refs([page], MarkdownSetup())
    line = page.read_text().splitlines().index("results: ['![roll:hoard.md#gems]()']") + 1
    [said] = result.problems
    assert said.line == line, said
    assert f"page_embed_bytes limit of {one + one // 4:,} bytes here" in said.message
    assert result.html.count('"refs":["') == 8 and result.html.count('"refs":[]') == 1
    assert result.html.count("Coin 60, a line") == 1 and "Gem 60, a line" not in result.html


SHORTCODE_PAGES = {
    "unclosed_openers": "{{< " * 24_000,
    "unclosed_percent": "{{%" * 32_000,
    "many_shortcodes": "{{< x >}}\n" * 9_600,
    "long_unclosed_lines": ("{{< a " + "x" * 50 + "\n") * 1_600,
}


@pytest.mark.parametrize("name", sorted(SHORTCODE_PAGES))
def test_the_shortcode_scan_is_one_pass(name: str) -> None:
    """Each opener is paired with the first closer after it by a forward search from where
    the last shortcode ended, so a ~96 KB page costs one pass (not one per opener)."""
    scan_module = importlib.import_module("rollbook.hugo.scan")

    text = SHORTCODE_PAGES[name]
    searched = 0
    real = str.find

    class Counting(str):
        def find(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            nonlocal searched
            searched += 1
            return real(self, *args, **kwargs)

    found = list(scan_module._shortcodes(Counting(text), 1))
    assert searched <= len(found) + 1  # one search per shortcode, one that finds no closer
    if name == "many_shortcodes":
        assert [f.line for f in found] == list(range(1, 9_601))


def test_import_takes_a_page_full_of_shortcode_openers(tmp_path: Path) -> None:
    content = tmp_path / "hugo" / "content"
    content.mkdir(parents=True)
    (content / "_index.md").write_text("# Home\n\n" + "{{< " * 24_000 + "\n", encoding="utf-8")
    done = rollbook(tmp_path, "import", "hugo", "out")  # bounded: a hang fails, not waits
    assert_one_sentence(done)
    assert done.returncode == 0, done.stderr


def test_fight_reads_only_regular_files_under_its_cap(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "zero.yaml").symlink_to("/dev/zero")
    with open(tmp_path / "huge.yaml", "wb") as handle:
        handle.truncate(value("fight_file_bytes") + 1)  # sparse
    cases = {
        "/dev/zero": "not a regular file",
        "pipe.yaml": "not a regular file",  # opening it without a writer would hang
        "zero.yaml": "not a regular file",
        "huge.yaml": "fight_file_bytes limit",
        ".": "cannot read it",
    }
    for name, said in cases.items():
        done = rollbook(tmp_path, "fight", name)
        assert_one_sentence(done)
        assert done.returncode == 2 and said in done.stderr, (name, done.stderr)
        assert done.stderr.count("\n") == 1
