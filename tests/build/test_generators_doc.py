"""docs/authoring/generators.md's table of what works where names the tests that keep it true."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "authoring" / "generators.md"


def _test_names() -> set[str]:
    names: set[str] = set()
    for path in (REPO / "tests").rglob("test_*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names |= {
            node.name
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")
        }
    return names


def test_every_test_the_table_names_exists() -> None:
    table = PAGE.read_text(encoding="utf-8").split("## What works where", 1)[1]
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line]
    assert len(rows) >= 8  # the header and a row per feature
    named = re.findall(r"`(test_\w+)`", table)
    assert len(named) >= 15
    missing = sorted(set(named) - _test_names())
    assert missing == []
