"""Rows 6 and 7: exact odds in Pyodide, and rolls per second in CPython.

Row 6 runs the engine wheels in Pyodide under node (the same interpreter the browser runs)
and checks the exact distribution of ``20d6kh10`` and a 2d6 table's row probabilities
against CPython's, fraction for fraction; CPython's time is the baseline.

Row 7 rolls a pre-parsed ``4d6kh3`` for a fixed time; the baseline is the shortest honest
pure-Python equivalent (four ``randint`` calls, sort, sum of the top three).
"""

from __future__ import annotations

import json
import random
import subprocess
import tempfile
import time
from fractions import Fraction
from pathlib import Path

from tests.bench.harness import REPO, Row, have_node

__all__ = ["main", "odds_in_pyodide", "rolls_per_second"]

TABLE = {
    "roll": "2d6",
    "results": {"2--3": "a", "4--6": "b", "7": "c", "8--10": "d", "11--12": "e"},
}
_RUN_PY = Path(__file__).with_name("lab") / "run_py.mjs"
# Prints one JSON line: the odds of 20d6kh10 and the table's probabilities, and their times.
_PY_CODE = """
import json, time
t_import = time.perf_counter()
import icepool
from rollbook.engine.dice import odds
t0 = time.perf_counter()
d = odds("20d6kh10")
t1 = time.perf_counter()
from rollbook.engine.tables import Table
probs = Table.from_dict(json.loads(TABLE)).probabilities()
t2 = time.perf_counter()
print(json.dumps({
    "pmf": {str(k): f"{v.numerator}/{v.denominator}" for k, v in d.pmf.items()},
    "mean": f"{d.mean.numerator}/{d.mean.denominator}",
    "rows": [f"{p.numerator}/{p.denominator}" for p in probs],
    "odds_s": t1 - t0, "table_s": t2 - t1, "import_s": t0 - t_import,
}))
"""


def _cpython_odds() -> dict[str, object]:
    namespace: dict[str, object] = {"TABLE": json.dumps(TABLE)}
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(_PY_CODE, namespace)  # the very code Pyodide runs
    return json.loads(out.getvalue())


def odds_in_pyodide() -> dict[str, object]:
    """Run the odds code in Pyodide (node) with the site's wheels; its JSON result."""
    from rollbook.site_runtime.sources import engine_wheel, icepool_wheel

    with tempfile.TemporaryDirectory() as tmp:
        wheels = []
        for wheel in (engine_wheel(), icepool_wheel()):
            path = Path(tmp) / wheel.filename
            path.write_bytes(wheel.data)
            wheels.append(path)
        code = Path(tmp) / "odds.py"
        code.write_text(f"TABLE = {json.dumps(json.dumps(TABLE))}\n{_PY_CODE}", encoding="utf-8")
        command = ["node", str(_RUN_PY), "--pyodide", str(REPO / "node_modules" / "pyodide")]
        for path in wheels:
            command += ["--wheel", str(path)]
        done = subprocess.run(
            [*command, "--code", str(code)], capture_output=True, text=True, timeout=300
        )
    if done.returncode != 0:
        errors = [line for line in done.stderr.splitlines() if "Error" in line]
        raise RuntimeError((errors or [done.stderr.strip()[-200:]])[-1])
    return json.loads(done.stdout.strip().splitlines()[-1])


def rolls_per_second(seconds: float = 1.0) -> tuple[float, float]:
    """(engine rolls/s of pre-parsed 4d6kh3, hand-written pure-Python rolls/s)."""
    from rollbook.engine.dice import parse

    expr = parse("4d6kh3")

    def rate(step) -> float:  # type: ignore[no-untyped-def]
        rng = random.Random(1)
        count, started = 0, time.perf_counter()
        while (elapsed := time.perf_counter() - started) < seconds:
            for _ in range(500):
                step(rng)
            count += 500
        return count / elapsed

    def by_hand(rng: random.Random) -> int:
        dice = sorted([rng.randint(1, 6) for _ in range(4)])
        return sum(dice[1:])

    return rate(expr.roll), rate(by_hand)


def main() -> list[Row]:
    """Rows 6 (odds in Pyodide) and 7 (rolls/s)."""
    rows: list[Row] = []
    metric6 = "6. exact odds 20d6kh10 + 2d6 table rows, in Pyodide"
    reason = have_node()
    try:
        cpython = _cpython_odds()
    except Exception as error:  # the engine may not be complete yet
        reason = reason or f"the engine cannot compute them yet ({error})"
    if reason:
        rows.append(Row(metric6, na=reason))
    else:
        try:
            pyodide = odds_in_pyodide()
        except (RuntimeError, OSError, subprocess.TimeoutExpired, ValueError) as error:
            rows.append(Row(metric6, na=f"Pyodide run failed: {error}"))
        else:
            same = pyodide["pmf"] == cpython["pmf"] and pyodide["rows"] == cpython["rows"]
            mean = Fraction(str(pyodide["mean"]))
            rows.append(
                Row(
                    metric6,
                    value=float(pyodide["odds_s"]) + float(pyodide["table_s"]),  # type: ignore[arg-type]
                    baseline=float(cpython["odds_s"]) + float(cpython["table_s"]),  # type: ignore[arg-type]
                    unit="s",
                    target="exact, equal to CPython",
                    ok=same,
                    baseline_label="CPython",
                    note=f"20d6kh10 mean {float(mean):.4f} (exact {mean}); table rows "
                    f"{', '.join(pyodide['rows'])}; identical to CPython: {same}; "  # type: ignore[arg-type]
                    f"first import of icepool {float(pyodide['import_s']):.2f} s in Pyodide "  # type: ignore[arg-type]
                    f"vs {float(cpython['import_s']):.2f} s in CPython (not in the figures)",  # type: ignore[arg-type]
                )
            )
    metric7 = "7. rolls/s, CPython, pre-parsed 4d6kh3"
    try:
        engine_rate, hand_rate = rolls_per_second()
    except Exception as error:  # the engine may not be complete yet
        rows.append(Row(metric7, na=f"the engine cannot roll yet ({error})"))
    else:
        rows.append(
            Row(
                metric7,
                value=engine_rate / 1000,
                baseline=hand_rate / 1000,
                unit="k/s",
                target=">= 100 k/s",
                ok=engine_rate >= 100_000,
                baseline_label="hand-written randint/sort/sum",
                note="with the full result tree (every die kept for display)",
            )
        )
    return rows


if __name__ == "__main__":
    for row in main():
        print(row)
