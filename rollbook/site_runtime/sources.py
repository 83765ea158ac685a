"""Where the shipped Python comes from: ``rollbook.engine`` and the installed icepool."""

from __future__ import annotations

import functools
import importlib.metadata
from pathlib import Path

import rollbook
from rollbook import engine
from rollbook.site_runtime.disk_cache import cached
from rollbook.site_runtime.pysource import for_browser
from rollbook.site_runtime.wheel import Wheel, build_wheel

__all__ = ["engine_files", "engine_wheel", "icepool_files", "icepool_wheel"]

# Only what Python needs at run time; caches and editor files never reach the site.
_KEEP_SUFFIXES = (".py", ".typed", ".json")


def _package_files(root: Path, prefix: str) -> dict[str, bytes]:
    files: dict[str, bytes] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if not path.is_file() or "__pycache__" in rel.parts or path.suffix not in _KEEP_SUFFIXES:
            continue
        if any(part.startswith(".") for part in rel.parts):
            continue
        files[f"{prefix}/{rel.as_posix()}"] = path.read_bytes()
    return files


def _version(dist: str, default: str = "0.0.0") -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return default


def engine_files(cache_dir: Path | None = None) -> dict[str, bytes]:
    """``rollbook.engine`` alone, and the import-free ``rollbook/__init__.py`` above it.

    The browser never loads the markup, plugin or CLI code.

    Its ``.py`` files go without their comments and docstrings (``pysource``): about 35 KB
    less for every reader. With ``cache_dir``, each file's stripped text is kept there.
    """
    # __path__, not __file__: a stale editable install can make a package a namespace package.
    root = Path(next(iter(engine.__path__))).resolve()
    files = {"rollbook/__init__.py": (root.parent / "__init__.py").read_bytes()}
    files.update(_package_files(root, "rollbook/engine"))
    return {
        path: _stripped(data, cache_dir) if path.endswith(".py") else data
        for path, data in files.items()
    }


def _stripped(source: bytes, cache_dir: Path | None) -> bytes:
    return cached(cache_dir, [b"for_browser", source], lambda: for_browser(source))


def engine_wheel(files: dict[str, bytes] | None = None, cache_dir: Path | None = None) -> Wheel:
    """``engine_files()`` (or ``files``: them compiled, say) as ``rollbook_engine-*.whl``."""
    return build_wheel(
        "rollbook-engine",
        rollbook.__version__,
        engine_files(cache_dir) if files is None else files,
        summary="rollbook's dice, tables and rules engine (pure Python, runs in Pyodide)",
        cache_dir=cache_dir,
    )


@functools.cache
def _icepool_parts() -> tuple[str, dict[str, bytes], dict[str, bytes]]:
    """The installed icepool: its version, package files and licence files.

    Read once per process: a build asks for them for the source wheel and again for the
    compiled one.
    """
    dist = importlib.metadata.distribution("icepool")
    files: dict[str, bytes] = {}
    extra: dict[str, bytes] = {}
    for item in dist.files or ():
        path = Path(str(dist.locate_file(item)))
        parts = item.parts
        if "__pycache__" in parts or item.suffix == ".pyc" or not path.is_file():
            continue
        if parts[0] == "icepool":
            files[item.as_posix()] = path.read_bytes()
        elif parts[0].endswith(".dist-info") and "licenses" in parts:
            extra["/".join(parts[1:])] = path.read_bytes()
    return dist.version, files, extra


def icepool_files() -> dict[str, bytes]:
    """The installed icepool's own files, by path in its wheel."""
    return dict(_icepool_parts()[1])


def icepool_wheel(files: dict[str, bytes] | None = None, cache_dir: Path | None = None) -> Wheel:
    """The installed icepool repacked for odds in the browser.

    Its own files (or ``files``) and its licence.
    """
    version, own, extra = _icepool_parts()
    return build_wheel(
        "icepool",
        version,
        own if files is None else files,
        summary="icepool, repacked by rollbook",
        extra_dist_info=extra,
        cache_dir=cache_dir,
    )
