"""Settings of the ``rollbook`` MkDocs plugin (``plugins: - rollbook: {...}`` in mkdocs.yml)."""

from __future__ import annotations

from typing import Any

from mkdocs.config import base
from mkdocs.config import config_options as c

from rollbook.language import StringsError, check_overrides
from rollbook.markup.presets import (
    INLINE_PRESET_OPTIONS,
    TABLE_PRESET_OPTIONS,
    presets_problem,
)
from rollbook.sitewide.site_path import site_path_problem

__all__ = [
    "INLINE_PRESET_OPTIONS",
    "TABLE_PRESET_OPTIONS",
    "RollbookConfig",
    "SitePath",
]


class Presets(c.BaseConfigOption[dict[str, dict[str, Any]]]):
    """``{name: {option: value}}``; unknown options are a configuration error."""

    def run_validation(self, value: object) -> dict[str, dict[str, Any]]:
        if value is None:
            return {}
        problem = presets_problem(value)
        if problem:
            raise base.ValidationError(problem)
        assert isinstance(value, dict)
        return {str(k): dict(v) for k, v in value.items()}


class Strings(c.BaseConfigOption[dict[str, Any]]):
    """``{key: text}`` or ``{language: {key: text}}``: the author's words for reader text."""

    def run_validation(self, value: object) -> dict[str, Any]:
        if value is None:
            return {}
        try:
            check_overrides(value)
        except StringsError as error:
            raise base.ValidationError(str(error)) from None
        assert isinstance(value, dict)
        return dict(value)


class SitePath(c.Type[str]):
    """A path inside the built site (``gm/``, ``assets/rollbook/rollbook.js``).

    Refused: an absolute path, a ``..`` or ``.`` part, a backslash, a URL (scheme, ``//``,
    ``?``, ``#``) and control characters; so a page or file the plugin writes there stays
    inside ``site_dir`` and its address inside the site's base. ``allow_empty`` lets an
    empty value turn the feature off.
    """

    def __init__(self, default: str, *, allow_empty: bool = False) -> None:
        super().__init__(str, default=default)
        self.allow_empty = allow_empty

    def run_validation(self, value: object) -> str:
        """The path, refused in one sentence when it would leave the site."""
        text = super().run_validation(value)
        problem = site_path_problem(text, allow_empty=self.allow_empty)
        if problem:
            raise base.ValidationError(problem)
        return text


class RollbookConfig(base.Config):
    """The plugin's settings."""

    enabled = c.Type(bool, default=True)
    """Turn the plugin off (e.g. ``enabled: !ENV [ROLLBOOK, true]``)."""

    presets = Presets()
    """Named display options: ``preset:NAME`` on inline rolls, ``preset: NAME`` in fences."""

    language = c.Optional(c.Type(str))
    """The reader's language (``fr``, ``pt-BR``...); default: ``theme.language``, else English."""

    strings = Strings()
    """The author's words for any reader text: ``{key: text}`` or ``{language: {key: text}}``."""

    configure_markdown = c.Type(bool, default=True)
    """Add the ``rollbook`` Markdown extension and our four superfences fences when missing."""

    pyodide_path = c.Optional(c.Type(str))
    """Folder holding pyodide.mjs (relative to mkdocs.yml); default: the Pyodide that comes
    with rollbook (or, in rollbook's own repository, ``node_modules/pyodide``)."""

    pyodide_required = c.Type(bool, default=True)
    """If false, a missing Pyodide is an INFO line and the site builds without live dice."""

    wheels_icepool = c.Type(bool, default=True)
    """Ship icepool too, so the browser can show exact odds."""

    snapshot = c.Type(bool, default=True)
    """Ship a Pyodide memory snapshot with the engine imported (ready ~3x sooner, +~7.3 MB gzip)."""

    snapshot_cache = c.Type(str, default=".cache/rollbook/snapshots")
    """Where snapshots are kept by input hash (relative to mkdocs.yml), so rebuilds reuse them."""

    offline = c.Type(bool, default=True)
    """Keep the site readable offline (a service worker); false removes it from readers."""

    reproducible_date = c.Type(bool, default=True)
    """Date the build by its input (last docs commit) so rebuilds are byte-identical."""

    plain_tables = c.Optional(c.Type(bool))
    """Ordinary Markdown dice tables (``| d6 | Result |``) become roll tables (unset: the
    ``rollbook`` extension's own option decides, which is on by default)."""

    prose_dice = c.Optional(c.Type(bool))
    """Dice written in prose ("roll 1d6", "2d6 x 10 feet") become inline rolls."""

    obsidian = c.Optional(c.Type(bool))
    """Obsidian Dice Roller code spans (`` `dice: 1d20` ``, `` `dice: [[Page#^id]]` ``) roll."""

    gm_screen = SitePath("gm/", allow_empty=True)
    """Site path of the GM screen page (pinned items gather there); empty to leave it out."""

    pdf = c.Type(str, default="")
    """File name of the PDF book written into the site (``rules.pdf``); empty: no book.
    Needs ``pip install "rollbook[pdf]"``."""

    pdf_paper = c.Choice(("a4", "letter"), default="a4")
    """The book's paper size: ``a4`` or ``letter`` (US Letter)."""

    pdf_chances = c.Type(bool, default=False)
    """Print each table row's exact chance."""

    pdf_qr = c.Type(bool, default=False)
    """Print a small QR code of its live version beside each table (needs ``site_url``)."""

    pdf_black_white = c.Type(bool, default=False)
    """Grey instead of the palette's colour, for home printers."""

    pdf_style = c.Optional(c.Type(str))
    """The author's own Typst file (relative to mkdocs.yml), read after rollbook's style."""

    pdf_roll_details = c.Type(bool, default=False)
    """Inline rolls also print their average and range."""

    assets_javascript = SitePath("assets/rollbook/rollbook.js")
    """Site path of the entry ES module added to every page."""

    assets_stylesheet = SitePath("assets/rollbook/rollbook.css")
    """Site path of the stylesheet added to every page."""
