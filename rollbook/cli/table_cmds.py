"""``rollbook table`` (roll a table from a page) and ``rollbook check`` (validate pages).

Both convert pages exactly as the site build does (same extensions, read from ``--config``
or the current folder's mkdocs.yml, as ``mkdocs`` does, without running any YAML tag), so
``check`` reports what ``mkdocs build --strict`` would, and ``table`` rolls the table the
browser would roll: the page's JSON payload through ``rollbook.engine.bridge``, the worker's
only entry, with ``random.Random(seed)``.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rollbook.cli import CliError, Subcommands, command

__all__ = ["register"]


def register(sub: Subcommands) -> None:
    """Add ``table`` and ``check`` to the ``rollbook`` parser."""
    table = command(sub, "table", run_table)
    table.add_argument("page", metavar="PAGE.md", help="the Markdown page holding the table")
    table.add_argument("table_id", metavar="TABLE_ID", help="the table's anchor (id, heading slug)")
    table.add_argument(
        "--seed", type=_seed, help="seed for random.Random, as in links (printed if not given)"
    )
    table.add_argument(
        "--set", dest="values", action="append", default=[], metavar="NAME=VALUE",
        help="a prompt value (repeatable)",
    )  # fmt: skip
    table.add_argument("--json", action="store_true", help="print the reply as JSON")
    table.add_argument(
        "--config", type=Path, help="mkdocs.yml to read (default: the one in the current folder)"
    )

    check = command(sub, "check", run_check)
    check.add_argument("paths", nargs="+", metavar="PATH", help=".md files or folders")
    check.add_argument(
        "--config", type=Path, help="mkdocs.yml to read (default: the one in the current folder)"
    )


def _setup(config: Path | None) -> Any:
    """The Markdown set-up of ``--config``, else of ./mkdocs.yml; says which on stderr."""
    from rollbook.markup.pages import MarkdownSetup
    from rollbook.mkdocs_plugin.safe_config import ConfigRefused
    from rollbook.mkdocs_plugin.site_config import find_config, markdown_setup

    found = config or find_config(Path())
    if found is None:
        print("rollbook: no mkdocs.yml in this folder; using the default extensions.",
              file=sys.stderr)  # fmt: skip
        return MarkdownSetup()
    if not found.is_file():
        raise CliError(f"{found} does not exist.")
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    try:
        setup = markdown_setup(found)
    except ConfigRefused as err:
        raise CliError(str(err)) from None
    except Exception as err:  # mkdocs' own config errors are plain sentences too
        raise CliError(f"{found}: {err}") from None
    print(f"rollbook: settings from {found}", file=sys.stderr)
    return setup


def _pages(paths: list[str]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*.md") if p.is_file())
        elif path.is_file():
            yield path
        else:
            raise CliError(f"{raw} is neither a file nor a folder.")


def _whole_site(paths: list[str], setup: Any) -> bool:
    """Whether a folder checked holds the site's whole ``docs_dir`` (every page is read)."""
    docs = setup.docs_dir.resolve() if setup.docs_dir is not None else None
    return docs is not None and any(
        Path(raw).is_dir() and docs.is_relative_to(Path(raw).resolve()) for raw in paths
    )


def run_check(args: argparse.Namespace) -> int:
    """Print every problem as ``page:line: message``; 1 if there were any."""
    from rollbook.markup.page_state import lit_up
    from rollbook.markup.refs import convert_with_refs

    pages = list(_pages(args.paths))
    setup = _setup(args.config)
    count = 0
    lit: dict[str, int] = {}
    for result in convert_with_refs(pages, setup, complete=_whole_site(args.paths, setup))[0]:
        for message in result.messages():
            print(message)
            count += 1
        for note in result.notes():
            print(f"info: {note}", file=sys.stderr)
        for name, n in result.counts.items():
            lit[name] = lit.get(name, 0) + n
    print(f"{len(pages)} page(s) checked, {count} problem(s).", file=sys.stderr)
    print(f"rollbook: {lit_up(lit)}.", file=sys.stderr)
    return 1 if count else 0


def _seed(text: str) -> int:
    from rollbook.engine.bridge import BridgeError, parse_seed

    try:
        return parse_seed(text)
    except BridgeError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _values(pairs: list[str]) -> dict[str, str]:
    """NAME=VALUE pairs, the values as text.

    The engine judges them as it judges the browser's (rollbook.engine.tables.prompt_value).
    """
    values: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise CliError(f"--set takes NAME=VALUE, not {pair!r}.")
        values[name.strip()] = value
    return values


def _plain(fragment: str | None) -> str:
    """HTML sentence -> terminal text."""
    if not fragment:
        return ""
    text = re.sub(r"<br\s*/?>|</p>|</blockquote>", "\n", fragment)
    return html.unescape(re.sub(r"<[^>]+>", "", text)).strip()


def run_table(args: argparse.Namespace) -> int:
    """Roll one table of a page through the browser's bridge."""
    from rollbook.engine.bridge import MAX_SEED, handle
    from rollbook.markup.refs import convert_with_refs

    page = Path(args.page)
    if not page.is_file():
        raise CliError(f"{page} is not a file.")
    [result], site = convert_with_refs([page], _setup(args.config))
    for message in result.messages():
        print(message, file=sys.stderr)
    table = result.tables.get(args.table_id)
    if table is None:
        known = ", ".join(sorted(result.tables)) or "none"
        raise CliError(f"{page} has no table {args.table_id!r}; its tables: {known}.")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(MAX_SEED)
    payload = site.payload(f"{result.path}#{args.table_id}") or table.to_dict()
    request: dict[str, Any] = {"op": "table", "table": payload, "seed": seed,
               "prompts": _values(args.values)}  # fmt: skip
    reply = handle(json.loads(json.dumps(request)))  # exactly what the worker receives
    if "error" in reply:
        names = [p.name for p in table.prompts if p.name not in request["prompts"]]
        hint = f" Give values with --set NAME=VALUE (prompts: {', '.join(names)})." if names else ""
        raise CliError(f"{reply['error']}{hint}")
    if args.json:
        print(json.dumps({**reply, "seed": seed, "table": args.table_id}, sort_keys=True,
                         ensure_ascii=False))  # fmt: skip
        return 0
    roll = reply.get("roll") or {}
    print(f"{args.table_id} (seed {seed}): {roll.get('text') or roll.get('total')}")
    if reply.get("row") is not None:
        print(f"row {reply['row']}" + (f", tab {reply['tab']}" if reply.get("tab") else ""))
    sentence = _plain(reply.get("text"))
    if sentence:
        print(sentence)
    return 0
