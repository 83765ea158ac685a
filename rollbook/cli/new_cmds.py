"""``rollbook new`` (a ready site) and ``rollbook import`` (a Hugo site turned into one).

Both refuse to write into a folder that holds anything, and both work out every file first:
a mistake in the input stops the command before the first file is written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rollbook.cli import CliError, Subcommands, command, plainly

__all__ = ["register"]


def register(sub: Subcommands) -> None:
    """Add ``new`` and ``import`` to the ``rollbook`` parser."""
    from rollbook.engine.systems import ids

    new = command(sub, "new", run_new)
    new.add_argument("dest", metavar="DIR", type=Path, help="the new site's folder")
    new.add_argument("--title", help="the site's name (default: from DIR)")
    new.add_argument(
        "--system", metavar="ID",
        help=f"add stat blocks and an encounter for a game system ({', '.join(ids())})",
    )  # fmt: skip
    new.add_argument("--guide", action="store_true", help="add the authoring guide's pages")

    imp = command(sub, "import", run_import)
    imp.add_argument("src", metavar="SRC", type=Path, help="the Hugo site or content folder")
    imp.add_argument("dest", metavar="DEST", type=Path, help="the new site's folder")


def _check_empty(dest: Path) -> None:
    if dest.is_symlink():
        raise CliError(f"{dest} is a symbolic link; give a new or empty folder itself.")
    if dest.exists() and not dest.is_dir():
        raise CliError(f"{dest} is a file; give a new or empty folder.")
    if dest.is_dir() and any(dest.iterdir()):
        raise CliError(f"{dest} is not empty; give a new or empty folder, nothing was written.")


def _default_title(dest: Path) -> str:
    name = dest.resolve().name.replace("-", " ").replace("_", " ").strip()
    return name[:1].upper() + name[1:] if name else "Rules"


def run_new(args: argparse.Namespace) -> int:
    from rollbook.scaffold import ScaffoldError, plan_site, write_files

    _check_empty(args.dest)
    title = args.title if args.title is not None else _default_title(args.dest)
    with plainly(ScaffoldError):
        files = plan_site(title, args.system, guide=args.guide)
        write_files(args.dest, files)
    print(f"wrote {len(files)} files into {args.dest}; next: cd {args.dest} && mkdocs serve")
    return 0


def run_import(args: argparse.Namespace) -> int:
    from rollbook.hugo import HugoError, plan_import, write_import

    _check_empty(args.dest)
    if args.dest.resolve().is_relative_to(args.src.resolve()):
        raise CliError(f"{args.dest} is inside {args.src}, which import never changes; "
                       "give a folder outside it.")  # fmt: skip
    with plainly(HugoError):
        plan = plan_import(args.src)
    from rollbook.scaffold import ScaffoldError

    with plainly(ScaffoldError):
        write_import(args.dest, plan)
    for line in plan.report():
        print(line)
    print(plan.summary(args.dest))
    return 0
