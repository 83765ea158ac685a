"""Offline reading: first roll on a repeat visit offline against a warm online visit; storage.

The demo site is built twice into ``.cache/bench/offline/`` (offline reading on, and off).
In one browser profile the home page is opened once online (the service worker installs and
the reader saves the site), then visited again and again, online and offline in turn, each
time clicking the first inline roll as soon as it listens; the figure is the page time at
which its total is written. The baseline is the same visit online in a profile of the site built
with ``offline: false`` (the browser's own HTTP cache, as before the worker). Storage: what
the worker's list says the engine and the whole site weigh, and what Chromium reports the
origin uses once the site is saved.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from tests.bench.harness import CACHE, REPO, Row
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.server import serve

REPS = int(os.environ.get("BENCH_REPS", "5"))
FIRST_ROLL = r"""
new MutationObserver((changes, observer) => {
  for (const change of changes) {
    const out = change.target.closest && change.target.closest(".rb-out");
    if (out && /^\d+$/.test(out.textContent) && window.__firstRoll === undefined) {
      window.__firstRoll = performance.now();
      observer.disconnect();
    }
  }
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


def _build(dest: Path, *, offline: bool) -> Path:
    config = dest.parent / f"mkdocs-{dest.name}.yml"
    text = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("docs_dir: docs", f"docs_dir: {REPO / 'docs'}")
    options = (
        f"  - rollbook:\n      offline: {str(offline).lower()}\n"
        f"      pyodide_path: {REPO / 'node_modules/pyodide'}\n"
        f"      snapshot_cache: {REPO / '.cache/rollbook/snapshots'}\n    #"
    )
    text = text.replace("  - rollbook              #", options)
    config.write_text(text, encoding="utf-8")
    shutil.rmtree(dest, ignore_errors=True)
    subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(dest)],
        cwd=REPO,
        check=True,
        capture_output=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    return dest


def _visit(context, url: str) -> float:  # type: ignore[no-untyped-def]
    page = context.new_page()
    page.add_init_script(FIRST_ROLL)
    page.goto(url, wait_until="commit")
    page.locator(".rb-inline[data-rb-mounted] button.rb-roll").first.click()  # once it listens
    page.wait_for_function("window.__firstRoll !== undefined", timeout=120_000)
    value = float(page.evaluate("window.__firstRoll"))
    page.close()
    return value / 1000


# The worker's file kinds (rollbook.offline.service_worker.FileKind) cached at the first visit.
AT_FIRST_VISIT = ("engine", "snapshot", "shell")


def _listed(site: Path) -> dict[str, int]:
    import json
    import re

    text = (site / "rollbook-sw.js").read_text(encoding="utf-8")
    match = re.search(r"^const BUILD = (\{.*\});$", text, re.M)
    assert match
    sizes: dict[str, int] = {}
    for entry in json.loads(match.group(1))["files"].values():
        sizes[entry["kind"]] = sizes.get(entry["kind"], 0) + entry["size"]
    return sizes


def main() -> list[Row]:
    from playwright.sync_api import sync_playwright

    root = CACHE / "offline"
    root.mkdir(parents=True, exist_ok=True)
    on = _build(root / "on", offline=True)
    off = _build(root / "off", offline=False)
    online: list[float] = []
    offline: list[float] = []
    plain: list[float] = []
    with sync_playwright() as p, serve(on) as base_on, serve(off) as base_off:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        with_sw = browser.new_context()
        first = with_sw.new_page()
        first.goto(base_on)
        first.wait_for_function(
            "document.documentElement.dataset.rbOffline === 'ready'", timeout=120_000
        )
        first.locator(".rb-history-toggle").click()
        first.locator("button.rb-offline-save").click()
        first.wait_for_function(
            "document.documentElement.dataset.rbOffline === 'saved'", timeout=300_000
        )
        usage = first.evaluate("navigator.storage.estimate().then((e) => e.usage)")
        first.close()
        without_sw = browser.new_context()
        _visit(without_sw, base_off)  # fills the HTTP cache
        for _ in range(REPS):
            with_sw.set_offline(False)
            online.append(_visit(with_sw, base_on))
            with_sw.set_offline(True)
            offline.append(_visit(with_sw, base_on))
            plain.append(_visit(without_sw, base_off))
        browser.close()
    sizes = _listed(on)
    mb = 1e6
    med = statistics.median
    return [
        Row("offline: first roll, repeat visit offline", med(offline), med(plain), "s",
            target="<= warm online", ok=med(offline) <= med(plain) * 1.1,
            baseline_label="warm online visit without the worker",
            note=f"warm online with the worker {med(online):.2f} s; medians of {REPS}"),
        Row("offline: cached at the first visit (engine, theme, search)",
            sum(sizes.get(k, 0) for k in AT_FIRST_VISIT) / mb, unit="MB"),
        Row("offline: saved site (engine, pages, search, theme)",
            sum(sizes.get(k, 0) for k in (*AT_FIRST_VISIT, "page", "other")) / mb, unit="MB",
            note=f"Chromium reports {usage / mb:.1f} MB used by the origin"),
    ]  # fmt: skip


if __name__ == "__main__":
    for row in main():
        print(row)
