"""Malformed pages give `page:line` messages (or build cleanly), never a traceback.

Each page of the corpus goes through the Markdown extensions directly, all of them through
`rollbook check`, and a small site of them through `mkdocs build --strict`. HTML the author
did not write as a cell (ids, labels, titles, headers, prompt fields) must come out escaped.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rollbook.cli import main
from tests.markup.helpers import convert

ROOT = Path(__file__).resolve().parents[2]
XSS = '"><script>window.__pwned=1</script><img src=x onerror="window.__pwned=1">'


def fence(body: str, kind: str = "roll-table") -> str:
    return f"# Page\n\n```{kind}\n{body.strip()}\n```\n"


# name -> (source, lines that must carry a problem; () means the page is valid)
CORPUS: dict[str, tuple[str, tuple[int, ...]]] = {
    "broken_yaml": (fence("roll: 1d6\nresults: {1: a, 2: [b\n  3: c"), (6,)),
    "tab_indent": (fence("roll: 1d6\nresults:\n\t1--6: a"), ()),  # YAML accepts it
    "not_a_mapping": (fence("- just\n- a list"), (3,)),
    "roll_wrong_type": (fence("roll: [1, 2]\nresults:\n  1: a"), (4,)),
    "results_wrong_type": (fence("roll: 1d6\nresults: 3"), (5,)),
    "headers_wrong_type": (fence("roll: 1d2\nheaders: {a: 1}\nresults:\n  1: a\n  2: b"), (5,)),
    "prompt_min_text": (
        fence("roll: 1d6+{{ x }}\nprompts:\n  - name: x\n    min: low\nresults:\n  '>=1': a"),
        (7,),
    ),
    "unknown_keys": (fence("roll: 1d2\nrsults: x\ncolour: red\nresults:\n  1--2: a"), (5, 6)),
    "overlap": (fence("roll: 1d6\nresults:\n  1--3: a\n  3--6: b"), (7,)),
    "gap": (fence("roll: 2d6\nresults:\n  2--6: a\n  9--12: b"), (5,)),
    "unreachable": (fence("roll: 1d6\nresults:\n  1--6: a\n  7: never"), (7,)),
    "impossible_prompt": (
        fence("roll: 1d6+{{ x }}\nprompts:\n  - name: x\n    min: 5\n    max: 1\nresults:\n  1: a"),
        (7,),
    ),
    "missing_prompt": (fence("roll: 1d6+{{ bonus }}\nresults:\n  1: a"), (4,)),
    "bad_notation": (fence("roll: 2d\nresults:\n  1: a"), (4,)),
    "over_limit_notation": (fence("roll: 5000d6\nresults:\n  1: a"), (4,)),
    "huge_keep_pool": (fence("roll: 100d100kh50\nresults:\n  '>=1': a"), (4,)),
    "empty_fence": (fence(""), (3,)),
    "list_bad_column_count": (fence("results: [a, b]\ncolumn_count: -1", "roll-list"), (5,)),
    "inline_bad": ("# P\n\n![roll:]() and ![roll:2d6+]() and ![roll:(((1]()\n", (3,)),
    "inline_typo": ("# P\n\nA [!roll:2d6](.) typo.\n", (3,)),
    "inline_unicode": ("# P\n\n![roll:２d６]() ![roll:d6\u202e]() ![roll:🎲]()\n", (3,)),
    "valid_table": (fence("roll: 2d6\nresults:\n  2--6: a\n  7: b\n  8--12: c"), ()),
    "valid_html_cells": (
        fence("roll: 1d2\nresults:\n  1: '<b>b</b> *e*'\n  2: '<br /><blockquote>q</blockquote>'"),
        (),
    ),
    "html_in_odd_places": (
        fence(
            f"id: '{XSS}'\nroll: 1d6+{{{{ x }}}}\nroll_name: '{XSS}'\nclass: '{XSS}'\n"
            f"prompt_title: '{XSS}'\nheaders: ['{XSS}']\nbutton: {{label: '{XSS}'}}\n"
            f"prompts:\n  - name: x\n    label: '{XSS}'\n    help-text: '{XSS}'\n"
            f"    min: 0\n    max: 1\nresults:\n  '<=7': a"
        )
        + f"\n![roll:1d6](. \"{XSS}\")\n\n```roll-list\nid: '{XSS}'\nresults: [a, b]\n```\n",
        (),
    ),
    "script_close_in_cell_json": (
        fence("roll: 1d2\nresults:\n  1: 'a </script><script>x()</script>'\n  2: b"),
        (),
    ),
}


class _Elements(HTMLParser):
    """Every start tag with its attributes, and the text of each <script>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script"

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


def _check_problems(name: str, source: str, want_lines: tuple[int, ...]) -> str:
    html, problems = convert(source)
    lines = source.count("\n") + 1
    shown = [f"{name}.md:{p.line}: {p.message}" for p in problems]
    for p in problems:
        assert 1 <= p.line <= lines, shown
        assert "Traceback" not in p.message and "could not be built (" not in p.message, shown
    errors = [p for p in problems if p.severity == "error"]
    if not want_lines:
        assert errors == [], shown
    else:
        assert {p.line for p in problems} >= set(want_lines), shown
    return html


@pytest.mark.parametrize("name", sorted(CORPUS))
def test_page_reports_page_line_messages_without_traceback(name: str) -> None:
    source, lines = CORPUS[name]
    _check_problems(name, source, lines)


def test_html_outside_cells_is_escaped_everywhere() -> None:
    html = _check_problems("odd", *CORPUS["html_in_odd_places"])
    parsed = _Elements()
    parsed.feed(html)
    assert "window.__pwned" in html  # the payload is shown, as text
    # The only scripts are data (JSON); the payload data holds no markup at all.
    scripts = [attrs for tag, attrs in parsed.tags if tag == "script"]
    assert all(a.get("type") == "application/json" for a in scripts)
    assert len(_payloads(html)) == 2
    assert not [tag for tag, _ in parsed.tags if tag in ("img", "svg", "iframe")]
    for tag, attrs in parsed.tags:
        assert not [k for k in attrs if k.startswith("on")], (tag, attrs)
        for value in attrs.values():
            assert "javascript:" not in (value or "").lower()


def _payloads(html: str) -> list[dict]:
    """The table payloads (JSON in a script or template element), checked to hold no '<'."""
    found = re.findall(r'<(script|template)[^>]*class="rb-data"[^>]*>(.*?)</\1>', html, re.S)
    for _, text in found:
        assert "<" not in text, text[:200]
    return [json.loads(text) for _, text in found]


def test_script_end_inside_cell_stays_inside_the_json() -> None:
    html = _check_problems("cell", *CORPUS["script_close_in_cell_json"])
    (data,) = _payloads(html)
    assert data["rows"][0]["cells"][0] == "a </script><script>x()</script>"


def test_ten_thousand_row_table_builds() -> None:
    rows = "\n".join(f"  {n}: row {n} with *text*" for n in range(1, 10_001))
    source = fence(f"roll: 1d10000\nresults:\n{rows}")
    start = time.perf_counter()
    html, problems = convert(source)
    took = time.perf_counter() - start
    print(f"\n10,000-row table: {took:.1f} s")
    assert [p for p in problems if p.severity == "error"] == []
    assert html.count("data-rb-row=") == 10_000
    assert took < 120  # a hang guard, not a benchmark


def test_ten_thousand_row_table_with_an_error_reports_its_line() -> None:
    rows = [f"  {n}: r{n}" for n in range(1, 10_001)]
    rows[6000] = "  6000: duplicate"  # line 3 (fence) + 2 + 6000
    source = fence("roll: 1d10000\nresults:\n" + "\n".join(rows))
    _, problems = convert(source)
    assert any(p.line == 6006 for p in problems), [(p.line, p.message) for p in problems][:5]


def test_five_thousand_inline_rolls_on_one_page() -> None:
    notations = [f"{n % 6 + 1}d{(4, 6, 8, 10, 12, 20)[n % 6]}+{n % 9}" for n in range(54)]
    body = "\n\n".join(
        f'Roll ![roll:{notations[k % len(notations)]}](. "roll {k}") now.' for k in range(5000)
    )
    source = f"# Many\n\n{body}\n\n![roll:2d](.)\n"
    start = time.perf_counter()
    html, problems = convert(source)
    took = time.perf_counter() - start
    print(f"\n5,000 inline rolls: {took:.1f} s")
    assert html.count('class="rb-roll"') == 5000
    assert html.count('data-rb-id="rb-roll-5000"') == 1
    assert [p.line for p in problems] == [source.count("\n")]  # only the bad roll
    assert took < 120  # a hang guard, not a benchmark


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus") / "docs"
    folder.mkdir()
    for name, (source, _) in CORPUS.items():
        (folder / f"{name}.md").write_text(source, encoding="utf-8")
    return folder


def test_rollbook_check_prints_page_line_for_every_bad_page(
    corpus_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["check", str(corpus_dir)])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in out + err
    lines = out.splitlines()
    assert all(re.match(r"^.+\.md:\d+: \S", line) for line in lines), lines
    reported = {Path(line.split(":")[0]).stem for line in lines}
    bad = {name for name, (_, want) in CORPUS.items() if want}
    assert bad <= reported
    for name, (_, want) in CORPUS.items():
        got = {int(line.split(":")[1]) for line in lines if Path(line.split(":")[0]).stem == name}
        assert got >= set(want), (name, got)


MKDOCS_YML = """\
site_name: malformed
docs_dir: docs
plugins:
  - rollbook:
      pyodide_path: {pyodide}
markdown_extensions:
  - tables
  - pymdownx.superfences:
      custom_fences:
        - name: roll-table
          class: rollbook
          validator: !!python/name:rollbook.markup.roll_table.fence.validator
          format: !!python/name:rollbook.markup.roll_table.fence.formatter
        - name: roll-list
          class: rollbook
          validator: !!python/name:rollbook.markup.roll_list.fence.validator
          format: !!python/name:rollbook.markup.roll_list.fence.formatter
  - rollbook
"""


def test_mkdocs_build_strict_fails_with_page_line_warnings(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    config = MKDOCS_YML.format(pyodide=ROOT / "node_modules" / "pyodide")
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    (docs / "index.md").write_text("# Home\n\n![roll:2d6]()\n", encoding="utf-8")
    (docs / "bad.md").write_text(
        "---\ntitle: Bad\n---\n" + CORPUS["overlap"][0] + "\n![roll:3d]()\n", encoding="utf-8"
    )
    (docs / "yaml.md").write_text(CORPUS["broken_yaml"][0], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(tmp_path / "mkdocs.yml")],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)},
        timeout=300,
        check=False,
    )
    log = done.stdout + done.stderr
    assert done.returncode == 1, log
    assert "Traceback" not in log
    # Lines count in the .md file, front matter included (3 lines here).
    assert re.search(r"bad\.md:10: .*overlap", log), log
    assert re.search(r"bad\.md:13: .*'3d'", log), log
    assert re.search(r"yaml\.md:6: .*YAML", log), log
