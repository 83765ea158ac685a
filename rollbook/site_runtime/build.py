"""Write rollbook's run-time files into a built site and the manifest the browser reads.

Layout (URLs in the manifest are relative to the manifest itself)::

    SITE/assets/rollbook/manifest.json
    SITE/assets/rollbook/<browser assets, copied from rollbook/assets>
    SITE/assets/rollbook/wheels/rollbook_engine-0.1.0+<hash>-py3-none-any.whl
    SITE/assets/rollbook/wheels/icepool-2.2.2+<hash>-py3-none-any.whl
    SITE/assets/rollbook/brotli_dec_wasm.js, brotli_dec_wasm_bg.wasm.gz (``brotli_decoder``)
    SITE/assets/pyodide/<version>-<hash>/{pyodide.mjs, pyodide.asm.mjs.br, pyodide.asm.wasm.br,
                                    python_stdlib.zip.br (trimmed), pyodide-lock.json}
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rollbook.language import Catalogue
from rollbook.site_runtime.brotli_decoder import write_decoder
from rollbook.site_runtime.bytecode import BUNDLED_BYTECODE, OPTIMIZE, compile_packages, to_bytecode
from rollbook.site_runtime.pages import write_page_list
from rollbook.site_runtime.pyodide_files import (
    PACKED,
    served_name,
    trimmed_stdlib,
    write_pyodide_files,
)
from rollbook.site_runtime.sources import engine_files, engine_wheel, icepool_files, icepool_wheel
from rollbook.site_runtime.strings import write_strings
from rollbook.site_runtime.wheel import Wheel
from rollbook.site_runtime.zips import unzip, zip_files

__all__ = [
    "ASSETS_SOURCE",
    "BROWSER_REALMS",
    "MANIFEST_NAME",
    "PYODIDE_FILES",
    "SitewideError",
    "build_site_assets",
    "early_wasm",
]

MANIFEST_NAME = "manifest.json"
ASSETS_SOURCE = Path(__file__).resolve().parents[1] / "assets"
#: The folders of ASSETS_SOURCE a site serves, flat, from ``assets/rollbook/``.
BROWSER_REALMS = ("page", "shared", "worker")
# What a module worker's loadPyodide() fetches: pyodide.mjs imports pyodide.asm.mjs, which
# loads the wasm, the standard library and the lock file. pyodide.js (classic) is not needed.
PYODIDE_FILES = (
    "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
)  # fmt: skip


class SitewideError(Exception):
    """Something the site needs is missing; the message says how to fix it."""


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _pyodide_version(source: Path) -> str:
    version = _read_json(source / "package.json").get("version")
    if not isinstance(version, str) or not version:
        raise SitewideError(f"cannot tell which Pyodide version is in {source} (no package.json).")
    return version


def _check_pyodide(source: Path) -> str:
    """The version of the Pyodide distribution in ``source``; SitewideError if incomplete."""
    missing = [name for name in PYODIDE_FILES if not (source / name).is_file()]
    if missing:
        raise SitewideError(
            f"Pyodide was not found in {source} (missing {', '.join(missing)}): run `make setup`, "
            "or name the folder holding pyodide.mjs: the plugin's `pyodide_path`, or "
            "`rollbook assets --pyodide DIR`."
        )
    return _pyodide_version(source)


def copy_pyodide(
    source: Path, version: str, assets: Path, stdlib: bytes, cache_dir: Path | None
) -> str:
    """Write the Pyodide run-time files; return their folder, relative to ``assets``.

    The big ones are brotli-compressed (``pyodide_files``), ``stdlib`` is the standard library.

    The folder is ``pyodide/VERSION-HASH/``, HASH a digest of what it serves: the standard
    library differs with the wheels and with bytecode, and hosts may let browsers keep
    these files forever, so new contents always get a new address.
    """
    digest = hashlib.sha256(stdlib)
    for name in PYODIDE_FILES:
        digest.update(name.encode() + b"\0" + (source / name).read_bytes())
    folder = f"pyodide/{version}-{digest.hexdigest()[:10]}/"
    write_pyodide_files(source, assets / folder, (), cache_dir=cache_dir, stdlib=stdlib)
    return folder


def browser_assets(source: Path = ASSETS_SOURCE) -> dict[str, Path]:
    """The files a site serves from ``assets/rollbook/``: ``{served name: source path}``.

    The source is grouped by realm (``page/``, ``worker/``, ``shared/``); the site serves
    them side by side in one folder, so the modules import each other as ``./name.js`` (tsc
    sees the same through ``rootDirs``). ``offline/`` is not among them: the build writes the
    service worker from it (``rollbook.offline``).

    Raises:
        SitewideError: two realms hold a file of the same name.
    """
    found: dict[str, Path] = {}
    for realm in BROWSER_REALMS:
        folder = source / realm
        if not folder.is_dir():
            continue
        for path in sorted(folder.rglob("*")):
            rel = path.relative_to(folder)
            if not path.is_file() or any(
                p.startswith(".") or p == "__pycache__" for p in rel.parts
            ):
                continue
            name = rel.as_posix()
            if name in found:
                raise SitewideError(f"two browser assets are named {name}: {found[name]}, {path}")
            found[name] = path
    return dict(sorted(found.items()))


def copy_browser_assets(source: Path, target: Path) -> list[str]:
    """Copy the browser assets (:func:`browser_assets`); return their served names, sorted."""
    found = browser_assets(source)
    for name, path in found.items():
        dest = target / name
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, dest)
    return list(found)


#: The line of ``worker.js`` the build writes the WebAssembly's address into.
EARLY_WASM_LINE = 'const EARLY_WASM = "";'


def write_early_wasm(worker: Path, runtime: dict[str, Any]) -> None:
    """Write into the copied ``worker`` where Pyodide's WebAssembly is (relative to it).

    The worker then starts that download with the manifest's instead of once the manifest
    is in (a round trip and more on a phone); it uses it only where the manifest, written
    beside it from the same ``runtime`` entries, names the same file (``served_name``).

    Raises:
        SitewideError: ``worker`` lacks :data:`EARLY_WASM_LINE` (its source changed).
    """
    path = early_wasm(runtime)
    if not path:
        return
    data = worker.read_bytes()  # bytes: the file's line ends stay as they are
    blank = EARLY_WASM_LINE.encode()
    if blank not in data:
        raise SitewideError(f"{worker} has no line {EARLY_WASM_LINE!r} to write into.")
    line = f"const EARLY_WASM = {json.dumps(path)};".encode()
    worker.write_bytes(data.replace(blank, line, 1))


def early_wasm(manifest: dict[str, Any]) -> str:
    """Where Pyodide's WebAssembly is served, relative to ``worker.js`` and the manifest.

    Empty for a site without Pyodide. The worker and the pages' heads (``early_start``)
    start its download with it.
    """
    folder = manifest.get("pyodide")
    return folder + served_name("pyodide.asm.wasm") if isinstance(folder, str) and folder else ""


#: The folders of a site that rollbook writes into and deletes from (relative to it).
WRITTEN = ("assets/rollbook", "assets/pyodide")


def refuse_links(site: Path) -> None:
    """Stop before any write if a symbolic link sits where rollbook writes or deletes.

    A link there (``assets``, ``assets/rollbook`` or anything below the folders of
    :data:`WRITTEN`) would make a write or a deletion land outside the site.

    Raises:
        SitewideError: naming the first such link.
    """
    import os

    found: list[Path] = []
    for folder in WRITTEN:
        here = site
        for part in folder.split("/"):
            here = here / part
            if here.is_symlink():
                found.append(here)
                break
        else:
            if here.is_dir():
                for top, dirs, files in os.walk(here, followlinks=False):
                    found += [
                        Path(top, n) for n in sorted([*dirs, *files]) if Path(top, n).is_symlink()
                    ]
        if found:
            break
    if found:
        raise SitewideError(
            f"{found[0]} is a symbolic link; rollbook never writes or deletes through links "
            "inside the site: remove it (or build the site afresh) and run again."
        )


_WHEEL_MAKERS = {"engine": engine_wheel, "icepool": icepool_wheel}


def _write_runtime(
    source: Path,
    assets: Path,
    sources: dict[str, dict[str, bytes]],
    built: dict[str, Wheel],
    *,
    bytecode: bool,
    cache_dir: Path | None,
    bundled_bytecode: Path,
    node: str,
    report: Callable[[str], None] | None,
) -> dict[str, Any]:
    """Write Pyodide's files; return the manifest's entries for them.

    The standard library is cut by what the wheels' sources import; with ``bytecode`` it
    and the packages of ``OPTIMIZE`` are then compiled, and their wheels in ``built``
    replaced by compiled ones.
    """
    version = _check_pyodide(source)
    stdlib = trimmed_stdlib(source, [wheel.data for wheel in built.values()], cache_dir)
    compiled: list[str] = []
    if bytecode:
        stdlib_files = unzip(stdlib)
        done = compile_packages(
            source,
            version,
            {"stdlib": stdlib_files, **{k: v for k, v in sources.items() if k in OPTIMIZE}},
            cache_dir=cache_dir / "bytecode" if cache_dir else None,
            bundled_dir=bundled_bytecode,
            node=node,
        )
        for label, pycs in done.packages.items():
            if label == "stdlib":
                stdlib = zip_files(to_bytecode(stdlib_files, pycs), cache_dir)
            else:
                built[label] = _WHEEL_MAKERS[label](to_bytecode(sources[label], pycs), cache_dir)
        compiled = sorted(done.packages)
        if done.missing and report:
            report(done.missing)
    entries: dict[str, Any] = {
        "pyodide": f"../{copy_pyodide(source, version, assets, stdlib, cache_dir)}",
        "pyodide_version": version,
        "pyodide_br": list(PACKED),
        # The packages served compiled: the worker's choice of start depends on it.
        "bytecode": compiled,
    }
    lock_info = _read_json(source / "pyodide-lock.json").get("info")
    if isinstance(lock_info, dict):  # the worker skips the lock file
        entries["lock_info"] = lock_info
    return entries


def build_site_assets(
    site_dir: str | Path,
    pyodide_dir: str | Path | None,
    *,
    icepool: bool = True,
    assets_source: Path = ASSETS_SOURCE,
    cache_dir: Path | None = None,
    bytecode: bool = True,
    bundled_bytecode: Path | None = None,
    node: str = "node",
    report: Callable[[str], None] | None = None,
    catalogues: Sequence[Catalogue] = (),
) -> dict[str, Any]:
    """Do all site-wide work for a built site; return the manifest written.

    ``catalogues`` are the reader's text in each language of the site, the first the
    default (none: English); they become ``strings.js`` (`rollbook.site_runtime.strings`).

    ``cache_dir`` keeps the compressed and trimmed Pyodide files by input hash. With
    ``pyodide_dir`` None the site gets everything but the dice runtime: the pages' scripts
    still load, and the manifest's ``no_runtime`` sentence tells readers why the dice do not
    roll. With ``bytecode`` the standard library, the engine and icepool are served compiled
    (``bytecode``: from ``bundled_bytecode``, by default what came with rollbook, the cache,
    or ``node``); ``report`` hears, in a sentence, of a package that stays source.

    Raises:
        SitewideError: when Pyodide or the site folder is missing.
    """
    site = Path(site_dir)
    if not site.is_dir():
        raise SitewideError(f"{site} is not a folder: build the site first.")
    refuse_links(site)
    assets = site / "assets"
    ours = assets / "rollbook"
    sources = {"engine": engine_files(cache_dir)}
    if icepool:
        sources["icepool"] = icepool_files()
    built = {label: _WHEEL_MAKERS[label](files, cache_dir) for label, files in sources.items()}
    runtime: dict[str, Any] = {
        "no_runtime": "this site was built without Pyodide, so its dice cannot roll"
    }
    if pyodide_dir is not None:
        runtime = _write_runtime(
            Path(pyodide_dir),
            assets,
            sources,
            built,
            bytecode=bytecode,
            cache_dir=cache_dir,
            bundled_bytecode=bundled_bytecode or BUNDLED_BYTECODE,
            node=node,
            report=report,
        )
    copied = copy_browser_assets(assets_source, ours)
    if pyodide_dir is not None:
        copied = sorted([*copied, *write_decoder(ours)])
    write_early_wasm(ours / "worker.js", runtime)
    write_strings(ours, catalogues)
    write_page_list(site, ours)  # the pages the GM screen may fetch

    wheels_dir = ours / "wheels"
    wheels_dir.mkdir(parents=True, exist_ok=True)
    keep = {wheel.filename for wheel in built.values()}
    for old in wheels_dir.glob("*.whl"):  # `rollbook assets` may run on an older output
        if old.name not in keep:
            old.unlink()
    manifest: dict[str, Any] = {"assets": copied, "wheels": [], **runtime}
    for label, wheel in built.items():
        (wheels_dir / wheel.filename).write_bytes(wheel.data)
        entry = {"path": f"wheels/{wheel.filename}", "sha256": wheel.sha256}
        manifest[label] = entry
        manifest["wheels"].append(entry["path"])
    text = json.dumps(manifest, sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    (ours / MANIFEST_NAME).write_text(text, encoding="utf-8")
    return manifest
