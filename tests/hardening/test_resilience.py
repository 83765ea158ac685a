"""The page survives a killed worker and a runaway, and never leaves the site."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from tests.browser.conftest import READY_TIMEOUT_MS
from tests.browser.test_robustness import SPIN_AFTER_BEGIN
from tests.hardening.browser_helpers import TRIPWIRE, ready

pytestmark = pytest.mark.browser

# Keeps a handle on every Worker the page creates, so a test can kill the engine's.
WORKER_SPY = """(() => {
  const Native = window.Worker;
  window.__rbWorkers = [];
  window.Worker = class extends Native {
    constructor(...args) { super(...args); window.__rbWorkers.push(this); }
  };
})();"""

NUMBER = re.compile(r"^-?\d+$")


def test_worker_killed_mid_roll_then_the_next_roll_works(page: Page, hard_site: str) -> None:
    page.add_init_script(WORKER_SPY)
    page.goto(hard_site)
    ready(page)
    reply = page.evaluate(
        """async () => {
          const t0 = performance.now();
          const pending = window.rollbook.request({op: "roll", expr: "2d6", seed: 1});
          window.__rbWorkers.at(-1).terminate();  // the engine dies with the roll in flight
          const reply = await pending;
          reply.ms = performance.now() - t0;
          return reply;
        }"""
    )
    # Killed before it began the roll: the page gives it BEGIN_MS (10 s) to begin, since
    # imports come first, then says so and starts a fresh worker.
    assert reply["kind"] == "Runaway" and "stopped answering" in reply["error"], reply
    assert reply["ms"] >= 10_000
    print(f"\nkilled worker: the roll was answered after {reply['ms']:.0f} ms")
    out = page.locator(".rb-inline .rb-out").first
    page.locator(".rb-inline button.rb-roll").first.click()
    expect(out).to_have_text(NUMBER, timeout=READY_TIMEOUT_MS)
    loot = page.locator(".rb-table[data-rb-anchor=loot]")
    loot.locator(".rb-bar button.rb-roll").click()
    expect(loot.locator(".rb-result")).to_contain_text("Loot", timeout=READY_TIMEOUT_MS)
    assert page.evaluate("window.rollbook.workerStarts") == 2
    assert page.evaluate(TRIPWIRE)


# The engine worker spins this long (ms) in plain JavaScript: far past the 1 s watchdog.
SPIN_MS = 8000


def test_runaway_is_cancelled_within_a_second_and_the_page_stays_responsive(
    page: Page, hard_site: str
) -> None:
    # No reader request is reliably slower than a second (the engine keeps getting faster
    # and refuses what would be), so the worker is kept busy from outside: a plain
    # JavaScript spin, set up through Playwright to start right after the worker tells the
    # page it has begun the next request (the watchdog counts from there: the imports a
    # request waits for come before). The margin (8 s against 1 s) does not depend on the
    # engine's or the machine's speed.
    page.add_init_script(WORKER_SPY)
    page.goto(hard_site)
    ready(page)
    engine = next(w for w in page.workers if w.url.endswith("/worker.js"))
    engine.evaluate(SPIN_AFTER_BEGIN, SPIN_MS)
    reply = page.evaluate(
        """async () => {
          let last = performance.now(), gap = 0;
          const timer = setInterval(() => {
            const now = performance.now();
            gap = Math.max(gap, now - last);
            last = now;
          }, 20);
          const t0 = performance.now();
          const reply = await window.rollbook.request({op: "roll", expr: "3d6", seed: 1});
          reply.ms = performance.now() - t0;
          clearInterval(timer);
          reply.gap = gap;
          return reply;
        }"""
    )
    print(f"\nrunaway: cancelled after {reply['ms']:.0f} ms; longest main-thread gap "
          f"{reply['gap']:.0f} ms")  # fmt: skip
    assert reply["kind"] == "Runaway", reply
    # The runtime's 1 s watchdog ended it, long before the spin would have ended on its own
    # (a timing of behaviour, not of speed: a loaded machine only delays timers a little).
    assert 1000 <= reply["ms"] < SPIN_MS / 2
    assert reply["gap"] < 1000  # the page kept running its timers while the worker spun
    # A fresh worker answers the next roll.
    page.locator(".rb-inline button.rb-roll").first.click()
    expect(page.locator(".rb-inline .rb-out").first).to_have_text(NUMBER, timeout=READY_TIMEOUT_MS)
    assert page.evaluate("window.rollbook.workerStarts") == 2
    assert page.evaluate(TRIPWIRE)


def test_site_works_with_every_other_host_blocked(context: BrowserContext, hard_site: str) -> None:
    host = urlsplit(hard_site).netloc
    seen: list[str] = []
    blocked: list[str] = []

    def gate(route: Route) -> None:
        if urlsplit(route.request.url).netloc == host:
            route.continue_()
        else:
            blocked.append(route.request.url)
            route.abort()

    context.route("**/*", gate)
    context.on("request", lambda request: seen.append(request.url))
    page = context.new_page()
    page.goto(hard_site)
    ready(page)
    page.locator(".rb-inline button.rb-roll").first.click()
    expect(page.locator(".rb-inline .rb-out").first).to_have_text(NUMBER, timeout=READY_TIMEOUT_MS)
    d66 = page.locator(".rb-table[data-rb-anchor=d66]")
    d66.locator(".rb-bar button.rb-roll").click()
    expect(d66.locator("[aria-current=true]")).to_have_count(1, timeout=READY_TIMEOUT_MS)
    foreign = [u for u in seen if urlsplit(u).netloc not in (host, "")]
    foreign = [u for u in foreign if not u.startswith(("data:", "blob:"))]
    assert foreign == [] and blocked == []
    # The worker's own fetches are in the record, so it is complete.
    assert any("/pyodide.asm.wasm" in u for u in seen)
    assert any(u.endswith(".whl") for u in seen)
    # The offline worker comes from the site too (offline reading: tests/browser/test_offline.py).
    scopes = page.evaluate(
        "navigator.serviceWorker.getRegistrations().then(r => r.map(x => x.scope))"
    )
    assert all(scope.startswith(hard_site) for scope in scopes), scopes
    print(f"\nrequests, all to {host}: {len(seen)}")
