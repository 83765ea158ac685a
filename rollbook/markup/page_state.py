"""``PageState``: what one conversion of a page shares between its parts.

The pre-scan, inline rolls and every fence share lines, anchors, presets, problems, tables.

It lives on the Markdown instance as ``md.rollbook``; the extension (`rollbook.markup.extension`)
registers it, and a fence used without the extension gets a bare one from `PageState.of`.
"""

from __future__ import annotations

import functools
from html import escape
from typing import Any

from markdown import Markdown
from markdown.extensions.toc import slugify as toc_slugify

from rollbook.engine.dice import letters
from rollbook.language import Catalogue, catalogue
from rollbook.markup.host_page import HostPage, host_page, mkdocs_file
from rollbook.markup.prescan import FENCE_KINDS, NAME_OF, PageScan, fence_name, scan
from rollbook.markup.problems import LOG, Problem, Severity, active_context, host_prefix

__all__ = ["COUNTED", "FEATURES", "PageState", "lit_up", "page_features"]

#: What a page lights up by default, counted per page (``PageContext.counts``).
COUNTED = ("tables", "prose", "obsidian")
#: The switches for it and their defaults (extension options; the plugin's win).
FEATURES = {"plain_tables": True, "prose_dice": True, "obsidian": True}


def lit_up(counts: dict[str, int]) -> str:
    """The sentence saying what rollbook lit up by default (check and build print it)."""
    tables, prose, obsidian = (counts.get(n, 0) for n in ("tables", "prose", "obsidian"))
    return (
        f"{tables} plain table(s), {prose} dice in prose and {obsidian} Obsidian Dice Roller "
        "roll(s) made rollable"
    )


def page_features(meta: object) -> dict[str, bool]:
    """A page's own switches from its front matter: ``rollbook: {prose_dice: false}``."""
    own = meta.get("rollbook") if isinstance(meta, dict) else None
    if not isinstance(own, dict):
        return {}
    return {name: bool(own[name]) for name in FEATURES if isinstance(own.get(name), bool)}


# Configuration problems already logged by this process (one line per site, not per page).
_WARNED: set[str] = set()


class PageState:
    """Per-conversion state shared by the pre-scan, the inline roll and the fences."""

    def __init__(
        self,
        md: Markdown,
        presets: dict[str, dict[str, Any]] | None = None,
        features: dict[str, bool] | None = None,
        *,
        language: str | None = None,
        strings: dict[str, Any] | None = None,
    ) -> None:
        self.md = md
        self.own_presets = dict(presets or {})
        self.own_features = dict(features or {})
        self.own_language = language
        self.own_strings = strings
        self.option_problem: str | None = None
        self.reset()

    @classmethod
    def of(cls, md: Markdown) -> PageState:
        """The state registered on ``md``; a bare one if the fences run without the extension."""
        state = getattr(md, "rollbook", None)
        if not isinstance(state, PageState):
            state = cls(md)
            md.rollbook = state  # type: ignore[attr-defined]
        return state

    def reset(self) -> None:
        """Forget the previous conversion."""
        self.problems: list[Problem] = []
        self.scan = PageScan()
        self._delivered = 0
        self._inline_count = 0
        self._last_line = 1
        self.anchors: set[str] = set()
        self.own_ids: set[str] = set()  # anchors that are the block's own `id`
        self.tables: dict[str, Any] = {}  # anchor -> engine Table/RollList, for the CLI
        #: The page as a host without a page context names it (Zensical), else None.
        self.host: HostPage | None = None
        self.counts: dict[str, int] = dict.fromkeys(COUNTED, 0)
        self.prose_in_cells = False  # a plain dice table's cells: their dice roll with the row
        #: ``(line, table key, body)`` of each Dice Roller table roll, for the host's checks.
        self.dice_refs: list[tuple[int, str, str]] = []
        #: The last catalogue ``text`` gave, with the language and strings it was for.
        self._text: tuple[str | None, object, Catalogue] | None = None

    # -- lines --------------------------------------------------------------------------
    def start(self, lines: list[str]) -> None:
        """Begin a conversion: scan the source and report the ``[!roll:`` typos."""
        self.reset()
        if active_context() is None:
            self.host = host_page(self.md, "\n".join(lines))
        _case_insensitive_fences(self.md)
        slugify, sep = toc_slugify, "-"
        toc = self.md.treeprocessors["toc"] if "toc" in self.md.treeprocessors else None  # noqa: SIM401
        if toc is not None:
            slugify = getattr(toc, "slugify", slugify)
            sep = getattr(toc, "sep", sep)
        self.scan = scan(lines, slugify, sep)
        if self.option_problem and self.option_problem not in _WARNED:
            _WARNED.add(self.option_problem)  # a site-wide mistake: said once, not per page
            LOG.warning("rollbook: %s", self.option_problem)
        self._report_unrendered_fences()
        for line, text in self.scan.typos:
            self.report(
                line,
                f"'[!roll:{text}]' is an ordinary link, not a roll: the '!' goes before the "
                f"bracket, as in '![roll:{text}](...)'.",
                "warning",
            )

    def _report_unrendered_fences(self) -> None:
        configured = _fence_entries(self.md)
        names = {str(entry.get("name", "")).lower() for entry in configured}
        for site in self.scan.fences:
            name = NAME_OF[site.kind]
            if name in names:
                continue
            self.report(
                site.line,
                f"{name}: this block was not rendered (it shows as code): pymdownx.superfences "
                f"does not list rollbook's `{name}` fence. Use the MkDocs plugin `rollbook` "
                "(it adds the fences), or add rollbook's fences to superfences' "
                "`custom_fences` (see the README).",
                "warning",
            )

    def claim_inline(self, notation: str) -> int:
        """Line of the next inline roll with this notation (the last known line if unknown)."""
        line = self.scan.take_inline(notation)
        if line is not None:
            self._last_line = line
        return self._last_line

    # -- presets and ids ----------------------------------------------------------------
    def presets(self) -> dict[str, dict[str, Any]]:
        """The presets in effect: the page's own, then the site's."""
        ctx = active_context()
        return {**self.own_presets, **(ctx.presets if ctx else {})}

    def feature(self, name: str) -> bool:
        """Whether a default feature (``FEATURES``) is on for this page."""
        ctx = active_context()
        if ctx is not None and name in ctx.features:
            return bool(ctx.features[name])
        return bool(self.own_features.get(name, FEATURES[name]))

    def preset(self, name: str) -> dict[str, Any] | None:
        """The preset called ``name``, if there is one."""
        return self.presets().get(name)

    def preset_names(self) -> str:
        """The preset names, for messages."""
        return ", ".join(sorted(self.presets())) or "none configured"

    # -- the reader's language ---------------------------------------------------------
    def language(self) -> str | None:
        """The page's language code as written; ``None``: not set.

        The host's page context, else the page's front matter where the host has no page
        context (Zensical), else the extension's ``language``.
        """
        ctx = active_context()
        if ctx is not None and ctx.language:
            return ctx.language
        if ctx is None and self.host is not None and self.host.language:
            return self.host.language
        return self.own_language

    def text(self) -> Catalogue:
        """The catalogue of the page's language.

        The host's page context, else the extension's ``language`` and ``strings``.
        """
        ctx = active_context()
        language = self.language()
        strings = ctx.strings if ctx and ctx.strings is not None else self.own_strings
        # Asked for by every inline roll and table: looked up once while the page's
        # language and strings stay the same (the same objects: never changed in place).
        last = self._text
        if last is not None and last[0] == language and last[1] is strings:
            return last[2]
        found = catalogue(language, strings)
        self._text = (language, strings, found)
        return found

    def language_mark(self) -> str:
        """The page's language mark for its scripts where no page context exists, else "".

        Where a host without a page context (Zensical) converts the page:
        ``<div hidden data-rb-lang="fr"></div>``.

        The MkDocs plugin writes the same mark itself; Material's instant navigation keeps
        the first page's ``<html lang>``, so the content carries it.
        """
        language = self.language()
        if self.host is None or active_context() is not None or not language:
            return ""
        return f'\n<div hidden data-rb-lang="{escape(language)}"></div>'

    def notation(self, written: str) -> str:
        """Dice notation as the engine reads it: the page language's dice letter is ``d``."""
        return letters.to_d(written, self.language())

    def next_inline_id(self) -> str:
        """The next inline roll's id on this page (``rb-roll-1``, ...)."""
        self._inline_count += 1
        return f"rb-roll-{self._inline_count}"

    # -- problems -----------------------------------------------------------------------
    def report(self, line: int | None, message: str, severity: Severity = "error") -> None:
        """Record a problem at ``line`` (the last known line if None)."""
        self.problems.append(Problem(line or self._last_line, message, severity))

    def file_line(self, line: int | None) -> int:
        """A body line as a line of the page's file (front matter counted), as logged."""
        line = line or self._last_line
        ctx = active_context()
        if ctx is not None:
            return line + ctx.line_offset
        return line + (self.host.offset if self.host is not None else 0)

    def flush(self) -> None:
        """Hand problems not yet delivered to the host's page context, or log them."""
        new = self.problems[self._delivered :]
        self._delivered = len(self.problems)
        ctx = active_context()
        if ctx is not None:
            ctx.anchor_ids.update(self.own_ids)
            ctx.tables.update(self.tables)
            ctx.dice_refs.extend(self.dice_refs)
            self.dice_refs = []
            for name, count in self.counts.items():
                ctx.counts[name] = ctx.counts.get(name, 0) + count
            self.counts = dict.fromkeys(COUNTED, 0)
        if not new:
            return
        if ctx is None and host_prefix() is not None and mkdocs_file(self.md) is not None:
            return  # a page converted again (an excerpt): the host reported it the first time
        host = None if ctx is not None else self.host
        for problem in sorted(new):
            if ctx is not None:
                ctx.problems.append(
                    Problem(ctx.source_line(problem.line), problem.message, problem.severity)
                )
            elif host is not None:
                log = LOG.info if problem.severity == "info" else LOG.warning
                log("%s:%d: %s", host.shown, problem.line + host.offset, problem.message)
            else:
                log = LOG.info if problem.severity == "info" else LOG.warning
                log("rollbook: line %d: %s", problem.line, problem.message)


def _ci_test(language: object, name: str) -> bool:
    return fence_name(language) == name


def _fence_entries(md: Markdown) -> list[dict[str, Any]]:
    """Superfences' fence entries (its own and the custom ones); [] without superfences."""
    name = "fenced_code_block"
    fenced = md.preprocessors[name] if name in md.preprocessors else None  # noqa: SIM401
    entries = getattr(getattr(fenced, "extension", None), "superfences", None) or []
    return [entry for entry in entries if isinstance(entry, dict)]


def _case_insensitive_fences(md: Markdown) -> None:
    """Let superfences match our fence names in any letter case (it compares exactly)."""
    for entry in _fence_entries(md):
        name = str(entry.get("name", "")).lower()
        if name in FENCE_KINDS:
            entry["test"] = functools.partial(_ci_test, name=name)
