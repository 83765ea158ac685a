"""The reader's variants of a written roll, composed as notation.

Advantage, disadvantage, a modifier.

The build writes, for each inline roll, the notation of each variant the engine accepts
(``rollbook/markup/inline.py``); the page's menu offers only those and adds the reader's
modifier at the end (``assets/rollbook/variants.js``), so the composing lives here alone.

A label written with ``#`` or ``//`` runs to the end of its line: composed naively, as
``(1d6 # fire)+2``, it would swallow the rest. A line break after the written notation ends
the label there and keeps it (spaces, line breaks included, may surround parentheses, braces
and operators).
"""

from __future__ import annotations

import re

from .errors import DiceError
from .nodes import Multi
from .parser import parse_tree

__all__ = ["MODIFIED", "VARIANTS", "compose", "offered"]

#: Variants with the notation of each (the written roll, kept as a whole: its label too).
VARIANTS = ("advantage", "disadvantage")
#: The key of the written roll ready for a modifier to be added: ``(NOTATION)``.
MODIFIED = "modified"
# The longest modifier the page appends ("+9999": the menu takes four digits at most).
_WIDEST_MODIFIERS = ("+9999", "-9999")
_BARE_DIE = re.compile(r"\s*1?d(\d+)\s*", re.IGNORECASE)


def _closed(notation: str) -> str:
    """The notation, ended by a line break when a `#` or `//` label may run to its end."""
    text = notation.strip()
    return f"{text}\n" if "#" in text or "//" in text else text


def compose(notation: str, variant: str) -> str:
    """The notation to roll for ``variant`` (a VARIANTS name or MODIFIED) of ``notation``.

    Advantage rolls twice and keeps the higher total (``1d20`` -> ``2d20kh1``, anything
    else -> ``{E,E}kh1``, so the history shows both totals); disadvantage the lower.
    MODIFIED wraps the notation in parentheses, so ``+2`` applies to its whole total. Every
    result takes a modifier written after it (``+2``, ``-1``).
    """
    closed = _closed(notation)
    if variant == MODIFIED:
        return f"({closed})"
    keep = {"advantage": "kh1", "disadvantage": "kl1"}[variant]
    bare = _BARE_DIE.fullmatch(notation)
    if bare:
        return f"2d{bare[1]}{keep}"
    return f"{{{closed},{closed}}}{keep}"


def _accepted(notation: str) -> bool:
    try:
        for modifier in ("", *_WIDEST_MODIFIERS):
            parse_tree(notation + modifier)
    except DiceError:
        return False
    return True


def offered(notation: str) -> dict[str, str]:
    """Each variant of ``notation`` the engine accepts, with or without a modifier.

    Empty for a notation that does not parse or is a comma roll (no one total to keep or
    to add to). A variant past a limit of the notation (twice the dice) is left out.
    """
    try:
        if isinstance(parse_tree(notation), Multi):
            return {}
    except DiceError:
        return {}
    out: dict[str, str] = {}
    for variant in (*VARIANTS, MODIFIED):
        composed = compose(notation, variant)
        if _accepted(composed):
            out[variant] = composed
    return out
