"""Where the site's Pyodide and snapshot come from, and what a build says when they do not.

Order: the folder the author names, the copy that comes with rollbook (``rollbook/runtime``,
written by ``make dist``), ``node_modules/pyodide`` beside mkdocs.yml (development).
"""

from __future__ import annotations

import io
import json
import logging
import shutil
import zipfile
from pathlib import Path

import brotli
import pytest
from mkdocs.config import load_config

import rollbook
from rollbook.cli import main as cli_main
from rollbook.site_runtime import SitewideError, build_site_assets, runtime
from rollbook.site_runtime.runtime import PYODIDE_VERSION, find_pyodide
from rollbook.site_runtime.snapshot import default_imports, snapshot_key
from rollbook.site_runtime.snapshot_pack import memory_size, pack_for_site
from tests.build.plugin_only import only

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"


def _fake_pyodide(folder: Path, version: str = PYODIDE_VERSION) -> Path:
    folder.mkdir(parents=True)
    (folder / "pyodide.mjs").write_text("// not really\n")
    (folder / "package.json").write_text(json.dumps({"version": version}))
    return folder


@pytest.fixture()
def no_bundle(monkeypatch, tmp_path):
    """A rollbook without ``rollbook/runtime`` (an editable install, like this repository's)."""
    monkeypatch.setattr(runtime, "BUNDLED_PYODIDE", tmp_path / "no-runtime" / "pyodide")


def test_the_pinned_version_is_the_one_package_json_installs():
    pinned = json.loads((ROOT / "package.json").read_text())["dependencies"]["pyodide"]
    assert pinned == PYODIDE_VERSION
    assert json.loads((PYODIDE / "package.json").read_text())["version"] == pinned


def test_an_explicit_folder_comes_first(monkeypatch, tmp_path):
    monkeypatch.setattr(runtime, "BUNDLED_PYODIDE", _fake_pyodide(tmp_path / "bundled"))
    assert find_pyodide(str(PYODIDE), project_dir=tmp_path) == PYODIDE
    # A relative folder is relative to mkdocs.yml's folder.
    assert find_pyodide("node_modules/pyodide", project_dir=ROOT) == PYODIDE


def test_the_bundled_copy_comes_before_node_modules(monkeypatch, tmp_path):
    bundled = _fake_pyodide(tmp_path / "bundled")
    monkeypatch.setattr(runtime, "BUNDLED_PYODIDE", bundled)
    assert find_pyodide(None, project_dir=ROOT) == bundled


def test_node_modules_beside_mkdocs_yml_is_the_development_fallback(no_bundle):
    assert find_pyodide(None, project_dir=ROOT) == ROOT / "node_modules" / "pyodide"


def test_nothing_found_is_one_sentence(no_bundle, tmp_path):
    with pytest.raises(SitewideError) as caught:
        find_pyodide(None, project_dir=tmp_path)
    assert str(caught.value) == (
        f"this rollbook {rollbook.__version__} has no Pyodide with it: reinstall it from a "
        "release (`pip install --force-reinstall rollbook`), name a folder holding Pyodide "
        f"{PYODIDE_VERSION} with the plugin option `pyodide_path` (`--pyodide` for `rollbook "
        "assets`), or set `pyodide_required: false` to build the site without live dice; in "
        "rollbook's own repository run `make setup`."
    )


@pytest.mark.parametrize("explicit", [True, False])
def test_a_wrong_version_is_named_not_reported_missing(no_bundle, tmp_path, explicit):
    old = _fake_pyodide(tmp_path / "node_modules" / "pyodide", "0.27.1")
    with pytest.raises(SitewideError) as caught:
        find_pyodide(str(old) if explicit else None, project_dir=tmp_path)
    assert str(caught.value).startswith(f"found Pyodide 0.27.1 in {old} (")
    assert str(caught.value).endswith(
        f"rollbook {rollbook.__version__} needs Pyodide {PYODIDE_VERSION}."
    )


def _site(tmp_path: Path, options: str = "") -> tuple:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n![roll:1d6]()\n")
    yml = "site_name: t\nplugins:\n  - search\n  - rollbook" + options + "\n"
    (tmp_path / "mkdocs.yml").write_text(yml)
    config = load_config(str(tmp_path / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
    config.plugins.on_config(config)
    Path(config.site_dir).mkdir()
    return config, config.plugins["rollbook"]


def test_pyodide_not_required_still_writes_our_assets(no_bundle, tmp_path, caplog):
    config, plugin = _site(tmp_path, ":\n      pyodide_required: false")
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.rollbook"):
        only(plugin).on_post_build(config=config)
    ours = Path(config.site_dir) / "assets" / "rollbook"
    assert (ours / "rollbook.js").is_file() and (ours / "rollbook.css").is_file()
    manifest = json.loads((ours / "manifest.json").read_text())
    assert "pyodide" not in manifest and "snapshot" not in manifest
    assert manifest["no_runtime"] == "this site was built without Pyodide, so its dice cannot roll"
    assert not (Path(config.site_dir) / "assets" / "pyodide").exists()
    assert [r.levelname for r in caplog.records] == ["INFO"]
    assert "pyodide_required: false" in caplog.records[0].getMessage()


def test_without_node_or_bundled_files_the_build_says_what_stays_slower(
    no_bundle, tmp_path, monkeypatch, caplog
):
    config, plugin = _site(tmp_path, f":\n      pyodide_path: {PYODIDE}")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr("rollbook.site_runtime.runtime.BUNDLED_SNAPSHOTS", tmp_path / "none")
    monkeypatch.setattr("rollbook.site_runtime.build.BUNDLED_BYTECODE", tmp_path / "none")
    with caplog.at_level(logging.INFO, logger="mkdocs.plugins.rollbook"):
        only(plugin).on_post_build(config=config)
    messages = [(r.levelname, r.getMessage()) for r in caplog.records]
    assert [level for level, _ in messages] == ["INFO", "INFO"]
    bytecode, snapshot = messages[0][1], messages[1][1]
    assert bytecode.startswith("rollbook: engine, icepool, stdlib left as source")
    assert "'node' (node.js, which compiles it) is not on PATH" in bytecode
    assert "`snapshot: false` skips this step." in snapshot and "node" in snapshot
    manifest = json.loads((Path(config.site_dir) / "assets/rollbook/manifest.json").read_text())
    assert manifest["pyodide_version"] == PYODIDE_VERSION and "snapshot" not in manifest
    assert manifest["bytecode"] == []
    stdlib = Path(config.site_dir) / "assets" / manifest["pyodide"].removeprefix("../")
    served = brotli.decompress((stdlib / "python_stdlib.zip.br").read_bytes())
    names = zipfile.ZipFile(io.BytesIO(served)).namelist()
    assert "json/__init__.py" in names and not any(n.endswith(".pyc") for n in names)


def test_a_bundled_snapshot_with_the_sites_key_is_used_without_node(
    no_bundle, tmp_path, monkeypatch, caplog
):
    site = tmp_path / "site"
    site.mkdir()
    # The bytecode is kept where the CLI's build below looks (--snapshot-cache's sibling),
    # as a release's is in runtime/bytecode: the snapshot is made of those very files.
    build_site_assets(site, PYODIDE, cache_dir=tmp_path / "pyodide")
    ours = site / "assets" / "rollbook"
    manifest = json.loads((ours / "manifest.json").read_text())
    wheels = [(ours / w).resolve() for w in manifest["wheels"]]
    served = (ours / manifest["pyodide"]).resolve()
    key = snapshot_key(served, wheels, default_imports(wheels))
    bundled = tmp_path / "snapshots"
    bundled.mkdir()
    packed = pack_for_site(b"\1" * 8192 + bytes(4096))
    (bundled / f"snapshot-{key}.packed").write_bytes(packed)
    shutil.rmtree(site)
    site.mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))  # no node: only the bundle can serve
    monkeypatch.setattr("rollbook.site_runtime.runtime.BUNDLED_SNAPSHOTS", bundled)
    cache = ["--snapshot-cache", str(tmp_path / "cache")]
    assert cli_main(["assets", str(site), "--pyodide", str(PYODIDE), *cache]) == 0
    manifest = json.loads((ours / "manifest.json").read_text())
    assert manifest["bytecode"] == ["engine", "icepool", "stdlib"]
    assert manifest["snapshot"] == f"snapshot-{key}.bin"
    assert (ours / manifest["snapshot"]).read_bytes() == packed
    assert manifest["snapshot_bytes"] == memory_size(packed) == 12288


def test_cli_assets_without_node_or_bundle_works_and_names_no_snapshot(
    no_bundle, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    monkeypatch.setattr("rollbook.site_runtime.runtime.BUNDLED_SNAPSHOTS", tmp_path / "none")
    cache = ["--snapshot-cache", str(tmp_path / "cache")]
    assert cli_main(["assets", str(tmp_path), "--pyodide", str(PYODIDE), *cache]) == 0
    err = capsys.readouterr().err
    assert "is not on PATH" in err and err.rstrip().endswith("`--no-snapshot` skips this step.")
    assert (tmp_path / "assets" / "rollbook" / "manifest.json").is_file()
