"""The build-checks page lists every limit of `rollbook.engine.limits` with its current value."""

from __future__ import annotations

import re
from pathlib import Path

from rollbook.engine.limits import TABLE

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "authoring" / "checks.md"


def documented() -> dict[str, str]:
    rows = re.findall(r"^\| `([a-z_]+)` \| ([0-9,]+) \|", PAGE.read_text(encoding="utf-8"), re.M)
    return dict(rows)


def test_every_limit_is_documented_with_its_value() -> None:
    rows = documented()
    for limit in TABLE:
        assert rows.get(limit.name) == f"{limit.value:,}", limit.name
    assert set(rows) == {limit.name for limit in TABLE}  # no row for a limit that is gone


def test_every_limit_the_code_reads_is_a_row_of_the_table() -> None:
    # one home: no second limits module, and every limit read by name is in TABLE
    assert not (ROOT / "rollbook" / "engine" / "dice" / "limits.py").exists()
    names = {limit.name for limit in TABLE}
    read: set[str] = set()
    for path in (ROOT / "rollbook").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        read.update(re.findall(r"\b(?:value|limit)\(['\"]([a-z_]+)['\"]\)", text))
    assert {"dice_per_term", "explosions", "odds_outcomes", "yaml_nodes"} <= read
    assert read <= names, sorted(read - names)


def test_names_are_unique() -> None:
    assert len({limit.name for limit in TABLE}) == len(TABLE)
