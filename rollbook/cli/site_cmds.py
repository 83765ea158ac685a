"""``rollbook assets SITE_DIR``: rollbook's site-wide files for a site built by any generator.

Does all the site-wide work the MkDocs plugin does after a build
(:mod:`rollbook.sitewide.finish`): the engine and icepool wheels, Pyodide, the browser assets
and the manifest under ``SITE_DIR/assets/``, the GM screen page and the offline service
worker; with ``--strict`` it exits 1 when the built pages hold author problems. Pages still
need ``<script type="module" src=".../assets/rollbook/rollbook.js">`` and the stylesheet
(``rollbook build`` adds them for Zensical sites).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rollbook.cli import Subcommands, command, plainly

__all__ = ["register"]


def register(sub: Subcommands) -> None:
    """Add ``assets`` to the ``rollbook`` parser."""
    assets = command(sub, "assets", run_assets)
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
        "--gm-screen", default="gm/", metavar="PATH",
        help="where the GM screen page goes, made from the site's home page unless the site "
        "has that page already (default: gm/; \"\" for none)",
    )  # fmt: skip
    assets.add_argument(
        "--no-offline", action="store_true",
        help="write the service worker that removes offline copies instead of making them",
    )  # fmt: skip
    assets.add_argument(
        "--strict", action="store_true",
        help="exit 1 when the built pages hold author problems (error boxes), after listing them",
    )  # fmt: skip
    assets.add_argument(
        "--language", action="append", default=[], metavar="LANG",
        help="the readers' language (fr, de, pt-BR...; repeat for a multilingual site, "
        "the first is the default); default English",
    )  # fmt: skip


def run_assets(args: argparse.Namespace) -> int:
    from rollbook.language import catalogue
    from rollbook.site_runtime import SitewideError
    from rollbook.sitewide.author_problems import find_problems
    from rollbook.sitewide.finish import FinishOptions, finish_site

    def say(sentence: str) -> None:
        print(f"rollbook: {sentence}", file=sys.stderr)

    options = FinishOptions(
        pyodide_path=str(args.pyodide) if args.pyodide else None,
        icepool=not args.no_icepool,
        snapshot=not args.no_snapshot,
        snapshot_cache=str(args.snapshot_cache),
        gm_screen=args.gm_screen,
        offline=not args.no_offline,
        snapshot_off="`--no-snapshot`",
        catalogues=[catalogue(code) for code in args.language],
        page_languages=True,  # a page's own `language:` (the extension marks it)
    )
    with plainly(SitewideError):
        manifest = finish_site(args.site_dir, Path.cwd(), options, info=say, warn=say)
    print(f"wrote {args.site_dir / 'assets' / 'rollbook' / 'manifest.json'}")
    for path in manifest["wheels"]:
        print(f"  {path}")
    print(f"  Pyodide {manifest['pyodide_version']}, {len(manifest['assets'])} browser asset(s)")
    if manifest.get("bytecode"):
        print(f"  bytecode: {', '.join(manifest['bytecode'])}")
    if "snapshot" in manifest:
        print(f"  snapshot {manifest['snapshot']}")
    if not args.strict:
        return 0
    problems = find_problems(args.site_dir)
    for problem in problems:
        print(f"rollbook: {problem}", file=sys.stderr)
    if problems:
        say(f"{len(problems)} author problem(s) in the built pages (--strict).")
        return 1
    return 0
