"""Tables that roll other tables: resolving references once every page's tables are known.

A block whose rows reference tables is written with ``"refs":"rb-refs:KEY"`` in its payload
(``nested.on_block``); the host then replaces that with the keys of every table the block
can reach, writes their data once per page in the page's store (:mod:`refs_store`), and
reports references to a missing table, cycles, chains deeper than ``MAX_DEPTH`` and pages
past their budgets as ``page.md:LINE`` problems (the line of the referencing row):

- the MkDocs plugin at ``on_env``, after all pages were converted;
- ``rollbook check`` / ``rollbook table`` (``convert_with_refs``), converting referenced
  pages as needed;
- a host without either: ``RefsHere`` at the end of each conversion; under Zensical, whose
  page context names the page and the docs folder, it reads the other pages a table rolls
  itself (``rollbook.markup.other_pages``); under plain Python-Markdown, where a page has
  no name, only references within the page resolve.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, override

from markdown.postprocessors import Postprocessor

from rollbook.engine.tables.nested import MAX_DEPTH
from rollbook.markup.html import payload_json
from rollbook.markup.nested import REFS_MARK
from rollbook.markup.plain.obsidian import ONE_REF_MARK
from rollbook.markup.plain.obsidian_names import resolve_page
from rollbook.markup.prescan import NAME_OF
from rollbook.markup.problems import Problem, active_context, host_prefix
from rollbook.markup.refs_store import WIDGET, put_store, read_store, store_html

if TYPE_CHECKING:
    from rollbook.markup.page_state import PageState

__all__ = ["MARKS_START", "RefsHere", "Site", "holds_marks"]

_MARK = re.compile(r'"refs":"' + re.escape(REFS_MARK) + r'([^"]*)"')
# A table rolled from running text (Obsidian's `dice: [[Page#^id]]`): the table itself too.
_ONE_MARK = re.compile(r'"refs":"' + re.escape(ONE_REF_MARK) + r'([^"]*)"')

#: What both marks start with: one search tells a page without either (a test holds it).
MARKS_START = "rb-ref"


def holds_marks(html: str) -> bool:
    """Whether ``html`` holds a mark `Site.fill` replaces (a row's or a running-text roll's)."""
    return MARKS_START in html and (REFS_MARK in html or ONE_REF_MARK in html)


_ANCHOR = re.compile(r'\bdata-rb-anchor="([^"]*)"')


@dataclass
class _Page:
    offset: int
    tables: dict[str, Any]
    dice_refs: list[tuple[int, str, str]] = field(default_factory=list)
    line_map: Callable[[int], int] | None = None

    def line(self, converted: int) -> int:
        """The author's line of a line of the converted text."""
        return (self.line_map(converted) if self.line_map else converted) + self.offset


@dataclass
class Site:
    """Every page's tables by the page's name as the host shows it."""

    pages: dict[str, _Page] = field(default_factory=dict)
    #: Only one page is known (no host sees the others).
    partial: bool = False
    #: Every page of the site is known (the plugin), so a page name that finds none is wrong.
    complete: bool = False
    #: ``_embed_plan`` by page, until a page is added.
    _plans: dict[str, tuple[frozenset[str] | None, str | None]] = field(
        default_factory=dict, repr=False
    )

    def add(
        self,
        src: str,
        offset: int,
        tables: dict[str, Any],
        dice_refs: list[tuple[int, str, str]] | None = None,
        line_map: Callable[[int], int] | None = None,
    ) -> None:
        """Remember page ``src``: its tables and its Dice Roller table rolls.

        Its lines start after ``offset``; a roll is ``(line, key, as written)``.
        ``line_map`` moves lines back where other plugins rewrote the page (macros).
        """
        self.pages[src] = _Page(offset, dict(tables), list(dice_refs or []), line_map)
        self._plans.clear()

    def rolls_references(self) -> bool:
        """Whether a page seen rolls a table by reference (a row's or a Dice Roller roll).

        Only then can HTML made from these pages (excerpts included) hold marks for `fill`.
        """
        tables = (table for page in self.pages.values() for table in page.tables.values())
        return any(page.dice_refs for page in self.pages.values()) or any(
            next(self.edges(table), None) is not None for table in tables
        )

    def get(self, key: str) -> Any:
        """The table ``page.md#anchor`` names, if it was seen."""
        src, _, anchor = key.rpartition("#")
        page = self.pages.get(resolve_page(src, self.pages))
        return None if page is None else page.tables.get(anchor)

    @staticmethod
    def edges(table: Any) -> Iterator[tuple[Any, Any]]:
        """``(row, part)`` for each table reference of a table's rows."""
        for row in table.rows:
            for part in row.nested:
                if part.ref is not None:
                    yield row, part

    def wanted_pages(self) -> set[str]:
        """Pages that tables reference but that are not (yet) in the site."""
        wanted = set()
        for page in self.pages.values():
            for table in page.tables.values():
                for _, part in self.edges(table):
                    src = (part.table or "").rpartition("#")[0]
                    if src not in self.pages:
                        wanted.add(src)
        return wanted

    # -- checks ----------------------------------------------------------------------------

    def _reaches(self, start: Any, goal: Any) -> bool:
        seen: set[int] = set()
        todo = [start]
        while todo:
            table = todo.pop()
            if table is goal:
                return True
            if id(table) in seen:
                continue
            seen.add(id(table))
            todo.extend(t for _, p in self.edges(table) if (t := self.get(p.table)) is not None)
        return False

    def _height(self, table: Any, memo: dict[int, int], path: set[int]) -> int:
        """Most reference hops below ``table`` (a cycle counts as none more)."""
        if id(table) in memo:
            return memo[id(table)]
        if id(table) in path:
            return 0
        path.add(id(table))
        best = 0
        for _, part in self.edges(table):
            target = self.get(part.table)
            if target is not None:
                best = max(best, 1 + self._height(target, memo, path))
        path.discard(id(table))
        memo[id(table)] = best
        return best

    def problems(self, only: Iterable[str] | None = None) -> list[Problem]:
        """Missing tables, cycles and too-deep chains, at the referencing rows."""
        found: set[Problem] = set()
        memo: dict[int, int] = {}
        pages = self.pages if only is None else {s: self.pages[s] for s in only if s in self.pages}
        for src, page in pages.items():
            found.update(self._over_embed_budget(src, page))
            for anchor, table in page.tables.items():
                fence = NAME_OF[table.kind]
                found.update(self._too_many_rolls(src, anchor, table, page.line))
                for row, part in self.edges(table):
                    line = page.line(table.lines(row.path))
                    target = self.get(part.table or "")
                    if target is None:
                        message = f"{fence}: {self._missing(part)}"
                    elif self._reaches(target, table):
                        message = (
                            f"{fence}: this row rolls the table {part.ref!r}, which leads back "
                            "to this table: tables may not roll each other in a circle."
                        )
                    elif 1 + self._height(target, memo, set()) > MAX_DEPTH:
                        message = (
                            f"{fence}: this row rolls the table {part.ref!r}, which rolls "
                            f"tables more than {MAX_DEPTH} levels deep in all."
                        )
                    else:
                        continue
                    found.add(Problem(line, message, page=src))
            for line, key, body in page.dice_refs:
                why = self._missing_dice(key, body)
                if why:
                    found.add(Problem(page.line(line), why, page=src))
        return sorted(found, key=lambda p: (p.page, p.line, p.message))

    def _missing_dice(self, key: str, body: str) -> str | None:
        """Why a Dice Roller table roll finds no table, if it does not.

        ``None`` when it does, or when the site is not fully known (the page may be unread).
        """
        if self.get(key) is not None:
            return None
        src, _, anchor = key.rpartition("#")
        name = resolve_page(src, self.pages)
        page = self.pages.get(name)
        if page is None:
            if not self.complete:
                return None
            return f"`dice: {body}` names the page {src[2:-2]!r}, which this site does not have."
        known = ", ".join(sorted(page.tables)) or "none"
        return (
            f"`dice: {body}` names the block id ^{anchor}, but no table on that page has it "
            f"(its tables: {known})."
        )

    def _too_many_rolls(
        self, src: str, anchor: str, table: Any, line_of: Callable[[int], int]
    ) -> list[Problem]:
        """The ``nested_rolls`` budget, checked at the build as the engine checks it."""
        from rollbook.engine.limits import value

        edges = list(self.edges(table))
        if not edges:
            return []
        most, limit = table.worst_rolls(self.closure(f"{src}#{anchor}")), value("nested_rolls")
        if most <= limit:
            return []
        line = line_of(table.lines(edges[0][0].path))
        return [
            Problem(
                line,
                f"{NAME_OF[table.kind]}: one roll of this table may roll up to {most:,} tables and "
                f"dice, more than the nested_rolls limit of {limit:,}; let its rows roll "
                "fewer tables.",
                page=src,
            )
        ]

    def _missing(self, part: Any) -> str:
        src, _, anchor = (part.table or "").rpartition("#")
        page = self.pages.get(src)
        if page is None:
            if self.partial:
                return (
                    f"this row rolls the table {part.ref!r} of another page, which a host "
                    "that names no page cannot read: build with the MkDocs plugin or "
                    "`rollbook build`, or check with `rollbook check`."
                )
            return f"this row rolls the table {part.ref!r}, but {src} is not a page of this site."
        known = ", ".join(sorted(page.tables)) or "none"
        return (
            f"this row rolls the table {part.ref!r}, but that page has no table {anchor!r} "
            f"(its tables: {known})."
        )

    # -- payloads --------------------------------------------------------------------------

    def closure(self, key: str) -> dict[str, Any]:
        """Every table the table ``key`` can reach, ``{key: Table.to_dict()}``."""
        out: dict[str, Any] = {}
        root = self.get(key)
        todo = [] if root is None else [root]
        while todo:
            table = todo.pop()
            for _, part in self.edges(table):
                name = part.table or ""
                target = self.get(name)
                if target is None or name in out:
                    continue
                data = target.to_dict()
                data.pop("refs", None)
                out[name] = data
                todo.append(target)
        return out

    def payload(self, key: str) -> dict[str, Any] | None:
        """A table's payload with its references resolved (what the page carries)."""
        table = self.get(key)
        if table is None:
            return None
        data: dict[str, Any] = table.to_dict()
        refs = self.closure(key)
        if refs:
            data["refs"] = refs
        return data

    def fill(self, html: str) -> str:
        """Name in each payload the tables it rolls, and write their data once in a store.

        ``"refs":"rb-refs:KEY"`` becomes the sorted keys of every table the table ``KEY``
        can reach (none past the page's ``page_embed_bytes``: ``problems`` said so), and
        ``"refs":"rb-ref:KEY"`` (a table rolled from running text) the table ``KEY`` and
        those it reaches. Their data goes into one store element (:mod:`refs_store`), merged
        with any store ``html`` holds already (a page filled again for its excerpts).
        """
        if not holds_marks(html):
            return html
        wanted: set[str] = set()
        pages: set[str] = set()  # the pages whose tables ``html`` holds

        def one(match: re.Match[str]) -> str:
            keys = sorted(self.one(match[1]))
            wanted.update(keys)
            if not match[1].startswith("[["):  # `[[#^id]]`: a table of this page
                pages.add(match[1].rpartition("#")[0])
            return f'"refs":{payload_json(keys)}'

        def many(match: re.Match[str]) -> str:
            src, _, anchor = match[1].rpartition("#")
            pages.add(src)
            embedded, _ = self._embed_plan(src)
            keys = sorted(self.closure(match[1])) if embedded is None or anchor in embedded else []
            wanted.update(keys)
            return f'"refs":{payload_json(keys)}'

        html = _MARK.sub(many, _ONE_MARK.sub(one, html))
        old_tables, old_here = read_store(html)
        wanted.update(old_tables, old_here)
        if not wanted:
            return html
        own = self._own_widgets(html, pages)
        tables: dict[str, Any] = {}
        here: dict[str, str] = {}
        for key in wanted:
            src, _, anchor = key.rpartition("#")
            table = self.get(key)
            if (src, anchor) in own:
                here[key] = anchor
            elif table is not None:
                data = table.to_dict()
                data.pop("refs", None)
                tables[key] = data
            elif key in old_tables:
                tables[key] = old_tables[key]
            else:
                here[key] = old_here[key]
        return put_store(html, store_html(tables, here))

    @staticmethod
    def _own_widgets(html: str, pages: set[str]) -> set[tuple[str, str]]:
        """``(page, anchor)`` of the tables whose data the store may leave to their widget.

        Only when ``html`` is one page's (not print-site's page of every page) and the
        anchor is that of one widget in it, which has its payload.
        """
        if len(pages) != 1:
            return set()
        [src] = pages
        counts = Counter(_ANCHOR.findall(html))
        return {(src, m[2]) for m in WIDGET.finditer(html) if counts[m[2]] == 1}

    def _embed_plan(self, src: str) -> tuple[frozenset[str] | None, str | None]:
        """Which tables of page ``src`` get the tables they roll within ``page_embed_bytes``.

        Every table the page's tables roll counts once, in the order of the page's tables,
        whether the store holds it or (a table of the page itself) its own widget. Returns
        the anchors of the tables that get theirs (None: the page is unknown here, so all
        do) and the anchor of the first table past the budget (None: none is).
        """
        from rollbook.engine.limits import value

        if src in self._plans:
            return self._plans[src]
        page = self.pages.get(src)
        if page is None:
            return None, None
        left = value("page_embed_bytes")
        stored: set[str] = set()
        embedded: set[str] = set()
        over: str | None = None
        for anchor, table in page.tables.items():
            if not any(True for _ in self.edges(table)):
                continue
            reached = self.closure(f"{src}#{anchor}")
            for key, data in reached.items():
                if key not in stored:
                    stored.add(key)
                    left -= len(payload_json(key).encode("utf-8"))
                    left -= len(payload_json(data).encode("utf-8")) + 2
            if left < 0:
                over = anchor
                break
            embedded.add(anchor)
        self._plans[src] = (frozenset(embedded), over)
        return self._plans[src]

    def _over_embed_budget(self, src: str, page: _Page) -> list[Problem]:
        """The first table of the page whose referenced tables pass ``page_embed_bytes``."""
        from rollbook.engine.limits import value

        _, over = self._embed_plan(src)
        if over is None:
            return []
        table = page.tables[over]
        line = page.line(table.lines(next(iter(self.edges(table)))[0].path))
        return [
            Problem(
                line,
                f"{NAME_OF[table.kind]}: the tables this page's tables roll pass the "
                f"page_embed_bytes limit of {value('page_embed_bytes'):,} bytes here; "
                "this table and the ones after it cannot roll the tables they "
                "reference (split the page, or let fewer tables roll others).",
                page=src,
            )
        ]

    def one(self, key: str) -> dict[str, Any]:
        """The table ``key`` and every table it can reach (``{}`` when there is none)."""
        table = self.get(key)
        if table is None:
            return {}
        data = table.to_dict()
        data.pop("refs", None)
        return {key: data, **self.closure(key)}


class RefsHere(Postprocessor):
    """Without a host that sees every page, resolve references within the page itself."""

    rollbook_skip = True  # not for single cells (cells.render_inline)

    def __init__(self, state: PageState) -> None:
        super().__init__(state.md)
        self.state = state

    @override
    def run(self, text: str) -> str:
        if not holds_marks(text) or active_context() is not None or host_prefix() is not None:
            return text
        host = self.state.host
        src = host.shown if host is not None else ""
        site = Site(partial=host is None)
        site.add(src, 0, self.state.tables, self.state.dice_refs)  # lines as counted here
        if host is not None:
            from rollbook.markup.other_pages import other_page_tables

            resolve(site, lambda other: other_page_tables(host, other))
        for problem in site.problems(only=[src]):
            self.state.report(problem.line, problem.message)
        return site.fill(text)


def resolve(
    site: Site,
    load: Callable[[str], tuple[int, dict[str, Any]] | None],
) -> None:
    """Add the pages the site's tables reference (``load(src)``; ``None``: no such page)."""
    tried: set[str] = set()
    while wanted := site.wanted_pages() - tried:
        for src in sorted(wanted):
            tried.add(src)
            found = load(src)
            if found is not None:
                site.add(src, *found)


def convert_with_refs(
    paths: list[Path], setup: Any, *, complete: bool = False
) -> tuple[list[Any], Site]:
    """Convert pages as ``rollbook check`` does, then resolve their references.

    Returns each page's ``PageResult`` (reference problems added, payloads filled) and the
    site of every page read (the referenced ones too). ``complete``: ``paths`` are every
    page of the site, so a Dice Roller roll naming another page is wrong, as the build says.
    """
    from rollbook.markup.pages import convert_page, split_front_matter

    def offset_of(path: Path) -> int:
        try:
            text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
        except (OSError, ValueError):  # convert_page has reported it as the page's problem
            return 0
        return split_front_matter(text)[1]

    results = [convert_page(path, setup) for path in paths]
    site = Site(complete=complete)
    for path, result in zip(paths, results, strict=True):
        site.add(result.path, offset_of(path), result.tables, result.dice_refs)

    def load(src: str) -> tuple[int, dict[str, Any]] | None:
        path = Path(src)
        if not src or not path.is_file():
            return None
        return offset_of(path), convert_page(path, setup).tables

    resolve(site, load)
    by_src = {result.path: result for result in results}
    for problem in site.problems(only=by_src):
        by_src[problem.page].problems.append(replace(problem, page=""))
    for result in results:
        result.html = site.fill(result.html)
    return results, site
