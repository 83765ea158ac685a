"""A rules site not written for rollbook: what lights up by default, counted exactly.

tests/markup/rules_site is in our own words and messy on purpose (front matter, code,
admonitions, lists, tables of every shape). Its plain dice tables, prose dice and Obsidian
Dice Roller spans must light up; its look-alikes, code, links, headings and opted-out
tables must stay exactly as written; the checks report planted mistakes at page:line.
"""

from __future__ import annotations

import html as htmllib
import json
import re
from pathlib import Path

import pytest

from rollbook.cli import main
from rollbook.markup.pages import MarkdownSetup
from rollbook.markup.refs import convert_with_refs
from rollbook.markup.refs_store import resolved
from rollbook.mkdocs_plugin.site_config import markdown_setup
from tests.markup.helpers import payload_texts

SITE = Path(__file__).resolve().parent / "rules_site"
DOCS = SITE / "docs"

#: What each page lights up: (plain tables, dice in prose, Obsidian Dice Roller rolls).
EXPECTED = {
    "index.md": (0, 17, 0),
    "lookalikes.md": (0, 0, 0),
    "oracles/Action.md": (1, 0, 0),
    "oracles/Story Theme.md": (1, 0, 0),
    "play/combat.md": (0, 42, 0),
    "play/session.md": (1, 2, 6),
    "play/travel.md": (0, 26, 0),
    "tables/headers.md": (15, 0, 0),
    "tables/keys.md": (14, 0, 0),
    "tables/layouts.md": (8, 11, 0),
    "tables/static.md": (0, 6, 0),
}

#: Text that looks like dice and must stay text (lookalikes.md, word for word).
LOOKALIKES = [
    "D&amp;D", "AD&amp;D", "in 3D", "3D printer", "d20 System", "d20 Modern", "2d-edition",
    "XD12-4", "RX-4d8", "firmware 4.2d6", "d6@example.invalid", "#d20", "d20-based",
    "d6s", "The 1d and the 2d sides", "the 5d box", "H2D6", "room d12a", "d100%",
    "ISO 3d6-B", "mk2d8", "A d0 is", "<code>1d6</code>", "<code>2d6+1</code>",
    "<code>a span with `1d8` inside</code>", ">the 1d8 rules</a>",
    "https://example.invalid/d6", 'title="roll 1d6 here"', "<kbd>d8</kbd>",
    "Version 1.2d4", "build 7d6x", "The cd6 and ad10", "Reading 1d12 in a heading",
    'data-note="2d6 stays an attribute"', "keep 3d6 as text",
    # Found by the QA pages: lower-case game names lit up, and "3 x 1d6" rolled 1d6 alone.
    "d20 games", "d20 products", "the d20 system", "as in 3 x 1d6 gold",
]  # fmt: skip


@pytest.fixture(scope="module")
def converted() -> dict[str, object]:
    setup = markdown_setup(SITE / "mkdocs.yml")
    pages = sorted(DOCS.rglob("*.md"))
    results, _ = convert_with_refs(pages, setup)
    return {Path(r.path).relative_to(DOCS).as_posix(): r for r in results}


def test_every_page_lights_up_exactly_what_it_should(converted):
    counts = {
        name: (r.counts["tables"], r.counts["prose"], r.counts["obsidian"])  # type: ignore[attr-defined]
        for name, r in converted.items()
    }
    assert counts == EXPECTED
    totals = [sum(c[i] for c in counts.values()) for i in range(3)]
    assert totals == [40, 104, 6]


def test_the_site_has_no_problems_and_says_what_it_left_alone(converted):
    problems = [m for r in converted.values() for m in r.messages()]  # type: ignore[attr-defined]
    notes = [m for r in converted.values() for m in r.notes()]  # type: ignore[attr-defined]
    assert problems == []
    page = str(DOCS / "tables" / "static.md")
    assert notes == [
        f"{page}:23: this table names a die in 2 columns (d20, d20): it reads as rolls side "
        "by side, not one roll, so it stays a plain table.",
        f"{page}:30: Row 2 (line 33) starts with '+2 per rank', which is no d20 result, so "
        "the table stays a plain table.",
    ]


def test_lookalikes_stay_text(converted):
    html = converted["lookalikes.md"].html  # type: ignore[attr-defined]
    assert "rb-inline" not in html and "rb-table" not in html
    missing = [text for text in LOOKALIKES if text not in html]
    assert missing == []
    assert len(LOOKALIKES) >= 30


def test_code_and_indented_code_keep_their_dice(converted):
    html = converted["index.md"].html  # type: ignore[attr-defined]
    assert "Dice in code stay code: 1d6, 2d6+1, d20." in html
    assert "roll 3d6 here and nothing happens" in html


def test_static_tables_stay_exactly_tables(converted):
    html = converted["tables/static.md"].html  # type: ignore[attr-defined]
    assert "rb-table" not in html
    assert html.count("<table>") == 7
    assert "no-roll" not in html
    assert "| d6 | Inside a code block |" in html


def _payloads(html: str) -> list[dict]:
    return [json.loads(text) for text in payload_texts(html)]


def test_plain_tables_read_their_keys_as_real_tables_write_them(converted):
    tables = {
        t["roll_name"] + " " + (t["headers"][0] if t["headers"] else ""): t
        for t in _payloads(converted["tables/keys.md"].html)  # type: ignore[attr-defined]
    }
    keys = {name: [row["key"] for row in t["rows"]] for name, t in tables.items()}
    assert keys["d100 Cargo"] == ["1--20", "21--45", "46--70", "71--95", "96--100"]
    assert keys["d100 Luck"] == ["1--99", "100"]
    assert keys["d20 Climb"] == ["1--9", "10--14", ">=15"]
    assert keys["2d6 Crew morale"] == ["<=5", "6--9", ">=10"]
    assert keys["d12 Repairs"] == ["<=3", "4--8", ">=9"]
    assert keys["d6 Encounter"] == ["1", "2", "3", "4", "5", "6"]
    assert tables["d6 Encounter"]["rows"][0]["cells"] == ["A tinker"]
    assert tables["d4 Result"]["headers"] == ["Result", "Weather note"]
    assert tables["d4 Result"]["rows"][2]["cells"] == ["Rough", "stay in port"]
    assert keys["d66 Stranger"][:3] == ["11", "12", "13"]
    assert keys["d66 Stranger"][-1] == "31--66"
    assert tables["d66 Stranger"]["roll"] == "d6*10+d6"
    assert keys["2d10 Distance"] == ["2--5", "6--15", "16--20"]


def test_header_forms_and_repeated_column_names(converted):
    tables = _payloads(converted["tables/headers.md"].html)  # type: ignore[attr-defined]
    rolls = [(t["roll"], t["roll_name"]) for t in tables]
    assert rolls == [
        ("d6", "d6"), ("d6", "1d6"), ("d6", "D6"), ("2d6", "2d6"), ("d6*10+d6", "d66"),
        ("d100", "d100"), ("d%", "d%"), ("1d6+1", "1d6+1"), ("d6", "d6 roll"),
        ("d8", "Roll (d8)"), ("d4", "d4"), ("d12", "d12"), ("d10", "d10"), ("3d6", "3d6"),
        ("d20", "d20"),
    ]  # fmt: skip
    assert tables[-1]["headers"] == ["Result", "Result"]
    assert tables[12]["headers"] == ["Find", "Worth"]


def test_layouts_anchor_on_headings_and_block_ids(converted):
    html = converted["tables/layouts.md"].html  # type: ignore[attr-defined]
    anchors = re.findall(r'data-rb-anchor="([^"]+)"', html)
    assert anchors == [
        "exported-from-a-pdf", "named-in-the-line-above", "encounters-d8",
        "inside-an-admonition", "inside-a-list", "several-columns", "knots",
        "rolls-in-the-cells",
    ]  # fmt: skip
    assert "^knots" not in html
    tables = _payloads(html)
    assert tables[0]["roll"] == "d20" and tables[0]["headers"] == ["Name"]
    assert tables[1]["roll"] == "d6" and tables[1]["roll_name"] == "#"
    assert tables[2]["roll"] == "d8" and tables[2]["roll_name"] == "Roll"
    # Dice in a plain dice table's cells roll with the row, as nested rolls.
    assert 'data-rb-nest="2d4"' in html and 'data-rb-nest="3d6*10"' in html


def test_obsidian_rolls_resolve_pages_by_name_across_folders(converted):
    html = converted["play/session.md"].html  # type: ignore[attr-defined]
    refs = [p for p in _payloads(html) if "table" in p and "rows" not in p]
    assert [(p["table"], p.get("column")) for p in refs] == [
        ("[[Action]]#table", None),
        ("[[Action]]#table", "Result"),
        ("[[Story Theme]]#theme", "Tone"),
        (f"{DOCS / 'play' / 'session.md'}#mood", None),
    ]
    for p in refs:
        table = resolved(p, html)[p["table"]]  # from the page's store, as the browser reads it
        assert table["kind"] == "table"
    assert resolved(refs[0], html)["[[Action]]#table"]["rows"][-1]["key"] == "91--100"
    assert resolved(refs[2], html)["[[Story Theme]]#theme"]["headers"] == ["Theme", "Tone"]
    assert "<code>dice: ask the table</code>" in html


def test_planted_mistakes_are_reported_at_their_lines(capsys):
    page = SITE / "planted" / "mistakes.md"
    code = main(["check", str(page), "--config", str(SITE / "mkdocs.yml")])
    out, err = capsys.readouterr()
    assert code == 1
    assert out.splitlines() == [  # a gap at the table's header line, a row at its own
        f"{page}:5: table: results: no row covers 3 (d6 gives 1–6)",
        # Keys as the author wrote them, not the engine's 1--50 (found on the QA pages).
        f"{page}:15: table: results: keys '01-50' and '40-99' overlap (both cover 40)",
        f"{page}:20: table: results: no row covers 7–20 (d20 gives 1–20)",
        f"{page}:34: table: results: key '7' can never be rolled (d6 gives 1–6)",
        f"{page}:38: `dice: [[#^nothing]]` names the block id ^nothing, but no table on that "
        "page has it (its tables: none).",  # tables with errors stay plain tables
    ]
    assert "5 problem(s)" in err


def test_checking_the_whole_docs_folder_reports_a_roll_of_a_missing_page(tmp_path, capsys):
    # Found on a QA site: `mkdocs build --strict` stopped on `dice: [[Gone#^x]]` while
    # `rollbook check docs` said 0 problems; one page alone may name pages it cannot see.
    (tmp_path / "mkdocs.yml").write_text("site_name: T\nplugins: [rollbook]\n")
    (tmp_path / "docs").mkdir()
    page = tmp_path / "docs" / "a.md"
    page.write_text("# A\n\nAsk `dice: [[Gone#^x]]`.\n")
    config = ["--config", str(tmp_path / "mkdocs.yml")]
    assert main(["check", str(tmp_path / "docs"), *config]) == 1
    out, _ = capsys.readouterr()
    assert (
        out
        == f"{page}:3: `dice: [[Gone#^x]]` names the page 'Gone', which this site does not have.\n"
    )
    assert main(["check", str(page), *config]) == 0


def test_the_site_checks_clean_and_counts_what_it_lit_up(capsys):
    code = main(["check", str(DOCS), "--config", str(SITE / "mkdocs.yml")])
    out, err = capsys.readouterr()
    assert code == 0 and out == ""
    assert (
        "40 plain table(s), 104 dice in prose and 6 Obsidian Dice Roller roll(s) made rollable"
        in err
    )
    assert "info: " in err and "static.md:23" in err


def test_rollbook_table_rolls_a_plain_table(capsys):
    page = DOCS / "tables" / "headers.md"
    argv = ["table", str(page), "reaction", "--seed", "7", "--json", "--config"]
    assert main([*argv, str(SITE / "mkdocs.yml")]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["table"] == "reaction" and reply["roll"]["notation"] == "2d6"
    assert 2 <= reply["roll"]["total"] <= 12
    assert htmllib.unescape(reply["text"]).startswith(f"Rolled {reply['roll']['total']}: ")


def test_switches_turn_each_feature_off():
    setup = markdown_setup(SITE / "mkdocs.yml")
    off = MarkdownSetup(
        setup.extensions,
        setup.configs,
        features={"plain_tables": False, "prose_dice": False, "obsidian": False},
    )
    results, _ = convert_with_refs(sorted(DOCS.rglob("*.md")), off)
    assert [sum(r.counts.values()) for r in results] == [0] * len(results)
    assert all("rb-table" not in r.html and "rb-dice-ref" not in r.html for r in results)
    # Only the one roll written in rollbook's own markup (layouts.md) is left.
    assert sum(r.html.count('class="rb-inline') for r in results) == 1
