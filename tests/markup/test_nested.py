"""Nested rolls in the markup: cells' inline rolls, table references, plain notation, and
the reference checks (missing table, cycle, depth) as `page.md:LINE` problems."""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import markdown
import pytest

from rollbook.cli import main
from rollbook.markup.refs_store import resolved
from rollbook.markup.superfences import CUSTOM_FENCES
from tests.markup.helpers import EXTENSIONS, convert, messages

CAMP = """\
# Camp

```roll-table
id: camp
roll: 1d3
results:
  1: "Buy ![roll:1d3]() torches"
  2: "Then ![roll:#mishap]()"
  3: "Magic ![roll:magic.md#backlash]()"
```

```roll-table
id: mishap
roll: 1d2
results:
  1: Rain
  2: "Lose ![roll:1d2](. \\"a few\\") carts"
```

Prose keeps its rolls as they were: ![roll:1d6]().
"""


def payload(html: str, anchor: str) -> dict:
    match = re.search(
        rf'data-rb-anchor="{anchor}".*?<template class="rb-data"[^>]*>(.*?)</template>', html, re.S
    )
    assert match
    data: dict = json.loads(match[1])
    return data


def test_cell_rolls_are_nested_and_prose_rolls_are_not() -> None:
    html, _ = convert(CAMP)
    assert '<span class="rb-inline" data-rb-id="rb-roll-1" data-rb-nest="1d3">' in html
    assert 'data-rb-label="a few" data-rb-nest="1d2"' in html
    prose = re.search(r"Prose keeps.*", html)
    assert prose and "data-rb-nest" not in prose[0]
    ref = re.search(r'<span class="rb-inline rb-ref"[^>]*>', html)
    assert ref and ref[0] == (
        '<span class="rb-inline rb-ref" data-rb-id="rb-roll-2" data-rb-nest="#mishap" '
        'data-rb-table="page.md#mishap">'
    )
    rows = payload(html, "camp")["rows"]
    assert [r["nested"] for r in rows] == [
        [{"roll": "1d3"}],
        [{"ref": "#mishap", "table": "page.md#mishap"}],
        [{"ref": "magic.md#backlash", "table": "magic.md#backlash"}],
    ]


def test_plain_markdown_resolves_references_within_the_page(caplog) -> None:
    md = markdown.Markdown(
        extensions=EXTENSIONS,
        extension_configs={"pymdownx.superfences": {"custom_fences": CUSTOM_FENCES}},
    )
    with caplog.at_level(logging.WARNING, logger="mkdocs.rollbook.markup"):
        html = md.convert(CAMP)
    refs = resolved(payload(html, "camp"), html)  # as the browser reads the page's store
    assert list(refs) == ["#mishap"]  # no host: this page's key is ""
    assert refs["#mishap"]["rows"][1]["nested"] == [{"roll": "1d2", "label": "a few"}]
    # The other page's table cannot be read here, and says so at the row's line.
    assert [r.getMessage() for r in caplog.records] == [
        "rollbook: line 9: roll-table: this row rolls the table 'magic.md#backlash' of another "
        "page, which a host that names no page cannot read: build with the MkDocs plugin or "
        "`rollbook build`, or check with `rollbook check`."
    ]


def test_roll_dice_in_results_turns_plain_notation_into_rolls() -> None:
    html, problems = convert(
        """\
        ```roll-list
        roll_dice_in_results: true
        results:
          - "+1d3 health points, 2d6 x 10 feet"
          - "not `1d4`, not [d8](x.md), not d20s or 3d6x"
        ```
        """
    )
    assert problems == []
    rows = payload(html, "roll-list")["rows"]
    assert rows[0]["nested"] == [{"roll": "1d3"}, {"roll": "2d6"}]
    assert "nested" not in rows[1]
    _, problems = convert("```roll-list\nroll_dice_in_results: yes please\nresults: [a]\n```\n")
    assert [(p.line, p.message) for p in problems] == [
        (2, "roll-list: roll_dice_in_results must be true or false, not 'yes please'.")
    ]


def test_a_table_reference_in_prose_is_an_error() -> None:
    assert messages("# A\n\nRoll ![roll:#camp]() now.\n") == [
        "page.md:3: the inline roll '#camp' names a table; a table reference rolls only "
        "inside a roll-table or roll-list cell."
    ]


BAD = """\
---
title: Bad
---
# Bad

```roll-table
id: a
roll: 1d3
results:
  1: "![roll:#b]()"
  2: "![roll:#nowhere]()"
  3: "![roll:gone.md#x]() and ![roll:good.md#deep0]()"
```

```roll-table
id: b
roll: 1d1
results:
  1: "![roll:#a]()"
```
"""


def deep_page() -> str:
    blocks = []
    for i in range(7):
        cell = f'"![roll:#deep{i + 1}]()"' if i < 6 else "end"
        blocks.append(f"```roll-list\nid: deep{i}\nresults:\n  - {cell}\n```\n")
    return "# Deep\n\n" + "\n".join(blocks)


@pytest.fixture()
def pages(tmp_path: Path) -> Path:
    (tmp_path / "bad.md").write_text(BAD, encoding="utf-8")
    (tmp_path / "good.md").write_text(deep_page(), encoding="utf-8")
    return tmp_path


def test_check_reports_missing_tables_cycles_and_depth_at_their_lines(pages, capsys) -> None:
    code = main(["check", str(pages / "bad.md")])
    out = capsys.readouterr().out.splitlines()
    bad, good = pages / "bad.md", pages / "good.md"
    assert code == 1
    assert out == [
        f"{bad}:10: roll-table: this row rolls the table '#b', which leads back to this "
        "table: tables may not roll each other in a circle.",
        f"{bad}:11: roll-table: this row rolls the table '#nowhere', but that page has no "
        "table 'nowhere' (its tables: a, b).",
        f"{bad}:12: roll-table: this row rolls the table 'gone.md#x', but {pages}/gone.md "
        "is not a page of this site.",
        f"{bad}:12: roll-table: this row rolls the table 'good.md#deep0', which rolls tables "
        "more than 5 levels deep in all.",
        f"{bad}:19: roll-table: this row rolls the table '#a', which leads back to this "
        "table: tables may not roll each other in a circle.",
    ]
    # The referenced page's own chain is reported when that page is checked.
    assert main(["check", str(good)]) == 1
    assert capsys.readouterr().out.splitlines() == [
        f"{good}:6: roll-list: this row rolls the table '#deep1', which rolls tables more "
        "than 5 levels deep in all."
    ]
