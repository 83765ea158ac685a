"""HTML as Python-Markdown writes it -> an ``xml.etree`` tree the renderers walk.

Python-Markdown's output is HTML, not XML (``<br>``, ``hidden`` without a value, character
references such as ``&para;``), so it is read with the standard library's tolerant
``html.parser`` into ``ElementTree`` elements: ``.text`` / ``.tail`` hold the text, as
Python-Markdown's own tree does.
"""

from __future__ import annotations

from html.parser import HTMLParser
from xml.etree.ElementTree import Element

__all__ = ["classes", "parse_html", "text_of"]

#: Elements that never have content (no end tag follows).
VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param",
     "source", "track", "wbr"}
)  # fmt: skip


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("root")
        self.stack = [self.root]

    def _append_text(self, data: str) -> None:
        top = self.stack[-1]
        if len(top):
            last = top[-1]
            last.tail = (last.tail or "") + data
        else:
            top.text = (top.text or "") + data

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: ("" if v is None else v) for k, v in attrs})
        self.stack[-1].append(element)
        if tag not in VOID:
            self.stack.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].append(Element(tag, {k: ("" if v is None else v) for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        for depth in range(len(self.stack) - 1, 0, -1):  # close up to the matching start
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self._append_text(data)


def parse_html(html: str) -> Element:
    """The fragment ``html`` under one ``<root>`` element."""
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


def classes(element: Element) -> set[str]:
    """The element's ``class`` names."""
    return set(element.get("class", "").split())


def text_of(element: Element) -> str:
    """All text inside ``element`` (not its tail)."""
    return "".join(element.itertext())
