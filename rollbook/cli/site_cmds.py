"""``rollbook assets SITE_DIR``: rollbook's site-wide files for a site built by any generator.

Does what the MkDocs plugin does after a build: the engine and icepool wheels, Pyodide, the
browser assets and the manifest, under ``SITE_DIR/assets/``. Pages still need
``<script type="module" src=".../assets/rollbook/rollbook.js">`` and the stylesheet.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rollbook.cli import CliError

__all__ = ["register"]


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``assets`` to the ``rollbook`` parser."""
    assets = sub.add_parser(
        "assets",
        help="copy rollbook's run-time files into a built site",
        description="Write the engine wheel, Pyodide, the browser assets and the manifest "
        "into SITE_DIR/assets/ (for sites built without the MkDocs plugin).",
    )
    assets.add_argument("site_dir", metavar="SITE_DIR", type=Path, help="the built site")
    assets.add_argument(
        "--pyodide", type=Path, default=None,
        help="folder holding pyodide.mjs (default: the Pyodide that comes with rollbook, "
        "else ./node_modules/pyodide)",
    )  # fmt: skip
    assets.add_argument("--no-icepool", action="store_true", help="leave out icepool (no odds)")
    assets.add_argument(
        "--no-snapshot", action="store_true",
        help="leave out the Pyodide memory snapshot (smaller download, slower start)",
    )  # fmt: skip
    assets.add_argument(
        "--snapshot-cache", type=Path, default=Path(".cache/rollbook/snapshots"),
        help="where snapshots are kept by input hash (default: .cache/rollbook/snapshots)",
    )  # fmt: skip
    assets.add_argument(
        "--language", action="append", default=[], metavar="LANG",
        help="the readers' language (fr, de, pt-BR...; repeat for a multilingual site, "
        "the first is the default); default English",
    )  # fmt: skip
    assets.set_defaults(func=run_assets)


def run_assets(args: argparse.Namespace) -> int:
    from rollbook.language import catalogue
    from rollbook.site_runtime import SitewideError, build_site_assets
    from rollbook.site_runtime.runtime import BUNDLED_SNAPSHOTS, find_pyodide
    from rollbook.site_runtime.snapshot import SnapshotUnavailable, add_snapshot

    try:
        pyodide = find_pyodide(args.pyodide, project_dir=Path.cwd())
        manifest = build_site_assets(
            args.site_dir,
            pyodide,
            icepool=not args.no_icepool,
            cache_dir=args.snapshot_cache.parent / "pyodide",
            report=lambda sentence: print(f"rollbook: {sentence}.", file=sys.stderr),
            catalogues=[catalogue(code) for code in args.language],
        )
        if not args.no_snapshot:
            try:
                manifest["snapshot"] = add_snapshot(
                    args.site_dir / "assets" / "rollbook" / "manifest.json",
                    cache_dir=args.snapshot_cache,
                    bundled_dir=BUNDLED_SNAPSHOTS,
                )
            except SnapshotUnavailable as err:  # the site works; say so, and how to skip it
                print(f"rollbook: {err} `--no-snapshot` skips this step.", file=sys.stderr)
    except SitewideError as err:
        raise CliError(str(err)) from None
    print(f"wrote {args.site_dir / 'assets' / 'rollbook' / 'manifest.json'}")
    for path in manifest["wheels"]:
        print(f"  {path}")
    print(f"  Pyodide {manifest['pyodide_version']}, {len(manifest['assets'])} browser asset(s)")
    if manifest.get("bytecode"):
        print(f"  bytecode: {', '.join(manifest['bytecode'])}")
    if "snapshot" in manifest:
        print(f"  snapshot {manifest['snapshot']}")
    return 0
