"""A site's pages and settings, read for the book (MkDocs' config and navigation).

Two hosts fill the same ``BookPage`` list: the MkDocs plugin from the pages it built
(``pages_from_nav`` with each page's final HTML), and ``rollbook pdf`` by converting the
pages itself (``convert_site``), exactly as ``rollbook check`` does. Other generators
(Zensical) can make ``BookPage`` and ``BookOptions`` themselves and call
``rollbook.pdf.make_book``.
"""

from __future__ import annotations

import datetime as dt
import os
import posixpath
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from rollbook.pdf.context import BookPage, BookSection
from rollbook.pdf.options import PAPERS, BookOptions, primary_colour

__all__ = [
    "PdfSettings", "book_options", "convert_site", "pages_from_nav", "read_site", "site_epoch",
]  # fmt: skip

#: The settings the book reads from mkdocs.yml (the rest, hooks and plugins above all, is
#: never validated: validating would import them).
NAV_KEYS = ("site_name", "site_url", "docs_dir", "nav", "use_directory_urls", "exclude_docs",
            "not_in_nav", "draft_docs")  # fmt: skip


def read_site(config_file: Path) -> tuple[Any, dict[str, Any], dict[str, Any]]:
    """``(navigation config, settings as data, rollbook plugin options)`` of a mkdocs.yml.

    Read as ``rollbook check`` reads it, without running anything: only the keys of
    ``NAV_KEYS`` go through MkDocs' validation (which resolves ``docs_dir`` and the nav).

    Raises:
        rollbook.mkdocs_plugin.safe_config.ConfigRefused: as one sentence naming the file.
    """
    from mkdocs.config.defaults import MkDocsConfig

    from rollbook.mkdocs_plugin.safe_config import ConfigRefused, load_safely
    from rollbook.mkdocs_plugin.site_config import _rollbook_options, _validated

    path = Path(config_file)
    data = load_safely(path)
    try:
        options = _rollbook_options(data.get("plugins", []))
    except ValueError as err:
        raise ConfigRefused(f"{path}: {err}") from None
    options = _validated(options, path) if options is not None else {}
    config = MkDocsConfig(config_file_path=str(path))
    config.load_dict({key: data[key] for key in NAV_KEYS if key in data})
    errors, _warnings = config.validate()
    if errors:
        name, error = errors[0]
        raise ConfigRefused(f"{path}: the setting {name!r} is not valid: {error}")
    settings = {**data, "config_file_path": str(path), "site_url": config["site_url"] or ""}
    return config, settings, options


Entry = BookPage | BookSection


class PdfSettings:
    """The plugin's ``pdf_*`` options (or the CLI's flags), host-neutral."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.file = str(raw.get("pdf") or "")
        self.paper = str(raw.get("pdf_paper") or "a4")
        if self.paper not in PAPERS:
            self.paper = "a4"
        self.chances = bool(raw.get("pdf_chances", False))
        self.qr = bool(raw.get("pdf_qr", False))
        self.black_white = bool(raw.get("pdf_black_white", False))
        self.style = str(raw.get("pdf_style") or "")
        self.roll_details = bool(raw.get("pdf_roll_details", False))


def site_epoch(docs_dir: str) -> int:
    """The book's date: ``SOURCE_DATE_EPOCH``, else the docs' own date (as the site's)."""
    from rollbook.mkdocs_plugin.build_date import input_epoch

    pinned = os.environ.get("SOURCE_DATE_EPOCH", "")
    if pinned.isdigit():
        return int(pinned)
    return input_epoch(docs_dir) or 0


def book_options(config: Any, settings: PdfSettings, *, epoch: int) -> BookOptions:
    """Options from an MkDocs config: name, description, author, version, palette, URL.

    Raises:
        rollbook.pdf.errors.PdfError: the style file cannot be read.
    """
    from rollbook.pdf.errors import PdfError

    extra = config.get("extra") or {}
    version = extra.get("version") if hasattr(extra, "get") else None
    date = dt.datetime.fromtimestamp(epoch, tz=dt.UTC)
    edition = f"Version {version}, " if version else ""
    edition += f"{date.day} {date.strftime('%B %Y')}"
    theme = config.get("theme")
    palette = theme.get("palette") if hasattr(theme, "get") else None
    author = config.get("site_author")
    style = ""
    if settings.style:
        base = os.path.dirname(config.get("config_file_path") or ".")
        path = Path(base, settings.style)
        try:
            style = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as err:
            raise PdfError(f"the PDF style file {path} cannot be read ({err}).") from None
    language = theme.get("language") if hasattr(theme, "get") else None
    return BookOptions(
        title=str(config.get("site_name") or "Rules"),
        subtitle=config.get("site_description") or None,
        authors=[str(author)] if author else [],
        edition=edition,
        copyright=config.get("copyright") or None,
        site_url=str(config.get("site_url") or ""),
        paper=settings.paper,
        primary=primary_colour(palette),
        black_white=settings.black_white,
        chances=settings.chances,
        qr=settings.qr,
        roll_details=settings.roll_details,
        style=style,
        epoch=epoch,
        lang=str(language or "en")[:2],
    )


def pages_from_nav(
    items: Iterable[Any], html_of: Callable[[Any], str | None], *, assets_dir: Callable[[Any], str],
    relative_to: str = "url", depth: int = 0,
) -> list[Entry]:  # fmt: skip
    """Book entries from MkDocs navigation items (``Navigation.items``), in order.

    ``html_of(page)`` gives a page's content HTML (None: leave it out); links are skipped.
    """
    out: list[Entry] = []
    for item in items:
        if getattr(item, "is_section", False):
            inner = pages_from_nav(
                item.children, html_of, assets_dir=assets_dir, relative_to=relative_to,
                depth=depth + 1,
            )  # fmt: skip
            if inner:
                out.append(BookSection(str(item.title or ""), depth))
                out.extend(inner)
        elif getattr(item, "is_page", False):
            html = html_of(item)
            if html is None:
                continue
            out.append(
                BookPage(
                    src=item.file.src_uri, url=item.url, title=str(item.title or ""),
                    html=html, depth=depth, assets_dir=assets_dir(item),
                    relative_to=relative_to,
                )
            )  # fmt: skip
    return out


def convert_site(config: Any, setup: Any) -> tuple[list[Entry], list[str]]:
    """Every page of the site's navigation converted as the build does (``rollbook pdf``).

    Returns the entries and the author problems found (``page:line: message``).
    """
    from mkdocs.structure.files import get_files
    from mkdocs.structure.nav import get_navigation

    from rollbook.markup.refs import convert_with_refs

    files = get_files(config)
    nav = get_navigation(files, config)
    docs = Path(config["docs_dir"])
    wanted = [page.file.src_uri for page in nav.pages]
    results, _site = convert_with_refs([docs / src for src in wanted], setup)
    html = {src: result.html for src, result in zip(wanted, results, strict=True)}
    problems = [message for result in results for message in result.messages()]

    def assets(page: Any) -> str:
        return str(docs / posixpath.dirname(page.file.src_uri))

    def html_of(page: Any) -> str | None:
        text = html.get(page.file.src_uri)
        if text is not None and page.title is None:
            page.title = _first_heading(text) or posixpath.basename(page.file.src_uri)
        return text

    entries = pages_from_nav(nav.items, html_of, assets_dir=assets, relative_to="src")
    return entries, problems


def _first_heading(html: str) -> str | None:
    import re

    found = re.search(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    if not found:
        return None
    return re.sub(r"<[^>]+>|&para;|¶", "", found[1]).strip() or None
