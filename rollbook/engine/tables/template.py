"""``{{ name }}`` placeholders: finding them, matching names, filling ``result_text``.

Names match loosely so authors need not repeat a header's exact spelling: tags are dropped,
case is ignored and runs of spaces, ``_`` and ``-`` count as one ``_`` (``{{ Hit Location }}``,
``{{ hit_location }}`` and a header ``Hit location`` are the same name).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "DEFAULT_RESULT_TEXT",
    "PLACEHOLDER",
    "RESERVED",
    "dice_text",
    "fill_template",
    "humanize",
    "normalize",
    "placeholders",
]

#: The sentence shown after a roll when ``result_text`` is absent or ``true``.
DEFAULT_RESULT_TEXT = "Rolled {{ roll }}: {{ result }}"

#: Placeholders every ``result_text`` may use: the total, the matched cell, the dice.
RESERVED = ("roll", "result", "dice")

PLACEHOLDER = re.compile(r"\{\{\s*([^{}]*?)\s*\}\}")
_TAG = re.compile(r"<[^>]*>")
_SEPARATORS = re.compile(r"[\s_\-]+")


def normalize(name: str) -> str:
    """The matching form of a placeholder, prompt or column name."""
    return _SEPARATORS.sub("_", _TAG.sub("", name)).strip("_").lower()


def placeholders(text: str) -> list[str]:
    """The placeholder names in ``text`` as written, in order, without repeats."""
    seen: dict[str, None] = {}
    for match in PLACEHOLDER.finditer(text):
        seen.setdefault(match[1], None)
    return list(seen)


def humanize(name: str) -> str:
    """A label from a name: ``failed_roll`` -> ``Failed Roll``."""
    words = [w for w in re.split(r"[\s_\-]+", name) if w]
    return " ".join(w[:1].upper() + w[1:] for w in words)


def fill_template(template: str, values: Mapping[str, str]) -> str:
    """Replace every ``{{ name }}`` whose normalized name is in ``values``.

    Args:
        template: HTML with placeholders.
        values: Normalized name -> HTML to insert (already escaped where needed).

    Returns:
        The filled HTML; unknown placeholders are left as written (validation reports them).
    """

    def replace(match: re.Match[str]) -> str:
        return values.get(normalize(match[1]), match[0])

    return PLACEHOLDER.sub(replace, template)


def dice_text(parts: Sequence[Mapping[str, Any]]) -> str:
    """The ``{{ dice }}`` text: each die that counts, in roll order, ``"3, 5"``.

    Dropped dice (``4d6kh3``, ``2d20kh1``) are left out; a re-rolled or exploded die shows
    the values it kept. Constants and modifiers are not dice, so ``1d20+3`` gives ``"17"``.

    Args:
        parts: ``RollResult.to_dict()["parts"]``.

    Returns:
        The values joined with ``", "``; empty when the roll has no dice.
    """
    values = [
        str(die["value"])
        for part in parts
        if part.get("type") == "dice"
        for die in part.get("dice", ())
        if "dropped" not in die.get("flags", ())
    ]
    return ", ".join(values)
