"""The build-time Pyodide memory snapshot (rollbook.site_runtime.snapshot + make_snapshot.mjs).

The node-backed tests make real snapshots (a few seconds each): two builds must be byte
for byte the same, and a restore must answer with the engine already imported and give the
same seeded roll as CPython.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from rollbook.engine.bridge import handle
from rollbook.site_runtime.snapshot import (
    CACHE_KEEP,
    SNAPSHOT_IMPORTS,
    SnapshotError,
    _memoised,
    add_snapshot,
    make_snapshot,
    snapshot_key,
)
from rollbook.site_runtime.snapshot_pack import pack_for_site, unpack
from rollbook.site_runtime.sources import engine_wheel

REPO = Path(__file__).resolve().parents[2]
PYODIDE = REPO / "node_modules" / "pyodide"

# Restores a snapshot under node the way the worker does, then reports what Python sees.
RESTORE = """
import { readFileSync } from "node:fs";
const [dir, snap, wheel] = process.argv.slice(2);
const { loadPyodide } = await import(dir + "/pyodide.mjs");
const { info } = JSON.parse(readFileSync(dir + "/pyodide-lock.json", "utf8"));
const py = await loadPyodide({
  indexURL: dir + "/", lockFileContents: { info, packages: {} },
  _loadSnapshot: new Uint8Array(readFileSync(snap)), stdout: () => {}, stderr: () => {},
});
const preloaded = py.runPython("import sys; 'rollbook.engine.bridge' in sys.modules");
// As worker.js does: the wheel goes back where the snapshot had it on sys.path.
py.FS.mkdirTree("/lib/rollbook");
py.FS.writeFile("/lib/rollbook/" + wheel.split("/").pop(), new Uint8Array(readFileSync(wheel)));
// Source read back from the wheel (what a module imported after the restore needs).
const lazy = py.runPython(
  "import inspect, rollbook.engine.bridge as b; inspect.getsource(b.handle)");
py.runPython("import random; random.seed()");
const roll = py.runPython(`from rollbook.engine.bridge import handle_json
handle_json('{"op": "roll", "expr": "4d6kh3+2d8", "seed": 12345}')`);
const unseeded = py.runPython(`handle_json('{"op": "roll", "expr": "10d10000"}')`);
const seen = { preloaded, lazy, roll: JSON.parse(roll), unseeded: JSON.parse(unseeded) };
console.log(JSON.stringify(seen));
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    built = engine_wheel()
    path = tmp_path_factory.mktemp("wheels") / built.filename
    path.write_bytes(built.data)
    return path


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory, wheel: Path) -> Path:
    return make_snapshot(PYODIDE, [wheel], tmp_path_factory.mktemp("snap") / "a.bin")


def _restore(snapshot: Path, wheel: Path, tmp: Path) -> dict:  # type: ignore[type-arg]
    script = tmp / "restore.mjs"
    script.write_text(RESTORE, encoding="utf-8")
    done = subprocess.run(
        ["node", str(script), str(PYODIDE), str(snapshot), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_two_builds_are_byte_identical(snapshot: Path, wheel: Path, tmp_path: Path) -> None:
    again = make_snapshot(PYODIDE, [wheel], tmp_path / "b.bin")
    assert again.read_bytes() == snapshot.read_bytes()


def test_restore_has_the_engine_and_rolls_like_cpython(
    snapshot: Path, wheel: Path, tmp_path: Path
) -> None:
    first = _restore(snapshot, wheel, tmp_path)
    second = _restore(snapshot, wheel, tmp_path)
    assert first["preloaded"] is True
    assert first["lazy"].startswith("def handle(")  # the wheel is reachable after a restore
    assert first["roll"] == handle({"op": "roll", "expr": "4d6kh3+2d8", "seed": 12345})
    # Unseeded rolls draw fresh entropy after every restore, not the build's frozen state.
    assert first["unseeded"]["total"] != second["unseeded"]["total"]


def test_add_snapshot_lists_it_in_the_manifest(snapshot: Path, wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "assets"
    ours = site / "rollbook"
    (ours / "wheels").mkdir(parents=True)
    shutil.copytree(PYODIDE, site / "pyodide", ignore=shutil.ignore_patterns("*.map", "*.d.ts"))
    shutil.copyfile(wheel, ours / "wheels" / wheel.name)
    (ours / "snapshot-0000000000000000.bin").write_bytes(b"stale")
    manifest = ours / "manifest.json"
    manifest.write_text(
        json.dumps({"pyodide": "../pyodide/", "wheels": [f"wheels/{wheel.name}"]}),
        encoding="utf-8",
    )
    # A warm cache holding the fixture's snapshot: no second node run.
    cache = tmp_path / "cache"
    cache.mkdir()
    key = snapshot_key(site / "pyodide", [ours / "wheels" / wheel.name], SNAPSHOT_IMPORTS)
    (cache / f"snapshot-{key}.packed").write_bytes(pack_for_site(snapshot.read_bytes()))

    name = add_snapshot(manifest, cache_dir=cache)

    assert name == f"snapshot-{key}.bin"
    listed = json.loads(manifest.read_text(encoding="utf-8"))
    assert listed["snapshot"] == name
    assert listed["snapshot_bytes"] == len(snapshot.read_bytes())  # the memory's size
    assert listed["snapshot_size"] == (ours / name).stat().st_size  # what its download costs
    # Served packed (zero pages left out, gzip; deterministically); the browser unpacks it.
    assert unpack((ours / name).read_bytes()) == snapshot.read_bytes()
    assert (ours / name).read_bytes() == pack_for_site(snapshot.read_bytes())
    assert not (ours / "snapshot-0000000000000000.bin").exists()


def test_key_follows_the_wheel_and_the_imports(wheel: Path, tmp_path: Path) -> None:
    other = tmp_path / wheel.name
    other.write_bytes(wheel.read_bytes() + b"\0")
    key = snapshot_key(PYODIDE, [wheel], SNAPSHOT_IMPORTS)
    assert key == snapshot_key(PYODIDE, [wheel], SNAPSHOT_IMPORTS)
    assert key != snapshot_key(PYODIDE, [other], SNAPSHOT_IMPORTS)
    assert key != snapshot_key(PYODIDE, [wheel], ("rollbook.engine.bridge",))


def test_missing_node_is_one_sentence(wheel: Path, tmp_path: Path) -> None:
    with pytest.raises(SnapshotError, match="is not on PATH"):
        make_snapshot(PYODIDE, [wheel], tmp_path / "x.bin", node="no-such-node-here")


def test_missing_pyodide_is_one_sentence(wheel: Path, tmp_path: Path) -> None:
    with pytest.raises(SnapshotError, match=r"pyodide\.mjs is missing"):
        make_snapshot(tmp_path, [wheel], tmp_path / "x.bin")


def test_a_failing_import_is_reported(wheel: Path, tmp_path: Path) -> None:
    with pytest.raises(
        SnapshotError,
        match=r"node failed \(ModuleNotFoundError: No module named .no_such_module.\)",
    ):
        make_snapshot(PYODIDE, [wheel], tmp_path / "x.bin", imports=("no_such_module",))


def test_the_cache_keeps_the_most_recently_used_snapshots(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    for age, key in enumerate(["aa", "bb", "cc", "dd"]):  # aa is the newest, dd the oldest
        for suffix in (".bin", ".packed"):
            path = cache / f"snapshot-{key}{suffix}"
            path.write_bytes(key.encode())
            os.utime(path, (1e9 - age * 100, 1e9 - age * 100))
    # A hit on the oldest makes it the most recently used ...
    _memoised(cache / "snapshot-dd.bin", tmp_path / "out.bin", make=lambda: None)
    assert (tmp_path / "out.bin").read_bytes() == b"dd"
    # ... so a new snapshot pushes out the least recently used one instead (both its files).
    made = tmp_path / "new.bin"
    _memoised(cache / "snapshot-ee.bin", made, make=lambda: made.write_bytes(b"ee"))
    left = sorted(p.name for p in cache.iterdir())
    assert CACHE_KEEP == 3
    assert left == [
        "snapshot-aa.bin",
        "snapshot-aa.packed",
        "snapshot-dd.bin",
        "snapshot-dd.packed",
        "snapshot-ee.bin",
    ], left


def test_an_unreadable_input_is_one_sentence_not_a_traceback(
    wheel: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An installed rollbook once lacked make_snapshot.mjs, and every build died on it.
    missing = tmp_path / "make_snapshot.mjs"
    monkeypatch.setattr("rollbook.site_runtime.snapshot.SCRIPT", missing)
    sentence = r"^no Pyodide snapshot: .*make_snapshot\.mjs cannot be read\.$"
    with pytest.raises(SnapshotError, match=sentence):
        snapshot_key(PYODIDE, [wheel], SNAPSHOT_IMPORTS)
