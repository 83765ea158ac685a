"""The Pyodide files a site serves: brotli where big, the stdlib trimmed, cached, identical."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import brotli

from rollbook.site_runtime.pyodide_files import (
    PACKED,
    SOURCE_FILES,
    node_folder,
    write_pyodide_files,
)
from rollbook.site_runtime.sources import engine_wheel

PYODIDE = Path(__file__).resolve().parents[2] / "node_modules" / "pyodide"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_written_once_then_from_the_cache_byte_for_byte(tmp_path: Path) -> None:
    wheels = [engine_wheel().data]
    cache = tmp_path / "cache"
    names = write_pyodide_files(PYODIDE, tmp_path / "a", wheels, cache_dir=cache)
    assert names == sorted(f"{n}.br" if n in PACKED else n for n in SOURCE_FILES)
    kept = sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*.bin"))
    assert len(kept) == 4  # three packed files and the trimmed stdlib
    assert len([name for name in kept if name.startswith("packed/")]) == 3
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "pyodide.asm.wasm").write_bytes(b"an older build's copy")
    write_pyodide_files(PYODIDE, tmp_path / "b", wheels, cache_dir=cache)
    write_pyodide_files(PYODIDE, tmp_path / "c", wheels)  # no cache: made afresh
    assert _files(tmp_path / "a") == _files(tmp_path / "b") == _files(tmp_path / "c")
    assert sorted(p.relative_to(cache).as_posix() for p in cache.rglob("*.bin")) == kept
    wasm = (tmp_path / "a" / "pyodide.asm.wasm.br").read_bytes()
    assert brotli.decompress(wasm) == (PYODIDE / "pyodide.asm.wasm").read_bytes()
    assert len(wasm) < 0.3 * (PYODIDE / "pyodide.asm.wasm").stat().st_size
    # The standard library's members are stored: brotli packs the whole archive.
    stdlib = brotli.decompress((tmp_path / "a" / "python_stdlib.zip.br").read_bytes())
    with zipfile.ZipFile(io.BytesIO(stdlib)) as archive:
        assert {info.compress_type for info in archive.infolist()} == {zipfile.ZIP_STORED}
        assert "os.pyc" in archive.namelist() or "os.py" in archive.namelist()


def test_node_gets_the_files_the_site_serves_unpacked(tmp_path: Path) -> None:
    write_pyodide_files(PYODIDE, tmp_path, [engine_wheel().data])
    with node_folder(tmp_path) as folder:
        seen = _files(Path(folder))
    assert sorted(seen) == sorted(SOURCE_FILES)
    assert seen["pyodide.asm.wasm"] == (PYODIDE / "pyodide.asm.wasm").read_bytes()
    assert seen["python_stdlib.zip"] == brotli.decompress(
        (tmp_path / "python_stdlib.zip.br").read_bytes()
    )
