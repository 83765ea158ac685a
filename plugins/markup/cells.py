"""Render a table cell's inline Markdown to HTML with the page's own Markdown instance.

Fences are formatted during pre-processing, so this runs the instance's ``inline``
tree-processor on a detached element (same inline patterns, same extensions, inline rolls
included) and then the post-processors that restore stashed raw HTML. The result is final
HTML: it goes into the table and into the JSON payload the browser worker fills in.
"""

from __future__ import annotations

import xml.etree.ElementTree as etree

from markdown import Markdown

__all__ = ["render_inline"]

def render_inline(md: Markdown, text: str) -> str:
    """Return the HTML for one line of inline Markdown (may contain author HTML)."""
    text = " ".join(text.strip().splitlines())
    if not text:
        return ""
    root = etree.Element("div")
    cell = etree.SubElement(root, "span")
    cell.text = text
    if "inline" in md.treeprocessors:
        md.treeprocessors["inline"].run(root)
    html = md.serializer(cell)
    start, end = html.index(">") + 1, html.rindex("</")
    html = html[start:end]
    for post in md.postprocessors:  # in priority order, like Markdown.convert
        if not getattr(post, "rollbook_skip", False):
            html = post.run(html)
    return html.strip()
