"""Shared pieces of the benchmarks: result rows, a local static server, Chromium, sizes.

Every benchmark module exposes ``main() -> list[Row]``; ``python -m tests.bench`` prints them
as one table. A row whose inputs are missing carries ``na`` (the reason) instead of numbers.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import http.server
import os
import shutil
import signal
import statistics
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.browser.server import QuietServer

__all__ = [
    "CHROMIUM",
    "CHROMIUM_ARGS",
    "CPU_MODE",
    "REPO",
    "Link",
    "Row",
    "ServedSite",
    "add_plain_pyodide",
    "brotli_size",
    "chromium_context",
    "median",
    "p95",
    "serve",
    "slowed_cpu",
]

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CACHE = REPO / ".cache" / "bench"


@dataclass
class Row:
    """One figure of the table, next to its baseline measured in the same run.

    Attributes:
        metric: What is measured, e.g. "2. ready, cold".
        value: The figure (None when not measured).
        baseline: The baseline figure (None when the row has none).
        unit: Unit of both figures ("s", "ms", "MB", ...).
        target: The target in words, e.g. "<= 0.8 s".
        ok: Whether the target is met (None when it has no target or was not measured).
        baseline_label: What the baseline is.
        note: Anything the reader needs to judge the figure.
        na: Why the row could not be measured (the row prints "n/a (reason)").
    """

    metric: str
    value: float | None = None
    baseline: float | None = None
    unit: str = ""
    target: str = ""
    ok: bool | None = None
    baseline_label: str = ""
    note: str = ""
    na: str = ""
    extra: dict[str, object] = field(default_factory=dict)

    @property
    def ratio(self) -> float | None:
        """value / baseline, when both exist and the baseline is not zero."""
        if self.value is None or not self.baseline:
            return None
        return self.value / self.baseline


def add_plain_pyodide(site: Path) -> None:
    """Copy Pyodide as it is distributed to ``assets/pyodide/<folder>-plain/`` of a built
    site, for the pages that call ``loadPyodide`` themselves (the benchmarks' baselines and
    workers): the site's own folder holds the files made small for rollbook's worker (big
    ones gzipped, the standard library cut to what the engine imports)."""
    from rollbook.site_runtime.build import PYODIDE_FILES
    from rollbook.site_runtime.runtime import find_pyodide

    source = find_pyodide(None, project_dir=REPO)
    for folder in [p for p in (site / "assets" / "pyodide").glob("*") if p.is_dir()]:
        plain = folder.with_name(f"{folder.name}-plain")
        plain.mkdir(exist_ok=True)
        for name in PYODIDE_FILES:
            shutil.copyfile(source / name, plain / name)


def median(values: list[float]) -> float:
    """The median of a non-empty list."""
    return statistics.median(values)


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank) of a non-empty list."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(0.95 * len(ordered) + 0.5) - 1))
    return ordered[rank]


@functools.cache
def _brotli_of_digest(digest: str, path: str) -> int:
    import brotli  # a dev extra; only the benchmarks need it

    CACHE.mkdir(parents=True, exist_ok=True)
    memo = CACHE / f"br11-{digest}"
    if memo.exists():
        return int(memo.read_text())
    size = len(brotli.compress(Path(path).read_bytes(), quality=11))
    memo.write_text(str(size))
    return size


def brotli_size(path: Path) -> int:
    """Size of ``path`` compressed with brotli at quality 11 (memoised by content hash)."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:32]
    return _brotli_of_digest(digest, str(path))


@dataclass
class ServedSite:
    """A directory served on 127.0.0.1, with a log of every response.

    Attributes:
        root: The directory served.
        url: Base URL ending in "/".
        log: (path, status, body bytes) for every response, in order.
    """

    root: Path
    url: str
    log: list[tuple[str, int, int]]

    def bytes_by_path(self, start: int = 0) -> dict[str, int]:
        """Body bytes sent per path since log entry ``start`` (200 responses only)."""
        sent: dict[str, int] = {}
        for path, status, size in self.log[start:]:
            if status == 200:
                sent[path] = sent.get(path, 0) + size
        return sent


#: What static hosts compress on the wire (GitHub Pages, Netlify, Cloudflare alike);
#: archives and the gzipped snapshot travel as they are.
_COMPRESSED_ON_THE_WIRE = {".html", ".css", ".js", ".mjs", ".json", ".wasm", ".svg", ".xml"}


def _wire_ratio(file: Path) -> float:
    """Bytes on the wire per byte of ``file`` (its brotli ratio if hosts compress it)."""
    if file.suffix not in _COMPRESSED_ON_THE_WIRE:
        return 1.0
    stat = file.stat()
    return _ratio_of(str(file), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=256)
def _ratio_of(path: str, size: int, mtime_ns: int) -> float:
    # Per file version, so a throttled request does not hash megabytes before it sends.
    return brotli_size(Path(path)) / size if size else 1.0


class Link:
    """A reader's link, emulated by the server: one shared line of ``mbit`` Mbit/s, and a
    round trip of ``rtt_ms`` before each response's first byte (as over HTTP/2, where
    requests share one connection). Bytes go out in chunks, each waiting for the line;
    files a host would compress take the line for their brotli size only (the browser
    still gets them whole, as after decoding). With ``compress=False`` every file takes the
    line for its own size, as from a host that compresses nothing."""

    def __init__(self, mbit: float, rtt_ms: float, *, compress: bool = True) -> None:
        self.mbit, self.rtt_ms, self.compress = mbit, rtt_ms, compress
        self._free_at = 0.0
        self._lock = threading.Lock()

    def __str__(self) -> str:
        plain = "" if self.compress else ", nothing compressed"
        return f"{self.mbit:g} Mbit/s, {self.rtt_ms:g} ms{plain}"

    def round_trip(self) -> None:
        time.sleep(self.rtt_ms / 1000)

    def send(self, size: int) -> None:
        """Wait until the line has carried ``size`` more bytes (after those queued before)."""
        with self._lock:
            start = max(time.monotonic(), self._free_at)
            self._free_at = start + size * 8 / (self.mbit * 1e6)
            done = self._free_at
        time.sleep(max(0.0, done - time.monotonic()))


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 - the base class declares it this way
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".whl": "application/octet-stream",
        ".bin": "application/octet-stream",
        ".json": "application/json",
    }
    site_log: list[tuple[str, int, int]]
    cache_control: str
    link: Link | None

    def log_message(self, format: str, *args: object) -> None:
        """Stay quiet: the benchmark prints its own table."""

    def end_headers(self) -> None:
        # Same policy as GitHub Pages (10 minutes fresh), for the page and its baseline alike.
        self.send_header("Cache-Control", self.cache_control)
        super().end_headers()

    def send_response(self, code: int, message: str | None = None) -> None:
        self._rb_status = code
        super().send_response(code, message)

    def copyfile(self, source, outputfile) -> None:  # type: ignore[no-untyped-def]
        before = source.tell()
        if self.link is None:
            super().copyfile(source, outputfile)
        else:
            ratio = _wire_ratio(Path(source.name)) if self.link.compress else 1.0
            while chunk := source.read(16 * 1024):
                self.link.send(round(len(chunk) * ratio))
                outputfile.write(chunk)
        self._rb_bytes = source.tell() - before

    def handle_one_request(self) -> None:
        self._rb_status = 0
        self._rb_bytes = 0
        if self.link is not None:
            self.link.round_trip()
        super().handle_one_request()
        if self._rb_status:
            self.site_log.append((self.path.split("?")[0], self._rb_status, self._rb_bytes))


@contextlib.contextmanager
def serve(
    root: Path, cache_control: str = "max-age=600", link: Link | None = None
) -> Iterator[ServedSite]:
    """Serve ``root`` on a free port of 127.0.0.1 with a threaded http.server.

    ``link`` makes the server send as over that link; by default it sends at once.
    """
    log: list[tuple[str, int, int]] = []
    handler = type(
        "Handler",
        (_Handler,),
        {"site_log": log, "cache_control": cache_control, "link": link},
    )
    server = QuietServer(("127.0.0.1", 0), functools.partial(handler, directory=str(root)))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield ServedSite(root, f"http://127.0.0.1:{server.server_address[1]}/", log)
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def chromium_context(profile: Path) -> Iterator[object]:
    """A persistent Chromium context on ``profile`` (a fresh directory means a cold cache)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=CHROMIUM_ARGS,
        )
        try:
            yield context
        finally:
            context.close()


def have_chromium() -> str:
    """Empty when Chromium and Playwright are usable, else why not."""
    if not os.access(CHROMIUM, os.X_OK):
        return f"{CHROMIUM} is not installed (make test installs it)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed"
    return ""


def have_node() -> str:
    """Empty when node and the npm pyodide package are there, else why not."""
    if not shutil.which("node"):
        return "node is not installed"
    if not (REPO / "node_modules" / "pyodide" / "pyodide.mjs").exists():
        return "node_modules/pyodide is missing (run make setup)"
    return ""


#: How the benchmark slows the processor down, ``BENCH_CPU_MODE``: "devtools" is what
#: DevTools does (CDP ``Emulation.setCPUThrottlingRate``), and in Chromium it slows the
#: page's main thread only: a worker's DevTools session refuses the command ("only
#: supported for pages"), so Pyodide in a worker and the WebAssembly compiler run at full
#: speed. "renderer" slows every thread of the page's renderer process (the page, the
#: workers, the compiler) by stopping and continuing the process, a duty cycle of
#: 1/rate: closer to a phone, whose every core is slow.
CPU_MODE = os.environ.get("BENCH_CPU_MODE", "devtools")
_DUTY_PERIOD_S = 0.02


def _renderers(profile: Path) -> set[int]:
    """Pids of the renderer processes of the Chromium running on ``profile``.

    Chromium's child processes rewrite their command line into one string (arguments
    joined by spaces), so the type and the profile are looked for in the whole of it.
    """
    found = set()
    marker = str(profile).encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            line = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if b"--type=renderer" in line and marker in line:
            found.add(int(entry.name))
    return found


def _signal_all(pids: set[int], sig: int) -> None:
    for pid in list(pids):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            pids.discard(pid)


@contextlib.contextmanager
def slowed_cpu(page: object, profile: Path, rate: float, mode: str = "") -> Iterator[None]:
    """The processor ``rate`` times slower for ``page`` of the browser on ``profile`` (see
    ``CPU_MODE``), until the block ends; rate 1 changes nothing."""
    mode = mode or CPU_MODE
    if rate <= 1:
        yield
        return
    if mode == "devtools":
        session = page.context.new_cdp_session(page)  # type: ignore[attr-defined]
        session.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        yield
        return
    if mode != "renderer":
        raise ValueError(f"BENCH_CPU_MODE is devtools or renderer, not {mode!r}")
    stop = threading.Event()

    def cycle() -> None:
        pids: set[int] = set()
        run_s = _DUTY_PERIOD_S / rate
        turns = 0
        while not stop.is_set():
            if turns % 5 == 0:  # new renderers come with navigations
                pids |= _renderers(profile)
            turns += 1
            time.sleep(run_s)
            _signal_all(pids, signal.SIGSTOP)
            time.sleep(_DUTY_PERIOD_S - run_s)
            _signal_all(pids, signal.SIGCONT)
        _signal_all(pids, signal.SIGCONT)

    thread = threading.Thread(target=cycle, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
