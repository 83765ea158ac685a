"""The page a host without a :class:`~rollbook.markup.problems.PageContext` is converting.

Zensical runs the extensions without MkDocs plugins (no page context) but registers a
``rendering_context`` preprocessor holding ``page.path`` (relative to the docs folder) and
its config (``root_dir``, ``docs_dir``, ``markdown_extensions``, ``mdx_configs``). From it the
extension names its problems ``docs/page.md:LINE`` and reads the other pages a table rolls.
Other Python-Markdown hosts set nothing: the page has no name, and only its own tables are
known.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown import Markdown

from rollbook.markup.frontmatter import front_matter_language

__all__ = ["HostPage", "host_page", "mkdocs_file"]


@dataclass(frozen=True)
class HostPage:
    """The host's page: its name in messages, front-matter lines, and where pages are.

    Attributes:
        shown: The page as messages name it, ``docs/rules/magic.md``.
        offset: Lines the host dropped before conversion (front matter, blank lines).
        root: The folder ``shown`` is relative to (the config's folder).
        docs: The docs folder, absolute.
        config: The host's configuration (its Markdown extensions, to read other pages).
        language: The page's front matter ``language:``, else None (the site's).
    """

    shown: str
    offset: int
    root: Path
    docs: Path
    config: dict[str, Any] = field(compare=False, repr=False)
    language: str | None = None


def host_page(md: Markdown, source: str) -> HostPage | None:
    """The page Zensical's ``rendering_context`` names, if it set one (see the module)."""
    name = "rendering_context"
    pre = md.preprocessors[name] if name in md.preprocessors else None  # noqa: SIM401
    path = getattr(getattr(pre, "page", None), "path", None)
    config = getattr(pre, "config", None)
    if not isinstance(path, str) or not isinstance(config, dict):
        return None
    root = Path(str(config.get("root_dir") or "."))
    docs = Path(str(config.get("docs_dir") or "docs"))
    file = root / docs / path  # an absolute docs_dir replaces root
    shown = (docs / path).as_posix()
    if docs.is_absolute() and docs.is_relative_to(root.resolve()):
        shown = (docs.relative_to(root.resolve()) / path).as_posix()
    try:
        content = file.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
    except (OSError, UnicodeDecodeError):
        content = ""
    body = source.replace("\r\n", "\n").strip("\n")
    at = content.find(body) if body else -1
    offset = content[:at].count("\n") if at > 0 else 0
    language = front_matter_language(content)
    return HostPage(shown, offset, root.resolve(), (root / docs).resolve(), config, language)


def mkdocs_file(md: Markdown) -> tuple[Any, Any] | None:
    """``(file, files)`` of the page MkDocs converts with ``md``, or None.

    MkDocs registers its link resolver (``relpath``) on every conversion of a page, also the
    ones other plugins make (a blog's excerpts): its ``file`` is the page and its ``files``
    resolve paths the way links resolve (per language under mkdocs-static-i18n).
    """
    proc = md.treeprocessors["relpath"] if "relpath" in md.treeprocessors else None  # noqa: SIM401
    file, files = getattr(proc, "file", None), getattr(proc, "files", None)
    if not isinstance(getattr(file, "src_uri", None), str) or files is None:
        return None
    if not callable(getattr(files, "get_file_from_path", None)):
        return None
    return file, files
