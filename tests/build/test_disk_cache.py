"""The build's disk cache: the same input reads back the same bytes, a changed input misses."""

from __future__ import annotations

import shutil
from pathlib import Path

from rollbook.site_runtime import disk_cache
from rollbook.site_runtime.disk_cache import cached
from rollbook.site_runtime.sources import engine_files
from rollbook.site_runtime.wheel import build_wheel
from rollbook.site_runtime.zips import zip_files


def test_made_once_then_read_back(tmp_path: Path) -> None:
    calls: list[int] = []

    def make() -> bytes:
        calls.append(1)
        return b"made"

    assert cached(tmp_path, [b"a", b"b"], make) == b"made"
    assert cached(tmp_path, [b"a", b"b"], make) == b"made"
    assert len(calls) == 1
    # The parts are length-prefixed: moving a byte from one part to the next is another key.
    assert cached(tmp_path, [b"ab", b""], make) == b"made"
    assert len(calls) == 2
    assert not list(tmp_path.glob("*.part"))


def test_wheels_and_zips_same_bytes_with_and_without_cache(tmp_path: Path) -> None:
    files = {"pkg/__init__.py": b"X = 1\n", "pkg/data.json": b"{}"}
    plain = build_wheel("pkg", "1.0", files)
    first = build_wheel("pkg", "1.0", files, cache_dir=tmp_path)
    again = build_wheel("pkg", "1.0", files, cache_dir=tmp_path)
    assert plain == first == again
    changed = build_wheel(
        "pkg", "1.0", {**files, "pkg/__init__.py": b"X = 2\n"}, cache_dir=tmp_path
    )
    assert changed.filename != plain.filename and changed.data != plain.data
    assert zip_files(files, tmp_path) == zip_files(files) == zip_files(files, tmp_path)


def test_engine_files_same_with_cache(tmp_path: Path) -> None:
    assert engine_files(tmp_path) == engine_files() == engine_files(tmp_path)


def test_entries_are_keyed_by_the_code_that_makes_them(tmp_path: Path) -> None:
    """A rollbook that trims or packs differently misses what an older one cached."""
    ours = Path(disk_cache.__file__).parent
    assert disk_cache.code_version(ours) == disk_cache._VERSION
    older = tmp_path / "older"
    older.mkdir()
    for name in disk_cache._MAKERS:
        shutil.copy(ours / name, older / name)
    assert disk_cache.code_version(older) == disk_cache._VERSION
    trim = older / "stdlib_trim.py"
    trim.write_text(
        trim.read_text(encoding="utf-8") + "\n# trims one module less\n", encoding="utf-8"
    )
    assert disk_cache.code_version(older) != disk_cache._VERSION


def test_without_a_folder_made_once_per_process() -> None:
    """A build with no cache folder (a test's, a rebuild) still makes the slow parts once."""
    calls: list[int] = []

    def make() -> bytes:
        calls.append(1)
        return b"packed"

    key = [b"once per process", str(id(calls)).encode()]
    assert cached(None, key, make) == cached(None, key, make) == b"packed"
    assert len(calls) == 1
    for n in range(disk_cache._RECENT_KEEP):  # only the last few are kept
        cached(None, [b"another", str(n).encode()], lambda: b"")
    assert cached(None, key, make) == b"packed"
    assert len(calls) == 2
