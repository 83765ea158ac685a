"""The offline service worker: ``SITE/rollbook-sw.js``, written after everything else.

The worker sits at the site's root, so its scope is the site's base path wherever the site
is deployed (``/`` or ``/rules/``). It carries the list of the site's files, each with a
content hash, its size and what it is for; its cache is named by a hash of that list, so
two builds of the same input write the same worker and any change gives a new cache (and,
because the worker's bytes change, an update in every reader's browser).

With ``enabled=False`` (a site option, and always under ``mkdocs serve``) the same URL gets
a worker that removes itself and its caches, so readers who had the site offline lose it
on their next visit, and the manifest says ``"offline": false`` so pages register nothing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path, PurePosixPath
from typing import Any

__all__ = ["WORKER_NAME", "site_files", "write_offline"]

WORKER_NAME = "rollbook-sw.js"
_HERE = Path(__file__).resolve().parents[1] / "assets" / "offline"
_WORKER_SOURCE = _HERE / "service_worker.js"
_OFF_SOURCE = _HERE / "service_worker_off.js"
_ASSETS = "assets/rollbook/"

# What each kind of file is for (the worker reads these letters):
ENGINE = "e"  # the dice engine: cached when the worker installs
OPTIONAL = "o"  # the start-up snapshot: the same, unless the reader asked to save data
SHELL = "t"  # what every page uses (theme, search index, sitemap, 404): cached at install
PAGE = "p"  # a page: cached when opened, or by "save this site"
SAVED = "s"  # anything else (the author's images, downloads): cached when used, or by "save"
LATER = "r"  # cached only once something asks for it (source maps, other languages' search)
# Material's search for other languages than English; Pyodide files the worker does not read.
_LATER_FOLDERS = ("assets/javascripts/lunr/", "assets/pyodide/")
_SHELL_FOLDERS = ("assets/", "search/")
_SHELL_FILES = ("sitemap.xml", "404.html")


def _kind(path: str, engine: set[str], snapshot: str | None) -> str:
    if path == snapshot:
        return OPTIONAL
    if path in engine:
        return ENGINE
    name = PurePosixPath(path).name
    if path.endswith(".html") and name != "404.html":
        return PAGE
    if name.endswith((".map", ".gz")) or path.startswith(_LATER_FOLDERS):
        return LATER
    if path.startswith(_SHELL_FOLDERS) or path in _SHELL_FILES:
        return SHELL
    return SAVED


def _engine_files(site: Path, manifest: dict[str, Any]) -> set[str]:
    """Our assets folder and the Pyodide files the worker reads (the lock only if no lock_info)."""
    found = {p.relative_to(site).as_posix() for p in (site / _ASSETS).rglob("*") if p.is_file()}
    pyodide = manifest.get("pyodide")
    if isinstance(pyodide, str):
        folder = (site / _ASSETS / pyodide).resolve()
        if folder.is_dir() and site.resolve() in folder.parents:
            for path in folder.iterdir():
                if path.is_file() and not (
                    path.name == "pyodide-lock.json" and "lock_info" in manifest
                ):
                    found.add(path.relative_to(site.resolve()).as_posix())
    return found


def site_files(site_dir: str | Path, manifest: dict[str, Any]) -> dict[str, list[Any]]:
    """``{path: [hash, size, kind]}`` for every file of the site but the worker itself."""
    site = Path(site_dir)
    engine = _engine_files(site, manifest)
    snapshot = manifest.get("snapshot")
    snapshot_path = f"{_ASSETS}{snapshot}" if isinstance(snapshot, str) else None
    files: dict[str, list[Any]] = {}
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if not path.is_file() or rel == WORKER_NAME:
            continue
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        files[rel] = [digest, len(data), _kind(rel, engine, snapshot_path)]
    return files


def _write_manifest(path: Path, manifest: dict[str, Any]) -> None:
    text = json.dumps(manifest, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    path.write_text(text, encoding="utf-8")


def write_offline(site_dir: str | Path, *, enabled: bool = True) -> str | None:
    """Write ``SITE/rollbook-sw.js`` and the manifest's ``offline`` entry.

    Returns the cache version (a hash of every file of the site), or None when the worker
    written is the one that removes itself. The manifest must exist already
    (``build_site_assets``, then the snapshot, then this).
    """
    site = Path(site_dir)
    manifest_path = site / _ASSETS / "manifest.json"
    manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    worker = site / WORKER_NAME
    if not enabled:
        manifest["offline"] = False
        _write_manifest(manifest_path, manifest)
        worker.write_text(_OFF_SOURCE.read_text(encoding="utf-8"), encoding="utf-8")
        return None
    manifest["offline"] = {"worker": f"../../{WORKER_NAME}"}
    _write_manifest(manifest_path, manifest)
    files = site_files(site, manifest)
    listing = "".join(f"{path}\0{entry[0]}\n" for path, entry in files.items())
    version = hashlib.sha256(listing.encode()).hexdigest()[:16]
    # 20 hex digits of each file's hash are plenty to tell two versions of a file apart.
    short = {path: [entry[0][:20], entry[1], entry[2]] for path, entry in files.items()}
    build = json.dumps({"files": short, "version": version}, sort_keys=True, separators=(",", ":"))
    header = (
        "// rollbook's offline service worker for this site, written by the build "
        "(rollbook/offline/service_worker.py).\n"
        f"const BUILD = {build};\n"
    )
    worker.write_text(header + _WORKER_SOURCE.read_text(encoding="utf-8"), encoding="utf-8")
    return version
