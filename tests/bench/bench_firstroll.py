"""First roll on a reader's link, from a host that compresses nothing, vs plain Pyodide.

A cold visit (fresh profile) clicks the page's first roll as soon as the engine is ready;
the figure is navigation -> that roll painted (ready + the click's latency). The server
sends every file as it is (no gzip, no brotli: ``Link(compress=False)``), over one shared
line with a round trip before each response. Rows per link: rollbook's page of the small
real site against the lab's plain-Pyodide page in the same run (``plain.html``: the
distribution's files as they are, ``loadPyodide``, the engine wheel), and the bytes the
server sent before the first roll. ``BENCH_LINKS=20/60,5/100`` picks the links
(``0/0``: 127.0.0.1, no emulation).
"""

from __future__ import annotations

import os
import statistics
import tempfile
from pathlib import Path

from tests.bench.browse import visit
from tests.bench.harness import Link, Row, ServedSite, have_chromium, have_node, serve
from tests.bench.lab_site import build_lab
from tests.bench.real_site import PAGE, build_real_site

__all__ = ["main"]

REPS = int(os.environ.get("BENCH_REPS", "3"))
MB = 1_000_000
#: (Mbit/s, round trip ms, target ratio against the plain page); 0/0 is 127.0.0.1 as it is.
LINKS = {"20/60": (20, 60, 0.5), "5/100": (5, 100, 0.5), "0/0": (0, 0, 0.42)}
BYTES_TARGET = 7 * MB


def _first_rolls(site: ServedSite, path: str) -> tuple[list[float], list[int], list[str], str]:
    """Seconds to the first roll, bytes sent before it, and how each visit started."""
    times: list[float] = []
    sent: list[int] = []
    paths: list[str] = []
    for _ in range(REPS):
        with tempfile.TemporaryDirectory(prefix="rb-bench-profile-") as profile:
            seen = visit(site, path, Path(profile), clicks=1)
        if seen.error or seen.ready is None or not seen.clicks:
            return times, sent, paths, seen.error or "no roll"
        times.append((seen.ready + seen.clicks[0]) / 1000)
        log = site.log[seen.log_start : seen.log_first_roll]
        sent.append(sum(size for _, status, size in log if status == 200))
        snapshot = any("/snapshot-" in p for p, status, _ in log if status == 200)
        paths.append("snapshot" if snapshot else "plain")
    return times, sent, paths, ""


def _spread(values: list[float]) -> str:
    return "/".join(f"{v:.2f}" for v in values)


def main() -> list[Row]:
    """Two rows per link: first roll against the plain page, and the bytes before it."""
    reason = have_chromium() or have_node()
    if reason:
        return [Row("2b. first roll", na=reason)]
    real = build_real_site()
    lab = build_lab(wheel_src=real.engine_wheel())
    chosen = os.environ.get("BENCH_LINKS", ",".join(LINKS)).split(",")
    rows: list[Row] = []
    for name in chosen:
        mbit, rtt, target = LINKS[name]
        link = Link(mbit, rtt, compress=False) if mbit else None
        label = str(link) if link else "127.0.0.1"
        with serve(lab, link=link) as lab_site:
            plain, plain_sent, _, plain_error = _first_rolls(lab_site, "plain.html")
        with serve(real.with_rollbook, link=link) as site:
            ours, ours_sent, paths, error = _first_rolls(site, PAGE)
        metric = f"2b. first roll, cold, {label}"
        if error or plain_error:
            rows.append(Row(metric, na=error or f"plain page: {plain_error}"))
            continue
        value, base = statistics.median(ours), statistics.median(plain)
        rows.append(
            Row(
                metric,
                value=value,
                baseline=base,
                unit="s",
                target=f"<= {target}x",
                ok=value / base <= target,
                baseline_label="plain Pyodide page, same server and link",
                note=f"rollbook {_spread(ours)} (started: {'/'.join(paths)}); plain"
                f" {_spread(plain)}; the click comes as soon as the engine is ready",
            )
        )
        rows.append(
            Row(
                f"4b. bytes before first roll, {label}",
                value=statistics.median(ours_sent) / MB,
                baseline=statistics.median(plain_sent) / MB,
                unit="MB",
                target=f"<= {BYTES_TARGET / MB:g} MB",
                ok=max(ours_sent) <= BYTES_TARGET,
                baseline_label="plain Pyodide page",
                note=f"as sent by a server that compresses nothing; rollbook runs:"
                f" {'/'.join(f'{b / MB:.2f}' for b in ours_sent)}",
            )
        )
    return rows


if __name__ == "__main__":
    for row in main():
        print(row)
