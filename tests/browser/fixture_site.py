"""A hand-assembled static site for the browser tests: our assets, Pyodide, two wheels.

Used for the page that proves the widgets work without Material (no MkDocs involved), and
by the benchmark's plain-Pyodide baseline. Laid out like a built site:
``assets/rollbook/`` (our JS/CSS + manifest.json), ``assets/pyodide/<version>/``,
``assets/wheels/``.
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import zipfile
from pathlib import Path

from rollbook.site_runtime.build import copy_browser_assets
from rollbook.site_runtime.strings import write_strings

ROOT = Path(__file__).resolve().parents[2]
ASSETS = ROOT / "rollbook" / "assets"
PYODIDE = ROOT / "node_modules" / "pyodide"
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
STATIC = Path(__file__).resolve().parent / "static"


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def build_wheel(dest: Path, name: str, version: str, packages: dict[str, Path]) -> Path:
    """Zip packages (folders, or single files) into a minimal wheel (enough for `unpackArchive`)."""
    wheel = dest / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    files: dict[str, bytes] = {}
    for package, source in packages.items():
        if source.is_file():
            files[package] = source.read_bytes()
            continue
        for path in sorted(source.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                files[f"{package}/{path.relative_to(source).as_posix()}"] = path.read_bytes()
    metadata = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    files[f"{info}/METADATA"] = metadata.encode()
    files[f"{info}/WHEEL"] = (
        b"Wheel-Version: 1.0\nGenerator: rollbook-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    )
    record = [_record_line(n, d) for n, d in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as archive:
        for n, d in files.items():
            archive.writestr(zipfile.ZipInfo(n, date_time=(2020, 1, 1, 0, 0, 0)), d)
    return wheel


def assemble(dest: Path) -> Path:
    """Lay out the static fixture site in `dest`; returns `dest`."""
    import icepool

    version = json.loads((PYODIDE / "package.json").read_text())["version"]
    ours = dest / "assets" / "rollbook"
    copy_browser_assets(ASSETS, ours)
    write_strings(ours, [])  # the reader's text (English), as every build writes it
    pyodide = dest / "assets" / "pyodide" / version
    pyodide.mkdir(parents=True)
    for name in PYODIDE_FILES:
        shutil.copy2(PYODIDE / name, pyodide / name)
    wheels = dest / "assets" / "wheels"
    wheels.mkdir()
    engine_parts = {
        "rollbook/__init__.py": ROOT / "rollbook" / "__init__.py",
        "rollbook/engine": ROOT / "rollbook" / "engine",
    }
    engine = build_wheel(wheels, "rollbook", "0.1.0", engine_parts)
    ice_source = {"icepool": Path(icepool.__file__).parent}
    ice = build_wheel(wheels, "icepool", icepool.__version__, ice_source)
    manifest = {
        "pyodide": f"../pyodide/{version}/",
        "wheels": [f"../wheels/{engine.name}", f"../wheels/{ice.name}"],
        "lock_info": json.loads((PYODIDE / "pyodide-lock.json").read_text())["info"],
    }
    (ours / "manifest.json").write_text(json.dumps(manifest, indent=1))
    for page in STATIC.rglob("*.html"):
        target = dest / page.relative_to(STATIC)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(page, target)
    return dest
