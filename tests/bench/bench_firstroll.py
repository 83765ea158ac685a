"""First roll on a reader's link, from a host that compresses nothing, vs plain Pyodide.

A cold visit (fresh profile) clicks the page's first roll as soon as the engine is ready;
the figure is navigation -> that roll painted (ready + the click's latency). The server
sends every file as it is (no gzip, no brotli: ``Link(compress=False)``), over one shared
line with a round trip before each response. Rows per link: rollbook's page of the small
real site against the lab's plain-Pyodide page in the same run (``plain.html``: the
distribution's files as they are, ``loadPyodide``, the engine wheel), and the bytes the
server sent before the first roll. ``BENCH_LINKS=20/60,5/100`` picks the links
(``0/0``: 127.0.0.1, no emulation).

``BENCH_CROSSOVER=0,50,35,20`` adds, per rate (Mbit/s, 40 ms round trip; 0: 127.0.0.1 as it
is), the first roll of
the same site with the snapshot forced and with a plain start forced (two copies of the
site whose manifests decide it), to place the rate where the snapshot starts to pay.
"""

from __future__ import annotations

import json
import os
import shutil
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


def _forced(site: Path, work: Path) -> dict[str, Path]:
    """Copies of ``site`` that always (no ``snapshot_size``) or never (no ``snapshot``)
    restore the snapshot."""
    out = {}
    for kind, drop in (("snapshot", "snapshot_size"), ("plain", "snapshot")):
        copy = work / kind
        shutil.copytree(site, copy)
        manifest = copy / "assets" / "rollbook" / "manifest.json"
        data = json.loads(manifest.read_text(encoding="utf-8"))
        data.pop(drop, None)
        manifest.write_text(json.dumps(data), encoding="utf-8")
        out[kind] = copy
    return out


def _crossover(site: Path, rates: list[float]) -> list[Row]:
    rows = []
    with tempfile.TemporaryDirectory(prefix="rb-bench-forced-") as work:
        forced = _forced(site, Path(work))
        for mbit in rates:
            link = Link(mbit, 40, compress=False) if mbit else None  # 0: 127.0.0.1 as it is
            times = {}
            for kind, folder in forced.items():
                with serve(folder, link=link) as served:
                    times[kind], _, _, error = _first_rolls(served, PAGE)
                if error:
                    return [*rows, Row(f"2b. crossover, {link or '127.0.0.1'}", na=error)]
            snap, plain = statistics.median(times["snapshot"]), statistics.median(times["plain"])
            rows.append(
                Row(
                    f"2b. crossover, {link or '127.0.0.1'}: snapshot forced",
                    value=snap,
                    baseline=plain,
                    unit="s",
                    baseline_label="plain start forced, same site",
                    note=f"snapshot {_spread(times['snapshot'])}; plain {_spread(times['plain'])}",
                )
            )
    return rows


def main() -> list[Row]:
    """Two rows per link: first roll against the plain page, and the bytes before it."""
    reason = have_chromium() or have_node()
    if reason:
        return [Row("2b. first roll", na=reason)]
    real = build_real_site()
    lab = build_lab(wheel_src=real.engine_wheel())
    chosen = [n for n in os.environ.get("BENCH_LINKS", ",".join(LINKS)).split(",") if n]
    rows: list[Row] = []
    crossover = os.environ.get("BENCH_CROSSOVER", "")
    if crossover:
        rows += _crossover(real.with_rollbook, [float(r) for r in crossover.split(",")])
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
                # The target holds where the snapshot does not pay: on a link fast enough
                # for it the worker spends its bytes to answer sooner (performance.md).
                target=f"<= {BYTES_TARGET / MB:g} MB" if link else "",
                ok=max(ours_sent) <= BYTES_TARGET if link else None,
                baseline_label="plain Pyodide page",
                note=f"as sent by a server that compresses nothing; rollbook runs:"
                f" {'/'.join(f'{b / MB:.2f}' for b in ours_sent)} ({'/'.join(paths)})",
            )
        )
    return rows


if __name__ == "__main__":
    for row in main():
        print(row)
