"""The Pyodide files a site serves, made small in themselves.

Many static hosts send binary files exactly as they are, so the files are made small
here rather than left to the host:

- ``pyodide.asm.wasm`` (9.6 MB), ``pyodide.asm.mjs`` (1.25 MB) and the standard library
  are served brotli-compressed only, as ``NAME.br`` (quality 11: 2.77 MB, 0.21 MB and
  0.69 MB, against 3.53 MB, 0.26 MB and 1.02 MB gzipped). The worker decodes them while
  they download (the WebAssembly straight into the streaming compiler) with a decoder of
  its own (``brotli_decoder``): Chromium's ``DecompressionStream`` knows no brotli.
- ``python_stdlib.zip`` is cut to what Pyodide, the engine and icepool import
  (``stdlib_trim``), and its members are stored, not deflated: brotli packs the whole
  better than deflate packs each member, and Python reads them without inflating.
- ``pyodide.mjs`` and ``pyodide-lock.json`` are copied as they are (the worker skips the
  lock when the manifest carries its ``info``).

Output is byte-identical for identical input. Compressing (about 45 s at quality 11) and
trimming take a while, so with a cache folder the results are kept by a hash of their
inputs; a released rollbook carries the compressed files of its own Pyodide
(``runtime/packed``, written by ``make dist``), so a site's first build does not wait.
"""

from __future__ import annotations

import functools
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

import brotli

from rollbook.site_runtime.disk_cache import cached
from rollbook.site_runtime.stdlib_trim import trim_stdlib
from rollbook.site_runtime.zips import stored

__all__ = [
    "BUNDLED_PACKED",
    "NODE_HELPER",
    "PACKED",
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
STDLIB = "python_stdlib.zip"
_PACKAGE = Path(__file__).resolve().parents[1]
#: The compressed files of the release's own Pyodide, written by ``make dist``.
BUNDLED_PACKED = _PACKAGE / "runtime" / "packed"
#: Where they are read from before being made: the release's, then those the builds of
#: this repository's own checkout made (its shared cache, which the tests' builds fill).
_MADE_BEFORE = (BUNDLED_PACKED, _PACKAGE.parent / ".cache" / "rollbook" / "pyodide" / "packed")
#: Files served only as ``NAME.br``.
PACKED = ("pyodide.asm.mjs", "pyodide.asm.wasm", STDLIB)


def served_name(name: str) -> str:
    """What file ``name`` of the distribution is called in the site (``NAME.br`` if packed)."""
    return f"{name}.br" if name in PACKED else name


#: What the build's node scripts share (starting Pyodide under node): part of the hash of
#: everything they make.
NODE_HELPER = Path(__file__).parent / "node" / "node_pyodide.mjs"


def _brotli(data: bytes) -> bytes:
    return brotli.compress(data, quality=11, lgwin=22)


def unpack(data: bytes) -> bytes:
    """A served ``NAME.br`` file's content."""
    return brotli.decompress(data)


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
        if name == STDLIB:
            data = stdlib if stdlib is not None else trimmed_stdlib(source, wheels, cache_dir)
            data = stored(data)
        if name in PACKED:
            data = cached(
                cache_dir / "packed" if cache_dir else None,
                [b"brotli11", data],
                functools.partial(_brotli, data),
                bundled=_MADE_BEFORE,
            )
        (target / served_name(name)).write_bytes(data)
        written.append(served_name(name))
    for name in PACKED:  # a site built before may hold other copies
        for old in (name, f"{name}.gz"):
            (target / old).unlink(missing_ok=True)
    return sorted(written)


def node_folder(site_pyodide: Path) -> tempfile.TemporaryDirectory[str]:
    """A temporary Pyodide folder node can load: the site's files, ``.br`` ones unpacked.

    The build's own Pyodide runs (the snapshot) must see the very files the site serves.
    """
    folder = tempfile.TemporaryDirectory(prefix="rollbook-pyodide-")
    for name in SOURCE_FILES:
        if name in PACKED and (site_pyodide / served_name(name)).is_file():
            data = unpack((site_pyodide / served_name(name)).read_bytes())
            Path(folder.name, name).write_bytes(data)
        elif (site_pyodide / name).is_file():
            shutil.copyfile(site_pyodide / name, Path(folder.name, name))
    return folder
