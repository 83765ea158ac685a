"""``rollbook build`` and ``rollbook serve``: a whole rollbook site on Zensical, one command.

Zensical skips MkDocs plugins; these commands add what the plugin adds (a derived config,
never a patch of Zensical) and do the site-wide step after the build
(:mod:`rollbook.hosts.zensical`). MkDocs sites keep using ``mkdocs build``/``serve``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rollbook.cli import CliError, Subcommands, command, plainly

__all__ = ["register"]

#: Zensical's own config, looked for after MkDocs' names (``site_config.CONFIG_NAMES``).
ZENSICAL_CONFIG = "zensical.toml"


def _config(named: Path | None) -> Path:
    if named is not None:
        if not named.is_file():
            raise CliError(f"{named} is not a config file.")
        return named
    from rollbook.mkdocs_plugin.site_config import CONFIG_NAMES, find_config

    found = find_config(Path()) or (
        Path(ZENSICAL_CONFIG) if Path(ZENSICAL_CONFIG).is_file() else None
    )
    if found is None:
        names = ", ".join((*CONFIG_NAMES, ZENSICAL_CONFIG))
        raise CliError(
            f"no {names} in this folder: run the command in the site's folder, "
            "or name the config with --config."
        )
    return found


def register(sub: Subcommands) -> None:
    """Add ``build`` and ``serve`` to the ``rollbook`` parser."""
    build = command(sub, "build", run_build)
    build.add_argument("-f", "--config", type=Path, default=None, help="the site's config file")
    build.add_argument(
        "--strict", action="store_true", help="exit 1 when a page has an author problem"
    )
    serve = command(sub, "serve", run_serve)
    serve.add_argument("-f", "--config", type=Path, default=None, help="the site's config file")
    serve.add_argument(
        "-a", "--dev-addr", default=None, metavar="IP:PORT",
        help="address to serve on (Zensical's default: localhost:8000)",
    )  # fmt: skip


def _say(sentence: str) -> None:
    print(f"rollbook: {sentence}", file=sys.stderr)


def run_build(args: argparse.Namespace) -> int:
    from rollbook.hosts import zensical
    from rollbook.hosts.derived_config import ConfigProblem
    from rollbook.site_runtime import SitewideError

    config = _config(args.config)
    with plainly(zensical.ZensicalMissing, ConfigProblem, SitewideError):
        problems = zensical.build(config, strict=args.strict, info=_say, warn=_say)
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        _say(f"{len(problems)} author problem(s) in the pages.")
    return 1 if problems and args.strict else 0


def run_serve(args: argparse.Namespace) -> int:
    from rollbook.hosts import zensical
    from rollbook.hosts.derived_config import ConfigProblem

    config = _config(args.config)
    with plainly(zensical.ZensicalMissing, ConfigProblem):
        status = zensical.serve(config, dev_addr=args.dev_addr, say=_say)
    return 0 if status in (0, -2, -15, 130) else 1  # stopped by Ctrl-C or SIGTERM: fine
