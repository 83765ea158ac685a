"""A page's HTML as a search index reads it: each widget reduced to the text it indexes.

Material's search plugin parses every page's HTML to index its text, tag by tag, in pure
Python. Our widgets are mostly markup around little text: an inline roll is a span, a
button with nine attributes and an empty output around its label; a table carries its
data, its controls and a hidden chance cell per row, all marked ``data-search-exclude``.
On a plain rules page that markup more than doubled the parser's time (2.8 ms against
1.2 ms without rollbook, about 1.5 s per 1,000 pages: bench row 1b).

``for_search`` gives the same page with each inline roll replaced by its label and each
excluded element left out, which the parser indexes exactly as it indexes the page
(``tests/markup/test_search_view.py`` holds that on the demo site); each replaced widget is
fenced by two comments naming it, so ``SearchView.back`` puts every widget back into the
HTML the parser leaves, whatever else it changed around them. Some markup stays and is
parsed as before: an excluded element holding a heading (a heading makes a search section
even where its text is excluded) or an element of its own name, any markup these patterns
do not recognise, and every widget of a page that already holds such comments.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

__all__ = ["SearchView", "for_search"]

_ROLL_START = '<span class="rb-inline'
_EXCLUDE = "data-search-exclude"
#: An inline roll as ``inline.roll_span`` and ``nested`` write it (``html.roll_controls``:
#: the button, then the output), with a label that is text only.
_ROLL = re.compile(
    r'<span class="rb-inline[ "][^>]*><button [^>]*>([^<]*)</button><output [^>]*></output></span>'
)
#: The opening tag an attribute stands in.
_OPENING = re.compile(r"<(\w+)\s[^<>]*>")
_FENCED = re.compile(r"<!--rbs(\d+)-->[^<]*<!--rbs-->")
_HEADING = re.compile(r"<h[1-6][\s>]")
#: An attribute Material's search strips from the HTML it leaves (``data-search-boost="2"``);
#: an element holding one stays, so that it is stripped there too.
_STRIPPED = re.compile(r'data-search-\w+="')


def _clues(html: str) -> list[tuple[int, bool]]:
    """Where a widget may be, in order: an inline roll's start (True) or an exclusion (False).

    ``str.find`` finds them eight times quicker than a regex.
    """
    found = []
    for literal, roll in ((_ROLL_START, True), (_EXCLUDE, False)):
        at = html.find(literal)
        while at >= 0:
            found.append((at, roll))
            at = html.find(literal, at + len(literal))
    found.sort()
    return found


@functools.cache
def _tags(name: str) -> re.Pattern[str]:
    return re.compile(rf"<(/?){name}[\s>]", re.IGNORECASE)


def _end(html: str, tag: str, start: int) -> int:
    """Where the element whose opening tag ends at ``start`` ends, or -1.

    Also -1 when another element of the same name opens inside it: Material's parser lets
    text out of such nests (it tells elements apart by name and attributes).
    """
    found = _tags(tag).search(html, start)
    if found is None or not found[1]:
        return -1
    return html.find(">", found.end() - 1) + 1


@dataclass(frozen=True)
class SearchView:
    """The page for the search index (``html``) and the widgets it left out."""

    html: str
    widgets: tuple[str, ...]

    def back(self, html: str) -> str:
        """``html`` (this view, as the index left it) with every widget in its place."""
        if not self.widgets:
            return html
        return _FENCED.sub(lambda found: self.widgets[int(found[1])], html)


def for_search(html: str) -> SearchView:
    """The view of ``html`` a search index parses (module docstring)."""
    if "<!--rbs" in html:  # our fences written by the author: theirs must stay theirs
        return SearchView(html, ())
    widgets: list[str] = []
    parts: list[str] = []
    done = 0
    for at, is_roll in _clues(html):
        if at < done:  # inside an element already left out
            continue
        if is_roll:
            roll = _ROLL.match(html, at)
            if roll is None:
                continue
            start, end, text = at, roll.end(), roll[1]
        else:
            start = html.rfind("<", done, at)
            opening = _OPENING.match(html, start) if start >= 0 else None
            if opening is None or opening.end() <= at:
                continue  # in text, not in a tag
            after = html[at + len(_EXCLUDE)]
            if not html[at - 1].isspace() or after not in "=\t\n\r />":
                continue  # another attribute (`data-search-excluded`)
            end = _end(html, opening[1], opening.end())
            if end < 0 or _HEADING.search(html, opening.end(), end):
                continue
            if _STRIPPED.search(html, start, end):
                continue
            text = ""
        parts.append(html[done:start])
        parts.append(f"<!--rbs{len(widgets)}-->{text}<!--rbs-->")
        widgets.append(html[start:end])
        done = end
    if not widgets:
        return SearchView(html, ())
    parts.append(html[done:])
    return SearchView("".join(parts), tuple(widgets))
