"""``python -m tests.bench [NAME...]`` (``make bench``): every benchmark, one table.

Runs ``tests/bench/bench_<NAME>.py`` for each NAME (default: all of them, ours first in row
order, then any other ``bench_*.py``). A module's ``main()`` returns ``Row``s, which go into
the table; a module whose ``main()`` returns something else prints its own report, which
appears before the table. A module that fails is a row saying so, never a crash.

Environment knobs: BENCH_PAGES (1000), BENCH_BUILD_REPEATS (3), BENCH_REPS (3 fresh
profiles per start-up figure), BENCH_CLICKS (60).
"""

from __future__ import annotations

import importlib
import os
import sys
import time
import traceback
from pathlib import Path

from tests.bench.harness import Row

ORDER = ("build", "plain", "startup", "page", "engine")


def _names(argv: list[str]) -> list[str]:
    found = sorted(p.stem.removeprefix("bench_") for p in Path(__file__).parent.glob("bench_*.py"))
    if argv:
        unknown = [name for name in argv if name not in found]
        if unknown:
            known = ", ".join(found)
            raise SystemExit(f"unknown benchmark(s) {', '.join(unknown)}; known: {known}")
        return argv
    return [n for n in ORDER if n in found] + [n for n in found if n not in ORDER]


def _fmt(value: float | None, unit: str) -> str:
    if value is None:
        return ""
    if abs(value) >= 100:
        text = f"{value:.0f}"
    elif abs(value) >= 10:
        text = f"{value:.1f}"
    else:
        text = f"{value:.2f}"
    return f"{text} {unit}".strip()


def _table(rows: list[Row]) -> str:
    head = ("figure", "value", "baseline", "ratio", "target", "met")
    lines = []
    for row in rows:
        if row.na:
            lines.append((row.metric, f"n/a ({row.na})", "", "", row.target, ""))
            continue
        ratio = f"{row.ratio:.2f}x" if row.ratio is not None else ""
        met = "" if row.ok is None else ("yes" if row.ok else "NO")
        lines.append(
            (row.metric, _fmt(row.value, row.unit), _fmt(row.baseline, row.unit), ratio,
             row.target, met)
        )  # fmt: skip
    widths = [
        min(60, max(len(head[i]), *(len(line[i]) for line in lines))) for i in range(len(head))
    ]
    out = [
        "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True)),
        "  ".join("-" * w for w in widths),
    ]
    for row, line in zip(rows, lines, strict=True):
        out.append("  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)).rstrip())
        detail = "; ".join(x for x in (row.baseline_label and f"baseline: {row.baseline_label}",
                                      row.note) if x)  # fmt: skip
        if detail and not row.na:
            out.append(f"    {detail}")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    """Run the benchmarks named in ``argv`` (all when empty) and print the table."""
    rows: list[Row] = []
    for name in _names(argv):
        started = time.perf_counter()
        print(f"bench: {name} ...", file=sys.stderr, flush=True)
        try:
            module = importlib.import_module(f"tests.bench.bench_{name}")
            result = module.main() if hasattr(module, "main") else None
        except Exception as error:  # one broken benchmark must not hide the others
            traceback.print_exc(file=sys.stderr)
            rows.append(Row(f"bench_{name}", na=f"failed: {type(error).__name__}: {error}"))
            continue
        if isinstance(result, list) and all(isinstance(r, Row) for r in result):
            rows.extend(result)
        print(f"bench: {name} took {time.perf_counter() - started:.0f} s", file=sys.stderr)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print()
    print(_table(rows))
    print(f"\n(load average at the end: {load:.1f} on {os.cpu_count()} CPUs; figures on a busy "
          "machine are slower, ratios are the fairer reading)")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
