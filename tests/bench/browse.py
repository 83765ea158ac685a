"""Browser visits for the benchmark rows: engine-ready time, clicks, long tasks, bytes.

A *visit* launches Chromium on a profile folder, opens one URL, waits until the engine is
ready and optionally clicks a roll button many times; a fresh folder makes a cold visit, the
same folder again a warm one (the browser is relaunched, so only the disk cache and the
compiled-code cache carry over, as for a reader coming back).

Two kinds of page are understood: rollbook pages (``data-rb-engine`` on ``<html>``, inline
buttons ``.rb-inline button.rb-roll``) and the lab pages (``window.lab``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.bench.harness import ServedSite, chromium_context, slowed_cpu

__all__ = ["Visit", "visit"]

# Runs before any page script: records when the engine became ready, every main-thread long
# task, and arms click -> painted timing for rollbook's inline buttons.
_PROBE = """
(() => {
  const rb = (window.__rb = { readyAt: null, error: false, longTasks: [] });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) rb.longTasks.push([e.startTime, e.duration]);
  }).observe({ type: "longtask", buffered: true });
  // Long animation frames name the scripts that ran in them: [start, duration, ms of ours].
  rb.longFrames = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration <= 50) continue;
      const ours = e.scripts
        .filter((s) => (s.sourceURL || "").includes("/assets/rollbook/"))
        .reduce((sum, s) => sum + s.duration, 0);
      rb.longFrames.push([e.startTime, e.duration, ours]);
    }
  }).observe({ type: "long-animation-frame", buffered: true });
  const check = () => {
    const state = document.documentElement && document.documentElement.dataset.rbEngine;
    if (state === "ready" && rb.readyAt === null) rb.readyAt = performance.now();
    if (state === "error") rb.error = true;
  };
  new MutationObserver(check).observe(document, {
    attributes: true, subtree: true, attributeFilter: ["data-rb-engine"],
  });
  // Painted = the frame after the one in which the button's result was written.
  rb.arm = (selector) => {
    const button = document.querySelector(selector);
    const output = button.parentElement.querySelector("output.rb-out");
    rb.pending = new Promise((resolve) => {
      let t0 = null;
      button.addEventListener("click", (e) => { t0 = e.timeStamp; }, { once: true, capture: true });
      const mo = new MutationObserver(() => {
        if (t0 === null) return;
        mo.disconnect();
        requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
      });
      mo.observe(output, { childList: true, characterData: true, subtree: true });
    });
  };
})();
"""
INLINE = ".rb-inline button.rb-roll"


@dataclass
class Visit:
    """What one visit measured (times in ms since navigation start, page clock).

    Attributes:
        ready: When the engine was ready (None if it never was).
        error: Why the engine did not become ready, if it did not.
        clicks: Click -> painted latencies, in order.
        long_tasks: (start, duration) of main-thread tasks over 50 ms, load and clicks.
        long_frames: (start, duration, ms of rollbook's scripts in it) of every animation
            frame over 50 ms (Long Animation Frames API: it names the scripts that ran).
        log_start: Index into the server log where this visit began.
        log_first_roll: Index into the server log when the first roll was painted.
        worker_ms: Worker start -> ready as the page saw it (``rollbook.readyMs``).
        worker_started: When the page created the worker (``rollbook.startedAt``).
        worker_marks: The worker's own ms from its start to each step of its start-up.
    """

    ready: float | None = None
    error: str = ""
    clicks: list[float] = field(default_factory=list)
    long_tasks: list[tuple[float, float]] = field(default_factory=list)
    long_frames: list[tuple[float, float, float]] = field(default_factory=list)
    log_start: int = 0
    log_first_roll: int = 0
    worker_ms: float | None = None
    worker_started: float | None = None
    worker_marks: dict[str, float] = field(default_factory=dict)


def _collect_long(page, result: Visit) -> None:  # type: ignore[no-untyped-def]
    result.long_tasks = [tuple(t) for t in page.evaluate("__rb.longTasks")]
    result.long_frames = [tuple(f) for f in page.evaluate("__rb.longFrames")]


def visit(
    site: ServedSite,
    path: str,
    profile: Path,
    *,
    clicks: int = 0,
    engine: bool = True,
    cpu: float = 1.0,
) -> Visit:
    """One visit to ``site.url + path`` on ``profile``; see the module docstring.

    With ``engine=False`` (a page without rollbook) it only loads the page, waits a second
    and collects the long tasks. ``cpu`` > 1 slows the processor down that many times
    (``harness.slowed_cpu``).
    """
    with chromium_context(profile) as context:
        page = context.new_page()  # type: ignore[attr-defined]
        with slowed_cpu(page, profile, cpu):
            return _visit(site, path, page, clicks=clicks, engine=engine)


def _visit(site: ServedSite, path: str, page, *, clicks: int, engine: bool) -> Visit:  # type: ignore[no-untyped-def]
    result = Visit(log_start=len(site.log))
    lab = path.endswith(".html")
    page.add_init_script(_PROBE)
    page.goto(site.url + path, wait_until="load")
    if not engine:
        time.sleep(1.0)
        _collect_long(page, result)
        return result
    ready_js = (
        "window.lab && (window.lab.ready || window.lab.failed)"
        if lab
        else "window.__rb.readyAt !== null || window.__rb.error"
    )
    try:
        page.wait_for_function(ready_js, timeout=60_000, polling=20)
    except Exception:  # Playwright's TimeoutError: reported, not raised
        result.error = "the engine was not ready within 60 s"
        return result
    if lab:
        state = page.evaluate("({ready: lab.ready, failed: lab.failed})")
        result.ready, result.error = state["ready"], state["failed"] or ""
    else:
        state = page.evaluate(
            "({ready: __rb.readyAt, error: __rb.error,"
            " worker: window.rollbook ? window.rollbook.readyMs : null,"
            " started: window.rollbook ? window.rollbook.startedAt : null,"
            " marks: window.rollbook ? window.rollbook.readyMarks : null})"
        )
        result.ready, result.worker_ms = state["ready"], state["worker"]
        result.worker_started, result.worker_marks = state["started"], state["marks"] or {}
        result.error = "the engine reported an error" if state["error"] else ""
    if result.error:
        return result
    for n in range(clicks):
        if lab:
            page.click("#roll")
            page.wait_for_function(f"lab.clicks.length > {n}", polling=5)
        else:
            page.evaluate(f"__rb.arm({INLINE!r})")
            page.click(INLINE)
            result.clicks.append(page.evaluate("__rb.pending"))
        if n == 0:
            result.log_first_roll = len(site.log)
    if lab:
        result.clicks = page.evaluate("lab.clicks")
    time.sleep(0.3)  # let late long-task entries arrive
    _collect_long(page, result)
    return result
