"""What the renderers of one book share: options, the page being rendered, labels, links."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from rollbook.pdf.options import BookOptions

__all__ = ["BookPage", "BookSection", "Labels", "PageRef", "RenderContext"]


@dataclass
class BookPage:
    """One page of the site, in the book.

    Attributes:
        src: the page's path in the docs folder (``authoring/roll-tables.md``).
        url: its site URL relative to the site root (``authoring/roll-tables/``).
        title: the title the navigation gives it (used when the page has no ``<h1>``).
        html: the page's content HTML as the site build made it.
        depth: how many navigation sections enclose it.
        assets_dir: folder that the page's relative image paths start from (on disk).
        relative_to: ``"src"`` when the HTML's links are to ``.md`` files (the CLI's
            conversion), ``"url"`` when they are site URLs (the MkDocs build).
    """

    src: str
    url: str
    title: str
    html: str
    depth: int = 0
    assets_dir: str = "."
    relative_to: str = "src"


@dataclass
class BookSection:
    """A navigation section: a part heading in the book."""

    title: str
    depth: int = 0


@dataclass(frozen=True)
class PageRef:
    """Where a link inside the book goes: a page and an anchor on it ("" for its top)."""

    page: int
    anchor: str


@dataclass
class Labels:
    """Typst labels for every (page, anchor) a link may reach; ``rb1``, ``rb2``... in order."""

    names: dict[PageRef, str] = field(default_factory=dict)
    emitted: set[str] = field(default_factory=set)
    used: set[str] = field(default_factory=set)

    def add(self, ref: PageRef) -> str:
        """The label of ``ref``, given a new one the first time."""
        if ref not in self.names:
            self.names[ref] = f"rb{len(self.names) + 1}"
        return self.names[ref]

    def get(self, ref: PageRef) -> str | None:
        """The label of ``ref``, if it has one."""
        return self.names.get(ref)

    def emit(self, ref: PageRef) -> str:
        """The label to attach at this point, or "" when it is already placed."""
        name = self.add(ref)
        if name in self.emitted:
            return ""
        self.emitted.add(name)
        return f" <{name}>"


@dataclass
class RenderContext:
    """The state of one book's rendering (shared by every renderer)."""

    options: BookOptions
    pages: list[BookPage]
    labels: Labels = field(default_factory=Labels)
    page_index: int = 0
    footnotes: dict[str, object] = field(default_factory=dict)
    in_table: bool = False
    images: set[str] = field(default_factory=set)
    root: str = "."

    @property
    def page(self) -> BookPage:
        """The page being typeset."""
        return self.pages[self.page_index]

    def __post_init__(self) -> None:
        self._by_path: dict[str, int] = {}
        for index, page in enumerate(self.pages):
            self._by_path[page.src] = index
            self._by_path[page.url.rstrip("/")] = index
            self._by_path[page.url] = index

    def resolve(self, href: str) -> PageRef | None:
        """The book location of a link written on the current page, or None (external)."""
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            return None
        anchor = unquote(parts.fragment)
        path = unquote(parts.path)
        if not path:
            return PageRef(self.page_index, anchor)
        page = self.page
        if page.relative_to == "url":
            base = (
                page.url if page.url.endswith("/") or not page.url else posixpath.dirname(page.url)
            )
        else:
            base = posixpath.dirname(page.src)
        joined = (
            posixpath.normpath(posixpath.join(base, path)) if not path.startswith("/") else path[1:]
        )
        joined = joined.removeprefix("./")
        candidates = (
            joined, joined.rstrip("/"), joined.removesuffix("index.html"),
            joined.removesuffix("/index.html"), posixpath.join(joined, "index.md"),
        )  # fmt: skip
        for candidate in candidates:
            if candidate in self._by_path:
                return PageRef(self._by_path[candidate], anchor)
        if joined in (".", ""):
            return PageRef(self._by_path[""], anchor) if "" in self._by_path else None
        return None

    def live_url(self, anchor: str, *, roll: bool = False) -> str | None:
        """The published address of an anchor of the current page (None without site_url)."""
        base = self.options.site_url
        if not base:
            return None
        query = f"?roll={anchor}" if roll else ""
        return f"{base.rstrip('/')}/{self.page.url}{query}#{anchor}"
