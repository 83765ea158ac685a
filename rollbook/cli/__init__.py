"""The ``rollbook`` command line: a thin dispatcher over one module per command group.

Each module in ``COMMAND_MODULES`` exposes ``register(subparsers)``, which adds its commands
with `command` (name and the function that runs it; what ``--help`` says of every command is
`HELP`, in one place); ``func(args) -> int`` returns the exit code. Errors the user can fix exit 2
with a plain sentence on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from rollbook import __version__

__all__ = ["HELP", "CliError", "Subcommands", "command", "main", "plainly"]

COMMAND_MODULES = (
    "dice_cmds", "table_cmds", "rules_cmds", "site_cmds", "host_cmds", "new_cmds",
    "pdf_cmds",
)  # fmt: skip


class CliError(Exception):
    """A problem with the user's input; printed as one sentence, exit code 2."""


@contextmanager
def plainly(*errors: type[Exception]) -> Iterator[None]:
    """Let ``errors`` raised inside reach the user as their sentence: a `CliError`.

    The library's errors for input the user can fix already say what is wrong in one
    sentence; this is the one place a command turns them into its exit code 2.
    """
    try:
        yield
    except errors as err:
        raise CliError(str(err)) from None


#: What ``register`` adds its commands to (``rollbook``'s subcommands).
type Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]


#: Each command: its line in ``rollbook --help`` and the description atop its own ``--help``.
HELP: dict[str, tuple[str, str | None]] = {
    "roll": ("roll dice notation and show every die", None),
    "odds": ("exact probabilities of every total", None),
    "table": (
        "roll a roll-table or roll-list from a page",
        "Roll a table from a page as the browser would (same seed, same result).",
    ),
    "check": (
        "validate the roll markup of pages",
        "Report every roll markup problem as page:line: message (exit 1 if any).",
    ),
    "rules": (
        "list game systems, their procedures, roll one or show its exact odds",
        "Without arguments: the systems. With SYSTEM: its procedures and their "
        "parameters. With SYSTEM PROCEDURE: roll it (or --odds for exact chances).",
    ),
    "fight": (
        "resolve a fight described in a YAML file (or many, with --runs)",
        "FILE holds `system` and `sides: {name: [stat blocks]}`.",
    ),
    "assets": (
        "copy rollbook's run-time files into a built site",
        "Write the engine wheel, Pyodide, the browser assets and the manifest "
        "into SITE_DIR/assets/ (for sites built without the MkDocs plugin).",
    ),
    "build": (
        "build the site with Zensical, rollbook included",
        "Build the site in this folder with Zensical, with rollbook's markup, "
        "engine, GM screen and offline reading added (the config needs no rollbook entries).",
    ),
    "serve": (
        "serve the site with Zensical, rollbook included, rebuilding on changes",
        "Serve the site in this folder with Zensical; rollbook's files are added "
        "again after every rebuild. Offline reading stays off while serving.",
    ),
    "new": (
        "start a new rules site in DIR",
        "Write a ready rules site into DIR (new or empty): mkdocs.yml, example "
        "pages, .gitignore and a GitHub Pages workflow. Then: cd DIR && mkdocs serve.",
    ),
    "import": (
        "turn a Hugo site (e.g. Platen) into a rollbook site",
        "Read a Hugo site (or its content folder) SRC and write a rollbook site "
        "into DEST (new or empty); SRC is never changed. Shortcodes and unknown fences are "
        "kept as they are and listed as SRC/page.md:LINE: problems.",
    ),
    "pdf": (
        "typeset the site's pages into one PDF book",
        "Typeset the pages of the site's navigation into one PDF: title page, "
        "contents, chapters, every table with its ranges and a link to its live version "
        '(needs pip install "rollbook[pdf]").',
    ),
}


def command(
    sub: Subcommands, name: str, run: Callable[[argparse.Namespace], int]
) -> argparse.ArgumentParser:
    """Add the subcommand ``name``, which ``run`` runs, described as `HELP` says.

    Returns its parser, for the command's own arguments.
    """
    summary, description = HELP[name]
    parser = sub.add_parser(name, help=summary, description=description)
    parser.set_defaults(func=run)
    return parser


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rollbook",
        description="Dice, tables and combat rules for rollbook sites.",
    )
    parser.add_argument("--version", action="version", version=f"rollbook {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMAND_MODULES:
        importlib.import_module(f"{__name__}.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``rollbook`` with ``argv`` (``sys.argv[1:]`` if None); return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except CliError as err:
        print(f"rollbook: {err}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `rollbook roll ... | head`
        return 0
    except OSError as err:  # a file that vanished, a folder given for a file, a full disk
        where = f"{err.filename}: " if err.filename else ""
        print(f"rollbook: {where}{err.strerror or type(err).__name__}.", file=sys.stderr)
        return 2
    except RecursionError:  # the last guard; inputs are bounded before this can happen
        print("rollbook: the input nests too deeply to be read.", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
