"""What the MkDocs plugin does for the book, kept out of the plugin (which only wires it)."""

from __future__ import annotations

import logging
import posixpath
import re
from pathlib import Path
from typing import Any

from rollbook.pdf import link_html
from rollbook.pdf.errors import PdfError, available, missing_extra

__all__ = ["add_link", "check_setup", "write_book"]

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\.pdf$")


def check_setup(options: dict[str, Any]) -> str | None:
    """One sentence when the ``pdf`` option cannot work here, else None."""
    name = options.get("pdf") or ""
    if not name:
        return None
    if not _NAME.match(name):
        return f"`pdf: {name}` must be a plain file name ending in .pdf, such as rules.pdf."
    if not available():
        return missing_extra()
    return None


def add_link(html: str, file_name: str) -> str:
    """The home page's content with the download control after its title."""
    link = link_html(file_name)
    found = re.search(r"</h1>\s*", html)
    if found:
        return html[: found.end()] + link + html[found.end() :]
    return link + html


def write_book(config: Any, nav: Any, options: dict[str, Any], log: logging.Logger) -> Path:
    """Typeset the built pages in ``nav`` order into ``site_dir/<pdf>``.

    Raises:
        PdfError: the book cannot be made (one sentence).
    """
    from rollbook.pdf import make_book
    from rollbook.pdf.site import PdfSettings, book_options, pages_from_nav, site_epoch

    site_dir = Path(config["site_dir"])
    settings = PdfSettings(options)
    book = book_options(config, settings, epoch=site_epoch(config["docs_dir"]))
    if not book.site_url:
        log.info("rollbook: the PDF has no links to the live tables: set `site_url` to add them.")

    def assets_dir(page: Any) -> str:
        url = page.url
        folder = url if url.endswith("/") or not url else posixpath.dirname(url)
        return str(site_dir / folder)

    def html_of(page: Any) -> str | None:
        content = page.content
        if content is None or "data-rb-gm" in content:  # the GM screen is a tool, not rules
            return None
        return str(content)

    entries = pages_from_nav(nav.items, html_of, assets_dir=assets_dir, relative_to="url")
    if not entries:
        raise PdfError("the site has no pages for the PDF book.")
    data = make_book(entries, book, root=str(site_dir))
    target = site_dir / settings.file
    target.write_bytes(data)
    return target
