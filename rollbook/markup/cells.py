"""Render a table cell's inline Markdown to HTML with the page's own Markdown instance.

Fences are formatted during pre-processing, so this runs the instance's ``inline``
tree-processor on a detached element (same inline patterns, same extensions, inline rolls
included) and then the post-processors that restore stashed raw HTML. The result is final
HTML: it goes into the table and into the JSON payload the browser worker fills in.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as etree
from typing import Any

from markdown import Markdown, treeprocessors, util

__all__ = ["render_inline"]

# Python-Markdown's own inline patterns and ours: each needs one of _SPECIAL to match, and
# the serializer only escapes & < > (also in _SPECIAL). With nothing else registered, a
# cell free of those characters comes out exactly as it went in (most table cells), so it
# skips the inline pass. Any other extension's pattern or post-processor (smart quotes,
# symbols, emoji, links...) may change plain words: then every cell takes the full pass.
_PLAIN_PATTERNS = frozenset({
    "backtick", "escape", "reference", "link", "image_link", "image_reference",
    "short_reference", "short_image_ref", "autolink", "automail", "linebreak", "html",
    "entity", "not_strong", "em_strong", "em_strong2", "strong_em", "strong", "emphasis",
    "emphasis2", "rollbook_roll", "rollbook_prose", "rollbook_dice_roller",
})  # fmt: skip
_PLAIN_POST = frozenset(
    {"raw_html", "amp_substitute", "unescape", "rollbook_flush", "rollbook_refs"}
)
_SPECIAL = re.compile(r"[`\\\[\]!<>&*_\x02\x03]")  # \x02 \x03: Markdown's placeholders
# Dice in a plain dice table's cells roll with the row (rollbook.markup.plain.prose).
_DIE = re.compile(r"[dD](?:\d|%)")


def _names(registry: Any) -> frozenset[str]:
    return frozenset(item.name for item in registry._priority)


def _only_plain_patterns(md: Markdown) -> bool:
    """Whether ``md`` has no inline pattern or post-processor beyond the known ones.

    Asked for every cell: the answer is kept on ``md`` while its registries keep their size
    (extensions register once, when the instance is made).
    """
    key = (len(md.inlinePatterns), len(md.postprocessors))
    known = getattr(md, _PLAIN_KEPT, None)
    if known is not None and known[0] == key:
        return bool(known[1])
    plain = _names(md.inlinePatterns) <= _PLAIN_PATTERNS
    plain = plain and _names(md.postprocessors) <= _PLAIN_POST
    setattr(md, _PLAIN_KEPT, (key, plain))
    return plain


_PLAIN_KEPT = "_rb_only_plain_patterns"


def render_inline(md: Markdown, text: str) -> str:
    """Return the HTML for one line of inline Markdown (may contain author HTML)."""
    text = " ".join(text.strip().splitlines())
    if not text:
        return ""
    if not _SPECIAL.search(text) and _only_plain_patterns(md):
        if not _prose_dice(md, text):
            return text
        # Dice, and nothing any other pattern needs: the pass with the prose-dice pattern
        # alone gives the same HTML as the pass with every pattern, in two thirds the time.
        alone = _prose_only(md)
        if alone is not None:
            return _inline_pass(md, text, alone)
    return _inline_pass(md, text)


def _prose_dice(md: Markdown, text: str) -> bool:
    """Whether the prose-dice pattern may light something up in ``text``."""
    return "rollbook_prose" in md.inlinePatterns and bool(_DIE.search(text))


def _prose_only(md: Markdown) -> util.Registry[Any] | None:
    """The inline patterns of ``md`` cut down to the prose-dice pattern alone.

    Kept on ``md`` while the pattern is the same object; ``None`` when ``md`` has its own
    kind of inline tree-processor (then cells take the full pass).
    """
    inline = md.treeprocessors["inline"] if "inline" in md.treeprocessors else None  # noqa: SIM401
    if not isinstance(inline, treeprocessors.InlineProcessor):
        return None
    pattern = md.inlinePatterns["rollbook_prose"]
    kept = getattr(md, _PROSE_ONLY, None)
    if kept is not None and kept[0] is pattern:
        return kept[1]
    alone: util.Registry[Any] = util.Registry()
    alone.register(pattern, "rollbook_prose", 0)
    setattr(md, _PROSE_ONLY, (pattern, alone))
    return alone


_PROSE_ONLY = "_rb_prose_only"


def _inline_pass(md: Markdown, text: str, patterns: util.Registry[Any] | None = None) -> str:
    """The inline pass over one line of text, with every pattern of ``md`` or ``patterns``.

    ``patterns`` stand in for ``md``'s own while the page's inline tree-processor runs, so a
    pattern that looks at that processor (its stashed nodes) finds what the full pass shows.
    """
    root = etree.Element("div")
    cell = etree.SubElement(root, "span")
    cell.text = text
    if "inline" in md.treeprocessors:
        inline = md.treeprocessors["inline"]
        if patterns is not None and isinstance(inline, treeprocessors.InlineProcessor):
            every, inline.inlinePatterns = inline.inlinePatterns, patterns
            try:
                inline.run(root)
            finally:
                inline.inlinePatterns = every
        else:
            inline.run(root)
    html = md.serializer(cell)
    start, end = html.index(">") + 1, html.rindex("</")
    html = html[start:end]
    for post in md.postprocessors:  # in priority order, like Markdown.convert
        if not getattr(post, "rollbook_skip", False):
            html = post.run(html)
    return html.strip()
