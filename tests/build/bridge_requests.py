"""One request of every kind the browser sends the bridge, for checks run inside Pyodide.

``requests()`` builds them on the CPython side (the fights come from the YAML fixtures of
tests/engine/fights, which Pyodide cannot read without yaml): every op, every procedure
of every system, fights and Monte Carlo of every fixture, and the error replies.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from rollbook.engine import systems
from rollbook.engine.tables import Table

FIGHTS = Path(__file__).resolve().parents[1] / "engine" / "fights"

_TABLE = {
    "roll": "1d6+{{ bonus }}",
    "prompts": [{"name": "bonus", "min": 0, "max": 3}],
    "results": {"1--4": "low", "5--7": "mid", ">=8": "high"},
}


def _params(procedure: Any) -> dict[str, Any]:
    """Each param at its default, a required one at its minimum (or 1)."""
    out: dict[str, Any] = {}
    for param in procedure.params:
        if param.default is not None:
            out[param.name] = param.default
        elif param.choices:
            out[param.name] = param.choices[0]
        elif param.kind is bool:
            out[param.name] = False
        else:
            out[param.name] = max(param.minimum or 0, 1) if param.kind is int else "1d6"
    return out


def requests() -> list[dict[str, Any]]:
    """Requests covering every bridge op (and a few errors); seeded, so replies are exact."""
    table = Table.from_dict(_TABLE).to_dict()
    out: list[dict[str, Any]] = [
        {"op": "roll", "expr": "4d6kh3", "seed": 7},
        {"op": "roll", "expr": "{4d6+2d8, 3d20}k1", "seed": 3},
        {"op": "roll", "expr": "2d6+", "seed": 1},
        {"op": "table", "table": table, "seed": 5, "prompts": {"bonus": 2}},
        {"op": "table_odds", "table": table, "prompts": {"bonus": 1}},
        {"op": "odds", "expr": "20d6kh10"},
        {"op": "odds", "expr": "3d6!"},
        {"op": "explode"},
    ]
    for system_id in systems.ids():
        system = systems.get(system_id)
        for name, procedure in system.procedures.items():
            params = _params(procedure)
            out.append(
                {"op": "rules", "system": system_id, "procedure": name, "params": params,
                 "seed": 11}
            )  # fmt: skip
    for path in sorted(FIGHTS.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        sides = [[name, blocks] for name, blocks in data["sides"].items()]
        out.append({"op": "fight", "system": data["system"], "sides": sides, "seed": 4})
        out.append({"op": "simulate", "system": data["system"], "sides": sides, "runs": 20,
                    "seed": 9})  # fmt: skip
    return out
