"""Benchmark (not a test): 10,000 four-against-four fights per system, in CPython.

Run: ``.venv/bin/python -m tests.bench.bench_fights [RUNS] [SYSTEM...]``; prints wall and CPU
time. Uses the same 4-vs-4 fights as `tests.bench.bench_combat` (one per system) and
`rollbook.engine.systems.montecarlo.simulate` (quiet fights, one seeded generator), so the figure is
what ``rollbook fight FILE --runs N`` costs. CPU time is the figure to compare: the machine
is shared, and the wall clock also counts other people's work.
"""

from __future__ import annotations

import sys
import time

from rollbook.engine.systems.montecarlo import simulate
from tests.bench.bench_combat import FIGHTS


def main(runs: int = 10_000, systems: list[str] | None = None) -> None:
    for system_id, sides in FIGHTS.items():
        if systems and system_id not in systems:
            continue
        simulate(system_id, sides, 20, 0)  # imports the system's modules outside the timing
        start, cpu = time.perf_counter(), time.process_time()
        report = simulate(system_id, sides, runs, seed=1)
        took, used = time.perf_counter() - start, time.process_time() - cpu
        print(
            f"{system_id:15} {runs:,} fights: wall {took:6.2f} s = {runs / took:7,.0f}/s,"
            f" cpu {used:6.2f} s = {runs / used:7,.0f}/s  (avg {report['avg_rounds']:.2f} "
            f"rounds; wins {report['wins']})"
        )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000, sys.argv[2:])
