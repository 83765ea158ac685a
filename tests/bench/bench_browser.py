"""Browser runtime benchmark (not collected by pytest): run ``python -m tests.bench.bench_browser``.

Prints, for the real runtime (tests/browser/site built with the plugin) next to a
plain-Pyodide page (module worker + unpackArchive of the same wheels) served by the same
server in the same run:

- navigation -> engine ready (page time), cold (fresh profile) and warm (same profile);
- click -> result painted (median, p95 over ``BENCH_CLICKS`` clicks, in-page timing: from
  just before ``click()`` to the frame after the output changed).

The rollbook page starts its worker right after its first frame (as readers get it); the
baseline starts at once, so the comparison includes that scheduling.
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from tests.bench.harness import add_plain_pyodide
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, FIXTURE_CONFIG, mkdocs_build
from tests.browser.server import serve

RUNS = int(os.environ.get("BENCH_RUNS", "3"))
CLICKS = int(os.environ.get("BENCH_CLICKS", "60"))
BASELINE = Path(__file__).with_name("browser_baseline")
TIMEOUT_MS = 120_000
STARTS: list[float] = []  # page time at which rollbook created its worker

# Measured in the page: click just after the previous paint, wait for the output to change,
# then for the frame that shows it.
CLICK_LOOP = """
async ([buttonSel, outSel, n]) => {
  const button = document.querySelector(buttonSel);
  const out = document.querySelector(outSel);
  const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const times = [];
  for (let i = 0; i < n; i++) {
    await frame();
    const before = out.textContent + "|" + i;
    out.dataset.benchMark = before;
    const changed = new Promise((resolve) => {
      const obs = new MutationObserver(() => { obs.disconnect(); resolve(); });
      obs.observe(out, { childList: true, characterData: true, subtree: true });
    });
    const t0 = performance.now();
    button.click();
    await changed;
    await frame();
    times.push(performance.now() - t0);
  }
  return times;
}
"""


def _ready_at(page: object, kind: str) -> float:
    hook = "window.rollbook" if kind == "rollbook" else "window.baseline"
    page.wait_for_function(f"{hook} && {hook}.readyAt", timeout=TIMEOUT_MS)  # type: ignore[attr-defined]
    if kind == "rollbook":  # when the idle callback created the worker, for the report
        STARTS.append(float(page.evaluate("window.rollbook.readyAt - window.rollbook.readyMs")))  # type: ignore[attr-defined]
    return float(page.evaluate(f"{hook}.readyAt"))  # type: ignore[attr-defined]


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure(base: str) -> dict[str, dict[str, list[float]]]:
    from playwright.sync_api import sync_playwright

    pages = {"rollbook": base, "plain Pyodide": base + "baseline/index.html"}
    results: dict[str, dict[str, list[float]]] = {k: {"cold": [], "warm": []} for k in pages}
    clicks: dict[str, list[float]] = {}
    with sync_playwright() as p:
        for _ in range(RUNS):
            for name, url in pages.items():
                kind = "rollbook" if name == "rollbook" else "baseline"
                profile = Path(tempfile.mkdtemp(prefix="rb-bench-profile-"))
                try:
                    context = p.chromium.launch_persistent_context(
                        str(profile), executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
                    )
                    page = context.new_page()
                    page.goto(url)
                    results[name]["cold"].append(_ready_at(page, kind))
                    page.goto("about:blank")
                    page.goto(url)
                    results[name]["warm"].append(_ready_at(page, kind))
                    if name not in clicks:
                        if kind == "rollbook":
                            sel = (".rb-inline button.rb-roll", ".rb-inline output.rb-out")
                        else:
                            sel = ("#roll", "#out")
                        clicks[name] = page.evaluate(CLICK_LOOP, [sel[0], sel[1], CLICKS])
                    context.close()
                finally:
                    shutil.rmtree(profile, ignore_errors=True)
    for name, times in clicks.items():
        results[name]["click"] = times
    return results


def main() -> int:
    if not os.access(CHROMIUM, os.X_OK):
        print(f"{CHROMIUM} is missing; nothing measured.")
        return 1
    with tempfile.TemporaryDirectory(prefix="rb-bench-site-") as tmp:
        site = mkdocs_build(FIXTURE_CONFIG, Path(tmp) / "site")
        shutil.copytree(BASELINE, site / "baseline")
        add_plain_pyodide(site)  # the baseline page loads Pyodide as it is distributed
        with serve(site) as base:
            results = measure(base)
    ours, plain = results["rollbook"], results["plain Pyodide"]
    print(f"Browser runtime, {RUNS} runs each, same server, same run ({CLICKS} clicks)")
    print(f"{'measure':38} {'rollbook':>12} {'plain Pyodide':>14} {'ratio':>7}")
    for label, key in (("navigation -> engine ready, cold (ms)", "cold"),
                       ("navigation -> engine ready, warm (ms)", "warm")):  # fmt: skip
        a, b = statistics.median(ours[key]), statistics.median(plain[key])
        print(f"{label:38} {a:12.0f} {b:14.0f} {a / b:7.2f}")
    for label, fn in (("click -> painted, median (ms)", statistics.median),
                      ("click -> painted, p95 (ms)", _p95)):  # fmt: skip
        a, b = fn(ours["click"]), fn(plain["click"])
        print(f"{label:38} {a:12.1f} {b:14.1f} {a / b:7.2f}")
    print(f"(rollbook created its worker at a median {statistics.median(STARTS):.0f} ms page time:")
    print(" right after the first frame; the baseline creates it at once.)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
