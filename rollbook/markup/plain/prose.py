"""Dice written in prose ("roll 1d6", "2d6 x 10 feet", "a dagger (d4)") as inline rolls.

An ``InlineProcessor`` at a low priority, so code spans, links, images, raw HTML and our
own ``![roll:...]()`` have claimed their text first; it never runs inside links, code or
headings (``ANCESTOR_EXCLUDES``). What it lights up is exactly what ``![roll:...]()``
gives, with the text as written for its label. Conservative: a notation must stand alone
(not in a word, a path, a version or a model number), needs its sides (``3D`` is no die),
is upper case only with a count (``3D6``), and is left alone before the names of games
and licences ("d20 System", "d20 Modern").
"""

from __future__ import annotations

import re
from typing import override

from markdown import Markdown, util

from rollbook.engine.dice.letters import DICE_LETTERS, letters_for, to_d
from rollbook.markup import nested
from rollbook.markup.inline import check_notation, inline_roll_element
from rollbook.markup.plain.feature import Claim, FeatureInlineProcessor

__all__ = ["PRIORITY", "PROSE_DICE", "ProseDiceProcessor", "notation_of"]

#: Below every pattern of Python-Markdown's own (the lowest, ``linebreak``, is 100; emphasis
#: 50-70 only where asterisks are) except none: at 45 the text left is plain words.
PRIORITY = 45

_SIDES = r"(?:\d{1,3}|%)"
# ``d``, and the dice letters of other languages (1W20, 1k6, 1к6): a page takes those only
# when its language writes dice with them (engine/dice/letters.py), else it declines.
_LETTER = "[d" + "".join(sorted(set("".join(DICE_LETTERS.values())))) + "]"
_UPPER = "[D" + "".join(sorted({c for c in "".join(DICE_LETTERS.values()) if c.isupper()})) + "]"
PROSE_DICE = re.compile(
    r"(?<![\w&/.\-@#:])"
    rf"(?P<dice>(?:\d{{1,3}}{_LETTER}{_SIDES}|{_LETTER}{_SIDES}|\d{{1,3}}{_UPPER}{_SIDES}))"
    r"(?P<mod>(?:[ \t]?[+\-−][ \t]?\d{1,3}(?!\w|\.\d))?)"
    r"(?P<mul>(?:[ \t]?[x×*][ \t]?\d{1,4}(?!\w|\.\d))?)"
    r"(?![\w&/\-+%@]|\.\d|[ \t](?:System|Modern|SRD|OGL|Licen[cs]e|Edition|edition)\b)"
)


# Author HTML written inline (``<code>1d6</code>``) reaches inline patterns as stash
# placeholders around plain text: text inside these tags is no prose.
_LITERAL_TAGS = re.compile(r"<(/?)(code|kbd|samp|var|pre|a)\b[^>]*>", re.I)


def inside_literal_html(md: Markdown, data: str, end: int) -> bool:
    """Whether ``data[:end]`` leaves an inline ``<code>``, ``<kbd>``, ``<a>``... open."""
    if "\x02" not in data[:end] or "inline" not in md.treeprocessors:
        return False
    stash = md.htmlStash.rawHtmlBlocks
    nodes = getattr(md.treeprocessors["inline"], "stashed_nodes", {})
    depth = 0
    for placeholder in util.INLINE_PLACEHOLDER_RE.finditer(data, 0, end):
        node = nodes.get(placeholder[1])
        found = util.HTML_PLACEHOLDER_RE.fullmatch(node) if isinstance(node, str) else None
        if found is None:
            continue
        index = int(found[1])
        raw = stash[index] if index < len(stash) else ""
        for tag in _LITERAL_TAGS.finditer(str(raw)):
            depth += -1 if tag[1] else 1
    return depth > 0


def notation_of(text: str) -> str:
    """The engine's notation for prose dice as written (``2d6 x 10`` -> ``2d6*10``).

    A d66 is two d6 read as tens and units, as every table that names one means it.
    A multiplier after a modifier applies to the whole roll, as a reader reads it.
    """
    out = text.replace("×", "*").replace("x", "*").replace("−", "-").replace("D", "d")
    out = "".join(out.split())
    if out in ("d66", "1d66"):
        return "d6*10+d6"
    total, times, factor = out.rpartition("*")
    if times and re.search(r"[+\-]", total):
        return f"({total})*{factor}"  # "1d4+1 x 10" is read left to right: (1d4+1) x 10
    return out


class ProseDiceProcessor(FeatureInlineProcessor):
    """Turns dice notation in running text into inline rolls."""

    # Links, code, headings, and header cells (a column headed "d20" is a name, not a roll).
    ANCESTOR_EXCLUDES = (
        "a", "code", "pre", "kbd", "samp", "th", "h1", "h2", "h3", "h4", "h5", "h6",
    )  # fmt: skip

    FEATURE = "prose_dice"
    PATTERN = PROSE_DICE

    @override
    def read(self, m: re.Match[str], data: str) -> Claim:
        """An inline roll for notation standing alone in the text; decline the rest."""
        state = self.state
        if nested.rendering_cells(state) and not state.prose_in_cells:
            return None, None, None  # roll-table fences ask for this with roll_dice_in_results
        if inside_literal_html(self.md, data, m.start(0)):
            return None, None, None
        label = m.group(0)
        language = state.language()
        letter = m.group("dice").lstrip("0123456789")[0]
        if letter not in "dD" and letter not in letters_for(language):
            return None, None, None  # "1k6" on a page whose language writes d
        sides = m.group("dice").lstrip("0123456789")[1:]
        if sides.isdigit() and int(sides) < 2:
            return None, None, None  # "d1", "d0": no die anyone rolls
        notation = notation_of(to_d(label, language))
        if check_notation(notation) is not None:
            return None, None, None
        element = inline_roll_element(
            state.next_inline_id(), notation, label, text=state.text(),
            written=None if letter in "dD" else label,
        )  # fmt: skip
        nested.mark_nested(state, element, notation, label)
        state.counts["prose"] += 1
        return element, m.start(0), m.end(0)
