"""`rollbook table` and `rollbook check`: the build's conversion path, from the command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rollbook.cli import main
from rollbook.engine.bridge import handle
from tests.markup.helpers import convert, payload_texts

PAGE = """\
---
title: Camp
---

# Night watch

```roll-table
roll: 2d6 + {{ alertness }}
prompts:
  - name: alertness
    min: 0
    max: 2
result_text: "{{ roll }}: {{ result }}"
results:
  "<=6": All quiet
  7--10: A noise in the dark
  ">=11": Ambush!
```

## Finds

```roll-list
id: finds
results: [a *coin*, a boot, a map]
```
"""


@pytest.fixture()
def page(tmp_path: Path) -> Path:
    path = tmp_path / "camp.md"
    path.write_text(PAGE, encoding="utf-8")
    (tmp_path / "broken.md").write_text("# B\n\n![roll:3d]()\n\n[!roll:1d6](.)\n")
    return path


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_table_json_equals_the_browser_worker_reply(page, capsys):
    code, out, _ = run(capsys, "table", str(page), "night-watch", "--seed", "42",
                       "--set", "alertness=2", "--json")  # fmt: skip
    assert code == 0
    reply = json.loads(out)
    assert {"roll", "row", "text", "tab", "seed"} <= reply.keys()
    # What the worker does: read the page's JSON payload, ask the bridge with the same seed.
    html, _ = convert(PAGE.split("---\n", 2)[2])
    data = json.loads(payload_texts(html)[0])
    worker = handle({"op": "table", "table": data, "seed": 42, "prompts": {"alertness": 2}})
    assert {k: reply[k] for k in worker} == worker
    assert reply["text"].startswith(f"{reply['roll']['total']}: ")


def test_same_seed_same_result_and_plain_output(page, capsys):
    first = run(capsys, "table", str(page), "finds", "--seed", "7")
    second = run(capsys, "table", str(page), "finds", "--seed", "7")
    assert first == second
    code, out, _ = first
    assert code == 0
    assert out.startswith("finds (seed 7): 1d3: ")
    assert "<" not in out  # HTML is turned into terminal text


def test_missing_prompt_value_names_the_flag(page, capsys):
    code, _, err = run(capsys, "table", str(page), "night-watch", "--seed", "1")
    assert code == 2
    assert "--set NAME=VALUE (prompts: alertness)" in err


def test_out_of_range_prompt_is_refused(page, capsys):
    code, _, err = run(capsys, "table", str(page), "night-watch", "--seed", "1",
                       "--set", "alertness=9")  # fmt: skip
    assert code == 2 and "alertness" in err


def test_unknown_table_lists_the_pages_tables(page, capsys):
    code, _, err = run(capsys, "table", str(page), "nope")
    assert code == 2
    assert err.strip().endswith("has no table 'nope'; its tables: finds, night-watch.")


def test_bad_set_syntax(page, capsys):
    code, _, err = run(capsys, "table", str(page), "finds", "--set", "alertness")
    assert code == 2 and "--set takes NAME=VALUE" in err


def test_check_reports_page_line_messages_and_exit_1(page, capsys):
    code, out, err = run(capsys, "check", str(page.parent))
    assert code == 1
    broken = page.parent / "broken.md"
    assert out.splitlines() == [
        f"{broken}:3: the dice notation '3d' does not parse: Expected the number of sides "
        "after 'd', but the notation ends.",
        f"{broken}:5: '[!roll:1d6]' is an ordinary link, not a roll: the '!' goes before the "
        "bracket, as in '![roll:1d6](...)'.",
    ]
    assert "2 page(s) checked, 2 problem(s)." in err


def test_check_clean_file_exits_0(page, capsys):
    assert run(capsys, "check", str(page))[0] == 0


def test_check_missing_path_exits_2(tmp_path, capsys):
    code, _, err = run(capsys, "check", str(tmp_path / "missing.md"))
    assert code == 2 and "neither a file nor a folder" in err
