"""A first visit over a slow link, from a host that compresses nothing: few bytes.

The demo site is served by a server that sends every file as it is (no gzip, no brotli)
over an emulated 8 Mbit/s line with a 20 ms round trip (the benchmark's link emulation:
one shared line, a round trip before each response). The reader clicks the first roll as
soon as the page shows; the bytes the server sent until that roll is answered must stay
within 7 MB. At that rate the worker measures while it downloads Pyodide, the 5.7 MB
snapshot does not pay, however slow (or busy) the processor it measures, and it starts
Pyodide without it. A browser that calls its
connection 3g gets no snapshot either, however fast the server.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.bench.harness import Link, serve
from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, READY_TIMEOUT_MS, wait_ready

MB = 1_000_000
#: Slow enough that the snapshot cannot pay even at linkspeed.js's MAX_SLOWDOWN.
MBIT = 8


def test_first_roll_costs_at_most_7_mb_from_a_host_that_compresses_nothing(
    browser: Browser, demo_site: tuple[str, Path]
) -> None:
    _, folder = demo_site
    with serve(folder, link=Link(MBIT, 20, compress=False)) as site:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(site.url, wait_until="domcontentloaded")
            inline = page.locator(".rb-inline").first
            inline.locator("button.rb-roll").click()
            expect(inline.locator("output.rb-out")).to_have_text(
                re.compile(r"\d"), timeout=READY_TIMEOUT_MS
            )
            sent = {path: size for path, status, size in site.log if status == 200}
            choice = page.evaluate("window.rollbook.snapshotChoice")
            restored = page.evaluate("window.rollbook.restored")
        finally:
            context.close()
    total = sum(sent.values())
    biggest = sorted(sent.items(), key=lambda item: -item[1])[:6]
    said = f"{total / MB:.2f} MB before the first roll ({choice}); largest: {biggest}"
    assert total <= 7 * MB, said
    # The files are the small ones the build made, and the snapshot was left out.
    assert any(path.endswith("/pyodide.asm.wasm.br") for path in sent)
    assert not any("/snapshot-" in path for path in sent)
    assert restored is False
    assert choice["use"] is False and choice["reason"] == "slow link"
    assert 0 < choice["rate"] < MBIT * 1e6 / 8 * 1.5  # about what the line carries, in bytes/s
    assert choice["timed"] is None or choice["timed"] < MBIT * 1e6 / 8 * 1.5  # the browser's timing
    assert 1 <= choice["slowdown"] <= 6  # the processor, measured too


def test_a_connection_the_browser_calls_3g_gets_no_snapshot_even_from_a_fast_server(
    browser: Browser, fixture_site: str
) -> None:
    # Chromium reports the forced type as navigator.connection.effectiveType, in workers too.
    args = [*CHROMIUM_ARGS, "--force-effective-connection-type=3G"]
    slow = browser.browser_type.launch(executable_path=CHROMIUM, args=args)
    try:
        page = slow.new_page()
        page.goto(fixture_site)
        assert page.evaluate("navigator.connection.effectiveType") == "3g"
        wait_ready(page)
        choice = page.evaluate("window.rollbook.snapshotChoice")
        assert {key: choice[key] for key in ("use", "reason", "rate")} == {
            "use": False,
            "reason": "slow",
            "rate": None,
        }
        assert page.evaluate("window.rollbook.restored") is False
        inline = page.locator(".rb-inline").first
        inline.locator("button.rb-roll").click()
        expect(inline.locator("output.rb-out")).to_have_text(re.compile(r"\d"))
    finally:
        slow.close()
