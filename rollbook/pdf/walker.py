"""Python-Markdown's HTML -> Typst markup: one renderer per element.

``render(element, ctx)`` dispatches on the element: first on rollbook's widget classes
(``rollbook.pdf.blocks``), then on the tag through ``TAGS``. Unknown elements give their
content; widget controls (buttons, forms, templates) and scripts give nothing.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from pathlib import Path
from xml.etree.ElementTree import Element

from rollbook.pdf.context import PageRef, RenderContext
from rollbook.pdf.tree import classes, text_of
from rollbook.pdf.typst_text import markup, string

__all__ = ["children", "label_for", "render", "render_block_children"]

Renderer = Callable[[Element, RenderContext], str]

#: Never printed: controls, scripts, live regions, the site's own permalink marks.
SKIP_TAGS = frozenset(
    {"script", "style", "template", "button", "input", "select", "textarea", "form", "output",
     "noscript", "svg", "iframe", "video", "audio", "canvas", "object", "head", "title",
     "meta", "link"}
)  # fmt: skip
SKIP_CLASSES = frozenset({"headerlink", "rb-bar", "rb-result", "rb-pdf-link", "footnote"})


def label_for(anchor: str | None, ctx: RenderContext) -> str:
    """The label of ``anchor`` (an id on this page) as Typst markup placed before it, once.

    "" for no anchor, and for one already placed or never linked to.
    """
    if not anchor:
        return ""
    attach = ctx.labels.emit(PageRef(ctx.page_index, anchor))
    return f"#metadata(none){attach}" if attach else ""


def _anchor(element: Element, ctx: RenderContext) -> str:
    """A label for the element's ``id`` (once), as Typst markup placed before it."""
    return label_for(element.get("id"), ctx)


def children(element: Element, ctx: RenderContext) -> str:
    """The element's content (text and children, with their tails) as markup."""
    out = [markup(element.text or "")]
    for child in element:
        out.append(render(child, ctx))
        out.append(markup(child.tail or ""))
    return "".join(out)


def render_block_children(element: Element, ctx: RenderContext) -> str:
    """Content of a block container: like ``children``, blocks separated by blank lines."""
    return children(element, ctx).strip()


def render(element: Element, ctx: RenderContext) -> str:
    """One element as Typst markup."""
    if element.tag in SKIP_TAGS or "hidden" in element.attrib:
        return ""
    names = classes(element)
    if names & SKIP_CLASSES:
        return ""
    from rollbook.pdf.blocks import widget_renderer

    special = widget_renderer(element, names)
    if special is not None:
        return special(element, ctx)
    renderer = TAGS.get(element.tag, _inline_container)
    return renderer(element, ctx)


def _wrap(function: str) -> Renderer:
    def renderer(element: Element, ctx: RenderContext) -> str:
        return f"{_anchor(element, ctx)}#{function}[{children(element, ctx)}]"

    return renderer


def _inline_container(element: Element, ctx: RenderContext) -> str:
    return _anchor(element, ctx) + children(element, ctx)


def _block_container(element: Element, ctx: RenderContext) -> str:
    return f"\n\n{_anchor(element, ctx)}{render_block_children(element, ctx)}\n\n"


def _paragraph(element: Element, ctx: RenderContext) -> str:
    body = children(element, ctx).strip()
    if not body:
        return ""
    return f"\n\n{_anchor(element, ctx)}{body}\n\n"


def heading_level(element: Element, ctx: RenderContext) -> int:
    """A heading's level in the book: the page's own level shifted by its nav depth."""
    return min(6, int(element.tag[1]) + ctx.page.depth)


def _heading(element: Element, ctx: RenderContext) -> str:
    level = heading_level(element, ctx)
    own = int(element.tag[1])
    element_id = element.get("id")
    attach = ctx.labels.emit(PageRef(ctx.page_index, element_id)) if element_id else ""
    # The contents list parts and chapters (a page's own title); bookmarks go one deeper.
    outlined = "true" if own == 1 else "false"
    bookmarked = "true" if own <= 2 else "false"
    body = children(element, ctx).strip()
    return (
        f"\n\n#heading(level: {level}, outlined: {outlined}, bookmarked: {bookmarked})"
        f"[{body}]{attach}\n\n"
    )


def _code_inline(element: Element, ctx: RenderContext) -> str:
    return f"#raw({string(text_of(element))})"


def _pre(element: Element, ctx: RenderContext) -> str:
    code = element.find("code")
    source = text_of(code if code is not None else element).expandtabs(4).rstrip("\n")
    lang = ""
    for name in classes(code) if code is not None else ():
        if name.startswith("language-"):
            lang = f", lang: {string(name.removeprefix('language-'))}"
    return f"\n\n#raw(block: true{lang}, {string(source)})\n\n"


def _link(element: Element, ctx: RenderContext) -> str:
    body = children(element, ctx)
    href = element.get("href", "")
    anchor = _anchor(element, ctx)
    if "footnote-ref" in classes(element):
        return anchor + body
    if not href:
        return anchor + body
    target = ctx.resolve(href)
    if target is None:
        if re.match(r"^(https?|mailto):", href):
            return f"{anchor}#link({string(href)})[{body}]"
        return anchor + body
    name = ctx.labels.add(target)
    ctx.labels.used.add(name)
    return f"{anchor}#link(<{name}>)[{body}]"


def _list(element: Element, ctx: RenderContext) -> str:
    items = [item for item in element if item.tag == "li"]
    ordered = element.tag == "ol"
    parts = []
    for item in items:
        body = render_block_children(item, ctx)
        anchor = _anchor(item, ctx)
        parts.append(f"[{anchor}{body}]")
    if not parts:
        return ""
    start = element.get("start", "1")
    head = f"#enum(start: {int(start) if start.isdigit() else 1}, " if ordered else "#list("
    return f"\n\n{_anchor(element, ctx)}{head}{', '.join(parts)})\n\n"


def _blockquote(element: Element, ctx: RenderContext) -> str:
    return (
        f"\n\n{_anchor(element, ctx)}#quote(block: true)[{render_block_children(element, ctx)}]\n\n"
    )


def _cell_align(cell: Element) -> str:
    style = cell.get("style", "") + " align:" + cell.get("align", "")
    for side in ("center", "right"):
        if side in style:
            return side
    return "left"


def table_parts(element: Element, ctx: RenderContext) -> tuple[list[str], list[list[str]]]:
    """Header cells and body rows of an HTML table as Typst content blocks."""
    header: list[str] = []
    rows: list[list[str]] = []
    for row in element.iter("tr"):
        cells = [cell for cell in row if cell.tag in ("td", "th") and "hidden" not in cell.attrib]
        rendered = [f"[{render_block_children(cell, ctx)}]" for cell in cells]
        parent_is_head = any(row in list(head) for head in element.iter("thead"))
        if parent_is_head and not header:
            header = rendered
        else:
            rows.append(rendered)
    return header, rows


def _table(element: Element, ctx: RenderContext) -> str:
    header, rows = table_parts(element, ctx)
    width = max([len(header)] + [len(r) for r in rows] + [1])
    rows = [r + ["[]"] * (width - len(r)) for r in rows]
    header = header + ["[]"] * (width - len(header)) if header else []
    first = next(iter(element.iter("tr")), None)
    aligns = [_cell_align(c) for c in first if c.tag in ("td", "th")] if first is not None else []
    aligns += ["left"] * (width - len(aligns))
    caption = element.find("caption")
    cap = (
        f"#rb-subtable-caption(rb-opts)[{children(caption, ctx)}]\n" if caption is not None else ""
    )
    body = ", ".join(f"({', '.join(r)},)" for r in rows)
    head = ", ".join(header)
    align = f"({', '.join(aligns)},)"
    columns = (
        "(auto,) * " + str(width) if width > 2 else f"({'auto, 1fr' if width == 2 else '1fr'})"
    )
    head_arg = f"({head}{',' if header else ''})"
    body_arg = f"({body}{',' if len(rows) == 1 else ''})"
    return (
        f"\n\n{_anchor(element, ctx)}{cap}#rb-plain-table(rb-opts, {columns}, {head_arg}, "
        f"{body_arg}, align: (x, y) => {align}.at(x) + horizon)\n\n"
    )


def _image(element: Element, ctx: RenderContext) -> str:
    src = element.get("src", "")
    alt = element.get("alt", "")
    if not src or re.match(r"^[a-z][a-z0-9+.-]*:", src, re.I):  # remote or data: not printed
        return markup(alt)
    path = posixpath.normpath(posixpath.join(ctx.page.assets_dir, src.split("#")[0].split("?")[0]))
    if not Path(path).is_file():
        return markup(alt)
    resolved = Path(path).resolve()
    root = Path(ctx.root).resolve()
    if not resolved.is_relative_to(root):  # Typst reads files inside the book's root only
        return markup(alt)
    ctx.images.add(str(resolved))
    inside = "/" + resolved.relative_to(root).as_posix()
    return f"#box(image({string(inside)}, alt: {string(alt)}))"


def _rule(element: Element, ctx: RenderContext) -> str:
    return "\n\n#line(length: 100%, stroke: 0.4pt + luma(160))\n\n"


def _terms(element: Element, ctx: RenderContext) -> str:
    items: list[str] = []
    term = ""
    for child in element:
        if child.tag == "dt":
            if term:
                items.append(f"terms.item[{term}][]")
            term = children(child, ctx).strip()
        elif child.tag == "dd":
            items.append(f"terms.item[{term}][{render_block_children(child, ctx)}]")
            term = ""
    if term:
        items.append(f"terms.item[{term}][]")
    if not items:
        return ""
    return f"\n\n{_anchor(element, ctx)}#terms({', '.join(items)})\n\n"


def _footnote_ref(element: Element, ctx: RenderContext) -> str:
    link = element.find("a")
    if link is None or "footnote-ref" not in classes(link):
        return _wrap("super")(element, ctx)
    note = ctx.footnotes.get(link.get("href", "").lstrip("#"))
    if not isinstance(note, Element):
        return _wrap("super")(element, ctx)
    return f"#footnote[{render_block_children(note, ctx).strip()}]"


def _details(element: Element, ctx: RenderContext) -> str:
    from rollbook.pdf.blocks import admonition

    return admonition(element, ctx)


def _line_break(element: Element, ctx: RenderContext) -> str:
    return "#linebreak()"


TAGS: dict[str, Renderer] = {
    "p": _paragraph,
    "div": _block_container,
    "section": _block_container,
    "article": _block_container,
    "figure": _block_container,
    "figcaption": _paragraph,
    "fieldset": _block_container,
    **{f"h{n}": _heading for n in range(1, 7)},
    "strong": _wrap("strong"),
    "b": _wrap("strong"),
    "em": _wrap("emph"),
    "i": _wrap("emph"),
    "u": _wrap("underline"),
    "del": _wrap("strike"),
    "s": _wrap("strike"),
    "mark": _wrap("highlight"),
    "sub": _wrap("sub"),
    "sup": _footnote_ref,
    "small": _wrap("text(size: 0.85em)"),
    "code": _code_inline,
    "kbd": _code_inline,
    "samp": _code_inline,
    "pre": _pre,
    "a": _link,
    "ul": _list,
    "ol": _list,
    "blockquote": _blockquote,
    "table": _table,
    "img": _image,
    "hr": _rule,
    "br": _line_break,
    "dl": _terms,
    "details": _details,
}
