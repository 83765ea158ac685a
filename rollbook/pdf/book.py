"""The whole book as one Typst document: style, title page, contents, one chapter per page.

``book_source(entries, options)`` is pure (no Typst needed): the tests read its output and
``rollbook.pdf.runner`` compiles it.
"""

from __future__ import annotations

import datetime as dt
import re
from importlib import resources
from xml.etree.ElementTree import Element

from rollbook.pdf.context import BookPage, BookSection, PageRef, RenderContext
from rollbook.pdf.options import PAPERS, BookOptions
from rollbook.pdf.tree import classes, parse_html, text_of
from rollbook.pdf.typst_text import markup, string
from rollbook.pdf.walker import render_block_children

__all__ = ["BookSource", "book_source", "default_style"]

Entry = BookPage | BookSection


def default_style() -> str:
    """Rollbook's own Typst style (package data)."""
    return resources.files("rollbook.pdf").joinpath("style.typ").read_text(encoding="utf-8")


class BookSource:
    """The Typst source of a book and the files it reads (images)."""

    def __init__(self, text: str, images: set[str]) -> None:
        self.text = text
        self.images = images


def _options_dict(options: BookOptions) -> str:
    date = dt.datetime.fromtimestamp(options.epoch, tz=dt.UTC)
    authors = ", ".join(string(a) for a in options.authors)
    fields = {
        "title": string(options.title),
        "subtitle": string(options.subtitle) if options.subtitle else "none",
        "author": f"({authors}{',' if len(options.authors) == 1 else ''})",
        "edition": string(options.edition),
        "copyright": string(options.copyright) if options.copyright else "none",
        "site": string(options.site_url) if options.site_url else "none",
        "date": f"datetime(year: {date.year}, month: {date.month}, day: {date.day})",
        "paper": string(PAPERS.get(options.paper, options.paper)),
        "primary": f"rgb({string(options.primary)})",
        "bw": "true" if options.black_white else "false",
        "lang": string(options.lang),
        "contents-title": string("Contents"),
    }
    return "(" + ", ".join(f"{k}: {v}" for k, v in fields.items()) + ")"


def _collect_ids(root: Element, ctx: RenderContext, index: int) -> None:
    """Give every id (and widget anchor) of a page a label, so links may reach it."""
    for element in root.iter():
        for name in (element.get("id"), element.get("data-rb-anchor")):
            if name:
                ctx.labels.add(PageRef(index, name))
        if element.tag == "div" and "footnote" in classes(element):
            for item in element.iter("li"):
                if item.get("id"):
                    for back in list(item.iter()):
                        for child in list(back):
                            if "footnote-backref" in classes(child):
                                back.remove(child)
                    ctx.footnotes[item.get("id", "")] = item


def _chapter(page: BookPage, root: Element, ctx: RenderContext) -> str:
    """One page of the site as a chapter: its own heading (the nav title if it has none)."""
    attach = ctx.labels.emit(PageRef(ctx.page_index, ""))
    has_h1 = any(child.tag == "h1" for child in root)
    first_h1 = next((c for c in root if c.tag == "h1"), None)
    title = text_of(first_h1).replace("¶", "").strip() if first_h1 is not None else page.title
    head = f"#rb-chapter-mark({string(title)})#metadata(none){attach}\n"
    if not has_h1:
        level = min(6, 1 + page.depth)
        head += f"#heading(level: {level})[{markup(page.title)}]\n\n"
    return head + render_block_children(root, ctx) + "\n"


def book_source(entries: list[Entry], options: BookOptions, root: str = ".") -> BookSource:
    """The Typst source of the book made of ``entries`` (in navigation order).

    Images are printed when they are files inside ``root`` (the folder Typst may read).
    """
    pages = [e for e in entries if isinstance(e, BookPage)]
    ctx = RenderContext(options=options, pages=pages, root=root)
    trees: list[Element] = []
    for number, page in enumerate(pages):
        tree = parse_html(page.html)
        ctx.page_index = number
        ctx.labels.add(PageRef(number, ""))
        _collect_ids(tree, ctx, number)
        trees.append(tree)
    out = [default_style(), f"\n#let rb-opts = {_options_dict(options)}\n",
           "#show: rb-book.with(rb-opts)\n"]  # fmt: skip
    if options.style:
        out.append(f"\n// The author's style\n{options.style}\n")
    out.append("#rb-title-page(rb-opts)\n#rb-contents(rb-opts)\n")
    out.append("#counter(page).update(1)\n#metadata(none) <rb-body-start>\n")
    index = 0
    fresh = True  # nothing on the current page yet
    for entry in entries:
        if isinstance(entry, BookSection):
            if not fresh:
                out.append("#pagebreak(weak: true)\n")
            out.append(f"#rb-part(rb-opts, {min(6, entry.depth + 1)}, [{markup(entry.title)}])\n")
            fresh = False
            continue
        if not fresh and not out[-1].startswith("#rb-part"):
            out.append("#pagebreak(weak: true)\n")
        ctx.page_index = index
        ctx.footnotes = {}
        _collect_ids(trees[index], ctx, index)
        out.append(_chapter(entry, trees[index], ctx))
        index += 1
        fresh = False
    text = "".join(out)
    missing = ctx.labels.used - ctx.labels.emitted
    if missing:  # a link to an id that printed nothing (a control): link to nothing
        text = re.sub(
            r"#link\(<(rb\d+)>\)", lambda m: "#rb-nolink" if m[1] in missing else m[0], text
        )
    return BookSource(text, ctx.images)
