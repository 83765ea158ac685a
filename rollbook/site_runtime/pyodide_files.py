"""The Pyodide files a site serves, made small in themselves.

Many static hosts send binary files exactly as they are, so the files are made small
here rather than left to the host:

- ``pyodide.asm.wasm`` (9.6 MB) and ``pyodide.asm.mjs`` (1.25 MB) are served gzipped
  only, as ``NAME.gz`` (3.5 MB and 0.26 MB); the worker inflates them with the browser's
  ``DecompressionStream`` while they download (the WebAssembly straight into the
  streaming compiler). Chromium's ``DecompressionStream`` offers gzip and deflate only,
  no brotli, so gzip at level 9 it is.
- ``python_stdlib.zip`` is cut to what Pyodide, the engine and icepool import
  (``stdlib_trim``): 2.5 MB become about 0.86 MB.
- ``pyodide.mjs`` and ``pyodide-lock.json`` are copied as they are (the worker skips the
  lock when the manifest carries its ``info``).

Output is byte-identical for identical input. Compressing and trimming take a few
seconds, so with a cache folder the results are kept by a hash of their inputs.
"""

from __future__ import annotations

import functools
import gzip
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from rollbook.site_runtime.disk_cache import cached
from rollbook.site_runtime.stdlib_trim import trim_stdlib

__all__ = [
    "GZIPPED",
    "NODE_HELPER",
    "SOURCE_FILES",
    "node_folder",
    "served_name",
    "trimmed_stdlib",
    "write_pyodide_files",
]

#: Files of the Pyodide distribution the site's files are made from.
SOURCE_FILES = (
    "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
)  # fmt: skip
#: Files served only as ``NAME.gz``.
GZIPPED = ("pyodide.asm.mjs", "pyodide.asm.wasm")
STDLIB = "python_stdlib.zip"


def served_name(name: str) -> str:
    """What file ``name`` of the distribution is called in the site (``NAME.gz`` if gzipped)."""
    return f"{name}.gz" if name in GZIPPED else name


#: What the build's node scripts share (starting Pyodide under node): part of the hash of
#: everything they make.
NODE_HELPER = Path(__file__).parent / "node" / "node_pyodide.mjs"


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


def trimmed_stdlib(source: Path, wheels: Sequence[bytes], cache_dir: Path | None = None) -> bytes:
    """The distribution's standard library cut to what Pyodide and ``wheels`` import."""
    data = (source / STDLIB).read_bytes()
    make = functools.partial(trim_stdlib, data, wheels)
    return cached(cache_dir, [b"stdlib", data, *wheels], make)


def write_pyodide_files(
    source: Path,
    target: Path,
    wheels: Sequence[bytes],
    *,
    cache_dir: Path | None = None,
    stdlib: bytes | None = None,
) -> list[str]:
    """Write the site's Pyodide files from the distribution in ``source`` into ``target``.

    ``wheels`` are the wheels the site ships (their imports decide the stdlib's contents),
    unless ``stdlib`` gives the standard library zip to serve (``bytecode``). Returns the
    names written, sorted.
    """
    target.mkdir(parents=True, exist_ok=True)
    written: list[str] = []
    for name in SOURCE_FILES:
        data = (source / name).read_bytes()
        if name in GZIPPED:
            data = cached(cache_dir, [b"gzip9", data], functools.partial(_gzip, data))
        elif name == STDLIB:
            data = stdlib if stdlib is not None else trimmed_stdlib(source, wheels, cache_dir)
        (target / served_name(name)).write_bytes(data)
        written.append(served_name(name))
    for name in GZIPPED:  # a site built before may hold the uncompressed copies
        (target / name).unlink(missing_ok=True)
    return sorted(written)


def node_folder(site_pyodide: Path) -> tempfile.TemporaryDirectory[str]:
    """A temporary Pyodide folder node can load: the site's files, ``.gz`` ones inflated.

    The build's own Pyodide runs (the snapshot) must see the very files the site serves.
    """
    folder = tempfile.TemporaryDirectory(prefix="rollbook-pyodide-")
    for name in SOURCE_FILES:
        if name in GZIPPED and (site_pyodide / f"{name}.gz").is_file():
            data = gzip.decompress((site_pyodide / f"{name}.gz").read_bytes())
            Path(folder.name, name).write_bytes(data)
        elif (site_pyodide / name).is_file():
            shutil.copyfile(site_pyodide / name, Path(folder.name, name))
    return folder
