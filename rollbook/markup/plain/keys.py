"""Keys as ordinary Markdown dice tables write them, read into the engine's key forms.

A plain table's first column holds keys the way published tables spell them: ``7``,
``2-3`` / ``2–3`` / ``2—3`` / ``2 - 3``, ``01-20``, ``00`` or ``0`` for 100 on a d100 or
d%, ``91-00``, ``4+``, ``15+``, ``5-``, ``5 or less``, ``12 or more``, ``1.`` / ``1)``
followed by a label in the same cell, and d66 pairs (``11``, ``1-1``). Each is turned into
the spelling the engine documents (``7``, ``2--3``, ``>=4``, ``<=5``), so the engine's own
key parser, model and checks do the rest and a single-hyphen range never warns here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

__all__ = ["PlainKey", "read_key", "strip_markup"]

_MARKUP = re.compile(r"\*\*|__|[*_`]|<[^>]*>")
# English and German words too ("6 to 9", "3 bis 6"; "5 or less", "12 oder mehr").
#: A range's dash as keys write it ("2-3", "2–3", "2 to 3", German "2 bis 3").
DASH = r"\s*(?:-{1,2}|–|—|to|bis)\s*"
_NUM = r"\d{1,4}"
_RANGE = re.compile(rf"^({_NUM}){DASH}({_NUM})$")
_EXACT = re.compile(rf"^({_NUM})$")
_OPEN_UP = re.compile(
    rf"^({_NUM})\s*(?:\+|or\s+(?:more|higher|above|greater)|oder\s+(?:mehr|höher))$", re.I
)
_OPEN_DOWN = re.compile(
    rf"^({_NUM})\s*(?:-|−|or\s+(?:less|lower|below|fewer)|oder\s+(?:weniger|niedriger))$", re.I
)
_OPEN_SIGN = re.compile(rf"^(≥|>=|≤|<=)\s*({_NUM})$")
_LABELLED = re.compile(rf"^({_NUM})\s*[.)]\s*(\S.*)?$")
_PAIR = re.compile(r"^([1-6])\s*-\s*([1-6])$")


@dataclass(frozen=True)
class PlainKey:
    """A key cell read as a key.

    Attributes:
        text: The engine's spelling (``7``, ``2--3``, ``>=4``, ``<=5``).
        label: Text that followed ``1.`` / ``1)`` in the same cell (raw Markdown), or ``""``.
    """

    text: str
    label: str = ""


# Both below are pure and read the same few cells on every page ("1", "2-3", "01-20", "d6"):
# a site of a thousand tables reads each spelling once (bench 1b).
@lru_cache(maxsize=4096)
def strip_markup(cell: str) -> str:
    """The cell's text without emphasis, code ticks and tags, whitespace collapsed."""
    return " ".join(_MARKUP.sub("", cell).split())


def _hundred(digits: str, top: int | None) -> int:
    """``00`` (and ``0``) are 100 on a d100 / d%."""
    value = int(digits)
    if value == 0 and top == 100:
        return 100
    return value


@lru_cache(maxsize=4096)
def read_key(cell: str, *, top: int | None, d66: bool = False) -> PlainKey | None:
    """Read one key cell, or ``None`` when it is not a key.

    Args:
        cell: The cell as written (Markdown).
        top: The die's highest face when the roll is one die (100 for d100 and d%).
        d66: The roll is a d66: ``1-1`` is the pair 11, never a range.
    """
    raw = cell.strip()
    labelled = _LABELLED.match(strip_markup(raw))
    text = strip_markup(raw)
    if d66 and (pair := _PAIR.match(text)):
        return PlainKey(f"{pair[1]}{pair[2]}")
    if match := _EXACT.match(text):
        return PlainKey(str(_hundred(match[1], top)))
    if match := _RANGE.match(text):
        lo, hi = _hundred(match[1], None), _hundred(match[2], top)
        if lo == 0 and top == 100 and match[1] == "00":
            lo = 100
        return PlainKey(f"{lo}--{hi}") if lo != hi else PlainKey(str(lo))
    if match := _OPEN_UP.match(text):
        return PlainKey(f">={int(match[1])}")
    if match := _OPEN_DOWN.match(text):
        return PlainKey(f"<={int(match[1])}")
    if match := _OPEN_SIGN.match(text):
        op = {"≥": ">=", "≤": "<="}.get(match[1], match[1])
        return PlainKey(f"{op}{int(match[2])}")
    if labelled and labelled[2]:
        label = re.sub(r"^\s*(?:\*\*|__)?\s*\d{1,4}\s*[.)]\s*(?:\*\*|__)?\s*", "", raw, count=1)
        return PlainKey(str(_hundred(labelled[1], top)), label.strip())
    if labelled:
        return PlainKey(str(_hundred(labelled[1], top)))
    return None
