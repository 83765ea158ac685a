"""Benchmark (not a test): 10,000 four-against-four fights per system, in CPython.

Run: ``.venv/bin/python -m tests.bench.bench_fights [RUNS]``; prints wall and CPU time.
Uses the 4-vs-4 fight files in ``tests/engine/fights/`` and
`engine.systems.montecarlo.simulate` (quiet fights, one seeded generator), so the figure is
what ``rollbook fight FILE --runs N`` costs.
"""

from __future__ import annotations

import pathlib
import sys
import time

import yaml

from engine.systems.montecarlo import simulate

FIGHTS = pathlib.Path(__file__).resolve().parents[1] / "engine" / "fights"


def main(runs: int = 10_000) -> None:
    for path in sorted(FIGHTS.glob("*_4v4.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        start, cpu = time.perf_counter(), time.process_time()
        report = simulate(data["system"], data["sides"], runs, seed=1)
        took, used = time.perf_counter() - start, time.process_time() - cpu
        # CPU time too: on a shared machine the wall clock also counts other people's work
        print(f"{data['system']:15} {runs:,} fights: wall {took:6.2f} s = {runs / took:7,.0f}/s,"
              f" cpu {used:6.2f} s = {runs / used:7,.0f}/s  (avg {report['avg_rounds']:.2f} "
              f"rounds; wins {report['wins']})")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
