"""The ``rollbook`` command line: a thin dispatcher over one module per command group.

Each module in ``COMMAND_MODULES`` exposes ``register(subparsers)``, which adds its commands
with `command` (name, the function that runs it, its help); ``func(args) -> int`` returns
the exit code. Errors the user can fix exit 2
with a plain sentence on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence

from rollbook import __version__

__all__ = ["CliError", "Subcommands", "command", "main"]

COMMAND_MODULES = (
    "dice_cmds", "table_cmds", "rules_cmds", "site_cmds", "host_cmds", "new_cmds",
    "pdf_cmds",
)  # fmt: skip


class CliError(Exception):
    """A problem with the user's input; printed as one sentence, exit code 2."""


#: What ``register`` adds its commands to (``rollbook``'s subcommands).
type Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]


def command(
    sub: Subcommands,
    name: str,
    run: Callable[[argparse.Namespace], int],
    summary: str,
    description: str | None = None,
) -> argparse.ArgumentParser:
    """Add the subcommand ``name``, which ``run`` runs; ``summary`` is its line in ``--help``.

    Returns its parser, for the command's own arguments.
    """
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
