"""The book's options (one home for them: the plugin, the CLI and other hosts fill this)."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["PAPERS", "BookOptions", "primary_colour"]

#: Paper names authors write -> Typst's paper names.
PAPERS = {"a4": "a4", "letter": "us-letter"}

# Material for MkDocs' primary colours (its palette names), so the book matches the site.
MATERIAL_PRIMARY = {
    "red": "#ef5350", "pink": "#e92063", "purple": "#ab47bc", "deep purple": "#7e56c2",
    "indigo": "#4051b5", "blue": "#2094f3", "light blue": "#02a6f2", "cyan": "#00bdd6",
    "teal": "#009485", "green": "#4cae4f", "light green": "#8bc34b", "lime": "#cbdc38",
    "yellow": "#ffec3d", "amber": "#ffc105", "orange": "#ffa724", "deep orange": "#ff6e42",
    "brown": "#795649", "grey": "#757575", "blue grey": "#546d78", "black": "#000000",
    "white": "#ffffff",
}  # fmt: skip
DEFAULT_PRIMARY = MATERIAL_PRIMARY["indigo"]


def _readable(hex_colour: str) -> str:
    """Darken a light colour until text in it reads on white paper (WCAG-ish luminance)."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    while 0.2126 * r + 0.7152 * g + 0.0722 * b > 120:
        r, g, b = (int(c * 0.85) for c in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def primary_colour(palette: object) -> str:
    """The primary colour of a Material ``theme.palette`` (a mapping or a list of them)."""
    entries = palette if isinstance(palette, list) else [palette]
    for entry in entries:
        if isinstance(entry, dict) and isinstance(entry.get("primary"), str):
            name = entry["primary"].strip().lower().replace("-", " ")
            if name in MATERIAL_PRIMARY:
                return _readable(MATERIAL_PRIMARY[name])
            if len(name) == 7 and name.startswith("#"):
                return _readable(name)
    return DEFAULT_PRIMARY


@dataclass
class BookOptions:
    """Everything that shapes the book besides its pages.

    Attributes:
        title: the site's name (title page, running heads, PDF metadata).
        subtitle: the site's description, if any.
        authors: the site's author(s).
        edition: the version or date line of the title page.
        copyright: the site's copyright line, if any.
        site_url: where the site is published; empty: no live links.
        paper: ``a4`` or ``letter``.
        primary: hex colour of headings and rules.
        black_white: grey only (home printers).
        chances: print each row's exact chance.
        qr: a QR code beside each table (needs ``site_url``).
        roll_details: inline rolls show their average and range.
        style: text of the author's own Typst file (put after the default style).
        epoch: the document's date in seconds (reproducible builds).
        lang: the book's language (hyphenation, quotes).
    """

    title: str = "Rules"
    subtitle: str | None = None
    authors: list[str] = field(default_factory=list)
    edition: str = ""
    copyright: str | None = None
    site_url: str = ""
    paper: str = "a4"
    primary: str = DEFAULT_PRIMARY
    black_white: bool = False
    chances: bool = False
    qr: bool = False
    roll_details: bool = False
    style: str = ""
    epoch: int = 0
    lang: str = "en"
