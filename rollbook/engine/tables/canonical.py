"""Reading ``to_dict()`` output (the browser's payload) back into table fields.

The payload was made by `Table.to_dict`, so it is trusted to have the right shape; anything
else is reported as damaged data rather than as an author mistake.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rollbook.engine.tables.keys import count_parts, parse_key
from rollbook.engine.tables.nested import NestedPart
from rollbook.engine.tables.parts import Button, Prompt, Row, Tab
from rollbook.engine.tables.problems import TableError

__all__ = ["read_canonical"]


def read_canonical(data: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """Read ``to_dict()`` output back into ``(kind, fields)``.

    Raises:
        TableError: If the payload is not one ``to_dict()`` produced.
    """
    try:
        kind = data["kind"]
        if kind not in ("table", "list"):
            raise ValueError(kind)
        parts = count_parts(data["roll"])
        rows = []
        for i, row in enumerate(data["rows"]):
            key = None if row["key"] is None else parse_key(row["key"], parts)[0]
            nested = tuple(NestedPart.from_dict(p) for p in row.get("nested") or ())
            rows.append(Row(i, key, tuple(str(c) for c in row["cells"]), (), nested))
        button = data.get("button") or {}
        fields: dict[str, Any] = {
            "expr": str(data["roll"]),
            "rows": tuple(rows),
            "roll_name": str(data["roll_name"]),
            "headers": tuple(str(h) for h in data["headers"]),
            "result_text": data.get("result_text"),
            "prompts": tuple(
                Prompt(
                    p["name"],
                    p["label"],
                    p.get("help_text"),
                    p.get("type", "number"),
                    p.get("min"),
                    p.get("max"),
                )
                for p in data.get("prompts") or ()
            ),
            "prompt_title": data.get("prompt_title"),
            "id": data.get("id"),
            "css_class": data.get("class"),
            "button": Button(
                button.get("label", Button.label), button.get("placement", Button.placement)
            ),
            "preset": data.get("preset"),
            # A build that could not resolve the references leaves no mapping here.
            "refs": dict(refs) if isinstance(refs := data.get("refs"), Mapping) else {},
        }
        if kind == "table":
            fields["tabs"] = tuple(
                Tab(t["key"], t["name"], None if t.get("results") is None else tuple(t["results"]))
                for t in data.get("tabs") or ()
            )
        else:
            fields["column_count"] = data.get("column_count")
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise TableError(
            f"the table data is damaged (not made by Table.to_dict): {exc!r}"
        ) from None
    return kind, fields
