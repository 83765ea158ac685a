"""Benchmark (not a test): rolls per second of pre-parsed dice, and exact-odds time.

Run: ``.venv/bin/python -m tests.bench.bench_dice``. The baseline is a bare
``sum(rng.randint(1, 6) ...)`` measured in the same run, so numbers are comparable across
machines; the target is >= 100,000 rolls/s with the full result tree.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from rollbook.engine.dice import parse
from rollbook.engine.dice.exact import odds


def _rate(fn: Callable[[], object], seconds: float = 1.0) -> float:
    """Calls per second of ``fn`` over about ``seconds``."""
    count, batch = 0, 1000
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        for _ in range(batch):
            fn()
        count += batch
        elapsed = time.perf_counter() - start
    return count / elapsed


def main() -> None:
    rng = random.Random(1)
    randint = rng.randint
    for name, n in (("2d6", 2), ("4d6kh3", 4)):
        expr = parse(name)
        ours = _rate(lambda expr=expr: expr.roll(rng))
        base = _rate(lambda n=n: sum(randint(1, 6) for _ in range(n)))
        print(
            f"{name:8} {ours:>10,.0f} rolls/s (full result tree)   "
            f"baseline sum(randint) {base:>10,.0f}/s   ratio {ours / base:.2f}"
        )
    for text in ("20d6kh10", "4d6kh3", "10d10!", "100d6", "6d6u"):
        start = time.perf_counter()
        dist = odds(text)
        took = time.perf_counter() - start
        print(f"exact odds {text:9} {took * 1000:8.1f} ms  ({len(dist.pmf)} totals)")


if __name__ == "__main__":
    main()
