"""The rulebook as a PDF: the site's pages typeset by Typst (``pip install "rollbook[pdf]"``).

Modules: ``tree`` (HTML -> ElementTree), ``walker`` (one Typst renderer per element),
``blocks`` (rollbook's widgets as a book prints them), ``book`` (title page, contents,
chapters), ``runner`` (Typst), ``qr`` (segno), ``site`` (MkDocs config and navigation).
Hosts other than MkDocs build ``BookPage``/``BookSection`` lists and ``BookOptions`` and
call ``make_book``.
"""

from __future__ import annotations

from rollbook.pdf.context import BookPage, BookSection
from rollbook.pdf.errors import INSTALL, PdfError, available, missing_extra
from rollbook.pdf.options import BookOptions

__all__ = [
    "INSTALL", "BookOptions", "BookPage", "BookSection", "PdfError", "available", "make_book",
    "missing_extra",
]  # fmt: skip

#: The home page's link to the book (``rollbook.pdf.link_html``).
LINK_TEXT = "Download the rules as PDF"


def make_book(entries: list[BookPage | BookSection], options: BookOptions, *, root: str) -> bytes:
    """The PDF of ``entries`` (navigation order). Images are read from inside ``root``.

    Raises:
        PdfError: the extra is missing, or Typst refused the book (one sentence).
    """
    from rollbook.pdf.book import book_source
    from rollbook.pdf.runner import compile_pdf

    if not available():
        raise PdfError(missing_extra())
    source = book_source(entries, options, root=root)
    return compile_pdf(source.text, root=root, epoch=options.epoch)


def link_html(href: str) -> str:
    """The home page's "Download the rules as PDF" control."""
    from html import escape

    return (
        f'<p class="rb-pdf-link"><a class="md-button" href="{escape(href)}" download>'
        f"{LINK_TEXT}</a></p>\n"
    )
