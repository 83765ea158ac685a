"""First roll on a reader's link and processor, from a host compressing nothing, vs plain Pyodide.

A cold visit (fresh profile) clicks the page's first roll as soon as the engine is ready;
the figure is navigation -> that roll painted (ready + the click's latency). The server
sends every file as it is (no gzip, no brotli: ``Link(compress=False)``), over one shared
line with a round trip before each response; the processor is slowed down as
``harness.slowed_cpu`` says (``BENCH_CPU_MODE``). Rows per profile: rollbook's page of the
small real site against the lab's plain-Pyodide page, visited in turn in the same run
(``plain.html``: the distribution's files as they are, ``loadPyodide``, the engine wheel);
where rollbook's time went (the worker's step marks); and the bytes the server sent before
the first roll. ``BENCH_LINKS=20/60x4,5/100`` picks the profiles (``MBIT/RTT``, ``x4``: the
processor 4 times slower; ``0/0``: 127.0.0.1, no link emulation).

``BENCH_CROSSOVER=0,50,20x4`` adds, per point (Mbit/s with a 40 ms round trip, 0 for
127.0.0.1; ``xN``: the processor N times slower), the first roll of the same site with the
snapshot forced and with a plain start forced (two copies of the site whose manifests
decide it), to place the rate where the snapshot starts to pay.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from tests.bench.browse import Visit, visit
from tests.bench.harness import CPU_MODE, Link, Row, ServedSite, have_chromium, have_node, serve
from tests.bench.lab_site import build_lab
from tests.bench.real_site import PAGE, build_real_site

__all__ = ["main"]

REPS = int(os.environ.get("BENCH_REPS", "3"))
MB = 1_000_000
#: Profiles "MBIT/RTT" or "MBIT/RTTxCPU": Mbit/s, round trip ms, processor slowdown (0/0 is
#: 127.0.0.1 as it is), each with its target ratio against the plain page. The phone
#: profiles (x4) first; the others are the bench's earlier rows, which must not get worse.
PROFILES = {
    "20/60x4": 0.35,
    "0/0x4": 0.55,
    "5/100x4": 0.5,
    "20/60": 0.5,
    "5/100": 0.5,
    "0/0": 0.42,
}
BYTES_TARGET = 7 * MB


@dataclass(frozen=True)
class Profile:
    """A reader's link and processor (see ``PROFILES``)."""

    mbit: float
    rtt_ms: float
    cpu: float

    @classmethod
    def parse(cls, name: str) -> Profile:
        link, _, cpu = name.partition("x")
        mbit, _, rtt = link.partition("/")
        return cls(float(mbit), float(rtt or 0), float(cpu or 1))

    def link(self) -> Link | None:
        return Link(self.mbit, self.rtt_ms, compress=False) if self.mbit else None

    def __str__(self) -> str:
        link = self.link()
        where = str(link) if link else "127.0.0.1"
        return where + (f", CPU {self.cpu:g}x slower ({CPU_MODE})" if self.cpu > 1 else "")


@dataclass
class Runs:
    """The visits of one page under one profile."""

    times: list[float] = field(default_factory=list)  # s to the first roll painted
    sent: list[int] = field(default_factory=list)  # bytes sent before it
    paths: list[str] = field(default_factory=list)  # "snapshot" or "plain"
    steps: list[dict[str, float]] = field(default_factory=list)  # ms since navigation
    error: str = ""


def _one_roll(site: ServedSite, path: str, cpu: float, runs: Runs) -> None:
    """One cold visit that clicks the first roll as soon as the engine is ready."""
    with tempfile.TemporaryDirectory(prefix="rb-bench-profile-") as profile:
        seen = visit(site, path, Path(profile), clicks=1, cpu=cpu)
    if seen.error or seen.ready is None or not seen.clicks:
        runs.error = seen.error or "no roll"
        return
    runs.times.append((seen.ready + seen.clicks[0]) / 1000)
    log = site.log[seen.log_start : seen.log_first_roll]
    runs.sent.append(sum(size for _, status, size in log if status == 200))
    snapshot = any("/snapshot-" in p for p, status, _ in log if status == 200)
    runs.paths.append("snapshot" if snapshot else "plain")
    if seen.worker_started is not None:
        runs.steps.append(_steps(seen))


def _steps(seen: Visit) -> dict[str, float]:
    """Where the first roll's time went (ms): see ``_BREAKDOWN``."""
    at = seen.worker_started or 0.0
    marks = seen.worker_marks
    wasm_in = marks.get("wasm-in", marks.get("wasm", 0))
    python = max(marks.get("wasm", 0), marks.get("runtime", 0), marks.get("snapshot", 0))
    return {
        "page": at,
        "download": wasm_in,
        "compile": max(0.0, marks.get("wasm", 0) - wasm_in),
        "start": max(0.0, marks.get("loaded", 0) - python),
        "import": marks.get("engine", 0) - marks.get("wheels", 0),
        "roll": seen.clicks[0] if seen.clicks else 0.0,
    }


#: The breakdown's parts: page -> worker created; the WebAssembly's last byte in (since the
#: worker started); its compile after that byte; Python's start (or restore) after the
#: WebAssembly, runtime and snapshot were in; the imports before ready; click -> painted.
_BREAKDOWN = ("page", "download", "compile", "start", "import", "roll")


def _first_rolls(sites: dict[str, tuple[ServedSite, str]], cpu: float) -> dict[str, Runs]:
    """``REPS`` cold visits of each page, interleaved (so both see the same load)."""
    runs = {name: Runs() for name in sites}
    for _ in range(REPS):
        for name, (site, path) in sites.items():
            if not runs[name].error:
                _one_roll(site, path, cpu, runs[name])
    return runs


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


def _crossover(site: Path, points: list[str]) -> list[Row]:
    """First roll with the snapshot forced against a plain start forced, per point
    ("RATE" or "RATExCPU": Mbit/s with a 40 ms round trip, 0 for 127.0.0.1)."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="rb-bench-forced-") as work:
        forced = _forced(site, Path(work))
        for point in points:
            rate, _, cpu = point.partition("x")
            profile = Profile(float(rate), 40 if float(rate) else 0, float(cpu or 1))
            with (
                serve(forced["snapshot"], link=profile.link()) as snap_site,
                serve(forced["plain"], link=profile.link()) as plain_site,
            ):
                runs = _first_rolls({"snapshot": (snap_site, PAGE), "plain": (plain_site, PAGE)},
                                    profile.cpu)  # fmt: skip
            error = runs["snapshot"].error or runs["plain"].error
            if error:
                rows.append(Row(f"2b. crossover, {profile}", na=error))
                continue
            snap, plain = runs["snapshot"].times, runs["plain"].times
            rows.append(
                Row(
                    f"2b. crossover, {profile}: snapshot forced",
                    value=statistics.median(snap),
                    baseline=statistics.median(plain),
                    unit="s",
                    baseline_label="plain start forced, same site",
                    note=f"snapshot {_spread(snap)}; plain {_spread(plain)}",
                )
            )
    return rows


def _breakdown(steps: list[dict[str, float]]) -> str:
    if not steps:
        return "no step marks"
    return ", ".join(f"{n} {statistics.median(s[n] for s in steps) / 1000:.2f}" for n in _BREAKDOWN)


def main() -> list[Row]:
    """Three rows per profile: first roll against the plain page, where rollbook's time
    went, and the bytes before the first roll."""
    reason = have_chromium() or have_node()
    if reason:
        return [Row("2b. first roll", na=reason)]
    real = build_real_site()
    lab = build_lab(wheel_src=real.engine_wheel())
    chosen = [n for n in os.environ.get("BENCH_LINKS", ",".join(PROFILES)).split(",") if n]
    rows: list[Row] = []
    crossover = os.environ.get("BENCH_CROSSOVER", "")
    if crossover:
        rows += _crossover(real.with_rollbook, crossover.split(","))
    for name in chosen:
        profile = Profile.parse(name)
        target = PROFILES.get(name)
        with (
            serve(lab, link=profile.link()) as lab_site,
            serve(real.with_rollbook, link=profile.link()) as site,
        ):
            runs = _first_rolls({"plain": (lab_site, "plain.html"), "ours": (site, PAGE)},
                                profile.cpu)  # fmt: skip
        ours, plain = runs["ours"], runs["plain"]
        metric = f"2b. first roll, cold, {profile}"
        if ours.error or plain.error:
            rows.append(Row(metric, na=ours.error or f"plain page: {plain.error}"))
            continue
        value, base = statistics.median(ours.times), statistics.median(plain.times)
        rows.append(
            Row(
                metric,
                value=value,
                baseline=base,
                unit="s",
                target=f"<= {target}x" if target else "",
                ok=value / base <= target if target else None,
                baseline_label="plain Pyodide page, same server, link and processor",
                note=f"rollbook {_spread(ours.times)} (started: {'/'.join(ours.paths)}); plain"
                f" {_spread(plain.times)} (interleaved); the click comes as soon as the engine"
                " is ready",
            )
        )
        rows.append(
            Row(
                f"2b. first roll, where it went, {profile}",
                value=value,
                unit="s",
                note="medians, s: " + _breakdown(ours.steps) + " (page: navigation -> worker"
                " created; download: worker -> WebAssembly's last byte; compile: after it;"
                " start: Python's start or restore; import: the engine before ready; roll:"
                " click -> painted)",
            )
        )
        plain_sent = [b for b, how in zip(ours.sent, ours.paths, strict=True) if how == "plain"]
        rows.append(
            Row(
                f"4b. bytes before first roll, {profile}",
                value=statistics.median(ours.sent) / MB,
                baseline=statistics.median(plain.sent) / MB,
                unit="MB",
                # The target holds for the plain start: where the snapshot pays (a link
                # fast enough, a processor slow or busy enough) the worker spends its bytes
                # to answer sooner (performance.md).
                target=f"<= {BYTES_TARGET / MB:g} MB when started plain" if plain_sent else "",
                ok=max(plain_sent) <= BYTES_TARGET if plain_sent else None,
                baseline_label="plain Pyodide page",
                note=f"as sent by a server that compresses nothing; rollbook runs:"
                f" {'/'.join(f'{b / MB:.2f}' for b in ours.sent)} ({'/'.join(ours.paths)})",
            )
        )
    return rows


if __name__ == "__main__":
    for row in main():
        print(row)
