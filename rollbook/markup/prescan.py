"""A line-based pre-scan of the page source: where each roll markup and heading is.

Python-Markdown keeps no line numbers, so before any block parsing this scan records the
line of every inline roll, ``[!roll:`` typo, roll fence and heading, skipping code (fenced,
indented, code spans) and HTML comments the same way the renderer will. The inline
processor and the fence formatter then claim their lines: fences by body, inline rolls by
notation, in document order.
"""

from __future__ import annotations

import html
import re
import textwrap
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from markdown.extensions.toc import slugify as toc_slugify
from markdown.extensions.toc import unique

__all__ = [
    "BLOCK_KINDS",
    "FENCES",
    "FENCE_KINDS",
    "FENCE_NAMES",
    "NAME_OF",
    "FenceSite",
    "PageScan",
    "TableSite",
    "fence_name",
    "scan",
]

#: Every rollbook fence: (its name in a page, the pre-scan's kind). The one list: the
#: superfences configuration (``rollbook.markup.superfences``), the fences' classes, the
#: plugin's zero-config set-up and the Hugo importer all read it.
FENCES = (
    ("roll-table", "table"),
    ("roll-list", "list"),
    ("statblock", "statblock"),
    ("combat", "combat"),
)
FENCE_NAMES = tuple(name for name, _ in FENCES)
NAME_OF = {kind: name for name, kind in FENCES}  # kind -> name, as problems say it
FENCE_KINDS = dict(FENCES[:2])  # the table fences (both read as tables by the engine)
# The other fences, whose lines and bodies are recorded the same way.
BLOCK_KINDS = dict(FENCES[2:])

_FENCE_OPEN = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*\{?[ \t]*\.?(?P<lang>[\w#.+-]*)"
)
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_LIST_ITEM = re.compile(r"^ {0,3}(?:[*+-]|\d+[.)])[ \t]+")
# Blocks whose indented body is Markdown, not code: list items, admonitions, details.
_CONTAINER = re.compile(r"^ {0,3}(?:[*+-]|\d+[.)]|!!!|\?\?\?\+?)(?:[ \t]|$)")
_ATTR_ID = re.compile(r"[ \t]*\{:?[^}]*#([\w-]+)[^}]*\}[ \t]*$")
_INLINE_ROLL = re.compile(r"!\[roll:([^\]\n]*)\]")
_TYPO = re.compile(r"(?<!!)\[!roll:([^\]\n]*)\]")
_DICE_SPAN = re.compile(r"(?<!`)`dice:([^`\n]*)`(?!`)")  # Obsidian Dice Roller
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`).*?(?<!`)\1(?!`)")
_MARKUP_CHARS = re.compile(r"[*_`]|<[^>]*>")
# A GFM table's delimiter row (at least one pipe, so a setext underline is never one).
_DELIMITER = re.compile(r"^\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_BLOCK_ID = re.compile(r"^[ \t]*\^([A-Za-z0-9-]+)[ \t]*$")
_NO_ROLL = re.compile(r"^[ \t]*\{:?[^}]*\.no-roll\b[^}]*\}[ \t]*$")
STATIC_COMMENT = re.compile(r"^<!--\s*rollbook:\s*static\s*-->$")


def fence_name(language: object) -> str:
    """A fence's language as rollbook compares it: lower case; "" for none.

    superfences hands fences without a language (a bare ```` ``` ````, ``~~~``, an
    attribute-only info string) to every fence test as ``None`` or ``""``; such a fence
    is plain code and never one of ours.
    """
    return language.strip().lower() if isinstance(language, str) else ""


@dataclass
class FenceSite:
    """One roll fence: its opening line (1-based), kind, body and the heading above it."""

    line: int
    kind: str
    body: str
    heading_id: str | None


@dataclass
class TableSite:
    """One GFM table: its header line (1-based), rows (stripped), and what surrounds it.

    ``lead`` is the non-blank line right above (a heading keeps its ``#``), ``static`` that
    the author opted out (``<!-- rollbook: static -->`` above, ``{: .no-roll }`` below) and
    ``block_id`` an Obsidian block id (``^id``) right under the table.
    """

    line: int
    rows: list[str]
    heading_id: str | None
    lead: str = ""
    static: bool = False
    block_id: str | None = None


@dataclass
class PageScan:
    """Everything the scan found, with the claiming helpers used while rendering."""

    inline: dict[str, list[int]] = field(default_factory=dict)
    fences: list[FenceSite] = field(default_factory=list)
    heading_ids: set[str] = field(default_factory=set)
    typos: list[tuple[int, str]] = field(default_factory=list)
    tables: list[TableSite] = field(default_factory=list)
    #: 0-based lines the page hides (block ids and ``{: .no-roll }`` under tables).
    hidden: list[int] = field(default_factory=list)
    #: ``(line, body)`` of each Obsidian Dice Roller span (`` `dice: BODY` ``).
    dice_spans: list[tuple[int, str]] = field(default_factory=list)

    def take_dice(self, body: str) -> int | None:
        """Claim the line of the next ``dice:`` span with this body."""
        for i, (line, text) in enumerate(self.dice_spans):
            if text == body:
                del self.dice_spans[i]
                return line
        return None

    def take_table(self, block: str) -> TableSite | None:
        """Claim the table whose rows are ``block``; ``None`` if the scan did not see it."""
        rows = [row.strip() for row in block.strip("\n").split("\n")]
        for i, site in enumerate(self.tables):
            if site.rows == rows:
                return self.tables.pop(i)
        return None  # not a table the scan saw (so nothing is known of it): left alone

    def take_inline(self, notation: str) -> int | None:
        """Claim the line of the next unclaimed inline roll with this notation."""
        lines = self.inline.get(notation.strip())
        return lines.pop(0) if lines else None

    def take_fence(self, kind: str, body: str) -> FenceSite | None:
        """Claim the next unclaimed fence of this kind, preferring one with this body."""
        want = _norm(body)
        for i, site in enumerate(self.fences):
            if site.kind == kind and _norm(site.body) == want:
                return self.fences.pop(i)
        for i, site in enumerate(self.fences):
            if site.kind == kind:
                return self.fences.pop(i)
        return None


def _norm(body: str) -> str:
    return textwrap.dedent(body.replace("\r", "")).strip("\n")


def heading_slug(
    raw: str, slugify: Callable[[str, str], str] = toc_slugify, sep: str = "-"
) -> tuple[str, bool]:
    """Return (id, explicit) for a heading's source text, the way toc would compute it."""
    m = _ATTR_ID.search(raw)
    if m:
        return m.group(1), True
    raw = re.sub(r"[ \t]*\{:?[^}]*\}[ \t]*$", "", raw)
    raw = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)  # links and images keep their text
    return slugify(html.unescape(_MARKUP_CHARS.sub("", raw)), sep), False


def scan(
    lines: Iterable[str],
    slugify: Callable[[str, str], str] = toc_slugify,
    sep: str = "-",
) -> PageScan:
    """Scan page source lines (as Python-Markdown splits them) for roll markup and headings."""
    result = PageScan()
    lines = [line.rstrip("\r") for line in lines]
    heading: str | None = None
    in_list = False
    prev_blank = True
    in_comment = False
    para: list[str] = []  # current paragraph's lines, for setext headings
    lead = ""  # the last non-blank line read (a table's lead-in)
    i = 0

    def add_heading(raw: str) -> None:
        nonlocal heading
        slug, explicit = heading_slug(raw, slugify, sep)
        if explicit:
            result.heading_ids.add(slug)
            heading = slug
        else:
            heading = unique(slug, result.heading_ids)

    while i < len(lines):
        line = lines[i]
        lineno = i + 1
        stripped = line.strip()
        if in_comment:
            if "-->" in line:
                in_comment = False
            i += 1
            continue
        if stripped.startswith("<!--") and "-->" not in stripped:
            in_comment = True
            i += 1
            continue
        if stripped.startswith("<!--") and stripped.endswith("-->"):  # a block of its own
            prev_blank, para, lead = False, [], stripped
            i += 1
            continue
        m = _FENCE_OPEN.match(line)
        if m:
            fence, indent = m.group("fence"), m.group("indent")
            body: list[str] = []
            j = i + 1
            close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
            while j < len(lines) and not close.match(lines[j]):
                body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j])
                j += 1
            lang = m.group("lang").lower()
            kind = FENCE_KINDS.get(lang) or BLOCK_KINDS.get(lang)
            if kind:
                result.fences.append(FenceSite(lineno, kind, "\n".join(body), heading))
            i = j + 1
            prev_blank, para, lead = False, [], ""
            continue
        if not stripped:
            prev_blank, para = True, []
            i += 1
            continue
        expanded = line.expandtabs(4)
        indent_width = len(expanded) - len(expanded.lstrip())
        probe = line
        if indent_width < 4:
            in_list = bool(_CONTAINER.match(line)) or (in_list and not prev_blank)
        elif prev_blank and not in_list:
            i += 1  # indented code block: shown verbatim, never markup
            continue
        else:  # inside a list item or admonition: read the line as its body sees it
            probe = expanded[4 * (indent_width // 4) :]
        atx = _ATX.match(probe)
        if not para and "|" in probe and i + 1 < len(lines) and not atx:
            _table_site(result, lines, i, lineno, lead, heading)
        if atx:
            add_heading(atx.group(2) or "")
            para = []
        elif para and _SETEXT.match(line) and not in_list:
            add_heading(" ".join(para))
            para = []
        else:
            para.append(stripped)
            text = line
            if "`" in line:  # most lines hold no code span, so no Obsidian roll either
                for dm in _DICE_SPAN.finditer(line):
                    result.dice_spans.append((lineno, dm.group(1).strip()))
                text = _CODE_SPAN.sub("", line)
            if "roll:" in text:  # both patterns below need it
                for rm in _INLINE_ROLL.finditer(text):
                    result.inline.setdefault(rm.group(1).strip(), []).append(lineno)
                for tm in _TYPO.finditer(text):
                    result.typos.append((lineno, tm.group(1)))
        prev_blank = False
        lead = probe.strip()
        i += 1
    return result


def _table_site(
    result: PageScan, lines: list[str], i: int, lineno: int, lead: str, heading: str | None
) -> None:
    """Record the GFM table starting at ``lines[i]``, if one does."""
    if not _DELIMITER.match(lines[i + 1].strip()) or "|" not in lines[i + 1]:
        return
    end = i
    while end < len(lines) and lines[end].strip():
        end += 1
    rows = [row.strip() for row in lines[i:end]]
    site = TableSite(lineno, rows, heading, lead, bool(STATIC_COMMENT.match(lead)))
    tail = end - 1
    while tail > i + 1 and (_BLOCK_ID.match(lines[tail]) or _NO_ROLL.match(lines[tail])):
        tail -= 1
    after = end
    while after < len(lines) and not lines[after].strip():
        after += 1
    marks = list(range(tail + 1, end))
    if after < len(lines) and after - end <= 1 and _BLOCK_ID.match(lines[after]):
        marks.append(after)
    for at in marks:
        if (found := _BLOCK_ID.match(lines[at])) is not None:
            site.block_id = found[1]
        else:
            site.static = True
        result.hidden.append(at)
    site.rows = rows[: tail + 1 - i]
    result.tables.append(site)
