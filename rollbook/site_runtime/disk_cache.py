"""Bytes the build makes from the same input every time, kept on disk by a hash of it.

A site rebuilt with nothing changed in rollbook or Pyodide makes the same trimmed standard
library, the same gzipped runtime and the same wheels; each is made once and then read back
(``.cache/rollbook/pyodide`` of the site). A cache entry is named by the hash of everything
it is made from, so a changed input is a new entry and never a stale one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["cached"]

#: Bumped whenever what the build makes from the same input changes.
_VERSION = b"site-runtime 2"


def cached(cache_dir: Path | None, key: Iterable[bytes], make: Callable[[], bytes]) -> bytes:
    """``make()``, kept in ``cache_dir`` under a hash of the parts of ``key``."""
    if cache_dir is None:
        return make()
    digest = hashlib.sha256(_VERSION)
    for part in key:
        digest.update(len(part).to_bytes(8, "big") + part)
    path = cache_dir / f"{digest.hexdigest()[:24]}.bin"
    try:
        return path.read_bytes()
    except FileNotFoundError:
        pass
    data = make()
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{id(data)}.part")  # a build alongside may write it too
    partial.write_bytes(data)
    partial.replace(path)
    return data
