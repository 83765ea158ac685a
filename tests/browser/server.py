"""Serve a directory on 127.0.0.1 at a random port, in a background thread.

The server keeps its own record of the paths asked for, and can be told to alter a file
as it sends it or to deny it. Playwright does not always see a nested worker's requests
(the snapshot helper is started by the engine worker), so tests that count or damage those
requests do it here, where every request arrives.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager as ContextManager
from contextlib import contextmanager
from pathlib import Path


class _Quiet(http.server.SimpleHTTPRequestHandler):
    server: QuietServer
    extensions_map = {  # noqa: RUF012 - the stdlib's own attribute, extended
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".mjs": "text/javascript",
        ".js": "text/javascript",
        ".wasm": "application/wasm",
        ".whl": "application/zip",
    }

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self.server.paths.append(self.path)
        for pattern, gate in list(self.server.holds.items()):
            if re.search(pattern, self.path):
                gate.wait()
        for pattern, status in list(self.server.denials.items()):
            if re.search(pattern, self.path):
                self.send_error(status)
                return
        for pattern, alter in list(self.server.alterations.items()):
            if re.search(pattern, self.path):
                self._send_altered(alter)
                return
        for pattern, encoding in list(self.server.encodings.items()):
            if re.search(pattern, self.path):
                self._send_altered(lambda body: body, {"Content-Encoding": encoding})
                return
        super().do_GET()

    def _send_altered(
        self, alter: Callable[[bytes], bytes], headers: dict[str, str] | None = None
    ) -> None:
        body = alter(Path(self.translate_path(self.path)).read_bytes())
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class QuietServer(http.server.ThreadingHTTPServer):
    """A threaded server that does not print a traceback for a dropped connection."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.paths: list[str] = []
        self.alterations: dict[str, Callable[[bytes], bytes]] = {}
        self.denials: dict[str, int] = {}
        self.holds: dict[str, threading.Event] = {}
        self.encodings: dict[str, str] = {}

    def handle_error(self, request: object, client_address: object) -> None:
        # A page closed (or a worker terminated) mid-download is normal in these tests;
        # anything else still prints its traceback.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


_RUNNING: dict[str, QuietServer] = {}
# What a server is told to do with the paths matching a pattern (see the helpers below).
_Rule = Callable[[bytes], bytes] | int | str
_ROOTS: dict[str, Path] = {}


@contextmanager
def serve(root: Path) -> Iterator[str]:
    """Yield the base URL (``http://127.0.0.1:PORT/``) of a server for `root`."""
    handler = functools.partial(_Quiet, directory=str(root))
    server = QuietServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    _RUNNING[base] = server
    _ROOTS[base] = root
    try:
        yield base
    finally:
        del _RUNNING[base], _ROOTS[base]
        server.shutdown()
        server.server_close()


def root_of(base: str) -> Path:
    """The folder the server at `base` serves."""
    return _ROOTS[base]


def requested(base: str) -> list[str]:
    """The live list of paths (with query) the server at `base` has been asked for."""
    return _RUNNING[base].paths


@contextmanager
def _while_open(rules: dict[str, _Rule], pattern: str, rule: _Rule) -> Iterator[None]:
    rules[pattern] = rule
    try:
        yield
    finally:
        del rules[pattern]


def altered(base: str, pattern: str, alter: Callable[[bytes], bytes]) -> ContextManager[None]:
    """While open, send every file whose path matches `pattern` through `alter` first."""
    return _while_open(_RUNNING[base].alterations, pattern, alter)


def encoded(base: str, pattern: str, encoding: str) -> ContextManager[None]:
    """While open, send every file whose path matches `pattern` as it is, saying it is
    `Content-Encoding: encoding` (as hosts that serve ``NAME.br`` as NAME do), so the
    browser decodes it before any script sees it."""
    return _while_open(_RUNNING[base].encodings, pattern, encoding)


def denied(base: str, pattern: str, status: int = 404) -> ContextManager[None]:
    """While open, answer every path matching `pattern` with `status` (an error page)."""
    return _while_open(_RUNNING[base].denials, pattern, status)


@contextmanager
def held(base: str, pattern: str) -> Iterator[threading.Event]:
    """While open, hold every request whose path matches `pattern` until the yielded event
    is set (or the block ends)."""
    gate = threading.Event()
    holds = _RUNNING[base].holds
    holds[pattern] = gate
    try:
        yield gate
    finally:
        gate.set()
        del holds[pattern]


def _without_snapshot_size(body: bytes) -> bytes:
    manifest = json.loads(body)
    manifest.pop("snapshot_size", None)
    return json.dumps(manifest).encode()


@contextmanager
def snapshot_forced(base: str) -> Iterator[None]:
    """While open, the site's engine starts from its snapshot whatever rate it measures.

    The worker fetches the snapshot only where it arrives sooner than a plain start would
    finish (linkspeed.js), and on 127.0.0.1 that depends on how busy the machine is; a
    manifest without ``snapshot_size`` (an older build's) always takes the snapshot. For
    tests of the restore itself, not of the choice.
    """
    with altered(base, r"/assets/rollbook/manifest\.json$", _without_snapshot_size):
        yield


def _without_snapshot(body: bytes) -> bytes:
    manifest = json.loads(body)
    manifest.pop("snapshot", None)
    return json.dumps(manifest).encode()


@contextmanager
def plain_forced(base: str) -> Iterator[None]:
    """While open, the site's engine starts the plain way (its manifest names no snapshot),
    importing only the first roll's code before ready."""
    with altered(base, r"/assets/rollbook/manifest\.json$", _without_snapshot):
        yield
