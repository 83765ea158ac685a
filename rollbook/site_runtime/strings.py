"""``assets/rollbook/strings.js``: the site's catalogues for the page (`rollbook.language`).

An ES module the page's scripts import (``i18n.js``), so the text arrives with the code in
one round of module fetches and no widget waits for it. One catalogue per language the site
is written in; the page picks its own by ``<html lang>``, else the first. The engine's
sentences (dice errors, fight logs) are ``strings-engine.js`` beside it, which ``said.js``
imports (fetched the first time a reply holds one).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from rollbook.language import Catalogue, catalogue

__all__ = ["engine_strings_module", "languages_written", "strings_module", "write_strings"]

_PREFIX = "export default "


def strings_module(catalogues: Sequence[Catalogue]) -> str:
    """The module's text: ``export default {"default": LANG, "catalogues": {LANG: ...}}``."""
    chosen = list(catalogues) or [catalogue("en")]
    data = {
        "catalogues": {c.language: c.for_browser() for c in chosen},
        "default": chosen[0].language,
    }
    body = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (
        "// @ts-check\n// The site's catalogues (written by rollbook at build time).\n"
        f'/** @type {{import("./i18n.js").StringsFile}} */\n{_PREFIX}{body};\n'
    )


def engine_strings_module(catalogues: Sequence[Catalogue]) -> str:
    """``strings-engine.js``: ``export default {"catalogues": {LANG: {key: text}}}``."""
    chosen = list(catalogues) or [catalogue("en")]
    data = {"catalogues": {c.language: c.engine_for_browser() for c in chosen}}
    body = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return (
        "// @ts-check\n// The engine's sentences in the site's languages (written by rollbook).\n"
        f'/** @type {{import("./said.js").EngineStringsFile}} */\n{_PREFIX}{body};\n'
    )


def languages_written(folder: Path) -> list[str]:
    """The languages of the ``strings.js`` already in ``folder``, else none.

    An earlier pass of the same build: mkdocs-static-i18n builds each language into the
    same site.
    """
    path = folder / "strings.js"
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text[text.index(_PREFIX) + len(_PREFIX) :].rstrip().removesuffix(";"))
        return sorted(data["catalogues"])
    except (OSError, ValueError, KeyError, TypeError):
        return []


def write_strings(folder: Path, catalogues: Sequence[Catalogue]) -> Path:
    """Write ``strings.js`` and ``strings-engine.js`` into our assets folder.

    They replace the stand-ins copied there. Returns the path of ``strings.js``.
    """
    (folder / "strings-engine.js").write_text(engine_strings_module(catalogues), encoding="utf-8")
    path = folder / "strings.js"
    path.write_text(strings_module(catalogues), encoding="utf-8")
    return path
