"""The in-page error box and the log name the same line (the file's), and the box takes
the broken block's place: no table, no payload, nothing to roll under it."""

from __future__ import annotations

import re
from pathlib import Path

from rollbook.markup.pages import MarkdownSetup, convert_page
from tests.hardening.bounded import run_bounded

ROOT = Path(__file__).resolve().parents[2]
FRONT = "---\ntitle: Broken\ntags:\n  - a\n  - b\n---\n\n"
PAGE = (
    FRONT + "# Broken\n\nSome text.\n\n"
    "```roll-table\nid: gap\nroll: 2d6\nresults:\n  2--6: low\n  9--12: high\n```\n\n"
    "```roll-table\nid: overlap\nroll: 1d6\nresults:\n  1--3: a\n  3--6: b\n```\n\n"
    "```roll-list\nid: fine\nresults: [a, b]\n```\n"
)


def _box_lines(html: str) -> list[int]:
    return [int(n) for n in re.findall(r"<li>line (\d+): ", html)]


def test_box_and_check_give_the_files_lines(tmp_path: Path) -> None:
    page = tmp_path / "broken.md"
    page.write_text(PAGE, encoding="utf-8")
    result = convert_page(page, MarkdownSetup())
    logged = sorted(p.line for p in result.problems)
    assert logged == [15, 25]  # counted in the file, front matter (7 lines) included
    assert sorted(_box_lines(result.html)) == logged
    lines = PAGE.split("\n")
    assert lines[14] == "results:" and lines[24].startswith("  3--6")


def test_the_box_takes_the_tables_place(tmp_path: Path) -> None:
    page = tmp_path / "broken.md"
    page.write_text(PAGE, encoding="utf-8")
    html = convert_page(page, MarkdownSetup()).html
    assert html.count('class="admonition failure rb-error"') == 2
    assert 'data-rb-anchor="gap"' not in html and 'data-rb-anchor="overlap"' not in html
    assert html.count('class="rb-data"') == 1  # only the valid list carries a payload
    assert 'data-rb-anchor="fine"' in html


def test_a_non_strict_build_shows_the_logs_line_in_the_box(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nplugins:\n  - rollbook:\n"
        f"      pyodide_path: {ROOT / 'node_modules' / 'pyodide'}\n      snapshot: false\n",
        encoding="utf-8",
    )
    done = run_bounded(["mkdocs", "build", "-d", str(tmp_path / "site")], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    logged = sorted(int(n) for n in re.findall(r"docs/index\.md:(\d+): roll-table", done.stderr))
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert logged == [15, 25] and sorted(_box_lines(html)) == logged
    assert 'data-rb-anchor="gap"' not in html
