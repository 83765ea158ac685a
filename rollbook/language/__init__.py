"""The reader's language: the catalogue of reader text, numbers, right to left.

Every text a reader sees or hears, numbers as the language writes them (Babel), and
right-to-left languages.

Used by the Markdown extensions (the HTML they write), the MkDocs plugin and
`rollbook.site_runtime` (``strings.js`` for the page). The engine does not import it: the
dice letters of other languages live in `rollbook.engine.dice.letters`, which the
browser's engine needs too.
"""

from __future__ import annotations

import rollbook.language.catalogue as _catalogue
from rollbook.language.catalogue import *  # noqa: F403 (the names of its __all__, one list)

__all__ = _catalogue.__all__
