"""Benchmark (not a test): 10,000 four-against-four fights per system, in Pyodide and CPython.

Run: ``.venv/bin/python -m tests.bench.bench_combat [RUNS]``.

CPython: `rollbook.engine.systems.montecarlo.simulate` in this process. Pyodide: the demo site is
built (``mkdocs build``), served on 127.0.0.1 and opened in Debian's Chromium; a module
worker loads Pyodide and the engine wheel exactly as the site's worker does (from the
site's manifest) and times the same `simulate` call inside the worker with
``time.perf_counter``, so page start-up and message passing are not counted. The same seed
gives the same Mersenne Twister stream in both, so the win counts must agree; the
benchmark says so. Target: <= 2 s per 10,000 fights in Pyodide.

Each figure is the best of ``REPEATS`` runs: the machine is shared, and the quickest run is
the one least slowed by other people's work (CPython's CPU time is given too).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rollbook.engine.systems.montecarlo import simulate
from tests.bench.harness import (
    CHROMIUM,
    CHROMIUM_ARGS,
    REPO,
    Row,
    add_plain_pyodide,
    have_chromium,
    serve,
)

TARGET_S = 2.0
REPEATS = 3


def _four(name: str, **fields: Any) -> list[dict[str, Any]]:
    return [{"name": f"{name} {n}", **fields} for n in range(1, 5)]


# One 4-vs-4 fight per system: ordinary stat blocks, close enough to last a few rounds.
FIGHTS: dict[str, dict[str, list[dict[str, Any]]]] = {
    "scars": {
        "Adventurers": _four(
            "Adventurer", kind="pc", health=8, attack=13, ac=3, damage="1d6", agility=11, cunning=10
        ),
        "Bandits": _four("Bandit", health=6, attack=12, ac=2, damage="1d6", hd=1),
    },
    "grit-flesh": {
        "Travellers": _four(
            "Traveller", kind="pc", grit=4, flesh=7, defense=12, violence=2, savvy=1, damage="1d8"
        ),
        "Ghouls": _four("Ghoul", grit=2, flesh=6, defense=11, violence=2, morale=14),
    },
    "stamina-wounds": {
        "Delvers": _four(
            "Delver", kind="pc", stamina=3, max_wounds=5, av=1, weapon="d8", slots=2, wil=2
        ),
        "Wolves": _four("Wolf", stamina=2, max_wounds=5, av=0, weapon="d6", target=11),
    },
    "dark-dungeons": {
        "Party": _four("Fighter", hp=14, ac=4, level=3, attack_bonus=2, damage="1d8"),
        "Orcs": _four("Orc", hp=9, ac=6, level=2, damage="1d8", morale=8),
    },
    "roll-under-atk": {
        "Party": _four("Hero", kind="pc", hp=8, atk=12, armor=2, weapon="medium", wis=11),
        "Goblins": _four("Goblin", hp=5, hd=1, atk=11, armor=1, weapon="light", morale=9),
    },
}

# The worker: the site's own loading steps (manifest -> Pyodide -> wheels), then Python.
WORKER_JS = r"""
self.onmessage = async ({ data }) => {
  try {
    const base = new URL(data.manifest);
    const manifest = await (await fetch(base)).json();
    const dir = new URL(manifest.pyodide.replace(/\/?$/, "-plain/"), base);
    const { loadPyodide } = await import(new URL("pyodide.mjs", dir).href);
    const info = manifest.lock_info;
    const lock = info ? { lockFileContents: { info, packages: {} } } : {};
    const py = await loadPyodide({ indexURL: dir.href, packageBaseUrl: dir.href, ...lock,
                                   stdout: () => {}, stderr: () => {} });
    const site = py.runPython("import site; site.getsitepackages()[0]");
    for (const wheel of manifest.wheels) {
      const bytes = await (await fetch(new URL(wheel, base))).arrayBuffer();
      py.unpackArchive(bytes, "wheel", { extractDir: site });
    }
    py.globals.set("FIGHTS_JSON", JSON.stringify(data.fights));
    py.globals.set("RUNS", data.runs);
    py.globals.set("REPEATS", data.repeats);
    const out = py.runPython(`
import json, time
from rollbook.engine.systems.montecarlo import simulate
fights = json.loads(FIGHTS_JSON)
out = {}
for system_id, sides in fights.items():
    simulate(system_id, sides, 20, 0)  # imports the system's modules outside the timing
    best = None
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        report = simulate(system_id, sides, RUNS, 1)
        took = time.perf_counter() - t0
        best = took if best is None else min(best, took)
    out[system_id] = {"seconds": best, "wins": report["wins"],
                      "avg_rounds": report["avg_rounds"]}
json.dumps(out)
`);
    self.postMessage({ ok: true, out });
  } catch (error) {
    self.postMessage({ ok: false, error: String(error && error.stack || error) });
  }
};
"""

PAGE_JS = """
async ({ code, manifest, fights, runs, repeats }) => {
  const url = URL.createObjectURL(new Blob([code], { type: "text/javascript" }));
  const worker = new Worker(url, { type: "module" });
  const reply = await new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => resolve({ ok: false, error: event.message || "worker error" });
    worker.postMessage({ manifest, fights, runs, repeats });
  });
  worker.terminate();
  return reply;
}
"""


def cpython(runs: int) -> dict[str, dict[str, Any]]:
    """Time `simulate` for every system here; CPU time too (the machine is shared)."""
    out: dict[str, dict[str, Any]] = {}
    for system_id, sides in FIGHTS.items():
        simulate(system_id, sides, 20, 0)
        seconds = cpu = float("inf")
        for _ in range(REPEATS):
            start, used = time.perf_counter(), time.process_time()
            report = simulate(system_id, sides, runs, 1)
            seconds = min(seconds, time.perf_counter() - start)
            cpu = min(cpu, time.process_time() - used)
        out[system_id] = {
            "seconds": seconds,
            "cpu": cpu,
            "wins": report["wins"],
            "avg_rounds": report["avg_rounds"],
        }
    return out


def pyodide(runs: int) -> dict[str, dict[str, Any]]:
    """Build the demo site, serve it, and time the fights inside a Pyodide worker."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="rollbook-bench-combat-") as tmp:
        site = Path(tmp) / "site"
        done = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(site)], cwd=REPO,
            capture_output=True, text=True, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
            check=False,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"mkdocs build failed:\n{done.stderr}")
        add_plain_pyodide(site)  # this worker calls loadPyodide on Pyodide as distributed
        with serve(site) as served, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                page = browser.new_page()
                page.goto(served.url)
                reply = page.evaluate(
                    PAGE_JS,
                    {
                        "code": WORKER_JS,
                        "manifest": f"{served.url}assets/rollbook/manifest.json",
                        "fights": FIGHTS,
                        "runs": runs,
                        "repeats": REPEATS,
                    },
                )
            finally:
                browser.close()
    if not reply.get("ok"):
        raise RuntimeError(f"the Pyodide worker failed: {reply.get('error')}")
    result: dict[str, dict[str, Any]] = json.loads(reply["out"])
    return result


def main(runs: int = 10_000) -> list[Row]:
    """Measure both and return one row per system (Pyodide, with CPython as the baseline)."""
    here = cpython(runs)
    why = have_chromium()
    there = {} if why else pyodide(runs)
    rows = []
    for system_id in FIGHTS:
        base = here[system_id]
        if why:
            rows.append(
                Row(f"{runs:,} 4v4 fights, {system_id}", na=why, baseline=base["seconds"], unit="s")
            )
            continue
        got = there[system_id]
        same = got["wins"] == base["wins"]
        rows.append(
            Row(
                metric=f"{runs:,} 4v4 fights, {system_id}",
                value=got["seconds"],
                baseline=base["seconds"],
                unit="s",
                target=f"<= {TARGET_S:g} s",
                ok=got["seconds"] <= TARGET_S,
                baseline_label="CPython",
                note=(
                    f"CPython cpu {base['cpu']:.2f} s; {base['avg_rounds']:.2f} rounds avg; "
                    f"same wins as CPython: {'yes' if same else 'NO'}"
                ),
            )
        )
    return rows


def _print(rows: list[Row]) -> None:
    print(f"{'metric':36} {'Pyodide':>9} {'CPython':>9} {'ratio':>6}  target     ok   note")
    for r in rows:
        if r.na:
            print(f"{r.metric:36} n/a ({r.na})")
            continue
        ratio = f"{r.ratio:.2f}" if r.ratio is not None else ""
        print(
            f"{r.metric:36} {r.value:8.2f}s {r.baseline:8.2f}s {ratio:>6}  {r.target:9}  "
            f"{'yes' if r.ok else 'no':4} {r.note}"
        )


if __name__ == "__main__":
    _print(main(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000))
