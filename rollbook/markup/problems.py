"""Author problems found while converting a page, and how they leave the extension.

The extension collects problems per conversion (``md.rollbook.problems``, reset by
``md.reset()``). When a conversion ends they go to the active :class:`PageContext` if a host
set one (the MkDocs plugin, ``rollbook check``), else to the ``mkdocs.rollbook.markup``
logger, so a plain Python-Markdown or Zensical build still shows them. A problem is the
engine's `rollbook.engine.located.Problem` (a line, a sentence, a severity).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from rollbook.engine.located import Problem, Severity

__all__ = [
    "LOG",
    "PageContext",
    "Problem",
    "Severity",
    "active_context",
    "host_prefix",
    "page_context",
    "set_host",
]

# Under the "mkdocs" logger hierarchy: `mkdocs build --strict` counts these warnings.
LOG = logging.getLogger("mkdocs.rollbook.markup")


@dataclass
class PageContext:
    """What a host tells the extension about the page being converted.

    Attributes:
        src_path: The page's path as shown in messages, e.g. ``docs/rules/combat.md``.
        line_offset: Lines the host removed before conversion (front matter).
        presets: Extra presets (name -> options) that override the extension's own.
        problems: Filled by the extension at the end of each conversion, lines already
            shifted by ``line_offset``.
        anchor_ids: ``id``s the roll blocks put on the page (inside stashed raw HTML, where
            MkDocs' own anchor validation cannot see them).
        tables: The page's tables by anchor (engine ``Table``s), for references between
            pages (``rollbook.markup.refs``).
        line_map: Converted line -> the author's line, when the host's other plugins
            rewrote the page before conversion (``rollbook.markup.line_map``).
        language: The page's language (``theme.language``, the plugin's ``language``, or
            the page's own on a multilingual site); ``None``: the extension's.
        strings: The author's overrides of the reader's text (``strings:``); ``None``: the
            extension's.
        features: The site's switches for what lights up by default (``plain_tables``,
            ``prose_dice``, ``obsidian``); they override the extension's own.
        counts: What the page lit up by default: ``tables`` (plain tables), ``prose``
            (dice in prose), ``obsidian`` (Dice Roller rolls).
        dice_refs: ``(line, table key, as written)`` of each Dice Roller table roll
            (``dice: [[Page#^id]]``), checked once every page is known.
    """

    src_path: str = "<page>"
    line_offset: int = 0
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    anchor_ids: set[str] = field(default_factory=set)
    tables: dict[str, Any] = field(default_factory=dict)
    line_map: Callable[[int], int] | None = None

    def source_line(self, line: int) -> int:
        """The author's line (front matter counted) of a line of the converted text."""
        return (self.line_map(line) if self.line_map else line) + self.line_offset

    language: str | None = None
    strings: dict[str, Any] | None = None
    features: dict[str, bool] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    dice_refs: list[tuple[int, str, str]] = field(default_factory=list)

    def format(self, problem: Problem) -> str:
        """Return ``page:line: message``."""
        return f"{self.src_path}:{problem.line}: {problem.message}"


_CURRENT: ContextVar[PageContext | None] = ContextVar("rollbook_page", default=None)
# Set by a host that sees every page (the MkDocs plugin) once its pages are converted: the
# folder prefix it names pages with. Pages converted again later (a blog's excerpts) were
# reported already, and the host fills their references in the written page.
_HOST: ContextVar[str | None] = ContextVar("rollbook_host", default=None)


def host_prefix() -> str | None:
    """The prefix (``docs``) of the host that resolves references itself, else None."""
    return _HOST.get()


def set_host(prefix: str | None) -> None:
    """Say (or, with None, stop saying) that a host resolves references across pages."""
    _HOST.set(prefix)


def active_context() -> PageContext | None:
    """The page context set by the host, or ``None`` when the extension runs on its own."""
    return _CURRENT.get()


def set_context(ctx: PageContext | None) -> None:
    """Set (or clear with ``None``) the page context; for hosts whose events are split."""
    _CURRENT.set(ctx)


@contextlib.contextmanager
def page_context(src_path: str, line_offset: int = 0, **kwargs: Any) -> Iterator[PageContext]:
    """Convert pages inside this block to collect their problems instead of logging them."""
    ctx = PageContext(src_path=src_path, line_offset=line_offset, **kwargs)
    token = _CURRENT.set(ctx)
    try:
        yield ctx
    finally:
        _CURRENT.reset(token)
