"""The languages a built site's pages mark for their scripts (``data-rb-lang``).

Hosts without the MkDocs plugin (Zensical, ``rollbook assets``) learn a page's own language
(front matter ``language:``) only from the mark the Markdown extension writes into it
(`rollbook.markup.page_state.PageState.language_mark`), so the site's catalogues are the
site's language and every language a page marks.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rollbook.language import Catalogue, catalogue, resolve

__all__ = ["languages_marked", "with_page_languages"]

_MARK = re.compile(rb'<div hidden data-rb-lang="([A-Za-z0-9_-]{1,20})"></div>')


def languages_marked(site: Path) -> list[str]:
    """Every language code a page of ``site`` marks, sorted."""
    found: set[str] = set()
    for page in site.rglob("*.html"):
        try:
            found.update(m.decode("ascii") for m in _MARK.findall(page.read_bytes()))
        except OSError:
            continue  # a page removed while we read: the next build says it again
    return sorted(found)


def with_page_languages(
    site: Path, catalogues: Sequence[Catalogue], strings: Mapping[str, Any] | None = None
) -> list[Catalogue]:
    """``catalogues`` (the site's, the default first), then one per other language marked.

    Those get the author's ``strings`` too.
    """
    chosen = list(catalogues) or [catalogue("en", strings)]
    have = {c.language for c in chosen}
    for code in languages_marked(site):
        if resolve(code) not in have:
            have.add(resolve(code))
            chosen.append(catalogue(code, strings))
    return chosen
