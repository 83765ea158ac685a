"""Row 2: navigation -> engine ready, cold and warm, vs a plain-Pyodide page; and the levers.

The rollbook page is a generated page of the small real site (``real_site``), as built by
the plugin with its defaults. The baseline is the lab's ``plain`` page: a module worker,
plain ``loadPyodide`` and unpackArchive of the same engine wheel, served by the same kind of
server. Each lever of ``lab_site`` is measured against that same baseline, so the table says
what each one buys on this machine. Medians over ``BENCH_REPS`` fresh profiles.
"""

from __future__ import annotations

import os
import statistics
import tempfile
from pathlib import Path

from tests.bench.browse import visit
from tests.bench.harness import Link, Row, have_chromium, have_node, serve
from tests.bench.lab_site import VARIANTS, build_lab
from tests.bench.real_site import PAGE, build_real_site

__all__ = ["cold_warm", "main"]

REPS = int(os.environ.get("BENCH_REPS", "3"))
COLD_TARGET_S, WARM_TARGET_S, WARM_RATIO = 0.8, 0.4, 0.35
#: A reader's link rather than 127.0.0.1, for one more cold row (the server sends as over it).
LINK = Link(50, 40)
_LEVER_NOTES = {
    "lock": "lockFileContents: no pyodide-lock.json fetch",
    "snapshot": "memory snapshot made at build time (+ lockFileContents)",
    "snapshot-preload": "snapshot + modulepreload/preload hints in the page",
}


WORKER_S: dict[str, list[float]] = {"cold": [], "warm": []}  # rollbook page only
# Per visit kind: page time of worker creation, and the worker's own step marks (ms).
STEPS: dict[str, list[dict[str, float]]] = {"cold": [], "warm": []}
STEP_NAMES = ("created", "manifest", "runtime", "wasm", "snapshot", "module", "loaded", "wheels")


def cold_warm(site, path: str, reps: int = REPS) -> tuple[list[float], list[float], str]:  # type: ignore[no-untyped-def]
    """Ready times in seconds of ``reps`` cold and warm visits; third item: an error or ""."""
    cold: list[float] = []
    warm: list[float] = []
    for _ in range(reps):
        with tempfile.TemporaryDirectory(prefix="rb-bench-profile-") as profile:
            for label, bucket in (("cold", cold), ("warm", warm)):
                seen = visit(site, path, Path(profile))
                if seen.error or seen.ready is None:
                    return cold, warm, seen.error or "never ready"
                bucket.append(seen.ready / 1000)
                if seen.worker_ms is not None:
                    WORKER_S[label].append(seen.worker_ms / 1000)
                    STEPS[label].append({"created": seen.worker_started or 0, **seen.worker_marks})
    return cold, warm, ""


def _steps(label: str) -> str:
    """Median ms of each start-up step: page -> worker created, then the worker's marks."""
    runs = STEPS[label]
    names = [name for name in STEP_NAMES if all(name in run for run in runs)]
    if not runs or not names:
        return "no step marks"
    return ", ".join(f"{n} {statistics.median(r[n] for r in runs):.0f}" for n in names)


def _cold_on_link(site, path: str) -> list[float]:  # type: ignore[no-untyped-def]
    """Cold ready times (s) of ``REPS`` fresh profiles; empty if a visit failed."""
    times = []
    for _ in range(REPS):
        with tempfile.TemporaryDirectory(prefix="rb-bench-profile-") as profile:
            seen = visit(site, path, Path(profile))
        if seen.error or seen.ready is None:
            return []
        times.append(seen.ready / 1000)
    return times


def _linked_row(lab: Path, real: Path) -> Row:
    """Row 2 once more, cold, as a reader on a 50 Mbit/s link would see it (no target)."""
    metric = f"2. ready, cold, {LINK}"
    with serve(lab, link=LINK) as lab_site:
        plain = _cold_on_link(lab_site, "plain.html")
    with serve(real, link=LINK) as real_site:
        ours = _cold_on_link(real_site, PAGE)
    if not plain or not ours:
        return Row(metric, na="a throttled visit never got the engine ready")
    return Row(
        metric,
        value=statistics.median(ours),
        baseline=statistics.median(plain),
        unit="s",
        baseline_label="plain Pyodide page, same link",
        note=f"the server sends as over one shared line, a round trip before each response,"
        " text and wasm at their brotli size, as hosts compress them;"
        f" rollbook {_spread(ours)}; plain {_spread(plain)}",
    )


def _spread(values: list[float]) -> str:
    return "/".join(f"{v:.2f}" for v in values)


def main() -> list[Row]:
    """Row 2 for the rollbook page, then one pair of rows per start-up lever."""
    reason = have_chromium() or have_node()
    if reason:
        return [Row("2. ready (navigation -> engine ready)", na=reason)]
    real = None
    try:
        real = build_real_site()
        lab = build_lab(wheel_src=real.engine_wheel())  # the lab serves Pyodide as distributed
        real_reason = ""
    except Exception as error:  # a missing part of the project: report, do not crash
        real_reason = f"the rollbook site could not be built ({error})"
        lab = build_lab()
    rows: list[Row] = []
    with serve(lab) as lab_site:
        timings = {variant: cold_warm(lab_site, f"{variant}.html") for variant in VARIANTS}
    plain_cold, plain_warm, plain_error = timings["plain"]
    if plain_error:
        return [Row("2. ready (navigation -> engine ready)", na=f"plain page: {plain_error}")]
    base_cold, base_warm = statistics.median(plain_cold), statistics.median(plain_warm)

    if real is None:
        rows.append(Row("2. ready, cold", na=real_reason))
    else:
        with serve(real.with_rollbook) as real_site:
            cold, warm, error = cold_warm(real_site, PAGE)
        if error:
            rows.append(Row("2. ready, cold", na=f"rollbook page: {error}"))
        else:
            value_cold, value_warm = statistics.median(cold), statistics.median(warm)
            snap = "snapshot" if "snapshot" in real.manifest else "no snapshot"
            snap += f", {real.note}" if real.note else ""
            rows.append(
                Row(
                    "2. ready, cold (nav -> engine ready)",
                    value=value_cold,
                    baseline=base_cold,
                    unit="s",
                    target=f"<= {COLD_TARGET_S} s",
                    ok=value_cold <= COLD_TARGET_S,
                    baseline_label="plain Pyodide page",
                    note=f"rollbook page ({snap}): {_spread(cold)}; of which worker start -> "
                    f"ready {_spread(WORKER_S['cold'])}; plain: {_spread(plain_cold)}; steps (ms;"
                    f" created: page time, the rest: since the worker started): {_steps('cold')}",
                )
            )
            rows.append(
                Row(
                    "2. ready, warm (same profile)",
                    value=value_warm,
                    baseline=base_warm,
                    unit="s",
                    target=f"<= {WARM_TARGET_S} s, <= {WARM_RATIO}x",
                    ok=value_warm <= WARM_TARGET_S and value_warm / base_warm <= WARM_RATIO,
                    baseline_label="plain Pyodide page",
                    note=f"rollbook page: {_spread(warm)}; of which worker start -> ready "
                    f"{_spread(WORKER_S['warm'])}; plain: {_spread(plain_warm)}; steps:"
                    f" {_steps('warm')}",
                )
            )
        rows.append(_linked_row(lab, real.with_rollbook))
    for variant in VARIANTS[1:]:
        cold, warm, error = timings[variant]
        metric = f"2. lever: {variant}"
        if error:
            rows.append(Row(metric, na=error))
            continue
        for label, values, base in (("cold", cold, base_cold), ("warm", warm, base_warm)):
            rows.append(
                Row(
                    f"{metric}, {label}",
                    value=statistics.median(values),
                    baseline=base,
                    unit="s",
                    baseline_label="plain Pyodide page",
                    note=f"{_LEVER_NOTES[variant]}; runs {_spread(values)}",
                )
            )
    return rows


if __name__ == "__main__":
    for row in main():
        print(row)
