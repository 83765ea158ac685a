"""Row 1: building 1,000 generated pages with rollbook vs the same pages without it.

Each page has 5 inline rolls and one ``roll-table``. The baseline builds the very same
pages with the same theme and plugins, minus the ``rollbook`` plugin and our Markdown
extensions (the roll markup then stays plain Markdown). Builds alternate between the two
configurations and the best of each is kept, so a busy machine hurts both alike.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.bench.harness import CACHE, REPO, Row

__all__ = ["PAGES", "compare", "generate_pages", "main", "write_config"]

PAGES = int(os.environ.get("BENCH_PAGES", "1000"))
REPEATS = int(os.environ.get("BENCH_BUILD_REPEATS", "3"))
TARGET = 1.10

_NOTATIONS = ("1d20", "2d6+1", "3d6", "2d6*10", "4d6kh3", "1d6-1", "d%", "1d3+1")


def page_text(n: int) -> str:
    """Markdown of generated page ``n``: 5 inline rolls and one 2d6 table."""
    rolls = [_NOTATIONS[(n + i) % len(_NOTATIONS)] for i in range(5)]
    return f"""# Encounter area {n}

Wandering monsters appear on ![roll:{rolls[0]}](. "a {rolls[0]} check") when the party
rests. Their number is ![roll:{rolls[1]}]() and they carry ![roll:{rolls[2]}](. "coins").

- Distance: ![roll:{rolls[3]}](. "{rolls[3]} feet")
- Morale bonus: ![roll:{rolls[4]}]()

## Reaction {n}

```roll-table
roll: 2d6
roll_name: 2d6
results:
  2--3: Hostile, attacks at once
  4--6: Unfriendly, may attack
  7--9: Unsure, wary
  10--11: Indifferent
  12: Friendly, helpful
```

Plain prose after the table, so the page is not only dice. Page {n} ends here.
"""


def generate_pages(
    docs: Path, count: int = PAGES, text: Callable[[int], str] | None = None
) -> None:
    """Write ``count`` generated pages (``text(n)``, default ``page_text``) and an index."""
    text = text or page_text
    shutil.rmtree(docs, ignore_errors=True)
    docs.mkdir(parents=True)
    (docs / "index.md").write_text("# Generated pages\n\nA benchmark site.\n", encoding="utf-8")
    for n in range(count):
        folder = docs / f"area-{n // 100:02d}"
        folder.mkdir(exist_ok=True)
        (folder / f"page-{n:04d}.md").write_text(text(n), encoding="utf-8")


def write_config(path: Path, docs: Path, *, rollbook: bool) -> None:
    """mkdocs.yml for the generated pages, with or without rollbook."""
    ours_plugin = (
        f"""
  - rollbook:
      pyodide_path: {REPO / "node_modules" / "pyodide"}"""
        if rollbook
        else ""
    )
    fences = (
        """
      custom_fences:
        - name: roll-table
          class: rollbook
          validator: !!python/name:rollbook.markup.roll_table.fence.validator
          format: !!python/name:rollbook.markup.roll_table.fence.formatter
        - name: roll-list
          class: rollbook
          validator: !!python/name:rollbook.markup.roll_list.fence.validator
          format: !!python/name:rollbook.markup.roll_list.fence.formatter"""
        if rollbook
        else " {}"
    )
    ours_ext = "\n  - rollbook" if rollbook else ""
    path.write_text(
        f"""site_name: bench
docs_dir: {docs}
theme:
  name: material
  font: false
plugins:
  - search{ours_plugin}
markdown_extensions:
  - toc:
      permalink: true
  - tables
  - attr_list
  - admonition
  - pymdownx.superfences:{fences}{ours_ext}
""",
        encoding="utf-8",
    )


def _build(config: Path, site: Path) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the build and everything it ran) of one build."""
    shutil.rmtree(site, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"mkdocs build failed: {tail}")
    return elapsed, cpu


def main() -> list[Row]:
    """Build the generated site with and without rollbook; one row with the ratio."""
    metric = f"1. build {PAGES} pages (5 rolls + 1 table each)"
    try:
        import rollbook.markup.roll_table.fence  # noqa: F401 - the plugin's fences must exist
    except ImportError as error:
        return [Row(metric, na=f"the Markdown extensions are not there yet ({error})")]
    work = CACHE / "build"
    generate_pages(work / "docs")
    return compare(work, metric, "1. build, CPU time of the same builds", TARGET)


def compare(work: Path, metric: str, cpu_metric: str, target: float) -> list[Row]:
    """Build ``work/docs`` with and without rollbook, alternating; wall and CPU rows."""
    docs = work / "docs"
    with_cfg, without_cfg = work / "with.yml", work / "without.yml"
    write_config(with_cfg, docs, rollbook=True)
    write_config(without_cfg, docs, rollbook=False)
    times: dict[bool, list[float]] = {True: [], False: []}
    cpus: dict[bool, list[float]] = {True: [], False: []}
    try:
        for _ in range(REPEATS):
            for ours in (False, True):
                config = with_cfg if ours else without_cfg
                wall, cpu = _build(config, work / ("site-with" if ours else "site-without"))
                times[ours].append(wall)
                cpus[ours].append(cpu)
    except RuntimeError as error:
        return [Row(metric, na=str(error))]
    return [
        _row(metric, times, "wall time", target),
        # CPU time counts only the builds' own work, not other jobs on a shared machine.
        _row(cpu_metric, cpus, "CPU seconds", target),
    ]


def _row(metric: str, runs: dict[bool, list[float]], what: str, target: float = TARGET) -> Row:
    value, baseline = min(runs[True]), min(runs[False])
    return Row(
        metric,
        value=value,
        baseline=baseline,
        unit="s",
        target=f"<= {target:.2f}x",
        ok=value / baseline <= target,
        baseline_label="same pages, no rollbook",
        note=f"{what}, best of {REPEATS}; with: {', '.join(f'{t:.1f}' for t in runs[True])}"
        f"; without: {', '.join(f'{t:.1f}' for t in runs[False])}",
    )


if __name__ == "__main__":
    for row in main():
        print(row)
