"""Pyodide memory snapshot of the engine, made at site build time with node.

Restoring a snapshot skips Python's start-up and the engine's imports in the reader's
browser (the bulk of Pyodide's ready time). The snapshot is made by ``make_snapshot.mjs``
(next to this module) from the very Pyodide copy and wheels the site serves, so it always
matches them; Pyodide refuses a snapshot from another build. Output is byte-identical for
identical inputs, and memoised on disk by a hash of those inputs.

The file is named by that hash (``snapshot-<hash>.bin``: a new name whenever an input
changes, so hosts and browsers may cache it forever) and listed in the manifest as
``"snapshot"``, relative to the manifest like its other URLs.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

import brotli

from rollbook.engine import startup
from rollbook.site_runtime.build import ASSETS_SOURCE, SitewideError
from rollbook.site_runtime.pyodide_files import (
    NODE_HELPER,
    PACKED,
    node_folder,
    served_name,
    unpack,
)
from rollbook.site_runtime.snapshot_pack import MAGIC, memory_size, pack_for_site

__all__ = [
    "ICEPOOL_IMPORTS",
    "SNAPSHOT_IMPORTS",
    "SnapshotError",
    "SnapshotUnavailable",
    "add_snapshot",
    "default_imports",
    "make_snapshot",
    "snapshot_key",
]

#: Modules imported before the memory is frozen: what a plain start imports before ready
#: and everything it imports after (``rollbook.engine.startup``), rule systems included (a
#: fight's first request then costs no import time either).
SNAPSHOT_IMPORTS: tuple[str, ...] = tuple(
    name for name in (*startup.FIRST, *startup.later()) if name not in startup.ODDS
)
#: Added when the site ships icepool: importing it takes seconds in Pyodide and adds only
#: ~0.25 MB (brotli).
ICEPOOL_IMPORTS: tuple[str, ...] = startup.ODDS

SCRIPT = Path(__file__).parent / "node" / "make_snapshot.mjs"
#: The wheel mounting the script shares with the site's worker (part of the snapshot's key).
MOUNT = ASSETS_SOURCE / "worker" / "wheels.js"
# Files of the Pyodide distribution whose bytes end up in, or decide, the snapshot.
_PYODIDE_INPUTS = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
_TIMEOUT_S = 300
#: Snapshots a cache folder keeps (about 7 MB each for a site). Every change of the engine
#: or of Pyodide makes a new one; the least recently used go.
CACHE_KEEP = 3


def _input_file(pyodide_dir: Path, name: str) -> Path:
    """The file of ``_PYODIDE_INPUTS`` as found in ``pyodide_dir``.

    A site serves some only brotli-compressed (``pyodide_files``); their ``.br`` stands for
    them.
    """
    packed = pyodide_dir / served_name(name)
    return packed if name in PACKED and packed.is_file() else pyodide_dir / name


class SnapshotError(SitewideError):
    """The snapshot could not be made; the message says why in one sentence.

    The site still works without one (the worker starts Pyodide the ordinary way), so
    callers may report this as a warning.
    """


class SnapshotUnavailable(SnapshotError):
    """No snapshot for these inputs came with rollbook, none is cached, and node is missing.

    Expected wherever rollbook runs without Node.js on inputs it was not released with (a
    site with ``wheels_icepool: false``, say): callers report it as information.
    """


def _last_error(done: subprocess.CompletedProcess[str]) -> str:
    """What make_snapshot.mjs said went wrong (its ``make_snapshot: ...`` line)."""
    for line in reversed(done.stderr.splitlines()):
        if line.startswith("make_snapshot: "):
            return line.removeprefix("make_snapshot: ").strip()
    short = [line.strip() for line in done.stderr.splitlines() if 0 < len(line.strip()) < 300]
    return short[-1] if short else f"exit status {done.returncode}"


def snapshot_key(pyodide_dir: Path, wheels: Sequence[Path], imports: Sequence[str]) -> str:
    """A short hash of everything the snapshot depends on (first 16 hex digits of SHA-256).

    The served layout's tag (``snapshot_pack.MAGIC``) is in it too: a new layout gets a new
    file name, so a copy cached forever under the old name is never read as the new one.

    Raises:
        SnapshotError: one of those files cannot be read (an installation without
            ``make_snapshot.mjs``, say); the build goes on without a snapshot.
    """
    digest = hashlib.sha256()
    try:
        digest.update(MAGIC + SCRIPT.read_bytes() + NODE_HELPER.read_bytes() + MOUNT.read_bytes())
        for name in _PYODIDE_INPUTS:
            path = _input_file(pyodide_dir, name)
            data = path.read_bytes()
            if path.suffix == ".br":  # what it stands for: another brotli packs it otherwise
                data = unpack(data)
            digest.update(name.encode() + b"\0" + data)
        for wheel in wheels:
            digest.update(wheel.name.encode() + b"\0" + wheel.read_bytes())
    except (OSError, brotli.error) as error:
        raise SnapshotError(
            f"no Pyodide snapshot: {getattr(error, 'filename', None) or error} cannot be read."
        ) from None
    digest.update("\0".join(imports).encode())
    return digest.hexdigest()[:16]


def default_imports(wheels: Sequence[Path]) -> tuple[str, ...]:
    """What to import for these wheels: ours, plus icepool's when its wheel is among them."""
    if any(wheel.name.startswith("icepool-") for wheel in wheels):
        return SNAPSHOT_IMPORTS + ICEPOOL_IMPORTS
    return SNAPSHOT_IMPORTS


def make_snapshot(
    pyodide_dir: Path,
    wheels: Sequence[Path],
    out: Path,
    *,
    imports: Sequence[str] = SNAPSHOT_IMPORTS,
    cache_dir: Path | None = None,
    node: str = "node",
) -> Path:
    """Write a snapshot of Pyodide with ``wheels`` on ``sys.path`` and ``imports`` imported.

    Args:
        pyodide_dir: Directory holding ``pyodide.mjs`` and the rest of the npm package.
        wheels: Wheels to put on ``sys.path`` (as zip archives) first, in order.
        out: File to write.
        imports: Modules to import before freezing.
        cache_dir: Where to memoise snapshots by input hash (None: always make it).
        node: The node executable.

    Returns:
        ``out``.

    Raises:
        SnapshotError: node is missing, or it failed (its last error line is quoted).
    """
    for name in _PYODIDE_INPUTS:
        if not _input_file(pyodide_dir, name).is_file():
            raise SnapshotError(f"no Pyodide snapshot: {pyodide_dir / name} is missing.")
    out.parent.mkdir(parents=True, exist_ok=True)
    cached = None
    if cache_dir:
        cached = cache_dir / f"snapshot-{snapshot_key(pyodide_dir, wheels, imports)}.bin"

    def make() -> None:
        with node_folder(pyodide_dir) as folder:
            _run_node(node, Path(folder), wheels, imports, out)

    return _memoised(cached, out, make)


def _memoised(cached: Path | None, out: Path, make: Callable[[], None]) -> Path:
    """``cached`` copied to ``out`` if it exists; else ``make()`` writes ``out``, then cached."""
    if cached:
        try:
            shutil.copyfile(cached, out)
            os.utime(cached)  # recently used, so kept by _prune
            return out
        except FileNotFoundError:  # not made yet, or pruned by a build running alongside
            pass
    make()
    if cached:
        cached.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(out, cached)
        _prune(cached.parent)
    return out


def _prune(folder: Path, keep: int = CACHE_KEEP) -> None:
    """Delete all but the ``keep`` most recently used snapshots in ``folder``, every file."""
    used: dict[str, float] = {}
    for path in folder.glob("snapshot-*"):
        try:
            when = path.stat().st_mtime
        except FileNotFoundError:  # pruned meanwhile by a build running alongside
            continue
        key = path.name.split(".")[0]
        used[key] = max(used.get(key, 0.0), when)
    for key in sorted(used, key=used.__getitem__, reverse=True)[keep:]:
        for path in folder.glob(f"{key}.*"):
            path.unlink(missing_ok=True)


def _run_node(
    node: str, pyodide_dir: Path, wheels: Sequence[Path], imports: Sequence[str], out: Path
) -> None:
    """Make the snapshot with make_snapshot.mjs into ``out``."""
    node_path = shutil.which(node)
    if not node_path:
        raise SnapshotUnavailable(
            f"no Pyodide snapshot: none came with rollbook for this site's wheels, and {node!r} "
            "(node.js, which makes one) is not on PATH; the site works, its dice start slower."
        )
    command = [node_path, str(SCRIPT), "--pyodide", str(pyodide_dir), "--out", str(out)]
    for wheel in wheels:
        command += ["--wheel", str(wheel)]
    for name in imports:
        command += ["--import", name]
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=_TIMEOUT_S, check=False
        )
    except subprocess.TimeoutExpired:
        raise SnapshotError(
            f"no Pyodide snapshot: node did not finish within {_TIMEOUT_S} s."
        ) from None
    if done.returncode != 0 or not out.is_file():
        raise SnapshotError(f"no Pyodide snapshot: node failed ({_last_error(done)}).")


def add_snapshot(
    manifest_path: Path,
    *,
    imports: Sequence[str] | None = None,
    cache_dir: Path | None = None,
    node: str = "node",
    bundled_dir: Path | None = None,
) -> str:
    """Make the snapshot for a built site and list it in its manifest.

    Reads ``pyodide`` and ``wheels`` from the manifest (URLs relative to it), writes
    ``snapshot-<hash>.bin`` next to the manifest and adds ``"snapshot"`` (its name) and
    ``"snapshot_bytes"`` (the size of the memory in it) to the manifest. The file is
    packed (``snapshot_pack``: zero pages left out, gzip): static hosts rarely compress
    binary files, and 31 MB of memory would then travel as they are; the browser unpacks it.

    Args:
        manifest_path: The site's ``assets/rollbook/manifest.json``.
        imports: Modules to import before freezing (default: ``default_imports(wheels)``).
        cache_dir: Where to memoise snapshots (None: always make it).
        node: The node executable.
        bundled_dir: Read-only snapshots made for a release (``snapshot-<key>.packed``),
            used before the cache and node when one has this site's key.

    Returns:
        The manifest's new ``snapshot`` value (relative URL).

    Raises:
        SnapshotError: the manifest is unusable or the snapshot could not be made.
    """
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        pyodide_dir = (manifest_path.parent / manifest["pyodide"]).resolve()
        wheels = [(manifest_path.parent / w).resolve() for w in manifest.get("wheels", [])]
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SnapshotError(
            f"no Pyodide snapshot: {manifest_path} is unusable ({error})."
        ) from None
    if imports is None:
        imports = default_imports(wheels)
    key = snapshot_key(pyodide_dir, wheels, imports)
    name = f"snapshot-{key}.bin"
    for stale in manifest_path.parent.glob("snapshot-*.bin"):
        if stale.name != name:
            stale.unlink()
    target = manifest_path.parent / name

    def make_packed() -> None:
        make_snapshot(pyodide_dir, wheels, target, imports=imports, node=node)
        target.write_bytes(pack_for_site(target.read_bytes()))

    # Only the packed file is kept: the memory would be 31 MB more per snapshot, and the
    # packed file already stands for it (same key, and packing is deterministic).
    bundled = bundled_dir / f"snapshot-{key}.packed" if bundled_dir else None
    if bundled is not None and bundled.is_file():
        shutil.copyfile(bundled, target)
    else:
        cached = cache_dir / f"snapshot-{key}.packed" if cache_dir else None
        _memoised(cached, target, make_packed)
    manifest["snapshot"] = name
    # Known before the file arrives, the size lets Pyodide set up while it downloads.
    manifest["snapshot_bytes"] = memory_size(target.read_bytes())
    # What the download costs: the worker weighs it against the link's measured rate.
    manifest["snapshot_size"] = target.stat().st_size
    # The same layout as rollbook.site_runtime.build writes.
    text = json.dumps(manifest, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    manifest_path.write_text(text, encoding="utf-8")
    return name
