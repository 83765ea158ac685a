"""Obsidian Dice Roller inline rolls: `` `dice: NOTATION` `` and `` `dice: [[Page#^id]]` ``.

The plugin writes its rolls as code spans, so this ``InlineProcessor`` sits just above
the backtick pattern (190) and claims only code spans that start with ``dice:``; any other
code span (and a ``dice:`` one that does not parse) stays code. A notation gives the same
inline roll as ``![roll:...]()``. ``[[Page#^id]]`` / ``[[Page^id]]`` (``[[^id]]``: this
page), with an optional ``|Column``, rolls the table whose Obsidian block id is ``^id``:
the table's key is ``[[Page]]#id`` until the host, which knows every page, resolves the
name the way Obsidian does (``rollbook.markup.plain.obsidian_names``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from typing import override

from rollbook.markup import nested
from rollbook.markup.inline import check_notation, inline_roll_element
from rollbook.markup.plain.feature import Claim, FeatureInlineProcessor
from rollbook.markup.roll_table.render import payload_html

__all__ = ["ONE_REF_MARK", "PRIORITY", "DiceRollerProcessor", "read_ref"]

#: Above the backtick pattern (190), which would make the span code first.
PRIORITY = 191
#: A standalone table roll's payload ``refs`` before the host fills it: the table itself
#: and every table it reaches (``rollbook.markup.refs.Site.fill``).
ONE_REF_MARK = "rb-ref:"

# Every code span, as the backtick pattern reads them (so a ``dice:`` inside a longer span
# is that span's text): only a single-backtick span starting with ``dice:`` is claimed.
_SPAN = re.compile(r"(?<!\\)(`+)(.+?)(?<!`)\1(?!`)", re.S)
_REF = re.compile(
    r"^\[\[(?P<page>[^\]#^|]*?)[ \t]*#?\^(?P<id>[A-Za-z0-9-]+)[ \t]*"
    r"(?:\|(?P<col1>[^\]]*))?\]\][ \t]*(?:\|[ \t]*(?P<col2>.+))?$"
)
# Dice Roller's display flags after the notation (`1d20|noform`), not part of the roll.
_FLAGS = re.compile(r"\|[\w|-]*$")


def read_ref(text: str) -> tuple[str, str, str | None] | None:
    """``(page name, block id, column)`` of a ``[[Page#^id]]`` roll, or ``None``."""
    match = _REF.match(text.strip())
    if match is None:
        return None
    column = (match["col1"] or match["col2"] or "").strip() or None
    return match["page"].strip(), match["id"], column


class DiceRollerProcessor(FeatureInlineProcessor):
    """Turns Obsidian Dice Roller code spans into rolls; declines every other code span."""

    FEATURE = "obsidian"
    PATTERN = _SPAN

    @override
    def read(self, m: re.Match[str], data: str) -> Claim:
        """An inline roll or a table roll for a ``dice:`` span; decline any other span."""
        state = self.state
        if len(m.group(1)) != 1 or not m.group(2).startswith("dice:"):
            return None, None, None
        body = m.group(2)[len("dice:") :].strip()
        ref = read_ref(body)
        if ref is not None:
            state.counts["obsidian"] += 1
            html, key = self._table(ref, body)
            line = state.scan.take_dice(body) or state.claim_inline("")
            state.dice_refs.append((line, key, body))
            return html, m.start(0), m.end(0)
        notation = _FLAGS.sub("", body).strip()
        if check_notation(notation) is not None:
            return None, None, None  # stays code, as Obsidian shows a roll it cannot read
        element = inline_roll_element(state.next_inline_id(), notation, notation)
        nested.mark_nested(state, element, notation, notation)
        state.counts["obsidian"] += 1
        return element, m.start(0), m.end(0)

    def _table(self, ref: tuple[str, str, str | None], body: str) -> tuple[str, str]:
        """The roll as raw HTML (stashed): its payload is a template like every widget's."""
        page, block_id, column = ref
        src = nested.page_src(self.state)
        key = f"{src}#{block_id}" if not page else f"[[{page}]]#{block_id}"
        data = {"refs": f"{ONE_REF_MARK}{key}", "table": key}
        if column:
            data["column"] = column
        part = etree.Element("span")
        part.set("class", "rb-inline rb-ref")
        part.set("data-rb-id", self.state.next_inline_id())
        part.set("data-rb-table", key)
        label = f"{page or 'this page'} ^{block_id}" + (f" ({column})" if column else "")
        nested.roll_controls(part, label).set("title", f"Roll on the table {body}")
        html = f'<span class="rb-dice-ref">{payload_html(data)}{self.md.serializer(part)}</span>'
        return self.md.htmlStash.store(html), key
