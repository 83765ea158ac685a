"""``rollbook pdf``: the site's pages, in navigation order, typeset into one PDF book.

Run in the site's folder (or with ``--config``). Pages are converted exactly as the build
converts them (``rollbook check``'s path); the plugin's ``pdf_*`` options in mkdocs.yml are
the defaults, and the flags override them.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from rollbook.cli import CliError, Subcommands, command, plainly

__all__ = ["register"]


def register(sub: Subcommands) -> None:
    """Add ``pdf`` to the ``rollbook`` parser."""
    pdf = command(sub, "pdf", run_pdf)
    pdf.add_argument("-o", "--output", type=Path, help="the PDF to write (default: the "
                     "plugin's `pdf` name, else rules.pdf)")  # fmt: skip
    pdf.add_argument(
        "--config", type=Path, help="mkdocs.yml to read (default: the one in the current folder)"
    )
    pdf.add_argument("--paper", choices=("a4", "letter"), help="paper size (default: a4)")
    pdf.add_argument("--chances", action="store_true", default=None,
                     help="print each row's exact chance")  # fmt: skip
    pdf.add_argument("--qr", action="store_true", default=None,
                     help="a QR code of each live table beside it (needs site_url)")  # fmt: skip
    pdf.add_argument("--black-white", action="store_true", default=None,
                     help="grey instead of the palette's colour")  # fmt: skip
    pdf.add_argument("--roll-details", action="store_true", default=None,
                     help="inline rolls print their average and range")  # fmt: skip
    pdf.add_argument("--style", help="your own Typst style file (read after rollbook's)")


def run_pdf(args: argparse.Namespace) -> int:
    """Write the book; author problems go to stderr as ``page:line: message``."""
    from rollbook.mkdocs_plugin.safe_config import ConfigRefused
    from rollbook.mkdocs_plugin.site_config import find_config, markdown_setup
    from rollbook.pdf import PdfError, available, make_book, missing_extra
    from rollbook.pdf.site import PdfSettings, book_options, convert_site, read_site, site_epoch

    if not available():
        raise CliError(missing_extra())
    found = args.config or find_config(Path())
    if found is None:
        raise CliError(
            "no mkdocs.yml in this folder; run it in the site's folder or give --config."
        )
    if not found.is_file():
        raise CliError(f"{found} does not exist.")
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    with plainly(ConfigRefused):
        config, settings_data, raw = read_site(found)
        setup = markdown_setup(found)
    flags = (("paper", "pdf_paper"), ("chances", "pdf_chances"), ("qr", "pdf_qr"),
             ("black_white", "pdf_black_white"), ("roll_details", "pdf_roll_details"))  # fmt: skip
    for flag, key in flags:
        if getattr(args, flag) is not None:
            raw[key] = getattr(args, flag)
    if args.style:
        raw["pdf_style"] = str(
            Path(args.style).resolve()
        )  # absolute: wins over the config's folder
    settings = PdfSettings(raw)
    output = args.output or Path(settings.file or "rules.pdf")
    entries, problems = convert_site(config, setup)
    for message in problems:
        print(message, file=sys.stderr)
    with plainly(PdfError):
        options = book_options(settings_data, settings, epoch=site_epoch(config["docs_dir"]))
        if not options.site_url:
            print("rollbook: no `site_url` in mkdocs.yml, so the PDF has no links to the "
                  "live tables.", file=sys.stderr)  # fmt: skip
        data = make_book(entries, options, root=str(Path(config["docs_dir"])))
    output.write_bytes(data)
    pages = sum(1 for e in entries if hasattr(e, "html"))
    print(f"wrote {output} ({pages} page(s) of the site, {len(data) // 1024} KB)")
    return 0
