"""``make dist``: build the rollbook wheel, with its Pyodide and snapshot, into ``dist/``.

1. Copy the package sources (the files git tracks or would track; no caches) into a clean
   temporary folder, so nothing of this checkout's state (build/, egg-info) leaks in.
2. Fill ``rollbook/runtime/`` there: the pinned Pyodide files the site serves, with their
   licence, the standard library and icepool compiled to bytecode by that Pyodide
   (``runtime/bytecode``), and the start-up snapshot made for them (node makes it, or the
   snapshot cache of ``make build`` already holds it), under their input hashes.
3. Build the wheel from that copy with ``python -m build --no-isolation`` (the pinned
   setuptools of this venv) and ``SOURCE_DATE_EPOCH`` set to the last commit's time, so
   two builds of one commit are byte-identical.

Run with the repository's venv: ``.venv/bin/python scripts/make_dist.py [--out DIR]``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# What the wheel is built from; everything else of the checkout stays out.
SOURCES = (
    "pyproject.toml",
    "README.md",
    "LICENSE",
    "CHANGELOG.md",
    "rollbook",
    # setup.py copies the demo's authoring guide into the wheel (rollbook new --guide)
    "setup.py",
    "MANIFEST.in",
    "docs/authoring",
    "docs/reference/dice-grammar.md",
)
PYODIDE_LICENSE = REPO / "licenses" / "pyodide-MPL-2.0.txt"
SNAPSHOT_CACHE = REPO / ".cache" / "rollbook" / "snapshots"
EPOCH_FALLBACK = 315532800  # 1980-01-01, the earliest date a zip file can hold

# Runs inside the clean copy (PYTHONPATH): the snapshot's key must hash the very engine
# files the wheel holds. Prints the snapshot file's name.
_SNAPSHOT = """
import shutil, sys, tempfile
from pathlib import Path
import rollbook
from rollbook.site_runtime import build_site_assets
from rollbook.site_runtime.bytecode import BUNDLED_BYTECODE
from rollbook.site_runtime.pyodide_files import BUNDLED_PACKED
from rollbook.site_runtime.runtime import BUNDLED_PYODIDE, BUNDLED_SNAPSHOTS
from rollbook.site_runtime.snapshot import add_snapshot
assert Path(rollbook.__file__).resolve().is_relative_to(Path.cwd().resolve()), rollbook.__file__
with tempfile.TemporaryDirectory() as site, tempfile.TemporaryDirectory() as cache:
    # A fresh cache holds exactly this build's compiled packages: they ship, and the
    # snapshot is made of the very files they become.
    manifest = build_site_assets(site, BUNDLED_PYODIDE, cache_dir=Path(cache))
    assert manifest["bytecode"] == ["engine", "icepool", "stdlib"], manifest["bytecode"]
    BUNDLED_BYTECODE.mkdir(parents=True, exist_ok=True)
    for made in sorted(Path(cache, "bytecode").glob("bytecode-*.zip")):
        shutil.copyfile(made, BUNDLED_BYTECODE / made.name)
    # The brotli-compressed Pyodide files: a site's first build reads them, not 45 s of work.
    BUNDLED_PACKED.mkdir(parents=True, exist_ok=True)
    for made in sorted(Path(cache, "packed").glob("*.bin")):
        shutil.copyfile(made, BUNDLED_PACKED / made.name)
    manifest = Path(site, "assets", "rollbook", "manifest.json")
    name = add_snapshot(manifest, cache_dir=Path(sys.argv[1]))
    BUNDLED_SNAPSHOTS.mkdir(parents=True, exist_ok=True)
    packed = BUNDLED_SNAPSHOTS / name.replace(".bin", ".packed")
    shutil.copyfile(manifest.parent / name, packed)
print(packed.name)
"""


def say(message: str) -> None:
    """Say what the build does, on stderr."""
    print(f"make dist: {message}", file=sys.stderr, flush=True)


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(
            ["git", *args], cwd=REPO, capture_output=True, text=True, check=False, timeout=60
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def source_files() -> list[Path]:
    """The files to build from, relative to the repository (git's view when there is one)."""
    listed = _git("ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *SOURCES)
    if listed is not None:
        files = [Path(p) for p in listed.split("\0") if p]
    else:  # an unpacked archive: every file but caches
        files = [
            p.relative_to(REPO)
            for name in SOURCES
            for p in ([REPO / name] if (REPO / name).is_file() else (REPO / name).rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts
        ]
    return sorted(p for p in files if (REPO / p).is_file() and "runtime" not in p.parts[1:2])


def fill_runtime(src: Path) -> None:
    """Copy the pinned Pyodide into ``src/rollbook/runtime/pyodide`` and make the snapshot."""
    sys.path.insert(0, str(src))  # the clean copy's file list and pin, not the checkout's
    from rollbook.site_runtime.build import PYODIDE_FILES
    from rollbook.site_runtime.runtime import PYODIDE_VERSION, find_pyodide

    found = find_pyodide(None, project_dir=REPO)  # node_modules/pyodide: `make setup`
    target = src / "rollbook" / "runtime" / "pyodide"
    target.mkdir(parents=True)
    for name in (*PYODIDE_FILES, "package.json"):
        shutil.copyfile(found / name, target / name)
    shutil.copyfile(PYODIDE_LICENSE, target / "LICENSE")
    (target / "README.md").write_text(
        f"Pyodide {PYODIDE_VERSION} (https://pyodide.org, https://github.com/pyodide/pyodide),\n"
        "the files of its npm package that a rollbook site serves, unchanged. Pyodide is\n"
        "distributed under the Mozilla Public License 2.0 (LICENSE here); the Python standard\n"
        "library in python_stdlib.zip is under the Python Software Foundation License.\n",
        encoding="utf-8",
    )
    # The brotli decoder the worker unpacks Pyodide's files with (brotli_decoder.py).
    from rollbook.site_runtime.brotli_decoder import DECODER_FILES, PACKAGE

    decoder = REPO / "node_modules" / PACKAGE / "pkg"  # `make setup`, pinned by package.json
    if not all((decoder / name).is_file() for name in DECODER_FILES):
        raise SystemExit(f"make dist: {decoder} lacks the brotli decoder: run `make setup`.")
    version = json.loads((decoder.parent / "package.json").read_text(encoding="utf-8"))["version"]
    shipped = src / "rollbook" / "runtime" / PACKAGE
    shipped.mkdir(parents=True)
    for name in DECODER_FILES:
        shutil.copyfile(decoder / name, shipped / name)
    for licence in ("LICENSE-MIT.txt", "LICENSE-Apache.txt"):
        shutil.copyfile(decoder.parent / licence, shipped / licence)
    (shipped / "README.md").write_text(
        f"{PACKAGE} {version} (https://github.com/ustclug-dev/brotli-dec-wasm),\n"
        "the files of its npm package's pkg/ folder, unchanged; MIT or Apache-2.0, at your\n"
        "choice (LICENSE-MIT.txt, LICENSE-Apache.txt).\n",
        encoding="utf-8",
    )
    say(f"Pyodide {PYODIDE_VERSION} from {found.relative_to(REPO)}; making the snapshot")
    done = subprocess.run(
        [sys.executable, "-c", _SNAPSHOT, str(SNAPSHOT_CACHE)],
        cwd=src,
        env={**os.environ, "PYTHONPATH": str(src)},
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"make dist: the snapshot could not be made:\n{done.stderr}")
    say(f"snapshot {done.stdout.strip()}")


def epoch() -> str:
    """The last commit's time (the fallback: 1980), for reproducible archive dates."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return os.environ["SOURCE_DATE_EPOCH"]
    stamp = (_git("log", "-1", "--format=%ct") or "").strip()
    return stamp if stamp.isdigit() else str(EPOCH_FALLBACK)


def main(argv: list[str]) -> int:
    """Build the wheel and the sdist; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=REPO / "dist", help="default: dist/")
    args = parser.parse_args(argv)
    out: Path = args.out.resolve()
    with tempfile.TemporaryDirectory(prefix="rollbook-dist-") as tmp:
        src = Path(tmp) / "src"
        for rel in source_files():
            (src / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, src / rel)
        fill_runtime(src)
        built = Path(tmp) / "dist"
        env = {**os.environ, "SOURCE_DATE_EPOCH": epoch()}
        command = [sys.executable, "-m", "build", "--wheel", "--no-isolation"]
        done = subprocess.run(
            [*command, "--outdir", str(built), str(src)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"make dist: building the wheel failed:\n{done.stdout}{done.stderr}")
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("rollbook-*.whl"):
            old.unlink()
        for wheel in sorted(built.glob("*.whl")):
            shutil.copyfile(wheel, out / wheel.name)
            size = wheel.stat().st_size / 1e6
            print(f"{(out / wheel.name).relative_to(Path.cwd(), walk_up=True)}  ({size:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
