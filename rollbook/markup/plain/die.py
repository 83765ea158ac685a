"""Which die a plain table names, read from a header cell or the line above the table.

Conservative on purpose: a header cell names a die only when the die is all it says
(``d6``, ``1d6``, ``D6``, ``2d6``, ``d66``, ``d100``, ``d%``, ``1d6+1``, "d6 roll",
"Roll (d8)", ``dice: 1d%``, with or without emphasis), so a column headed "d20 System"
or "3d printing" stays text. The line or heading above a table names its die when it
carries exactly one notation and reads like a lead-in ("Roll 1d6:", "Encounters (d20)").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rollbook.engine.dice.letters import to_d
from rollbook.markup.plain.keys import strip_markup

__all__ = ["Die", "die_and_name", "die_in_header", "die_in_lead", "die_plus_words"]

_NOTATION = r"(?P<n>\d{0,2})[dD](?P<s>%|\d{1,3})(?:\s*(?P<op>[+-])\s*(?P<mod>\d{1,3}))?"
_HEADER = re.compile(
    rf"^(?:dice:\s*)?(?:roll(?:\s+a)?\s*)?[(\[]?\s*{_NOTATION}\s*[)\]]?\s*(?:roll|result|die)?\s*:?$",
    re.I,
)
# A one-column table's header may name its die and its column: "d6 Encounter".
_NAMED = re.compile(rf"^{_NOTATION}\s+(?P<name>[A-Za-z][\w '-]{{0,40}})$")
# A notation standing alone in running text: not inside a word, not "3D", not "d20 System".
_IN_TEXT = re.compile(rf"(?<![\w&/.-]){_NOTATION}(?![\w&/-])")
# A header cell naming a die plus a modifier only words give ("2d6 + CHA", "d20 + Level").
_PLUS_WORDS = re.compile(
    rf"^(?:roll\s+)?{_NOTATION}\s*(?P<sign>[+\-−])\s*(?P<words>[^\W\d][\w .'/-]{{0,30}})$", re.I
)
_HEADING = re.compile(r"^ {0,3}#{1,6}\s+")
# A PDF export's heading is often a bold line ("**Hazards (1d10)**"): a heading all the same.
_STRONG_LINE = re.compile(r"^ {0,3}(\*\*|__)(?!\s)[^*_]+(?<!\s)\1\s*$")
# A title that ends with its die in brackets ("Encounters (d20)") leads into its table.
_DIE_LAST = re.compile(rf"[(\[]\s*{_NOTATION}\s*[)\]]\.?$")


@dataclass(frozen=True)
class Die:
    """The roll a plain table is read with.

    Attributes:
        roll: Notation the engine rolls (``d66`` becomes ``d6*10+d6``, so keys stay numbers).
        name: The die as the table names it (shown as the key column's heading).
        top: Highest face when the roll is a single die (``00`` = 100 on a d100), else None.
        d66: The roll is a d66.
    """

    roll: str
    name: str
    top: int | None
    d66: bool = False


def _die(match: re.Match[str], name: str) -> Die | None:
    count = int(match["n"] or 1)
    sides_text = match["s"]
    sides = 100 if sides_text == "%" else int(sides_text)
    if count == 0 or (sides_text != "%" and sides < 2):
        return None
    modifier = f"{match['op']}{int(match['mod'])}" if match["op"] else ""
    if sides == 66 and count == 1 and not modifier:
        return Die("d6*10+d6", name, None, d66=True)
    die = "d%" if sides_text == "%" else f"d{sides}"
    roll = f"{count}{die}{modifier}" if (count > 1 or modifier) else die
    top = sides if count == 1 and not modifier else None
    return Die(roll, name, top)


def die_in_header(cell: str, language: str | None = None) -> Die | None:
    """The die a header (or header-like first-row) cell names, if that is all it says.

    ``language``: the page's; its dice letters count as ``d`` (``W6`` in German).
    """
    text = strip_markup(cell)
    match = _HEADER.match(to_d(text, language))
    return _die(match, text) if match else None


def die_and_name(cell: str, language: str | None = None) -> tuple[Die, str] | None:
    """``(die, column name)`` of a one-column table's header like "d6 Encounter"."""
    text = strip_markup(cell)
    match = _NAMED.match(to_d(text, language))
    die = _die(match, text[: match.start("name")].strip()) if match else None
    return (die, match["name"].strip()) if die and match else None


def die_plus_words(cell: str, language: str | None = None) -> tuple[Die, str] | None:
    """``(die, modifier)`` of a header cell like "2d6 + CHA": a roll the table cannot give."""
    text = strip_markup(cell)
    match = _PLUS_WORDS.match(to_d(text, language))
    die = _die(match, text) if match else None
    return (die, match["words"].strip()) if die and match else None


def die_in_lead(line: str, language: str | None = None) -> Die | None:
    """The die named by the line right above a table, when it reads as its lead-in.

    A heading (or a bold line, as PDF exports write headings), a line ending with ``:``, or
    a title ending with its die in brackets ("Encounters (d20)"), that carries exactly one
    notation.
    """
    heading = bool(_HEADING.match(line)) or bool(_STRONG_LINE.match(line))
    written = strip_markup(_HEADING.sub("", line)).rstrip()
    if not heading and not written.endswith(":") and not _DIE_LAST.search(to_d(written, language)):
        return None
    if len(written) > 80:
        return None
    text = to_d(written, language)  # same length: positions hold in ``written``
    found = {m.group(0).lower().replace(" ", "") for m in _IN_TEXT.finditer(text)}
    if len(found) != 1:
        return None
    match = _IN_TEXT.search(text)
    assert match is not None
    return _die(match, written[match.start() : match.end()])
