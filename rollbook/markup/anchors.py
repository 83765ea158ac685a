"""Stable anchors for roll blocks.

A block's anchor is its ``id`` key, else the id of the nearest heading above it, else the
fence name; repeats on a page get ``-2``, ``-3``... Every block carries
``data-rb-anchor="ANCHOR"``. It also carries ``id="ANCHOR"`` unless a heading already owns
that id: then ``page/#ANCHOR`` lands on the heading right above the block (valid HTML: one
element per id) and the browser code highlights the block with that ``data-rb-anchor``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rollbook.markup.page_state import PageState

__all__ = ["allocate_anchor"]


def allocate_anchor(
    state: PageState, explicit: str | None, heading: str | None, fallback: str
) -> tuple[str, bool, bool]:
    """Choose the next block's anchor.

    Returns:
        ``(anchor, own_id, clash)``: ``own_id`` says whether the block itself carries
        ``id``; ``clash`` that an explicit ``id`` was already taken by another block.
    """
    headings = state.scan.heading_ids
    base = explicit or heading or fallback
    anchor, n = base, 1
    while anchor in state.anchors or (anchor in headings and anchor != base):
        n += 1
        anchor = f"{base}-{n}"
    state.anchors.add(anchor)
    return anchor, anchor not in headings, bool(explicit) and anchor != base
