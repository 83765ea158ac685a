"""What the browser worker imports before ready, and what a request imports before it begins.

``rollbook.engine.startup`` names what a plain start imports before ready (the first roll's
code) and what a request needs imported before the page's runaway watchdog starts counting.
Each kind of request runs in a fresh interpreter here, as in a worker that has imported
nothing more: once ``prepare`` has imported what it names, answering imports nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from typing import Any

from tests.build.bridge_requests import requests

_FIRST_ROLL = """
    import json, sys
    from rollbook.engine import startup
    for name in startup.FIRST:
        __import__(name)
    from rollbook.engine import bridge
    reply = json.loads(bridge.handle_json(json.dumps({"op": "roll", "expr": "4d6kh3", "seed": 7})))
    seen = {"total": reply["total"], "missing": startup.missing(), "modules": sorted(sys.modules)}
    print(json.dumps(seen))
"""

# Each request in a child forked after FIRST is in: a fresh worker's state, cheaply.
_EACH_REQUEST = """
    import json, os, sys
    from rollbook.engine import startup
    for name in startup.FIRST:
        __import__(name)
    from rollbook.engine import bridge
    seen = []
    for text in json.loads(sys.stdin.read()):
        read, write = os.pipe()
        if os.fork() == 0:
            waited = startup.prepare(text)
            before = set(sys.modules)
            bridge.handle_json(text)
            during = sorted(set(sys.modules) - before)
            os.write(write, json.dumps({"waited": waited, "during": during}).encode())
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as pipe:
            seen.append(json.loads(pipe.read()))
        os.wait()
    print(json.dumps(seen))
"""


def _run(code: str, given: str = "") -> Any:
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        input=given,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_first_roll_needs_neither_tables_nor_systems_nor_icepool() -> None:
    seen = _run(_FIRST_ROLL)
    assert isinstance(seen["total"], int)
    modules = set(seen["modules"])
    for absent in ("icepool", "rollbook.engine.tables", "rollbook.engine.systems"):
        assert absent not in modules
        assert absent in seen["missing"]  # and the worker still has them to import
    # @dataclass compiles each class's methods at import: in Pyodide that was over half of
    # the first roll's imports. Its classes are @record (engine/record.py) instead.
    assert "dataclasses" not in modules


def test_every_kind_of_request_imports_nothing_while_it_runs() -> None:
    # One request per op and system: the first of its kind is the one that imports.
    kinds: dict[tuple[str, str], dict[str, Any]] = {}
    for request in requests():
        kinds.setdefault((str(request.get("op")), str(request.get("system"))), request)
    texts = [json.dumps(request) for request in kinds.values()]
    waited = {}
    for (op, system), seen in zip(kinds, _run(_EACH_REQUEST, json.dumps(texts)), strict=True):
        assert seen["during"] == [], f"{op} ({system}) imported while it ran"
        waited[op, system] = seen["waited"]
    assert waited["table", "None"] == ["rollbook.engine.tables"]
    assert "icepool" in waited["odds", "None"]
    assert "rollbook.engine.systems.encounter" in waited["fight", "scars"]
    assert waited["roll", "None"] == []


def test_the_background_imports_end_with_everything_in() -> None:
    seen = _run(
        """
        import json
        from rollbook.engine import startup
        steps = []
        while name := startup.step():
            steps.append(name)
        print(json.dumps({"steps": steps, "later": startup.later(), "missing": startup.missing()}))
        """
    )
    assert seen["missing"] == []
    assert seen["steps"][0] == "rollbook.engine.tables"  # most rules pages have tables
    assert set(seen["later"]) <= set(seen["steps"]) | {"rollbook.engine.dice.dist"}
