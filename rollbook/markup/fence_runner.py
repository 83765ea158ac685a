"""One lifecycle for every rollbook fence; each fence only describes itself.

A fence is a subclass of `Fence` (the shape of ``pymdownx.blocks``' ``Block``): its name, the
pre-scan kind it claims, how its body is parsed and checked (`Fence.parse`) and how a checked
body becomes HTML (`Fence.render`). `run` owns everything they share, in this order:

1. ``prepare``: page-wide reading the fence needs first (statblocks read the whole page);
2. claim the fence's site from the line pre-scan (its page line and the heading above it);
3. ``parse``: the body, YAML with positions, checked -> a `Parsed` value and its problems;
4. ``problems``: each is reported as ``page:line: name: message``; any error replaces the
   block with an error box (what a non-strict build shows), whose lines are the file's
   (front matter counted), as in the log; warnings alone leave the block as it is;
5. allocate the anchor (the fence's ``id``, else the heading above, else its name);
6. ``render`` the HTML.

Nothing escapes: an exception in any step (an engine bug) is one reported problem and an error
box, never a traceback. pymdownx.superfences' ``custom_fences`` configuration names a
``validator`` (`accept`) and a ``format`` function per fence: each fence module keeps a plain
module-level ``formatter`` that calls `run` (configurations name it, and hosts such as
Zensical pickle it, so it cannot be a closure).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from markdown import Markdown

from rollbook.markup.anchors import allocate_anchor
from rollbook.markup.html import error_box
from rollbook.markup.page_state import PageState
from rollbook.markup.prescan import FenceSite
from rollbook.markup.problems import Problem

__all__ = ["Fence", "Parsed", "accept", "run"]


@dataclass
class Parsed:
    """What a fence's parse step hands the runner."""

    value: Any = None  # what `Fence.render` draws (unused when a problem blocks)
    key: str | None = None  # the anchor the block asks for (its ``id``)
    problems: list[Problem] = field(default_factory=list)  # line 0: the fence's own line
    blocking: bool = True  # False: the block still renders (with its errors in it)


class Fence:
    """One kind of fence. Subclasses set the class attributes and write `parse` and `render`."""

    NAME: ClassVar[str]  # as authors write it and problems name it: "roll-table", "combat"
    KIND: ClassVar[str]  # the pre-scan's kind (`rollbook.markup.prescan.BLOCK_KINDS`)
    ERROR_TITLE: ClassVar[str] = "This roll block has errors"
    NOUN: ClassVar[str] = "block"  # "this block's anchor is ..." when its id is taken
    HEADING_ANCHOR: ClassVar[bool] = True  # without an id, anchor on the heading above

    def __init__(self, state: PageState, site: FenceSite | None, src: str) -> None:
        self.state = state
        self.site = site
        self.src = src
        self.line = site.line if site else None  # the fence's opening line in the page

    @classmethod
    def prepare(cls, state: PageState) -> None:
        """Page-wide work before this fence's site is claimed (none by default)."""

    def parse(self) -> Parsed:
        """Read the fence body: its value, key and problems."""
        raise NotImplementedError

    def render(self, parsed: Parsed, anchor: str, own_id: bool, errors: list[str]) -> str:
        """The block's HTML; ``errors`` lists the non-blocking errors to show inside it."""
        raise NotImplementedError


def run(fence: type[Fence], src: str, md: Markdown, site: Any = None) -> str:
    """The HTML of one fence of ``fence``'s kind; never raises (problems go to the page).

    ``site`` is the block's pre-scan site when the caller claimed it already (plain tables).
    """
    state = PageState.of(md)
    fence.prepare(state)
    if site is None:
        site = state.scan.take_fence(fence.KIND, src)
    block = fence(state, site, src)
    line, name = block.line, fence.NAME
    try:
        parsed = block.parse()
        blocking = []
        for problem in parsed.problems:
            at = problem.line or line
            state.report(at, f"{name}: {problem.message}", problem.severity)
            if parsed.blocking:
                blocking.append(f"line {state.file_line(at)}: {name}: {problem.message}")
        if blocking:
            return error_box(blocking, fence.ERROR_TITLE)
        heading = site.heading_id if site and fence.HEADING_ANCHOR else None
        anchor, own_id, clash = allocate_anchor(state, parsed.key, heading, name)
        if clash:
            state.report(
                line,
                f"{name}: the id {parsed.key!r} is already used on this page; "
                f"this {fence.NOUN}'s anchor is {anchor!r}.",
                "warning",
            )
        if own_id:
            state.own_ids.add(anchor)
        errors = [
            f"line {state.file_line(p.line or line)}: {name}: {p.message}"
            for p in parsed.problems
            if p.severity == "error"
        ]
        if errors:  # the box takes the block's place: nothing broken renders or rolls
            return error_box(errors, fence.ERROR_TITLE)
        return block.render(parsed, anchor, own_id, errors)
    except Exception as err:  # an engine bug must not become a traceback for the author
        message = f"{name}: could not be built ({type(err).__name__}: {err})."
        state.report(line, message)
        return error_box([f"line {state.file_line(line)}: {message}"])


def accept(
    language: str,
    inputs: dict[str, str],
    options: dict[str, Any],
    attrs: dict[str, Any],
    md: Markdown,
) -> bool:
    """A superfences validator that accepts the fence (superfences matched its name)."""
    return True


def formatter_for(fence: type[Fence]) -> Callable[..., str]:
    """The superfences formatter of one kind of fence (the ``format`` of its configuration)."""

    def formatter(
        src: str,
        language: str,
        class_name: str,
        options: dict[str, Any],
        md: Markdown,
        **kwargs: Any,
    ) -> str:
        """Return the HTML of one fence; never raises (problems go to the page state)."""
        return run(fence, src, md)

    # Hosts such as Zensical pickle the hooks: by name, the fence module's ``formatter``.
    formatter.__module__ = fence.__module__
    formatter.__qualname__ = formatter.__name__ = "formatter"
    return formatter
