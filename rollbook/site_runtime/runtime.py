"""Where the Pyodide a site serves, and a prebuilt start-up snapshot, come from.

A released rollbook carries them as package data under ``rollbook/runtime/`` (written by
``make dist``, never committed): ``pyodide/`` holds the pinned Pyodide files and their
licence, ``snapshots/`` the memory snapshots made for them (``snapshot-<key>.packed``, keyed
like ``rollbook.site_runtime.snapshot``'s cache). So ``pip install rollbook`` is all a site needs:
no npm, no Node.js, no network at build time.

The Pyodide folder is, in this order: the one the author names (the plugin's
``pyodide_path``, ``rollbook assets --pyodide``), the bundled one, ``node_modules/pyodide``
beside mkdocs.yml (this repository's own development, filled by ``make setup``).
"""

from __future__ import annotations

import json
from pathlib import Path

import rollbook
from rollbook.site_runtime.build import SitewideError

__all__ = ["BUNDLED_PYODIDE", "BUNDLED_SNAPSHOTS", "PYODIDE_VERSION", "RUNTIME", "find_pyodide"]

#: The Pyodide release rollbook's worker and snapshots are made for (package.json pins it).
PYODIDE_VERSION = "314.0.7"
RUNTIME = Path(__file__).resolve().parents[1] / "runtime"
BUNDLED_PYODIDE = RUNTIME / "pyodide"
BUNDLED_SNAPSHOTS = RUNTIME / "snapshots"
DEV_PYODIDE = Path("node_modules") / "pyodide"


def _version_in(folder: Path) -> str | None:
    try:
        data = json.loads((folder / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    version = data.get("version") if isinstance(data, dict) else None
    return version if isinstance(version, str) else None


def _checked(folder: Path, named_by: str) -> Path:
    if not (folder / "pyodide.mjs").is_file():
        raise SitewideError(
            f"Pyodide was not found in {folder} ({named_by}): name the folder that holds "
            "pyodide.mjs, or leave the option out to use the Pyodide that comes with rollbook."
        )
    found = _version_in(folder)
    if found != PYODIDE_VERSION:
        raise SitewideError(
            f"found Pyodide {found or 'of unknown version'} in {folder} ({named_by}), "
            f"rollbook {rollbook.__version__} needs Pyodide {PYODIDE_VERSION}."
        )
    return folder


def find_pyodide(explicit: str | Path | None = None, *, project_dir: Path | None = None) -> Path:
    """The folder holding the Pyodide files to serve (see the module docstring for the order).

    Args:
        explicit: A folder the author named (relative to ``project_dir``), or None.
        project_dir: The folder of mkdocs.yml (the CLI: the current folder).

    Raises:
        SitewideError: the named folder has no Pyodide, or the wrong version; or none of
            the places holds one.
    """
    base = project_dir or Path.cwd()
    if explicit:
        return _checked(base / explicit, "the folder named for Pyodide")
    if (BUNDLED_PYODIDE / "pyodide.mjs").is_file():
        return _checked(BUNDLED_PYODIDE, "the copy that came with rollbook")
    dev = base / DEV_PYODIDE
    if (dev / "pyodide.mjs").is_file():
        return _checked(dev, "node_modules")
    raise SitewideError(
        f"this rollbook {rollbook.__version__} has no Pyodide with it: reinstall it from a "
        "release (`pip install --force-reinstall rollbook`), name a folder holding Pyodide "
        f"{PYODIDE_VERSION} with the plugin option `pyodide_path` (`--pyodide` for `rollbook "
        "assets`), or set `pyodide_required: false` to build the site without live dice; in "
        "rollbook's own repository run `make setup`."
    )
