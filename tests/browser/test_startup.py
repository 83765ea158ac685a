"""Start-up paths of the engine worker: the snapshot's helper, its fallbacks, odd hosts.

The worker restores the build's memory snapshot, downloaded and unpacked by a helper
worker (unpack.js), while it compiles Pyodide's WebAssembly. Each test breaks one
piece the way a host or a browser can, and checks the reader still gets working dice.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import random
import re
import urllib.parse
import urllib.request

import brotli
import pytest
from playwright.sync_api import BrowserContext, Page, Route, expect

from rollbook.site_runtime.snapshot_pack import PAGE, pack_for_site, unpack
from tests.browser.conftest import wait_ready
from tests.browser.server import altered, encoded, held, plain_forced, requested, snapshot_forced

SNAPSHOT = r"/snapshot-[^/]*\.bin$"


# In-page SHA-256 of an ArrayBuffer or a typed array, as hex (defined inside evaluate()).
_SHA256 = """
  const sha256 = async (bytes) => {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
    return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  };
"""


def _roll_once(page: Page) -> None:
    inline = page.locator(".rb-inline").first
    inline.locator("button.rb-roll").click()
    expect(inline.locator("output.rb-out")).to_have_text(re.compile(r"^\d+$"))


def test_snapshot_is_restored_and_fetched_once(
    context: BrowserContext, page: Page, fixture_site: str
) -> None:
    # Counted by the server: Playwright can miss the helper's requests (a nested worker's).
    log = requested(fixture_site)
    start = len(log)
    # Responses, not requests: the worker first asks the browser's cache alone whether it
    # holds the snapshot (a request that, on a first visit, fails without a response).
    seen: list[str] = []
    context.on("response", lambda response: seen.append(response.url))
    with snapshot_forced(fixture_site):
        page.goto(fixture_site)
        wait_ready(page)
    assert page.evaluate("window.rollbook.restored") is True
    assert page.evaluate("window.rollbook.snapshotChoice")["reason"] == "no size"
    assert sum(bool(re.search(SNAPSHOT, path)) for path in log[start:]) == 1
    assert sum(bool(re.search(SNAPSHOT, url)) for url in seen) <= 1  # none from the cache
    _roll_once(page)


def test_the_start_follows_the_rate_the_worker_measured(page: Page, fixture_site: str) -> None:
    # On 127.0.0.1 the rate is how fast this machine takes the bytes in, so which start is
    # chosen varies with its load; that the choice follows the rule does not.
    page.goto(fixture_site)
    wait_ready(page)
    choice = page.evaluate("window.rollbook.snapshotChoice")
    url = f"{fixture_site}assets/rollbook/manifest.json"
    with urllib.request.urlopen(url) as response:
        manifest = json.loads(response.read())
    assert "stdlib" in manifest["bytecode"]  # so a restore saves 0.5 s ...
    assert choice["reason"] in ("fast link", "slow link") and choice["rate"] > 0
    slowdown = choice["slowdown"]  # ... and half as much again per time slower this processor is
    assert 1 <= slowdown <= 6
    timed = choice["timed"]  # the browser's timing of a finished download, if any
    assert timed is None or timed > 0
    fastest = max(choice["rate"], timed or 0)
    pays = manifest["snapshot_size"] / fastest <= 0.5 * (1 + slowdown) / 2
    assert choice["use"] is pays and choice["reason"] == ("fast link" if pays else "slow link")
    assert page.evaluate("window.rollbook.restored") is pays
    _roll_once(page)


def test_the_browsers_timing_reads_the_link_from_finished_downloads_only(
    page: Page, fixture_site: str
) -> None:
    # networkRate takes the fastest finished download of 64 KB or more that crossed the
    # network; cache hits, small files, unfinished and malformed entries say nothing.
    page.goto(fixture_site)
    rates = page.evaluate(
        """async () => {
          const url = new URL("assets/rollbook/linkspeed.js", location.href).href;
          const { networkRate } = await import(url);
          const kb = 1024;
          // An entry of `size` KB, its first byte at `start` ms and its last at `end`.
          const entry = (size, start, end, sent = size * kb) => ({
            transferSize: sent, encodedBodySize: size * kb, responseStart: start, responseEnd: end,
          });
          const one = (...args) => networkRate([entry(...args)]);
          return {
            none: networkRate([]),
            line: one(200, 100, 180),
            best: networkRate([entry(100, 10, 110), entry(300, 10, 40)]),
            cache: one(200, 100, 100.5, 0),
            small: one(9, 5, 5.1),
            instant: one(100, 7, 7),
            backwards: one(100, 9, 3),
            unstarted: one(100, 0, 0),
            junk: networkRate([
              {}, { transferSize: "x", encodedBodySize: null }, { encodedBodySize: 1e9 },
            ]),
          };
        }"""
    )
    kb = 1024
    assert rates["none"] == 0 and rates["cache"] == 0 and rates["small"] == 0
    assert rates["unstarted"] == 0 and rates["junk"] == 0
    assert rates["line"] == pytest.approx(200 * kb / 0.08)
    assert rates["best"] == pytest.approx(300 * kb / 0.03)
    # No time at all counts as 0.1 ms, never as an infinite or negative rate.
    assert rates["instant"] == rates["backwards"] == pytest.approx(100 * kb / 0.0001)


def test_a_burst_handed_over_late_never_reads_as_a_fast_link(page: Page, fixture_site: str) -> None:
    # The page's thread may take a download's chunks in late and pass them on in one burst.
    # Timed from when the page asked for it (`whole`), every byte counts and the burst reads
    # as what it is: 600 KB in 2 s. Timed from its first chunk, that chunk is left out (it
    # may have waited); an earlier start from a later download still moves the meter back.
    page.goto(fixture_site)
    rates = page.evaluate(
        """async () => {
          const url = new URL("assets/rollbook/linkspeed.js", location.href).href;
          const { makeMeter } = await import(url);
          const kb = 1024;
          const read = async (meter, chunks, began) => {
            const body = new ReadableStream({
              start(c) {
                for (const size of chunks) c.enqueue(new Uint8Array(size * kb));
                c.close();
              },
            });
            await new Response(meter.count(body, "", () => began)).arrayBuffer();
          };
          const now = performance.now();
          const asked = makeMeter();
          await read(asked, [600], { at: now - 2000, whole: true });
          const firstChunk = makeMeter();
          await read(firstChunk, [600], { at: now - 2000, whole: false });
          const later = makeMeter();
          await read(later, [100, 100], undefined);
          await read(later, [100], { at: now - 3000, whole: true });
          return { asked: asked.rate(), firstChunk: firstChunk.rate(), later: later.rate() };
        }"""
    )
    kb = 1024
    assert 600 * kb / 2.5 < rates["asked"] <= 600 * kb / 2.0
    assert rates["firstChunk"] is None or rates["firstChunk"] > 1e12  # Infinity: one chunk
    assert 300 * kb / 3.5 < rates["later"] <= 300 * kb / 3.0


def test_without_a_helper_the_snapshot_is_unpacked_in_place(page: Page, fixture_site: str) -> None:
    # A browser whose workers cannot start workers: boot-snapshot.js gets no helper. (A
    # nested worker's own script is fetched where Playwright cannot route it, so this path
    # is driven directly, in the page.)
    page.goto(fixture_site)
    wait_ready(page)
    manifest = page.evaluate(
        "fetch(new URL('assets/rollbook/manifest.json', location.href)).then((r) => r.json())"
    )
    fetched: list[str] = []  # from here on: the page's own requests only
    page.on("request", lambda r: fetched.append(urllib.parse.urlsplit(r.url).path))
    result = page.evaluate(
        """async () => {"""
        + _SHA256
        + """
          const base = new URL("assets/rollbook/manifest.json", location.href);
          const boot = await import(new URL("boot-snapshot.js", base));
          const manifest = await (await fetch(base)).json();
          const snapshot = boot.startSnapshot(manifest, base, null);
          // The memory's size comes from the manifest: Pyodide gets the array at once.
          const early = snapshot.memory instanceof Uint8Array;
          const memory = await snapshot.filled;
          return { early, same: memory === snapshot.memory, digest: await sha256(memory) };
        }"""
    )
    url = f"{fixture_site}assets/rollbook/{manifest['snapshot']}"
    with urllib.request.urlopen(url) as response:
        memory = unpack(response.read())
    snapshots = [path for path in fetched if "/snapshot-" in path]
    assert snapshots == [f"/assets/rollbook/{manifest['snapshot']}"]
    assert result["early"] and result["same"]  # filled in place, the array Pyodide holds
    assert manifest["snapshot_bytes"] == len(memory)
    assert result["digest"] == hashlib.sha256(memory).hexdigest()


def test_a_damaged_snapshot_falls_back_to_a_plain_start(page: Page, fixture_site: str) -> None:
    # Damaged by the server itself: a Playwright route can miss the helper's request.
    log = requested(fixture_site)
    start = len(log)
    with (
        snapshot_forced(fixture_site),
        altered(fixture_site, SNAPSHOT, lambda body: body[: len(body) // 2]),
    ):
        page.goto(fixture_site)
        wait_ready(page)
    assert any(re.search(SNAPSHOT, path) for path in log[start:])
    assert page.evaluate("window.rollbook.restored") is False
    _roll_once(page)


def test_wasm_served_with_the_wrong_type_still_starts(
    context: BrowserContext, page: Page, fixture_site: str
) -> None:
    # Streaming compilation requires application/wasm; some hosts send octet-stream.
    def wrong_type(route: Route) -> None:
        response = route.fetch()
        headers = {**response.headers, "content-type": "application/octet-stream"}
        route.fulfill(response=response, headers=headers)

    # The site serves it packed (pyodide.asm.wasm.br): the same holds for that file.
    context.route("**/pyodide.asm.wasm*", wrong_type)
    types: list[str] = []
    context.on(
        "response",
        lambda r: types.append(r.headers["content-type"]) if "pyodide.asm.wasm" in r.url else None,
    )
    with snapshot_forced(fixture_site):
        page.goto(fixture_site)
        wait_ready(page)
    assert types and set(types) == {"application/octet-stream"}
    assert page.evaluate("window.rollbook.restored") is True
    _roll_once(page)


def test_unpack_in_the_browser_gives_the_memory_python_packed(
    page: Page, fixture_site: str
) -> None:
    rng = random.Random(3)
    memory = b"".join(rng.randbytes(PAGE) if rng.random() < 0.5 else bytes(PAGE) for _ in range(40))
    memory += rng.randbytes(123)
    packed = pack_for_site(memory)
    page.goto(fixture_site)
    digests = page.evaluate(
        """async (files) => {"""
        + _SHA256
        + """
          const url = new URL("assets/rollbook/unpack.js", location.href);
          const { expand } = await import(url);
          const { gunzip } = await import(new URL("fetchfile.js", url));
          const inflate = (body) => new Response(gunzip(body)).arrayBuffer();
          const out = [];
          for (const file of files) {
            try {
              const packed = await inflate(new Blob([new Uint8Array(file)]).stream());
              out.push(await sha256(expand(packed)));
            } catch (error) {
              out.push(`error: ${error.message}`);
            }
          }
          return out;
        }""",
        [
            list(packed),  # as served
            list(gzip.decompress(packed)),  # a host undid the gzip
            list(memory),  # a plain snapshot
            list(gzip.decompress(packed)[:-7]),  # damaged
        ],
    )
    whole = hashlib.sha256(memory).hexdigest()
    assert digests[:3] == [whole, whole, whole]
    assert digests[3] == "error: the start-up snapshot file is damaged"


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def test_unbrotli_in_the_browser_gives_the_bytes_python_packed(
    page: Page, fixture_site: str
) -> None:
    rng = random.Random(5)
    # Big enough that one chunk decodes to more than the decoder's step of output (1 MB),
    # mixed enough that the compressed stream spans many network-sized chunks.
    data = bytes(1_200_000) + rng.randbytes(200_000) + b"rollbook " * 20_000
    packed = brotli.compress(data, quality=5)
    page.goto(fixture_site)
    seen = page.evaluate(
        """async (cases) => {"""
        + _SHA256
        + """
          const url = new URL("assets/rollbook/fetchfile.js", location.href);
          const { unbrotli } = await import(url);
          const out = [];
          for (const [bytes, chunk, plain] of cases) {
            const whole = Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0));
            const body = new ReadableStream({
              start(c) {
                for (let at = 0; at < whole.length; at += chunk) {
                  c.enqueue(whole.slice(at, at + chunk));
                }
                c.close();
              },
            });
            try {
              // Read chunk by chunk: a Response would say only "Failed to fetch".
              const reader = unbrotli(body, plain).getReader();
              const parts = [];
              for (let r = await reader.read(); !r.done; r = await reader.read()) {
                parts.push(r.value);
              }
              out.push(await sha256(await new Blob(parts).arrayBuffer()));
            } catch (error) {
              out.push(`error: ${error.message}`);
            }
          }
          return out;
        }""",
        [
            [_b64(packed), 65536, False],  # as served, in network-sized chunks
            [_b64(packed), 7, False],  # in tiny ones
            [_b64(data), 65536, True],  # a host sent it with Content-Encoding: br
            [_b64(packed[:-9]), 65536, False],  # cut short
            [_b64(packed + b"\0\0"), 65536, False],  # something after its end
            [_b64(rng.randbytes(5000)), 65536, False],  # not brotli at all
        ],
    )
    whole = hashlib.sha256(data).hexdigest()
    assert seen[:3] == [whole, whole, whole]
    assert seen[3] == "error: the brotli stream was cut short"
    assert seen[4] == "error: data after the end of the brotli stream"
    assert seen[5].startswith("error: "), seen[5]


def test_a_host_that_sends_the_packed_files_decoded_still_starts(
    page: Page, fixture_site: str
) -> None:
    # Some hosts serve NAME.br with `Content-Encoding: br`: the browser decodes it first.
    with plain_forced(fixture_site), encoded(fixture_site, r"/assets/pyodide/.*\.br$", "br"):
        page.goto(fixture_site)
        wait_ready(page)
        _roll_once(page)
    assert page.evaluate("window.rollbook.restored") is False


def test_the_webassembly_download_starts_before_the_manifest_is_in(
    page: Page, fixture_site: str
) -> None:
    # worker.js names the WebAssembly the build wrote beside it: on a slow link its 3.5 MB
    # start with the manifest's request, not a round trip after it.
    seen = len(requested(fixture_site))
    with held(fixture_site, r"/assets/rollbook/manifest\.json$") as gate:
        page.goto(fixture_site, wait_until="domcontentloaded")
        asked: list[str] = []
        for _ in range(300):  # up to 30 s on a loaded machine
            asked = requested(fixture_site)[seen:]
            if any(path.endswith("/pyodide.asm.wasm.br") for path in asked):
                break
            page.wait_for_timeout(100)
        held_then = [path for path in asked if path.endswith("manifest.json")]
        gate.set()
    assert any(path.endswith("/pyodide.asm.wasm.br") for path in asked), asked
    assert held_then, asked  # the manifest was asked for and was still held then
    wait_ready(page)
    _roll_once(page)
    # One download of it: the early one was used, not fetched again.
    wasm = [p for p in requested(fixture_site)[seen:] if p.endswith("/pyodide.asm.wasm.br")]
    assert len(wasm) == 1, wasm


def test_the_pages_head_downloads_the_webassembly_for_the_worker(
    page: Page, fixture_site: str
) -> None:
    # The head's preload asks for it before the worker exists; the worker's own request
    # takes the preload's bytes from the browser's cache: one download in all.
    seen = len(requested(fixture_site))
    with plain_forced(fixture_site):
        page.goto(fixture_site)
        wait_ready(page)
        _roll_once(page)
    asked = requested(fixture_site)[seen:]
    wasm = [path for path in asked if path.endswith("/pyodide.asm.wasm.br")]
    assert len(wasm) == 1, asked
    # Asked for by the page, before the worker's own file was.
    assert asked.index(wasm[0]) < asked.index("/assets/rollbook/worker.js"), asked
    initiators = page.evaluate(
        "performance.getEntriesByType('resource')"
        ".filter((e) => e.name.endsWith('/pyodide.asm.wasm.br')).map((e) => e.initiatorType)"
    )
    assert initiators == ["link"]  # the preload, in the page's own timeline


# What a worker may be told of the page's preload, made up or damaged: each must still start
# (it then fetches the file itself, from the cache or the site).
_TOLD = {
    "another file": "{type: 'wasm', url: wasm + '?another', asked: Date.now()}",
    "no time": "{type: 'wasm', url: wasm, asked: 'soon'}",
    "a time to come": "{type: 'wasm', url: wasm, asked: Date.now() + 1e9}",
    "no address": "{type: 'wasm', asked: Date.now()}",
    "no preload at all": "{type: 'wasm', url: wasm, asked: Date.now()}",
}


def test_a_worker_told_of_a_preload_that_is_not_there_still_starts(
    page: Page, fixture_site: str
) -> None:
    page.goto(fixture_site + "assets/rollbook/manifest.json")
    results = {}
    for kind, told in _TOLD.items():
        results[kind] = page.evaluate(
            """async (told) => {
              const manifest = await (await fetch("manifest.json")).json();
              const folder = new URL(manifest.pyodide, location.href);
              const wasm = new URL("pyodide.asm.wasm.br", folder).href;
              const worker = new Worker("worker.js", { type: "module" });
              const answer = new Promise((resolve) => {
                worker.onmessage = (e) => {
                  if (["ready", "failed"].includes(e.data.type)) resolve(e.data.type);
                };
                worker.onerror = () => resolve("error");
              });
              worker.postMessage(eval(`(${told})`));
              const init = new URL("manifest.json", location.href).href;
              worker.postMessage({ type: "init", manifest: init });
              const result = await answer;
              worker.terminate();
              return result;
            }""",
            told,
        )
    assert results == dict.fromkeys(_TOLD, "ready"), results


def test_the_pages_timing_of_its_preload_counts_for_the_link(page: Page, fixture_site: str) -> None:
    # The worker's own request for the WebAssembly is answered from the browser's cache and
    # says nothing of the link: the page posts its Resource Timing of the preload, and
    # networkRate reads it with the worker's own. Junk in its place is left out.
    page.goto(fixture_site + "assets/rollbook/manifest.json")
    timed = page.evaluate(
        """async () => {
          const start = async (messages) => {
            const worker = new Worker("worker.js", { type: "module" });
            const ready = new Promise((resolve) => {
              worker.onmessage = (e) => {
                if (e.data.type === "ready") resolve(e.data.choice.timed);
                if (e.data.type === "failed") resolve("failed");
              };
            });
            for (const message of messages) worker.postMessage(message);
            const result = await ready;
            worker.terminate();
            return result;
          };
          const init = { type: "init", manifest: new URL("manifest.json", location.href).href };
          const size = 2_700_000;
          const entry = {
            transferSize: size, encodedBodySize: size, responseStart: 50, responseEnd: 50.1,
          };
          const junk = [
            { type: "timed" }, { type: "timed", entry: "fast" }, { type: "timed", entry: null },
            { type: "timed", entry: { transferSize: 1e9, encodedBodySize: 1e9, responseStart: 0 } },
          ];
          return {
            told: await start([init, { type: "timed", entry }]),
            junk: await start([init, ...junk]),
          };
        }"""
    )
    assert timed["told"] == pytest.approx(2_700_000 / 0.0001)
    assert timed["junk"] != "failed"
    assert timed["junk"] is None or timed["junk"] < 2_700_000 / 0.0001
