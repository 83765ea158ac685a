"""The start-up lab: a tiny static site with one page per way of making the engine ready.

Every variant serves the same Pyodide files, the same engine wheel and the same page and
worker code (``lab/``), so the differences between them are the levers alone:

- ``plain``: plain Pyodide in a module worker, unpackArchive of the wheel (the baseline);
- ``lock``: the same with ``lockFileContents`` (no pyodide-lock.json fetch);
- ``snapshot``: restore of the build-time memory snapshot (``rollbook.site_runtime.snapshot``);
- ``snapshot-preload``: the snapshot page with ``<link rel=modulepreload/preload>`` hints.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import zipfile
from pathlib import Path

from tests.bench.harness import CACHE, REPO

__all__ = ["PYODIDE_FILES", "VARIANTS", "build_engine_wheel", "build_lab"]

PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
VARIANTS = ("plain", "lock", "snapshot", "snapshot-preload")
_LAB = Path(__file__).with_name("lab")
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def build_engine_wheel(dest_dir: Path) -> Path:
    """A deterministic wheel of ``rollbook/engine/`` (sources only), like the one the site ships."""
    engine = REPO / "rollbook" / "engine"
    files = [REPO / "rollbook" / "__init__.py"]
    files += sorted(p for p in engine.rglob("*.py") if "__pycache__" not in p.parts)
    dist = "rollbook-0.1.0.dist-info"
    wheel = dest_dir / "rollbook-0.1.0-py3-none-any.whl"
    dest_dir.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(wheel, "w") as archive:
        entries = [(str(p.relative_to(REPO)), p.read_bytes()) for p in files]
        entries += [
            (f"{dist}/METADATA", b"Metadata-Version: 2.1\nName: rollbook\nVersion: 0.1.0\n"),
            (f"{dist}/WHEEL", b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
            (f"{dist}/RECORD", b""),
        ]
        for name, data in entries:
            info = zipfile.ZipInfo(name, _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return wheel


def _page(variant: str, config: dict[str, object]) -> str:
    hints = ""
    if variant == "snapshot-preload":
        hints = "\n".join(
            [
                '<link rel="modulepreload" href="worker.mjs">',
                '<link rel="modulepreload" href="pyodide/pyodide.mjs">',
                '<link rel="modulepreload" href="pyodide/pyodide.asm.mjs">',
                '<link rel="preload" as="fetch" crossorigin href="pyodide/pyodide.asm.wasm">',
                '<link rel="preload" as="fetch" crossorigin href="pyodide/python_stdlib.zip">',
                f'<link rel="preload" as="fetch" crossorigin href="{config["snapshot"]}">',
            ]
        )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>start-up lab: {variant}</title>
{hints}
<script type="application/json" id="lab-config">{json.dumps(config)}</script>
<script type="module" src="page.mjs"></script>
</head><body>
<p>Start-up lab, variant <b>{variant}</b>.</p>
<button id="roll" type="button">4d6kh3</button> <output id="out"></output>
</body></html>
"""


def build_lab(
    root: Path | None = None, *, pyodide_src: Path | None = None, wheel_src: Path | None = None
) -> Path:
    """Build the lab site; returns its directory.

    Args:
        root: Where to build it (default ``.cache/bench/lab``).
        pyodide_src: The Pyodide folder to serve (default: node_modules/pyodide).
        wheel_src: The engine wheel to serve (default: one built from ``engine/``).

    Raises:
        rollbook.site_runtime.snapshot.SnapshotError: the snapshot could not be made.
    """
    from rollbook.site_runtime.snapshot import make_snapshot

    work = root or CACHE / "lab"
    shutil.rmtree(work, ignore_errors=True)
    pyodide_src = pyodide_src or REPO / "node_modules" / "pyodide"
    pyodide_dir = work / "pyodide"
    pyodide_dir.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(pyodide_src / name, pyodide_dir / name)
    if wheel_src:
        (work / "wheels").mkdir()
        wheel = work / "wheels" / wheel_src.name
        shutil.copyfile(wheel_src, wheel)
    else:
        wheel = build_engine_wheel(work / "wheels")
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()[:12]
    snapshot = make_snapshot(
        pyodide_dir, [wheel], work / f"snapshot-{digest}.bin", cache_dir=CACHE / "snapshots"
    )
    for name in ("worker.mjs", "page.mjs"):
        shutil.copyfile(_LAB / name, work / name)
    lock_info = json.loads((pyodide_dir / "pyodide-lock.json").read_text())["info"]
    for variant in VARIANTS:
        # Path-absolute URLs: the worker resolves them against its own script.
        config = {
            "mode": variant.split("-")[0],
            "pyodide": "/pyodide/",
            "wheels": [f"/wheels/{wheel.name}"],
            "snapshot": f"/{snapshot.name}",
            "lockInfo": lock_info,
        }
        (work / f"{variant}.html").write_text(_page(variant, config), encoding="utf-8")
    return work
