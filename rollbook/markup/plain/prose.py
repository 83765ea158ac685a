"""Dice written in prose ("roll 1d6", "2d6 x 10 feet", "a dagger (d4)") as inline rolls.

An ``InlineProcessor`` at a low priority, so code spans, links, images, raw HTML and our
own ``![roll:...]()`` have claimed their text first; it never runs inside links, code or
headings (``ANCESTOR_EXCLUDES``). What it lights up is exactly what ``![roll:...]()``
gives, with the text as written for its label. Conservative: a notation must stand alone
(not in a word, a path, a version or a model number), needs its sides (``3D`` is no die),
is upper case only with a count (``3D6``), and is left alone before the names of games
and licences ("d20 System", "d20 Modern").

It reads the arithmetic around dice as a reader does, left to right: sums of dice
("1d6 + 1d4"), a factor with grouped thousands ("2d6 × 1,000"), a die as a factor
("1d3 x 1d6"), an addend after the factor, a bracket scaled whole ("(1d4+1) x 10"), and
kept or dropped dice in words ("4d6 and drop the lowest"). Whatever it cannot read whole
("1d6 x 1.5", "3 x 1d6", kept dice said otherwise) stays text: never a part rolled alone.
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
_DIE = rf"(?:\d{{1,3}}{_LETTER}{_SIDES}|{_LETTER}{_SIDES}|\d{{1,3}}{_UPPER}{_SIDES})"
_OP = r"[ \t]?[+\-−][ \t]?"
# Between two dice a bare hyphen is a range ("1d6-2d6 damage, by size"), not a difference:
# only a plus, a spaced hyphen or a minus sign joins them into one roll.
_DICE_OP = r"(?:[ \t]?[+−][ \t]?|[ \t][\-−][ \t])"
_TIMES = r"[ \t]?[x×*][ \t]?"
_NUMBER = r"\d{1,3}(?!\w|[.,]\d)"
# A factor may group its thousands ("2d6 × 1,000 gp", German "1.000"): never read as "× 1".
_FACTOR = r"(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?:\.\d{3})+|\d{1,4})(?!\w|[.,]\d)"
# Names of games, licences and product lines, in any case ("the d20 system", "d20 Modern").
_NOT_AFTER = (
    r"[\w&/\-+@]|\.\d"
    r"|[ \t](?i:system|modern|srd|ogl|licen[cs]e|edition|games?|products?|publishers?)\b"
)
_COUNT_WORD = r"(?:[1-9]|one|two|three|four|five)"
_DIE_WORD = r"(?:dice|die|ones?|rolls?|results?)"
# "4d6 drop lowest", "roll 2d20 and take the higher": the kept dice are part of the roll.
_KEEP = (
    r"[ \t]*,?[ \t]*(?:and[ \t]+)?(?:"
    r"(?:drop|discard|ignore|remove)(?:ping)?[ \t]+(?:the[ \t]+)?(?P<drop>lowest|worst)"
    rf"(?:[ \t]+{_DIE_WORD})?"
    r"|(?:keep|take|use)(?:ing)?[ \t]+(?:the[ \t]+)?"
    rf"(?:(?P<n1>{_COUNT_WORD})[ \t]+)?"
    r"(?P<side>highest|higher|best|better|lowest|lower|worst|worse)"
    rf"(?:[ \t]+(?P<n2>{_COUNT_WORD}))?(?:[ \t]+{_DIE_WORD})?"
    r")\b"
)
PROSE_DICE = re.compile(
    r"(?<![\w&/.\-@#:])"
    rf"(?P<dice>{_DIE})"
    rf"(?P<keep>{_KEEP})?"
    # More dice summed in ("7 (1d6 + 1d4) fire damage", "1d4+1d4+1"): one roll, as read;
    # not a die "per level" ("1d6 + 1d6 per 2 levels" is two rolls).
    rf"(?(keep)|(?P<more>(?:{_DICE_OP}{_DIE}(?![\w%/])(?![ \t]+per\b))*)"
    rf"(?P<mod>(?:{_OP}{_NUMBER})?)"
    # A factor, a number or a die ("1d3 x 1d6 bars"), then maybe an addend ("d6 x 10 + 5").
    rf"(?P<mul>{_TIMES}(?:{_FACTOR}|{_DIE}(?![\w%])))?"
    rf"(?(mul)(?:{_OP}{_NUMBER})?))"
    # "1d10 x 10%" is a percentage of 10-100; "1d10%" is nothing anyone writes.
    rf"(?(mul)(?!{_NOT_AFTER})|(?!{_NOT_AFTER}|%))"
)
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def _kept(m: re.Match[str], language: str | None) -> str | None:
    """``4d6dl1`` for "4d6 drop lowest", ``2d20kh1`` for "2d20, take the higher"; or None."""
    dice = notation_of(to_d(m["dice"], language))
    count = int(dice.split("d")[0] or 1)
    if m["drop"]:
        return f"{dice}dl1" if count > 1 else None
    word = m["n1"] or m["n2"] or "1"
    keep = int(_NUMBERS.get(word.lower(), word) if not word.isdigit() else word)
    high = m["side"].lower() in ("highest", "higher", "best", "better")
    return f"{dice}{'kh' if high else 'kl'}{keep}" if 0 < keep < count else None


# What may follow a notation and would change its meaning if it were not read with it
# ("1d6 x 1.5", "1d6 + 1d4 × 2 × 3"): such text stays static rather than roll the wrong range.
_GOES_ON = re.compile(rf"(?:{_OP}(?!{_DIE})|{_TIMES}|[ \t]?[/÷][ \t]?)[\d(]|{_TIMES}{_LETTER}")
_ANY_DIE = re.compile(_DIE)
_TIMES_BEFORE = re.compile(rf"\d{_TIMES}$")
_ATTACKS = re.compile(r"[ \t][x×][2-4]")
_SCALED = re.compile(rf"\){_TIMES}(?P<factor>{_FACTOR})(?!{_NOT_AFTER})")
# Words right after several dice that keep or drop some in a way not read above ("2d20
# (take the higher)", German "3W6 und streiche den niedrigsten"): the total alone is wrong.
_KEEP_HINT = re.compile(
    r"(?i)[ \t(,]{1,3}(?:[^\W\d]+[ \t]+){0,2}?"
    r"(?:drop|discard|keep|take|use|streich\w*|nimm|nehmt|behalte\w*)"
    r"(?:[ \t]+[^\W\d]+){0,3}?[ \t]+"
    r"(?:high|low|best|worst|better|worse|höher|höchst|niedrig|beste|schlechte)\w*"
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
    out = re.sub(r"(?<=\d)[,.](?=\d{3}(?!\d))", "", out)  # "1,000" / "1.000" -> 1000
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
        label, start, end = m.group(0), m.start(0), m.end(0)
        language = state.language()
        counted = bool(m["mul"] and end == m.end("mul") and _ATTACKS.fullmatch(m["mul"]))
        if counted:
            # "Bite 1d4 x2" in a stat block is two bites of 1d4, not one bite doubled: the
            # dice roll, the count stays text. "2d6 x 10" (spaced, or a larger factor) scales.
            end = m.start("mul")
            label = data[start:end]
        scaled = None
        if start and data[start - 1] == "(" and not m["keep"] and not m["mul"]:
            scaled = _SCALED.match(data, end)  # "(1d4+1) x 10": the whole bracket is scaled
        if scaled:
            start, end = start - 1, scaled.end()
        if (not counted and _GOES_ON.match(data, end)) or (
            not scaled and data[end : end + 1] == ")" and _GOES_ON.match(data, end + 1)
        ):
            return None, None, None  # more arithmetic than prose dice read: leave it whole
        several = int(m["dice"].split(m["dice"].lstrip("0123456789")[:1])[0] or 1) > 1
        if several and not m["keep"] and _KEEP_HINT.match(data, m.end(0)):
            return None, None, None  # kept or dropped dice this reader cannot follow
        if _TIMES_BEFORE.search(data, 0, m.start(0)):
            return None, None, None  # "3 x 1d6": three rolls or one times three? Left as text.
        letters = set()
        for die in _ANY_DIE.finditer(label):
            written = die.group(0).lstrip("0123456789")
            letter, sides = written[0], written[1:]
            if letter not in "dD" and letter not in letters_for(language):
                return None, None, None  # "1k6" on a page whose language writes d
            if sides.isdigit() and int(sides) < 2:
                return None, None, None  # "d1", "d0": no die anyone rolls
            letters.add(letter)
        if m["keep"]:
            notation = _kept(m, language)
        elif scaled:
            notation = notation_of(to_d(f"{label} x {scaled['factor']}", language))
            label = data[start:end]
        else:
            notation = notation_of(to_d(label.rstrip(), language))
        if notation is None or check_notation(notation) is not None:
            return None, None, None
        element = inline_roll_element(
            state.next_inline_id(), notation, label, text=state.text(),
            written=None if letters <= set("dD") else label,
        )  # fmt: skip
        nested.mark_nested(state, element, notation, label)
        state.counts["prose"] += 1
        return element, start, end
