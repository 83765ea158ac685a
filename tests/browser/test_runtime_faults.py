"""The engine never leaves a reader waiting: every start-up fault ends in one sentence.

Each test breaks one file the way a host, a proxy or a half-finished deployment can
(missing, blocked, damaged, not the file the manifest lists), through the test server
itself (server.py sees every request, the nested workers' too), and checks what the reader
gets: a sentence and a Retry button, never "warming up…" for ever, never a traceback; and
without the odds library, plain dice that still roll.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, Route, expect

from rollbook.engine.dice import roll
from tests.browser.a11y import explain, violations
from tests.browser.conftest import READY_TIMEOUT_MS, wait_ready
from tests.browser.server import altered, denied

WASM = r"/pyodide\.asm\.wasm(\.br)?$"  # the site serves it brotli-compressed
ENGINE = r"/rollbook_engine-[^/]*\.whl$"
ICEPOOL = r"/icepool-[^/]*\.whl$"
MANIFEST = r"/assets/rollbook/manifest\.json$"
GARBAGE = b"this is not what the file should hold\n" * 50


def manifest_with(change: Callable[[dict], None]) -> Callable[[bytes], bytes]:
    def alter(body: bytes) -> bytes:
        manifest = json.loads(body)
        change(manifest)
        return json.dumps(manifest).encode()

    return alter


def click_inline(page: Page) -> str:
    """Click the first inline roll; its output once it says something other than warming up."""
    inline = page.locator(".rb-inline").first
    output = inline.locator("output.rb-out")
    output.evaluate("node => node.replaceChildren()")  # an earlier sentence is not this answer
    inline.locator("button.rb-roll").click()
    expect(output).not_to_have_text(re.compile(r"^$|warming up"), timeout=READY_TIMEOUT_MS)
    return output.inner_text()


def expect_start_failure(page: Page, sentence: str | re.Pattern[str]) -> None:
    """The notice, the engine state and a waiting roll all end in the sentence."""
    notice = page.locator(".rb-engine-notice[role=alert]")
    expect(notice).to_contain_text(sentence, timeout=READY_TIMEOUT_MS)
    expect(notice.get_by_role("button", name="Try again")).to_be_enabled()
    assert page.evaluate("document.documentElement.dataset.rbEngine") == "error"
    said = click_inline(page)
    assert said.startswith("The dice engine could not start") or "did not start" in said
    assert "Traceback" not in said and "Traceback" not in notice.inner_text()


def retry_and_roll(page: Page) -> None:
    page.locator(".rb-engine-notice").get_by_role("button", name="Try again").click()
    wait_ready(page)
    expect(page.locator(".rb-engine-notice")).to_have_count(0)
    assert re.fullmatch(r"\d+", click_inline(page))


def test_a_missing_webassembly_file_ends_in_a_sentence_and_retry_works(
    page: Page, fixture_site: str
) -> None:
    with denied(fixture_site, WASM, 404):
        page.goto(fixture_site)
        expect_start_failure(page, "pyodide.asm.wasm) could not be loaded")
        found = violations(page)  # the notice and its button, for every reader
        assert not found, explain(found)
    retry_and_roll(page)


def test_a_damaged_webassembly_file_ends_in_a_sentence(page: Page, fixture_site: str) -> None:
    with altered(fixture_site, WASM, lambda _: GARBAGE):
        page.goto(fixture_site)
        expect_start_failure(page, "pyodide.asm.wasm) could not be loaded")
    retry_and_roll(page)


def test_a_blocked_download_meets_the_start_up_deadline(
    context: BrowserContext, page: Page, fixture_site: str
) -> None:
    # The WebAssembly request never gets an answer; the manifest sets a short deadline (a
    # hang guard for this test, not a measurement: the default is two minutes).
    stalled: list[Route] = []
    context.route("**/pyodide.asm.wasm*", lambda route: stalled.append(route))
    with altered(
        fixture_site, MANIFEST, manifest_with(lambda m: m.update(startup_deadline_ms=3000))
    ):
        page.goto(fixture_site)
        expect_start_failure(page, "The dice engine did not start within 3 seconds.")
    assert stalled  # the download really was held
    context.unroute("**/pyodide.asm.wasm*")
    retry_and_roll(page)


def test_without_the_odds_library_plain_dice_still_roll(page: Page, fixture_site: str) -> None:
    with denied(fixture_site, ICEPOOL, 404):
        page.goto(fixture_site)
        wait_ready(page)
        said = click_inline(page)
    assert re.fullmatch(r"\d+", said)
    seeded = page.evaluate("window.rollbook.request({op: 'roll', expr: '3d6', seed: 7})")
    assert seeded["total"] == roll("3d6", random.Random(7)).total
    # Plain odds need no library; keeping the highest dice does.
    assert page.evaluate("window.rollbook.request({op: 'odds', expr: '2d6'})")["min"] == 2
    odds = page.evaluate("window.rollbook.request({op: 'odds', expr: '4d6kh3'})")
    # The reader gets the catalogue's sentence (the worker's English reason is logged).
    assert odds == {
        "error": "Exact odds are unavailable on this page. Plain rolls still work.",
        "kind": "OddsUnavailable",
    }
    expect(page.locator(".rb-engine-notice")).to_have_count(0)


def test_an_odds_library_that_does_not_match_the_manifest_is_not_used(
    page: Page, fixture_site: str
) -> None:
    with altered(fixture_site, ICEPOOL, lambda _: GARBAGE):
        page.goto(fixture_site)
        wait_ready(page)
    assert re.fullmatch(r"\d+", click_inline(page))
    odds = page.evaluate("window.rollbook.request({op: 'odds', expr: '4d6kh3'})")
    assert odds["kind"] == "OddsUnavailable"
    assert odds["error"] == "Exact odds are unavailable on this page. Plain rolls still work."


def test_an_engine_file_that_does_not_match_the_manifest_stops_the_start(
    page: Page, fixture_site: str
) -> None:
    with altered(fixture_site, ENGINE, lambda _: GARBAGE):
        page.goto(fixture_site)
        expect_start_failure(
            page, re.compile(r"rollbook_engine-\S+\.whl is not the one the site lists")
        )
    retry_and_roll(page)


def test_a_damaged_engine_file_gives_one_sentence_not_a_traceback(
    page: Page, fixture_site: str
) -> None:
    # The manifest agrees with the damaged file and offers no snapshot (whose memory would
    # already hold the engine): the import itself fails, and the reader gets a sentence.
    def agree(manifest: dict) -> None:
        manifest["engine"]["sha256"] = hashlib.sha256(GARBAGE).hexdigest()
        manifest.pop("snapshot", None)
        manifest.pop("snapshot_bytes", None)

    with (
        altered(fixture_site, ENGINE, lambda _: GARBAGE),
        altered(fixture_site, MANIFEST, manifest_with(agree)),
    ):
        page.goto(fixture_site)
        expect_start_failure(page, "its dice code could not be loaded (the engine file is damaged)")
    notice = page.locator(".rb-engine-notice p").inner_text()
    assert notice.count(".") <= 3 and "\n" not in notice


def test_without_subtle_crypto_the_wheels_are_still_checked(page: Page, fixture_site: str) -> None:
    # Plain http on a LAN address has no SubtleCrypto; the plain-JavaScript digest then
    # checks the wheels. Here it runs on the site's own wheels and on edge-case lengths.
    rng = random.Random(5)
    samples = [rng.randbytes(n) for n in (0, 1, 55, 56, 63, 64, 65, 1000)]
    page.goto(fixture_site)
    result = page.evaluate(
        """async (samples) => {
          const base = new URL("assets/rollbook/manifest.json", location.href);
          const { sha256Hex } = await import(new URL("sha256.js", base));
          const check = await import(new URL("wheel-check.js", base));
          const manifest = await (await fetch(base)).json();
          const fetchBytes = async (url) => (await fetch(url)).arrayBuffer();
          Object.defineProperty(crypto, "subtle", { value: undefined });
          const loaded = await check.loadWheels(manifest, base, fetchBytes);
          const wrong = { ...manifest, engine: { ...manifest.engine, sha256: "0".repeat(64) } };
          const refused = await check.loadWheels(wrong, base, fetchBytes).then(
            () => null, (error) => error.message);
          return {
            names: loaded.wheels.map((w) => w.name), oddsLost: loaded.oddsLost, refused,
            digests: samples.map((s) => sha256Hex(new Uint8Array(s))),
          };
        }""",
        [list(sample) for sample in samples],
    )
    assert len(result["names"]) == 2 and result["oddsLost"] is None
    assert "is not the one the site lists" in result["refused"]
    assert result["digests"] == [hashlib.sha256(sample).hexdigest() for sample in samples]
