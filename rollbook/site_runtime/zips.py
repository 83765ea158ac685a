"""Zip archives the build writes byte-identically.

The trimmed and compiled standard library, and the compiled packages it keeps (wheels have
their own writer, ``wheel``).
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Mapping
from pathlib import Path

from rollbook.site_runtime.disk_cache import cached

__all__ = ["stored", "unzip", "zip_files"]

_EPOCH = (1980, 1, 1, 0, 0, 0)


def unzip(data: bytes) -> dict[str, bytes]:
    """The files of a zip archive, by path (folders left out)."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {
            info.filename: archive.read(info) for info in archive.infolist() if not info.is_dir()
        }


def zip_files(files: Mapping[str, bytes], cache_dir: Path | None = None) -> bytes:
    """A deterministic zip of ``files``: sorted entries, fixed times and modes, deflate 9.

    With ``cache_dir``, kept there by a hash of the entries (``disk_cache``).
    """
    key = [b"zip"] + [part for name in sorted(files) for part in (name.encode(), files[name])]
    return cached(cache_dir, key, lambda: _zip(files))


def stored(data: bytes) -> bytes:
    """The zip archive ``data`` with its files stored, not deflated (same order, times, modes).

    For an archive served compressed whole: the compressor packs it better than deflate
    packs each member, and Python reads the members without inflating them.
    """
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as archive:
        for info in source.infolist():
            item = zipfile.ZipInfo(info.filename, date_time=info.date_time)
            item.compress_type = zipfile.ZIP_STORED
            item.external_attr = info.external_attr
            archive.writestr(item, source.read(info))
    return out.getvalue()


def _zip(files: Mapping[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            item = zipfile.ZipInfo(name, date_time=_EPOCH)
            item.compress_type = zipfile.ZIP_DEFLATED
            item.external_attr = 0o644 << 16
            archive.writestr(item, files[name], compresslevel=9)
    return out.getvalue()
