"""Typst, through its PyPI package: the book's source -> PDF bytes.

Only Typst's embedded fonts are used (Libertinus Serif: Latin, Cyrillic, Greek, Hebrew;
DejaVu Sans Mono for code), never the system's, so every machine makes the same bytes.
"""

from __future__ import annotations

from rollbook.pdf.errors import PdfError, missing_extra

__all__ = ["compile_pdf"]


def compile_pdf(source: str, *, root: str, epoch: int) -> bytes:
    """Compile ``source`` (Typst markup) with files read from ``root``; date it ``epoch``.

    Raises:
        PdfError: the extra is not installed, or Typst refused the source (its first
            diagnostic, as one sentence).
    """
    try:
        import typst
    except ImportError:
        raise PdfError(missing_extra()) from None
    try:
        compiler = typst.Compiler(root=root, ignore_system_fonts=True)
        data = compiler.compile(source.encode("utf-8"), format="pdf", timestamp=epoch)
    except typst.TypstError as err:
        hints = "; ".join(getattr(err, "hints", []) or [])
        raise PdfError(
            f"Typst could not typeset the book: {err.message}"
            + (f" ({hints})" if hints else "")
            + ". If you use your own style file, check it first."
        ) from None
    if not isinstance(data, bytes):  # pragma: no cover - one document gives one file
        raise PdfError("Typst returned no PDF.")
    return data
