"""Limits, runaways and the network: the page stays usable and never leaves the site."""

from __future__ import annotations

import random
import re
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Page, expect

from rollbook.engine.dice import roll
from tests.browser.conftest import READY_TIMEOUT_MS, STEP_TIMEOUT_MS, wait_ready


def test_over_limit_roll_is_refused_with_a_sentence(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    wait_ready(page)
    reply = page.evaluate("window.rollbook.request({op: 'roll', expr: '100000d100000'})")
    assert "limit" in reply["error"] and "Traceback" not in reply["error"]
    assert page.evaluate("window.rollbook.workerStarts") == 1


# The worker spins this long (ms) in plain JavaScript: far past the page's 1 s watchdog.
SPIN_MS = 8000
# Run in the engine worker: once it next tells the page it has begun a request, it spins.
SPIN_AFTER_BEGIN = """ms => {
  const post = self.postMessage.bind(self);
  self.postMessage = (message, ...rest) => {
    post(message, ...rest);
    if (!message || message.type !== "begin") return;
    self.postMessage = post;
    const end = performance.now() + ms;
    while (performance.now() < end) {}
  };
}"""


def test_runaway_request_is_cancelled_and_the_page_stays_usable(
    page: Page, fixture_site: str
) -> None:
    # A request the worker cannot answer within a second of beginning it is a runaway,
    # whatever keeps the worker busy. No reader request is reliably that slow (the dice
    # engine refuses or speeds up heavy odds), so the test keeps the engine worker itself
    # busy, from outside, right after it says it has begun the next request: no busy-loop op
    # ships to readers, and the margin (8 s against 1 s) does not depend on the engine's or
    # the machine's speed.
    page.goto(fixture_site)
    wait_ready(page)
    engine = next(w for w in page.workers if w.url.endswith("/worker.js"))
    engine.evaluate(SPIN_AFTER_BEGIN, SPIN_MS)
    page.evaluate(
        "() => { window.rollbook.request({op: 'roll', expr: '3d6'})"
        ".then(r => (window.__runawayReply = r)); }"
    )
    # While the worker is busy the main thread still answers: a click queues a roll.
    page.locator(".rb-inline button").first.click()
    page.wait_for_function("window.__runawayReply !== undefined", timeout=STEP_TIMEOUT_MS)
    reply = page.evaluate("window.__runawayReply")
    assert reply["kind"] == "Runaway" and "stopped" in reply["error"]
    # The busy worker was replaced, and the fresh one answers the queued click.
    expect(page.locator(".rb-inline output").first).to_have_text(
        re.compile(r"^\d+$"), timeout=READY_TIMEOUT_MS
    )
    assert page.evaluate("window.rollbook.workerStarts") == 2
    again = page.evaluate("window.rollbook.request({op: 'roll', expr: '3d6', seed: 7})")
    assert again["total"] == roll("3d6", random.Random(7)).total


def _pages(folder: Path) -> list[str]:
    paths = []
    for index in sorted(folder.rglob("index.html")):
        rel = index.parent.relative_to(folder).as_posix()
        if rel.startswith(("assets", "search")):
            continue
        paths.append("/" if rel == "." else f"/{rel}/")
    return paths


def test_no_request_leaves_the_site_on_any_demo_page(
    context: BrowserContext, demo_site: tuple[str, Path]
) -> None:
    base, folder = demo_site
    host = urlsplit(base).netloc
    requested: list[str] = []
    context.on("request", lambda request: requested.append(request.url))
    page = context.new_page()
    pages = _pages(folder)
    assert len(pages) >= 5
    engine_seen = False
    for path in pages:
        page.goto(base.rstrip("/") + path, wait_until="load")
        button = page.locator(".rb-inline button.rb-roll, .rb-table .rb-bar button.rb-roll")
        if not engine_seen and button.count():
            # Once, the whole way: engine start-up and a roll (the worker's own fetches).
            wait_ready(page)
            button.first.click()
            page.wait_for_function(
                "[...document.querySelectorAll('.rb-out, .rb-result')]"
                ".some(e => e.textContent.trim())"
            )
            engine_seen = True
    assert engine_seen
    foreign = [url for url in requested if urlsplit(url).netloc not in (host, "")]
    foreign = [url for url in foreign if not url.startswith(("data:", "blob:"))]
    assert foreign == []
    # The worker's requests are recorded too, so the list is complete.
    assert any("/pyodide.asm.wasm" in url for url in requested)
    assert any(url.endswith(".whl") for url in requested)


def test_demo_search_index_holds_no_widget_payload(demo_site: tuple[str, Path]) -> None:
    # Payload templates carry data-search-exclude; without it Material would index the JSON.
    _, folder = demo_site
    index = (folder / "search" / "search_index.json").read_text(encoding="utf-8")
    assert '\\"rollbook\\":1' not in index and '\\"rows\\":[' not in index
    assert "Roll tables" in index  # the index itself was written


def test_a_roll_asked_ahead_that_overruns_never_restarts_the_engine(
    page: Page, fixture_site: str
) -> None:
    # Hovering a roll asks the engine for its next result ahead of the click (inhand.js).
    # Here that work overruns the watchdog (the worker is kept busy from outside once it has
    # begun it, as above): nobody asked for it, so the engine is not restarted for it.
    page.goto(fixture_site)
    wait_ready(page)
    engine = next(w for w in page.workers if w.url.endswith("/worker.js"))
    engine.evaluate(SPIN_AFTER_BEGIN, SPIN_MS)
    button = page.locator(".rb-inline button.rb-roll").first
    button.hover()
    page.wait_for_timeout(2500)  # past the 1 s watchdog, twice over
    assert page.evaluate("window.rollbook.workerStarts") == 1
    assert page.evaluate("document.documentElement.dataset.rbEngine") == "ready"
    # A reader's click waits behind it for a second, then gets a fresh engine and its roll.
    button.click()
    expect(page.locator(".rb-inline output").first).to_have_text(
        re.compile(r"^\d+$"), timeout=READY_TIMEOUT_MS
    )
    assert page.evaluate("window.rollbook.workerStarts") == 2


POSTED = """() => {
  window.__posted = [];
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === "request") window.__posted.push(message.json);
    return post.call(this, message, ...rest);
  };
}"""


def test_tables_that_roll_other_tables_are_not_rolled_ahead(page: Page, fixture_site: str) -> None:
    page.add_init_script(f"({POSTED})()")
    page.goto(f"{fixture_site}nested/")
    wait_ready(page)
    page.locator(".rb-table[data-rb-anchor=camp] .rb-bar button.rb-roll").hover()
    page.locator(".rb-table[data-rb-anchor=mishap] .rb-bar button.rb-roll").hover()
    page.wait_for_function("window.__posted.some((j) => j.includes('fire goes out'))")
    assert not page.evaluate("window.__posted.filter((j) => j.includes('peddler'))")
    # A click still rolls it.
    camp = page.locator(".rb-table[data-rb-anchor=camp]")
    camp.locator(".rb-bar button.rb-roll").click()
    expect(camp.locator("[aria-current=true]")).to_have_count(1)
