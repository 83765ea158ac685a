"""A deterministic ``py3-none-any`` wheel writer (no setuptools, no timestamps).

Same input files, same bytes out: entries are sorted, every timestamp is 1980-01-01, modes
are fixed, and the version carries a hash of the package files (``0.1.0+1a2b3c4d5e6f``), so
the file name changes exactly when the content does and browsers can cache it forever.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from rollbook.site_runtime.disk_cache import cached

__all__ = ["Wheel", "build_wheel", "content_hash"]

_EPOCH = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True)
class Wheel:
    """A built wheel: its file name, bytes and their sha256 (hex)."""

    filename: str
    data: bytes
    sha256: str


def content_hash(files: Mapping[str, bytes]) -> str:
    """First 12 hex digits of a sha256 over the sorted (name, content) pairs."""
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + len(files[name]).to_bytes(8, "big") + files[name])
    return digest.hexdigest()[:12]


def _record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def build_wheel(
    name: str,
    version: str,
    files: Mapping[str, bytes],
    summary: str = "",
    extra_dist_info: Mapping[str, bytes] | None = None,
    cache_dir: Path | None = None,
) -> Wheel:
    """Pack ``files`` (archive path -> bytes) as a pure-Python wheel.

    Args:
        name: Distribution name (normalized to ``a_b`` in the file name).
        version: Base version; ``+<content hash>`` is appended.
        files: Package files, e.g. ``{"engine/__init__.py": b"..."}``.
        summary: One-line ``Summary:`` for METADATA.
        extra_dist_info: More files for the ``.dist-info`` folder (e.g. a licence).
        cache_dir: Where the archive is kept by a hash of its entries (``disk_cache``).
    """
    dist = re.sub(r"[-_.]+", "_", name).lower()
    full_version = f"{version}+{content_hash(files)}"
    info = f"{dist}-{full_version}.dist-info"
    meta = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {full_version}\n"
        + (f"Summary: {summary}\n" if summary else "")
    ).encode()
    wheel_file = (
        b"Wheel-Version: 1.0\nGenerator: rollbook.site_runtime\nRoot-Is-Purelib: true\n"
        b"Tag: py3-none-any\n"
    )
    entries = dict(files)
    entries[f"{info}/METADATA"] = meta
    entries[f"{info}/WHEEL"] = wheel_file
    for extra, data in (extra_dist_info or {}).items():
        entries[f"{info}/{extra}"] = data
    record_name = f"{info}/RECORD"
    record = (
        "".join(
            f"{path},{_record_hash(data)},{len(data)}\n" for path, data in sorted(entries.items())
        )
        + f"{record_name},,\n"
    )
    entries[record_name] = record.encode()

    key = [b"wheel"] + [part for path in sorted(entries) for part in (path.encode(), entries[path])]
    data = cached(cache_dir, key, lambda: _archive(entries, info, record_name))
    return Wheel(f"{dist}-{full_version}-py3-none-any.whl", data, hashlib.sha256(data).hexdigest())


def _archive(entries: Mapping[str, bytes], info: str, record_name: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        # Package files first, .dist-info last (RECORD at the very end), as installers expect.
        order = sorted(entries, key=lambda p: (p.startswith(info), p == record_name, p))
        for path in order:
            item = zipfile.ZipInfo(path, date_time=_EPOCH)
            item.compress_type = zipfile.ZIP_DEFLATED
            item.create_system = 3  # Unix, whatever machine builds it
            item.external_attr = 0o644 << 16
            archive.writestr(item, entries[path], compresslevel=9)
    return buffer.getvalue()
