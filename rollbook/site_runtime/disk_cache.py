"""Bytes the build makes from the same input every time, kept on disk by a hash of it.

A site rebuilt with nothing changed in rollbook or Pyodide makes the same trimmed standard
library, the same gzipped runtime and the same wheels; each is made once and then read back
(``.cache/rollbook/pyodide`` of the site). A cache entry is named by the hash of everything
it is made from, so a changed input is a new entry and never a stale one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

__all__ = ["cached", "code_version"]

#: The modules whose code makes what is cached here: an entry is also keyed by their
#: source, so a rollbook that trims, zips, gzips or packs differently never reads back what
#: an older one made (a hand-bumped version was once forgotten: a site's cache kept the old
#: trimmed standard library, and the bytecode and snapshot rollbook ships no longer fit it).
_MAKERS = (
    "disk_cache.py",
    "pyodide_files.py",
    "sources.py",
    "stdlib_trim.py",
    "wheel.py",
    "zips.py",
)


def code_version(folder: Path) -> bytes:
    """A hash of the makers' source in ``folder`` (this package's folder for the cache)."""
    return hashlib.sha256(b"".join((folder / name).read_bytes() for name in _MAKERS)).digest()


_VERSION = code_version(Path(__file__).parent)


#: The last few results of this process, by key: a build without a cache folder (a test's,
#: a ``mkdocs serve`` rebuild) compresses Pyodide's WebAssembly once, not each time (35 s).
_RECENT: dict[str, bytes] = {}
_RECENT_KEEP = 32  # a build makes about ten entries (wheels, zips, the packed files)


def _remember(name: str, data: bytes) -> bytes:
    _RECENT.pop(name, None)
    _RECENT[name] = data
    while len(_RECENT) > _RECENT_KEEP:
        del _RECENT[next(iter(_RECENT))]
    return data


def cached(
    cache_dir: Path | None,
    key: Iterable[bytes],
    make: Callable[[], bytes],
    *,
    bundled: Sequence[Path] = (),
) -> bytes:
    """``make()``, kept in ``cache_dir`` under a hash of the parts of ``key``.

    The process also keeps the last few results in memory, with or without ``cache_dir``;
    ``bundled`` are folders of entries made before (``make dist``), read, never written.
    """
    digest = hashlib.sha256(_VERSION)
    for part in key:
        digest.update(len(part).to_bytes(8, "big") + part)
    name = digest.hexdigest()[:24]
    path = cache_dir / f"{name}.bin" if cache_dir else None
    data = _RECENT.get(name)
    if data is None:
        data = _first_file([path, *(folder / f"{name}.bin" for folder in bundled)])
    if data is None:
        data = make()
    if path is not None and not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{id(data)}.part")  # a build alongside may write it too
        partial.write_bytes(data)
        partial.replace(path)
    return _remember(name, data)


def _first_file(paths: Iterable[Path | None]) -> bytes | None:
    """The bytes of the first of ``paths`` that can be read, if any."""
    for path in paths:
        if path is None:
            continue
        try:
            return path.read_bytes()
        except OSError:
            pass
    return None
