"""The build-checks page lists every limit of `rollbook.engine.limits` with its current value."""

from __future__ import annotations

import re
from pathlib import Path

from rollbook.engine.dice import LIMITS, Limits
from rollbook.engine.limits import DICE_FIELDS, TABLE, value

PAGE = Path(__file__).resolve().parents[2] / "docs" / "authoring" / "checks.md"


def documented() -> dict[str, str]:
    rows = re.findall(r"^\| `([a-z_]+)` \| ([0-9,]+) \|", PAGE.read_text(encoding="utf-8"), re.M)
    return dict(rows)


def test_every_limit_is_documented_with_its_value() -> None:
    rows = documented()
    for limit in TABLE:
        assert rows.get(limit.name) == f"{limit.value:,}", limit.name
    assert set(rows) == {limit.name for limit in TABLE}  # no row for a limit that is gone


def test_the_table_holds_every_dice_limit_the_engine_uses() -> None:
    assert set(DICE_FIELDS.values()) == set(Limits.__dataclass_fields__)
    for name, field in DICE_FIELDS.items():
        assert value(name) == getattr(LIMITS, field)


def test_names_are_unique() -> None:
    assert len({limit.name for limit in TABLE}) == len(TABLE)
