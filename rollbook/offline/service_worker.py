"""The offline service worker: ``SITE/rollbook-sw.js``, written after everything else.

The worker sits at the site's root, so its scope is the site's base path wherever the site
is deployed (``/`` or ``/rules/``). It carries the list of the site's files, each as
``{"hash", "size", "kind"}`` (its content hash, its size and what it is for); its cache is
named by a hash of that list, so two builds of the same input write the same worker and any
change gives a new cache (and, because the worker's bytes change, an update in every
reader's browser).

With ``enabled=False`` (a site option, and always under ``mkdocs serve``) the same URL gets
a worker that removes itself and its caches, so readers who had the site offline lose it
on their next visit, and the manifest says ``"offline": false`` so pages register nothing.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path, PurePosixPath
from typing import Any, Final, Literal, TypedDict

__all__ = [
    "WORKER_NAME",
    "FileKind",
    "ListedFile",
    "is_redirect_stub",
    "keep_query_in_redirects",
    "search_language_files",
    "site_files",
    "write_offline",
]

WORKER_NAME = "rollbook-sw.js"
_HERE = Path(__file__).resolve().parents[1] / "assets" / "offline"
_WORKER_SOURCE = _HERE / "service_worker.js"
_OFF_SOURCE = _HERE / "service_worker_off.js"
_ASSETS = "assets/rollbook/"

# What each kind of file is for: the worker reads these names (its `FileKind`, in
# rollbook/assets/offline/service_worker.js).
FileKind = Literal["engine", "snapshot", "shell", "page", "other", "later"]
ENGINE: Final = "engine"  # the dice engine: cached when the worker installs
SNAPSHOT: Final = "snapshot"  # the start-up snapshot: the same, unless the reader saves data
SHELL: Final = "shell"  # what every page uses (theme, search index, sitemap, 404): at install
PAGE: Final = "page"  # a page: cached when opened, or by "save this site"
OTHER: Final = "other"  # anything else (the author's images, downloads): when used, or "save"
LATER: Final = "later"  # cached only once something asks for it (source maps, other search)


class ListedFile(TypedDict):
    """One file in the worker's list: the start of its SHA-256 (hex), its size, its kind."""

    hash: str
    size: int
    kind: FileKind


# Material's search for other languages than English; Pyodide files the worker does not read.
_LATER_FOLDERS = ("assets/javascripts/lunr/", "assets/pyodide/")
_SHELL_FOLDERS = ("assets/", "search/")
_SHELL_FILES = ("sitemap.xml", "404.html")
_SEARCH_INDEX = "search/search_index.json"
_LUNR = "assets/javascripts/lunr/"
# Word splitters Material's search loads besides the language's own file.
_LUNR_EXTRA = {"ja": ("tinyseg.js",), "hi": ("wordcut.js",), "th": ("wordcut.js",)}


def _kind(path: str, engine: set[str], snapshot: str | None, search: set[str]) -> FileKind:
    if path == snapshot:
        return SNAPSHOT
    if path in engine:
        return ENGINE
    if path in search:
        return SHELL
    name = PurePosixPath(path).name
    if path.endswith(".html") and name != "404.html":
        return PAGE
    if name.endswith((".map", ".gz")) or path.startswith(_LATER_FOLDERS):
        return LATER
    if path.startswith(_SHELL_FOLDERS) or path in _SHELL_FILES:
        return SHELL
    return OTHER


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


def search_language_files(site_dir: str | Path) -> set[str]:
    """The files Material's search worker loads for the site's search languages.

    The languages are those of ``search/search_index.json`` (``config.lang``: the
    ``search`` plugin's ``lang``, every language under mkdocs-static-i18n); English needs
    none. The worker imports them when search starts, so they are kept with the search index.
    """
    site = Path(site_dir)
    try:
        index = json.loads((site / _SEARCH_INDEX).read_text(encoding="utf-8"))
        langs = [str(lang) for lang in index["config"]["lang"]]
    except (OSError, ValueError, KeyError, TypeError):
        return set()
    wanted: list[str] = []
    for lang in langs:
        wanted.extend(_LUNR_EXTRA.get(lang, ()))
        if lang != "en":
            wanted.append(f"min/lunr.{lang}.min.js")
    if len(langs) > 1:
        wanted.append("min/lunr.multi.min.js")
    if wanted:
        wanted.append("min/lunr.stemmer.support.min.js")
    return {f"{_LUNR}{name}" for name in wanted if (site / _LUNR / name).is_file()}


#: A redirect stub is smaller than this many bytes.
_STUB_SIZE = 4096


def is_redirect_stub(data: bytes) -> bool:
    """A page that only sends the reader elsewhere (mkdocs-redirects' stubs and the like)."""
    head = data[:2048].lower()
    return len(data) < _STUB_SIZE and b'http-equiv="refresh"' in head


def site_files(site_dir: str | Path, manifest: dict[str, Any]) -> dict[str, ListedFile]:
    """``{path: {"hash", "size", "kind"}}`` for every file of the site but the worker itself.

    Redirect stubs are saved with the site but are not its pages (not counted as such).
    """
    site = Path(site_dir)
    engine = _engine_files(site, manifest)
    search = search_language_files(site)
    snapshot = manifest.get("snapshot")
    snapshot_path = f"{_ASSETS}{snapshot}" if isinstance(snapshot, str) else None
    files: dict[str, ListedFile] = {}
    for path in sorted(site.rglob("*")):
        rel = path.relative_to(site).as_posix()
        if not path.is_file() or rel == WORKER_NAME:
            continue
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        kind = _kind(rel, engine, snapshot_path, search)
        if kind == PAGE and is_redirect_stub(data):
            kind = OTHER
        files[rel] = {"hash": digest, "size": len(data), "kind": kind}
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
    keep_query_in_redirects(site)
    files = site_files(site, manifest)
    listing = "".join(f"{path}\0{entry['hash']}\n" for path, entry in files.items())
    version = hashlib.sha256(listing.encode()).hexdigest()[:16]
    # 20 hex digits of each file's hash are plenty to tell two versions of a file apart.
    short = {path: {**entry, "hash": entry["hash"][:20]} for path, entry in files.items()}
    build = json.dumps({"files": short, "version": version}, sort_keys=True, separators=(",", ":"))
    header = (
        "// rollbook's offline service worker for this site, written by the build "
        "(rollbook/offline/service_worker.py).\n"
        f"const BUILD = {build};\n"
    )
    worker.write_text(header + _WORKER_SOURCE.read_text(encoding="utf-8"), encoding="utf-8")
    return version


# mkdocs-redirects' stub: `location.href="TARGET"+(anchor?"#"+anchor:"")` keeps the anchor only.
_STUB_JUMP = re.compile(rb'(location\.href=)("[^"<>]*")(\+\(anchor\?)')


def keep_query_in_redirects(site_dir: str | Path) -> list[str]:
    """Make redirect stubs keep the query as they keep the anchor; return those changed.

    The query is a deep link's (``?roll=...&seed=...``).
    """
    site = Path(site_dir)
    changed = []
    for path in sorted(site.rglob("*.html")):
        if path.stat().st_size >= _STUB_SIZE:  # a page, not a stub: not read (bench row 1b)
            continue
        data = path.read_bytes()
        if not is_redirect_stub(data) or b"location.search" in data:
            continue
        new = _STUB_JUMP.sub(rb"\1\2+location.search\3", data, count=1)
        if new != data:
            path.write_bytes(new)
            changed.append(path.relative_to(site).as_posix())
    return changed
