"""The book's one error type and the sentence for a missing extra."""

from __future__ import annotations

__all__ = ["INSTALL", "PdfError", "available", "missing_extra"]

INSTALL = 'pip install "rollbook[pdf]"'


class PdfError(Exception):
    """The book cannot be made; the message is one sentence for the author."""


def missing_extra() -> str:
    """The sentence for a site that asks for a PDF without the extra installed."""
    return f"The PDF book needs rollbook's pdf extra: run {INSTALL} and build again."


def available() -> bool:
    """Whether Typst and segno, the extra's packages, can be imported."""
    try:
        import segno  # noqa: F401
        import typst  # noqa: F401
    except ImportError:
        return False
    return True
