"""Site-wide work: deterministic wheels, the Pyodide copy, the manifest, `rollbook assets`."""

from __future__ import annotations

import base64
import csv
import gzip
import hashlib
import io
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import brotli
import pytest

from rollbook.cli import main
from rollbook.site_runtime import SitewideError, build_site_assets
from rollbook.site_runtime.build import EARLY_WASM_LINE, PYODIDE_FILES
from rollbook.site_runtime.sources import engine_wheel, icepool_wheel
from rollbook.site_runtime.wheel import build_wheel

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"


def test_wheel_is_byte_identical_and_named_by_content():
    files = {"pkg/__init__.py": b"X = 1\n", "pkg/a.py": b"Y = 2\n"}
    one = build_wheel("demo-pkg", "1.0", files)
    two = build_wheel("demo-pkg", "1.0", dict(reversed(list(files.items()))))
    assert one.data == two.data
    assert one.filename.startswith("demo_pkg-1.0+") and one.filename.endswith("-py3-none-any.whl")
    changed = build_wheel("demo-pkg", "1.0", {**files, "pkg/a.py": b"Y = 3\n"})
    assert changed.filename != one.filename
    assert one.sha256 == hashlib.sha256(one.data).hexdigest()


def test_wheel_record_matches_every_entry():
    wheel = build_wheel("demo", "2.0", {"demo/__init__.py": b"pass\n"})
    with zipfile.ZipFile(io.BytesIO(wheel.data)) as archive:
        names = archive.namelist()
        info = next(n for n in names if n.endswith(".dist-info/RECORD"))
        assert names[-1] == info  # RECORD last
        assert all(i.date_time == (1980, 1, 1, 0, 0, 0) for i in archive.infolist())
        rows = list(csv.reader(io.StringIO(archive.read(info).decode())))
        assert sorted(r[0] for r in rows) == sorted(names)
        for path, digest, size in rows:
            if path == info:
                assert digest == "" and size == ""
                continue
            data = archive.read(path)
            expect = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            assert digest == f"sha256={expect}" and int(size) == len(data)
        wheel_meta = archive.read(info.replace("RECORD", "WHEEL")).decode()
        assert "Tag: py3-none-any" in wheel_meta and "Root-Is-Purelib: true" in wheel_meta


def test_engine_wheel_holds_the_engine_only_and_imports_alone(tmp_path):
    wheel = engine_wheel()
    assert wheel.data == engine_wheel().data
    with zipfile.ZipFile(io.BytesIO(wheel.data)) as archive:
        names = archive.namelist()
        archive.extractall(tmp_path)
    assert "rollbook/__init__.py" in names and "rollbook/engine/bridge.py" in names
    tops = {n.split("/")[0] for n in names if not n.startswith("rollbook_engine-")}
    assert tops == {"rollbook"}
    inside = {n.split("/")[1] for n in names if n.startswith("rollbook/") and n.count("/") >= 2}
    assert inside == {"engine"}
    assert not [n for n in names if "__pycache__" in n]
    # Import from the wheel alone, isolated from the checkout (-I; cwd elsewhere).
    code = (
        "import sys, json; sys.path.insert(0, sys.argv[1]); import rollbook.engine.bridge as b;"
        "print(json.dumps(b.handle({'op': 'roll', 'expr': '2d6', 'seed': 1})));"
        "print(b.__file__)"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code, str(tmp_path)], capture_output=True, text=True,
        cwd=tmp_path, check=True,
    ).stdout.splitlines()  # fmt: skip
    assert json.loads(out[0])["notation"] == "2d6"
    assert out[1].startswith(str(tmp_path))


def test_icepool_wheel_repacks_the_installed_package():
    wheel = icepool_wheel()
    assert wheel.filename.startswith("icepool-2.2.2+")
    with zipfile.ZipFile(io.BytesIO(wheel.data)) as archive:
        names = archive.namelist()
    assert "icepool/__init__.py" in names
    assert not [n for n in names if n.endswith(".pyc")]


def test_build_site_assets_layout_and_manifest(tmp_path):
    manifest = build_site_assets(tmp_path, PYODIDE)
    ours = tmp_path / "assets" / "rollbook"
    text = (ours / "manifest.json").read_text()
    assert json.loads(text) == manifest
    assert text == json.dumps(manifest, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    version = json.loads((PYODIDE / "package.json").read_text())["version"]
    # Named by version and contents: another standard library (other wheels, bytecode or
    # not) gets another address, so files kept forever by browsers are never mixed.
    assert re.fullmatch(rf"\.\./pyodide/{re.escape(version)}-[0-9a-f]{{10}}/", manifest["pyodide"])
    assert manifest["pyodide_version"] == version
    served = (ours / manifest["pyodide"]).resolve()
    other = tmp_path / "other"
    other.mkdir()
    assert build_site_assets(other, PYODIDE, bytecode=False)["pyodide"] != manifest["pyodide"]
    for name in PYODIDE_FILES:
        if name == "python_stdlib.zip":  # trimmed: tests/build/test_stdlib_trim.py
            continue
        if name in manifest["pyodide_br"]:  # served brotli-compressed only
            assert (
                brotli.decompress((served / f"{name}.br").read_bytes())
                == (PYODIDE / name).read_bytes()
            )
        else:
            assert (served / name).read_bytes() == (PYODIDE / name).read_bytes()
    assert sorted(p.name for p in served.iterdir()) == sorted(
        f"{name}.br" if name in manifest["pyodide_br"] else name for name in PYODIDE_FILES
    )
    assert manifest["pyodide_br"] == ["pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"]
    # The decoder the worker unpacks them with sits beside it, its WebAssembly gzipped.
    decoder = ROOT / "node_modules" / "brotli-dec-wasm" / "pkg"
    assert (ours / "brotli_dec_wasm.js").read_bytes() == (
        decoder / "brotli_dec_wasm.js"
    ).read_bytes()
    assert (
        gzip.decompress((ours / "brotli_dec_wasm_bg.wasm.gz").read_bytes())
        == (decoder / "brotli_dec_wasm_bg.wasm").read_bytes()
    )
    for key in ("engine", "icepool"):
        entry = manifest[key]
        data = (ours / entry["path"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == entry["sha256"]
    assert manifest["wheels"] == [manifest["engine"]["path"], manifest["icepool"]["path"]]
    assert "rollbook.js" in manifest["assets"] and "worker.js" in manifest["assets"]
    assert all((ours / a).is_file() for a in manifest["assets"])
    assert manifest["lock_info"]["arch"] == "wasm32"


def test_the_worker_names_the_webassembly_the_manifest_names(tmp_path):
    # worker.js starts that download before the manifest is in; it must be the same file.
    manifest = build_site_assets(tmp_path, PYODIDE)
    ours = tmp_path / "assets" / "rollbook"
    worker = (ours / "worker.js").read_text(encoding="utf-8")
    named = re.findall(r'^const EARLY_WASM = "(.*)";$', worker, re.MULTILINE)
    assert named == [manifest["pyodide"] + "pyodide.asm.wasm.br"]
    assert (ours / named[0]).is_file()
    # Everything else is the source as it is.
    source = (ROOT / "rollbook" / "assets" / "worker" / "worker.js").read_text(encoding="utf-8")
    assert worker == source.replace(EARLY_WASM_LINE, f'const EARLY_WASM = "{named[0]}";')
    # A site without Pyodide: the line stays empty (the worker starts nothing early).
    bare = tmp_path / "bare"
    bare.mkdir()
    build_site_assets(bare, None)
    assert EARLY_WASM_LINE in (bare / "assets" / "rollbook" / "worker.js").read_text()


def test_a_worker_source_without_the_line_is_a_clear_error(tmp_path):
    assets = tmp_path / "assets-source"
    for realm in ("page", "shared", "worker"):
        shutil.copytree(ROOT / "rollbook" / "assets" / realm, assets / realm)
    worker = assets / "worker" / "worker.js"
    worker.write_text(worker.read_text().replace(EARLY_WASM_LINE, "const EARLY = 1;"))
    site = tmp_path / "site"
    site.mkdir()
    with pytest.raises(SitewideError, match=r"worker\.js has no line 'const EARLY_WASM"):
        build_site_assets(site, PYODIDE, assets_source=assets)


def test_rebuild_is_identical_and_drops_stale_wheels(tmp_path):
    build_site_assets(tmp_path, PYODIDE)
    wheels = tmp_path / "assets" / "rollbook" / "wheels"
    stale = wheels / "rollbook_engine-0.0.1+old-py3-none-any.whl"
    stale.write_bytes(b"old")
    first = (tmp_path / "assets" / "rollbook" / "manifest.json").read_bytes()
    build_site_assets(tmp_path, PYODIDE)
    assert not stale.exists()
    assert (tmp_path / "assets" / "rollbook" / "manifest.json").read_bytes() == first


def test_missing_pyodide_is_a_clear_error(tmp_path):
    with pytest.raises(SitewideError, match=r"Pyodide was not found in .*run `make setup`"):
        build_site_assets(tmp_path, tmp_path / "no-pyodide")


def test_missing_site_is_a_clear_error(tmp_path):
    with pytest.raises(SitewideError, match="is not a folder: build the site first"):
        build_site_assets(tmp_path / "nope", PYODIDE)


def test_cli_assets(tmp_path, capsys):
    assert main(["assets", str(tmp_path), "--pyodide", str(PYODIDE), "--no-icepool"]) == 0
    manifest = json.loads((tmp_path / "assets" / "rollbook" / "manifest.json").read_text())
    assert "icepool" not in manifest and len(manifest["wheels"]) == 1
    assert "manifest.json" in capsys.readouterr().out


def test_cli_assets_without_pyodide_exits_2(tmp_path, capsys):
    assert main(["assets", str(tmp_path), "--pyodide", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert f"Pyodide was not found in {tmp_path / 'x'} (the folder named for Pyodide)" in err
