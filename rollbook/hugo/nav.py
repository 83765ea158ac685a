"""The ``nav:`` of an imported site, in Hugo's order: ``weight`` first, then the title.

Hugo lists pages with a weight before pages without one (weight 0 means none), lighter
first; ties, and pages without weights, go by title, then by path, so the order is total.
A section (a folder with ``_index.md``) is one nav entry holding its index page first,
then its pages and sub-sections, each sorted the same way.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

__all__ = ["NavPage", "build_nav"]


@dataclass
class NavPage:
    """A page of the imported site in the navigation: where it goes, its title and weight."""

    out: str  # path under docs/, POSIX
    title: str | None
    weight: int
    section: bool  # an _index.md


@dataclass
class _Node:
    folder: str
    index: NavPage | None = None
    pages: list[NavPage] = field(default_factory=list)
    children: dict[str, _Node] = field(default_factory=dict)


def _key(weight: int, title: str | None, path: str) -> tuple[int, int, str, str]:
    return (0 if weight else 1, weight, (title or PurePosixPath(path).stem).casefold(), path)


def _humane(folder: str) -> str:
    name = PurePosixPath(folder).name.replace("-", " ").replace("_", " ").strip()
    return name[:1].upper() + name[1:] if name else folder


def _node(root: _Node, folder: str) -> _Node:
    node = root
    if folder in ("", "."):
        return node
    done = ""
    for part in PurePosixPath(folder).parts:
        done = f"{done}/{part}" if done else part
        node = node.children.setdefault(part, _Node(done))
    return node


def _entry(page: NavPage) -> Any:
    return {page.title: page.out} if page.title else page.out


def _items(node: _Node) -> list[tuple[tuple[int, int, str, str], Any]]:
    items = [(_key(p.weight, p.title, p.out), _entry(p)) for p in node.pages]
    for child in node.children.values():
        inner = [entry for _, entry in sorted(_items(child), key=lambda item: item[0])]
        index = child.index
        if index is not None:
            inner.insert(0, index.out)
        if not inner:
            continue
        title = (index.title if index else None) or _humane(child.folder)
        weight = index.weight if index else 0
        items.append((_key(weight, title, child.folder + "/"), {title: inner}))
    return items


def build_nav(pages: list[NavPage]) -> list[Any]:
    """The nav list for mkdocs.yml (home page first, as "Home")."""
    root = _Node("")
    home: NavPage | None = None
    for page in pages:
        path = PurePosixPath(page.out)
        if page.out == "index.md":
            home = page
        elif page.section:
            _node(root, str(path.parent)).index = page
        elif path.name == "index.md":  # a leaf bundle: a page of the folder above
            _node(root, str(path.parent.parent)).pages.append(page)
        else:
            _node(root, str(path.parent)).pages.append(page)
    nav = [entry for _, entry in sorted(_items(root), key=lambda item: item[0])]
    return ([{"Home": "index.md"}] if home else []) + nav
