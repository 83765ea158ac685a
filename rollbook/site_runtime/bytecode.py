"""The site's Python shipped as bytecode, compiled by the Pyodide its readers run.

Pyodide imports from zips (the standard library, the wheels), and zipimport compiles every
``.py`` it imports, on every visit, since it has nowhere to keep the result. On this
machine that compiling was most of Python's start: about 1 s of a plain start, more on a
phone, and the engine's own modules took as long again on a slow processor. Compiled
here, once, they load from ``.pyc`` files instead.

Bytecode is tied to the CPython version inside Pyodide, so ``compile_bytecode.mjs`` (next to
this module) compiles with that very interpreter, in node. Readers without node get what
came with rollbook (``runtime/bytecode``, made at ``make dist`` for the release's own
inputs), or what an earlier build kept in the cache; when neither has a package, it stays
source and only starts slower.

Each ``.py`` becomes a ``.pyc`` at the same path (zipimport finds it there; no source is
kept beside it, so the standard library grows by only about a fifth). Everything is
compiled with docstrings and asserts left out (``-OO``: none of it reads a docstring at
run time, and the engine's few asserts only narrow types for mypy). Same input, same
bytes: see the script.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rollbook.site_runtime.pyodide_files import NODE_HELPER
from rollbook.site_runtime.zips import unzip, zip_files

__all__ = [
    "BUNDLED_BYTECODE",
    "OPTIMIZE",
    "Compiled",
    "compile_packages",
    "package_key",
    "to_bytecode",
]

SCRIPT = Path(__file__).parent / "node" / "compile_bytecode.mjs"
#: Made at ``make dist`` for the release's standard library, engine and icepool.
BUNDLED_BYTECODE = Path(__file__).resolve().parents[1] / "runtime" / "bytecode"
#: The packages the build compiles, with their optimisation level (``compile(optimize=)``).
#: The engine too: its bytecode is about twice the size of its source (248 KB against
#: 118 KB), but on a phone's processor compiling its first roll's modules took longer than
#: the extra bytes take at 20 Mbit/s (docs/reference/performance.md).
OPTIMIZE: dict[str, int] = {"engine": 2, "stdlib": 2, "icepool": 2}
_TIMEOUT_S = 300
#: Compiled packages a cache folder keeps: the least recently used go.
CACHE_KEEP = 9


class _NodeFailed(Exception):
    """node is missing or could not compile; the message says why (a clause)."""


@dataclass
class Compiled:
    """What ``compile_packages`` could compile (label -> files), and why not the rest."""

    packages: dict[str, dict[str, bytes]] = field(default_factory=dict)
    missing: str = ""


def to_bytecode(files: Mapping[str, bytes], compiled: Mapping[str, bytes]) -> dict[str, bytes]:
    """``files`` with each ``.py`` that ``compiled`` holds replaced by its ``.pyc``."""
    out: dict[str, bytes] = {}
    for path, data in files.items():
        if path in compiled:
            out[path + "c"] = compiled[path]
        else:
            out[path] = data
    return out


def package_key(pyodide_version: str, label: str, files: Mapping[str, bytes]) -> str:
    """A hash of what one package's bytecode depends on (first 24 hex digits of SHA-256)."""
    digest = hashlib.sha256(SCRIPT.read_bytes() + NODE_HELPER.read_bytes())
    digest.update(f"{pyodide_version}\0{label}\0{OPTIMIZE[label]}\0".encode())
    for path in sorted(files):
        if path.endswith(".py"):
            digest.update(path.encode() + b"\0" + len(files[path]).to_bytes(8, "big") + files[path])
    return digest.hexdigest()[:24]


def _read(folder: Path | None, key: str, *, used: bool = False) -> dict[str, bytes] | None:
    """The compiled package kept in ``folder`` under ``key``, or None.

    ``used`` marks it as recently used (a cache keeps those).
    """
    if folder is None:
        return None
    path = folder / f"bytecode-{key}.zip"
    try:
        found = unzip(path.read_bytes())
        if used:
            path.touch()
        return found
    except (OSError, zipfile.BadZipFile):
        return None


def _keep(folder: Path, key: str, compiled: Mapping[str, bytes]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"bytecode-{key}.zip"
    partial = target.with_suffix(f".{id(compiled)}.part")  # a build alongside may write it too
    partial.write_bytes(zip_files(compiled))
    partial.replace(target)
    kept = sorted(folder.glob("bytecode-*.zip"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in kept[CACHE_KEEP:]:
        old.unlink(missing_ok=True)


def _run_node(
    node: str, pyodide_dir: Path, todo: Mapping[str, Mapping[str, bytes]]
) -> dict[str, dict[str, bytes]]:
    """Compile ``todo`` (label -> sources) in one node run."""
    node_path = shutil.which(node)
    if not node_path:
        raise _NodeFailed(f"{node!r} (node.js, which compiles it) is not on PATH")
    request = {
        "packages": [
            {
                "label": label,
                "optimize": OPTIMIZE[label],
                "files": {
                    path: base64.b64encode(data).decode()
                    for path, data in sorted(files.items())
                    if path.endswith(".py")
                },
            }
            for label, files in todo.items()
        ]
    }
    with tempfile.TemporaryDirectory(prefix="rollbook-bytecode-") as work:
        given, taken = Path(work, "in.json"), Path(work, "out.json")
        given.write_text(json.dumps(request), encoding="utf-8")
        command = [node_path, str(SCRIPT), "--pyodide", str(pyodide_dir)]
        command += ["--in", str(given), "--out", str(taken)]
        try:
            done = subprocess.run(
                command, capture_output=True, text=True, timeout=_TIMEOUT_S, check=False
            )
        except subprocess.TimeoutExpired:
            raise _NodeFailed(f"node did not finish within {_TIMEOUT_S} s") from None
        if done.returncode != 0 or not taken.is_file():
            said = [ln for ln in done.stderr.splitlines() if ln.startswith("compile_bytecode: ")]
            why = said[-1].removeprefix("compile_bytecode: ") if said else done.stderr[-300:]
            raise _NodeFailed(f"node failed ({why.strip() or done.returncode})")
        reply = json.loads(taken.read_text(encoding="utf-8"))["packages"]
    return {
        label: {path: base64.b64decode(pyc) for path, pyc in files.items()}
        for label, files in reply.items()
    }


def compile_packages(
    pyodide_dir: Path,
    pyodide_version: str,
    packages: Mapping[str, Mapping[str, bytes]],
    *,
    cache_dir: Path | None = None,
    bundled_dir: Path | None = BUNDLED_BYTECODE,
    node: str = "node",
) -> Compiled:
    """The ``.pyc`` of each package's ``.py`` files (label -> {source path: pyc bytes}).

    ``packages`` maps a label of ``OPTIMIZE`` to its files (paths as in its zip). Each
    package comes from ``bundled_dir``, else ``cache_dir``, else one node run for all the
    rest; a package none of them gives is left out, and ``missing`` says why.
    """
    result = Compiled()
    todo: dict[str, Mapping[str, bytes]] = {}
    keys = {label: package_key(pyodide_version, label, files) for label, files in packages.items()}
    for label, key in keys.items():
        found = _read(bundled_dir, key) or _read(cache_dir, key, used=True)
        if found is None:
            todo[label] = packages[label]
        else:
            result.packages[label] = found
    if not todo:
        return result
    try:
        made = _run_node(node, pyodide_dir, todo)
    except _NodeFailed as error:
        result.missing = (
            f"{', '.join(sorted(todo))} left as source, which readers' browsers compile on "
            f"every visit (none came with rollbook for these files, and {error})"
        )
        return result
    for label, compiled in made.items():
        result.packages[label] = compiled
        if cache_dir is not None:
            _keep(cache_dir, keys[label], compiled)
    return result
