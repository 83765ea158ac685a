"""The size of the wheel users install, next to mkdocs-material's wheel.

The rollbook wheel is ``make dist``'s (built here into ``.cache/bench/dist`` when
``dist/`` has none): its Pyodide and start-up snapshot make most of it. The baseline is
the mkdocs-material wheel at the version this repository pins (constraints.txt), fetched
with ``pip download --no-deps`` into ``.cache/bench/wheels`` once.
"""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

from tests.bench.harness import CACHE, REPO, Row

__all__ = ["main"]


def _rollbook_wheel() -> Path:
    found = sorted((REPO / "dist").glob("rollbook-*.whl"))
    if found:
        return found[-1]
    out = CACHE / "dist"
    subprocess.run(
        [sys.executable, str(REPO / "scripts" / "make_dist.py"), "--out", str(out)],
        check=True,
        capture_output=True,
    )
    return sorted(out.glob("rollbook-*.whl"))[-1]


def _material_wheel() -> Path:
    pins = (REPO / "constraints.txt").read_text(encoding="utf-8")
    match = re.search(r"^mkdocs-material==(\S+)$", pins, re.MULTILINE)
    spec = f"mkdocs-material=={match.group(1)}" if match else "mkdocs-material"
    folder = CACHE / "wheels"
    version = match.group(1) if match else ""
    found = sorted(folder.glob(f"mkdocs_material-{version}*.whl"))
    if not found:
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        subprocess.run([*command, "--dest", str(folder), spec], check=True, capture_output=True)
        found = sorted(folder.glob("mkdocs_material-*.whl"))
    return found[-1]


def _runtime_share(wheel: Path) -> float:
    """Compressed bytes of rollbook/runtime/ (Pyodide and the snapshot) in the wheel."""
    with zipfile.ZipFile(wheel) as archive:
        infos = archive.infolist()
    runtime = sum(i.compress_size for i in infos if i.filename.startswith("rollbook/runtime/"))
    return runtime / 1e6


def main() -> list[Row]:
    metric = "wheel size (pip install rollbook)"
    try:
        ours = _rollbook_wheel()
        theirs = _material_wheel()
    except (subprocess.CalledProcessError, IndexError, OSError) as error:
        return [Row(metric, na=f"could not build or fetch a wheel ({error})")]
    return [
        Row(
            metric,
            value=ours.stat().st_size / 1e6,
            baseline=theirs.stat().st_size / 1e6,
            unit="MB",
            baseline_label=theirs.name,
            note=f"{ours.name}; Pyodide and the start-up snapshot are "
            f"{_runtime_share(ours):.1f} MB of it",
        )
    ]
