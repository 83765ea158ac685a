"""Rows 3, 4 and 5: click -> painted, bytes before the first roll, main-thread long tasks.

All on a generated page of the small real site (``real_site``):

3. click -> result painted over ``BENCH_CLICKS`` clicks of an inline roll (in-page timing:
   the click event's timestamp to the frame after the result was written), warm profile;
   baseline: the lab's plain-Pyodide page answering the same roll through its worker.
4. bytes the server sent from navigation until the first roll was painted, cold profile,
   raw and brotli (quality 11, per file); baseline: the plain-Pyodide page.
5. main-thread long tasks (> 50 ms) during a cold load and the clicks that rollbook causes:
   long animation frames that would stay under 50 ms without our scripts (the Long
   Animation Frames API names the scripts that ran in each); baseline: the long tasks of
   the same page built without rollbook, loaded the same way (the theme's own).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from tests.bench.browse import Visit, visit
from tests.bench.harness import Row, ServedSite, brotli_size, have_chromium, median, p95, serve
from tests.bench.lab_site import build_lab
from tests.bench.real_site import PAGE, build_real_site

__all__ = ["main"]

CLICKS = int(os.environ.get("BENCH_CLICKS", "60"))
MB = 1_000_000


def _file_for(root: Path, url_path: str) -> Path:
    path = root / url_path.lstrip("/")
    return path / "index.html" if url_path.endswith("/") else path


def _bytes(site: ServedSite, start: int, end: int) -> dict[str, tuple[int, int]]:
    """{url path: (raw bytes sent, brotli size of that file)} for log[start:end]."""
    sent = {}
    for path, status, size in site.log[start:end]:
        if status == 200 and path not in sent:
            file = _file_for(site.root, path)
            sent[path] = (size, brotli_size(file) if file.is_file() else size)
    return sent


def _kind(path: str) -> str:
    if "/snapshot-" in path:
        return "snapshot"
    if "/pyodide/" in path:
        return "pyodide"
    if "/assets/rollbook/wheels/icepool" in path:
        return "icepool"
    if "/assets/rollbook/" in path:
        return "ours"
    return "page+theme"


def _visit_pair(site: ServedSite, path: str, clicks: int) -> tuple:  # type: ignore[type-arg]
    with tempfile.TemporaryDirectory(prefix="rb-bench-profile-") as profile:
        cold = visit(site, path, Path(profile), clicks=1)
        warm = visit(site, path, Path(profile), clicks=clicks) if not cold.error else cold
    return cold, warm


def _caused_by_us(frames: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """Frames over 50 ms that would not have been long without rollbook's scripts."""
    return [f for f in frames if f[1] - f[2] <= 50]


def _listing(tasks: list[tuple[float, float]]) -> str:
    return ", ".join(f"{d:.0f} ms @{s:.0f}" for s, d in tasks) or "none"


def _long_task_row(cold: Visit, warm: Visit, without: Visit) -> Row:
    """Row 5: long tasks our scripts cause (by attribution), next to the page without us."""
    frames = cold.long_frames + warm.long_frames
    ours = _caused_by_us(frames)
    ran = [f for f in frames if f[2] > 0]
    return Row(
        "5. main-thread long tasks > 50 ms caused by rollbook",
        value=len(ours),
        baseline=len(without.long_tasks),
        unit="tasks",
        target="none added by rollbook",
        ok=not ours,
        baseline_label="long tasks of the same page without rollbook (the theme's own)",
        note="caused = a long animation frame that would be under 50 ms without our scripts"
        f" (Long Animation Frames attribution); our scripts ran in {len(ran)} long frame(s)"
        + "".join(f" [{d:.0f} ms @{s:.0f}, ours {o:.0f} ms]" for s, d, o in ran)
        + f"; all long tasks, cold load + 1 click: {_listing(cold.long_tasks)}"
        + f"; warm load + {CLICKS} clicks: {_listing(warm.long_tasks)}"
        + f"; without rollbook: {_listing(without.long_tasks)}",
    )


def main() -> list[Row]:
    """Rows 3, 4 and 5."""
    reason = have_chromium()
    try:
        real = build_real_site() if not reason else None
    except Exception as error:  # a missing part of the project: report, do not crash
        reason = f"the rollbook site could not be built ({error})"
    if reason or real is None:
        return [Row(m, na=reason) for m in ("3. click -> painted", "4. bytes", "5. long tasks")]
    lab = build_lab(wheel_src=real.engine_wheel())  # the lab serves Pyodide as distributed
    with serve(lab) as lab_site:
        lab_cold, lab_warm = _visit_pair(lab_site, "plain.html", CLICKS)
        lab_bytes = _bytes(lab_site, lab_cold.log_start, lab_cold.log_first_roll)
    with serve(real.with_rollbook) as site:
        cold, warm = _visit_pair(site, PAGE, CLICKS)
        ours_bytes = _bytes(site, cold.log_start, cold.log_first_roll)
    with serve(real.without_rollbook) as plain_site, tempfile.TemporaryDirectory() as profile:
        without = visit(plain_site, PAGE, Path(profile), engine=False)
    rows: list[Row] = []
    error = cold.error or warm.error or lab_cold.error or lab_warm.error
    if error or len(warm.clicks) < CLICKS:
        return [Row("3. click -> painted", na=error or "too few clicks answered")]

    rows.append(
        Row(
            f"3. click -> painted, p50 ({CLICKS} clicks)",
            value=median(warm.clicks),
            baseline=median(lab_warm.clicks),
            unit="ms",
            target="<= 16 ms",
            ok=median(warm.clicks) <= 16,
            baseline_label="plain Pyodide page, same roll",
        )
    )
    rows.append(
        Row(
            "3. click -> painted, p95",
            value=p95(warm.clicks),
            baseline=p95(lab_warm.clicks),
            unit="ms",
            baseline_label="plain Pyodide page, same roll",
            note=f"max {max(warm.clicks):.1f} ms",
        )
    )

    by_kind: dict[str, list[int]] = {}
    for path, (raw, br) in ours_bytes.items():
        totals = by_kind.setdefault(_kind(path), [0, 0])
        totals[0] += raw
        totals[1] += br
    raw_total = sum(raw for raw, _ in ours_bytes.values())
    br_total = sum(br for _, br in ours_bytes.values())
    lab_raw = sum(raw for raw, _ in lab_bytes.values())
    lab_br = sum(br for _, br in lab_bytes.values())
    parts = "; ".join(
        f"{kind} {raw / MB:.2f}/{br / MB:.2f}" for kind, (raw, br) in sorted(by_kind.items())
    )
    rows.append(
        Row(
            "4. bytes before first roll, brotli",
            value=br_total / MB,
            baseline=lab_br / MB,
            unit="MB",
            target="<= 6 MB",
            ok=br_total <= 6 * MB,
            baseline_label="plain Pyodide page",
            note=f"raw/brotli MB by kind: {parts}",
        )
    )
    rows.append(
        Row(
            "4. bytes before first roll, raw",
            value=raw_total / MB,
            baseline=lab_raw / MB,
            unit="MB",
            baseline_label="plain Pyodide page",
            note=f"{len(ours_bytes)} files",
        )
    )

    rows.append(_long_task_row(cold, warm, without))
    return rows


if __name__ == "__main__":
    for row in main():
        print(row)
