"""QR codes for the live links (``segno``: maintained, pure Python, deterministic SVG)."""

from __future__ import annotations

__all__ = ["qr_svg"]


def qr_svg(url: str) -> str:
    """A small black-on-white SVG QR code of ``url`` (error correction M, quiet zone 2)."""
    import segno

    code = segno.make(url, error="m", micro=False)
    svg: str = code.svg_inline(scale=4, border=2, dark="#000", light="#fff")
    if not svg.startswith("<?xml") and "xmlns" not in svg[:200]:
        svg = svg.replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)
    return svg
