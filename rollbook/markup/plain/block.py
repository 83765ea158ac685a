"""Ordinary Markdown dice tables as roll tables: a block processor in front of ``tables``.

A GFM table whose first header cell names a die (or whose empty header row is followed
by such a row, or whose lead-in line names one) and whose first column holds keys is
rendered exactly as a ``roll-table`` fence with the same columns: same payload, same
browser code, same anchors and deep links, same checks. The fence lifecycle
(:mod:`rollbook.markup.fence_runner`) does the work; this module only decides which tables
qualify and reads them (:mod:`rollbook.markup.plain.reader`). Everything else is left to
Python-Markdown's own table processor, untouched.
"""

from __future__ import annotations

import dataclasses
import re
import xml.etree.ElementTree as etree
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from markdown.blockprocessors import BlockProcessor

from rollbook.markup import nested
from rollbook.markup.fence_runner import Parsed, run
from rollbook.markup.plain.reader import Reading, read_table
from rollbook.markup.problems import Problem
from rollbook.markup.roll_table.fence import Blocked, RollTableFence, table_from_data, view_of
from rollbook.markup.roll_table.render import render_table

if TYPE_CHECKING:
    from rollbook.markup.page_state import PageState
    from rollbook.markup.prescan import TableSite

__all__ = ["PRIORITY", "PlainTableFence", "PlainTableProcessor"]

#: Right before Python-Markdown's ``table`` block processor (75), after indented code (80).
PRIORITY = 75.5

# A range in the engine's spelling (``2--5``), in a message about a plain table.
_ENGINE_RANGE = re.compile(r"(?<![\w-])(\d+)--(\d+)(?![\w-])")


@dataclass
class _Site:
    """The pre-scan site of the table, with what the reader made of it."""

    line: int | None
    heading_id: str | None
    block_id: str | None
    reading: Reading


class PlainTableFence(RollTableFence):
    """A plain Markdown table read as a roll table (its problems say "table")."""

    NAME = "table"
    KIND = "plain"

    def parse(self) -> Parsed:
        """Build and check the table the reader made of the rows (the fence's own path)."""
        site = self.site
        assert isinstance(site, _Site) and site.reading.data is not None
        reading = site.reading
        line = site.line or 1
        self.state.prose_in_cells = True
        try:
            table, notes = table_from_data(
                self.state, "table", reading.data or {}, reading.positions, line
            )
        except Blocked as err:  # not one roll after all: an INFO line, the table stays as is
            return Parsed(
                problems=[
                    Problem(p.line, f"{p.message} (the table stays a plain table)", "info")
                    for p in _in_authors_words(err.problems, reading)
                ]
            )
        finally:
            self.state.prose_in_cells = False
        return Parsed(table, site.block_id, _in_authors_words(notes, reading), blocking=False)

    def render(self, parsed: Parsed, anchor: str, own_id: bool, errors: list[str]) -> str:
        """The roll-table block, its key column showing the keys as the author wrote them."""
        site = self.site
        assert isinstance(site, _Site)
        self.state.tables[anchor] = parsed.value
        view = view_of(parsed.value, "table", self.state.text())
        labels = site.reading.labels
        view.rows = tuple(dataclasses.replace(row, label=labels[row.index]) for row in view.rows)
        nested.on_block(self.state, parsed.value, anchor, view.payload)
        self.state.counts["tables"] += 1
        return render_table(view, anchor, own_id, errors)


def _in_authors_words(problems: list[Problem], reading: Reading) -> list[Problem]:
    """Problems naming keys as the author wrote them (``'01-05'``), not the engine's ``1--5``.

    The author of a plain table never wrote a double hyphen: a message telling them to
    "write 2--5" would send them to a syntax their table does not use.
    """
    keys = [str(k) for k in (reading.data or {}).get("results", {})]
    spelled = {k: label for k, label in zip(keys, reading.labels, strict=False) if k != label}

    def say(message: str) -> str:
        for key, label in spelled.items():
            message = message.replace(f"'{key}'", f"'{label}'")
        return _ENGINE_RANGE.sub(r"\1-\2", message)

    return [dataclasses.replace(p, message=say(p.message)) for p in problems]


class PlainTableProcessor(BlockProcessor):
    """Claims the GFM tables that read as one roll; declines every other block."""

    def __init__(self, state: PageState) -> None:
        super().__init__(state.md.parser)
        self.state = state

    def _tables(self) -> Any:
        processors = self.parser.blockprocessors
        return processors["table"] if "table" in processors else None  # noqa: SIM401

    def test(self, parent: etree.Element, block: str) -> bool:
        """Whether the block is a GFM table (``tables`` decides), with the feature on."""
        if "|" not in block or not self.state.feature("plain_tables"):
            return False
        tables = self._tables()
        return tables is not None and bool(tables.test(parent, block))

    def run(self, parent: etree.Element, blocks: list[str]) -> bool | None:
        """Render the table as a roll table, or return False to leave it to ``tables``."""
        tables = self._tables()
        block = blocks[0]
        site: TableSite | None = self.state.scan.take_table(block)
        if site is None or site.static or not tables.test(parent, block):
            return False
        lines = block.split("\n")
        header = tables._split_row(lines[0].strip(" "))
        rows = [tables._split_row(row.strip(" ")) for row in lines[2:]]
        reading = read_table(header, rows, site.line, site.lead, self.state.language())
        if reading.data is None:
            if reading.reason:
                self.state.report(site.line, reading.reason, "info")
            return False
        found = _Site(site.line, site.heading_id, site.block_id, reading)
        html = run(PlainTableFence, block, self.state.md, site=found)
        if 'class="rb-table' not in html.split("\n", 1)[0]:
            return False  # the engine refused it (problems said why): it stays a plain table
        blocks.pop(0)
        placeholder = etree.SubElement(parent, "p")
        placeholder.text = self.state.md.htmlStash.store(html)
        return None
