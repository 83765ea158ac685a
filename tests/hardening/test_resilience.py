"""Issue 7.4: the page survives a killed worker and a runaway, and never leaves the site."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
import yaml
from playwright.sync_api import BrowserContext, Page, Route, expect

from tests.browser.conftest import READY_TIMEOUT_MS, ROOT
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
    assert reply["kind"] == "Runaway" and "stopped" in reply["error"], reply
    print(f"\nkilled worker: the roll was answered after {reply['ms']:.0f} ms")
    out = page.locator(".rb-inline .rb-out").first
    page.locator(".rb-inline button.rb-roll").first.click()
    expect(out).to_have_text(NUMBER, timeout=READY_TIMEOUT_MS)
    loot = page.locator(".rb-table[data-rb-anchor=loot]")
    loot.locator(".rb-bar button.rb-roll").click()
    expect(loot.locator(".rb-result")).to_contain_text("Loot", timeout=READY_TIMEOUT_MS)
    assert page.evaluate("window.rollbook.workerStarts") == 2
    assert page.evaluate(TRIPWIRE)


def _fight_sides() -> tuple[str, list]:
    data = yaml.safe_load((ROOT / "tests/engine/fights/scars_4v4.yaml").read_text())
    return data["system"], [[name, members] for name, members in data["sides"].items()]


def test_runaway_is_cancelled_within_a_second_and_the_page_stays_responsive(
    page: Page, hard_site: str
) -> None:
    system, sides = _fight_sides()
    page.goto(hard_site)
    ready(page)
    # 5000 fights in one request: seconds of work in Pyodide, past the 1 s watchdog.
    reply = page.evaluate(
        """async ([system, sides]) => {
          let last = performance.now(), gap = 0;
          const timer = setInterval(() => {
            const now = performance.now();
            gap = Math.max(gap, now - last);
            last = now;
          }, 20);
          const t0 = performance.now();
          const reply = await window.rollbook.request(
            {op: "simulate", system, sides, runs: 5000, seed: 1});
          reply.ms = performance.now() - t0;
          clearInterval(timer);
          reply.gap = gap;
          return reply;
        }""",
        [system, sides],
    )
    print(f"\nrunaway: cancelled after {reply['ms']:.0f} ms; longest main-thread gap "
          f"{reply['gap']:.0f} ms")  # fmt: skip
    assert reply["kind"] == "Runaway", reply
    assert 1000 <= reply["ms"] < 3000  # the runtime's 1 s watchdog, with room for a busy CI
    assert reply["gap"] < 1000  # the page kept running its timers while the worker spun
    # A fresh worker answers the next roll.
    page.locator(".rb-inline button.rb-roll").first.click()
    expect(page.locator(".rb-inline .rb-out").first).to_have_text(NUMBER, timeout=READY_TIMEOUT_MS)
    assert page.evaluate("window.rollbook.workerStarts") == 2


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
    assert any(u.endswith("pyodide.asm.wasm") for u in seen)
    assert any(u.endswith(".whl") for u in seen)
    # No service worker: nothing is cached for offline use, so there is no offline mode to test.
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0
    print(f"\nrequests, all to {host}: {len(seen)}")
