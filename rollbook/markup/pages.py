"""Convert whole pages outside MkDocs (``rollbook check`` / ``rollbook table``).

The same extensions, in the same order, as the build: by default the demo site's list; the
CLI passes the list read from the site's mkdocs.yml when there is one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import markdown
import yaml

from rollbook.markup.frontmatter import front_matter_language, guard_front_matter
from rollbook.markup.page_state import page_features
from rollbook.markup.pagefile import PageReadError, read_page
from rollbook.markup.problems import Problem, page_context
from rollbook.markup.superfences import CUSTOM_FENCES

__all__ = [
    "DEFAULT_EXTENSIONS", "MarkdownSetup", "PageResult", "convert_page", "split_front_matter",
]  # fmt: skip

DEFAULT_EXTENSIONS: tuple[Any, ...] = (
    "toc", "tables", "attr_list", "admonition", "pymdownx.superfences", "rollbook",
)  # fmt: skip


TOO_DEEP = (
    "the page nests Markdown (lists, quotes or emphasis) too deeply for Python-Markdown "
    "to convert it."
)


@dataclass
class MarkdownSetup:
    """Which extensions a page is converted with, and the plugin's presets."""

    extensions: Sequence[Any] = DEFAULT_EXTENSIONS
    configs: dict[str, dict[str, Any]] = field(
        default_factory=lambda: {"pymdownx.superfences": {"custom_fences": CUSTOM_FENCES}}
    )
    presets: dict[str, dict[str, Any]] = field(default_factory=dict)
    language: str | None = None  # the site's (rollbook.mkdocs_plugin.site_language)
    strings: dict[str, Any] | None = None
    features: dict[str, bool] = field(default_factory=dict)
    #: The site's ``docs_dir``, when the setup was read from a config file.
    docs_dir: Path | None = None


@dataclass
class PageResult:
    """One converted page: its HTML, problems (``page:line`` ready) and tables by anchor."""

    path: str
    html: str
    problems: list[Problem]
    tables: dict[str, Any]
    counts: dict[str, int] = field(default_factory=dict)
    dice_refs: list[tuple[int, str, str]] = field(default_factory=list)

    def messages(self) -> list[str]:
        """``page:line: message`` for each problem (INFO lines left out)."""
        return [
            f"{self.path}:{p.line}: {p.message}"
            for p in sorted(self.problems)
            if p.severity != "info"
        ]

    def notes(self) -> list[str]:
        """``page:line: message`` for each INFO line (what was left alone, and why)."""
        return [
            f"{self.path}:{p.line}: {p.message}"
            for p in sorted(self.problems)
            if p.severity == "info"
        ]


def front_matter(text: str) -> object:
    """The page's front matter as YAML gives it (``None`` without one or when unreadable).

    Only called on text that passed ``guard_front_matter``, so the block is within limits.
    """
    body, offset = split_front_matter(text)
    if not offset:
        return None
    block = text[: len(text) - len(body)].strip().strip("-.").strip()
    try:
        return yaml.safe_load(block)
    except yaml.YAMLError:
        return None


def split_front_matter(text: str) -> tuple[str, int]:
    """Drop a leading YAML front matter block as MkDocs does; return (body, lines removed)."""
    lines = text.split("\n")
    if lines and lines[0].rstrip() == "---":
        for i in range(1, len(lines)):
            if lines[i].rstrip() in ("---", "..."):
                rest = "\n".join(lines[i + 1 :])
                body = rest.lstrip("\n")
                return body, i + 1 + (len(rest) - len(body))
    return text, 0


def convert_page(
    path: str | Path, setup: MarkdownSetup | None = None, shown: str | None = None
) -> PageResult:
    """Convert one Markdown file and collect what the build would report for it."""
    setup = setup or MarkdownSetup()
    name = shown or str(path)
    try:
        source = read_page(Path(path))
    except PageReadError as err:
        return PageResult(name, "", [Problem(err.line, err.message)], {})
    found = guard_front_matter(source)
    if found is not None:
        source = found[0]
    body, offset = split_front_matter(source)
    language = front_matter_language(source) or setup.language
    md = markdown.Markdown(extensions=list(setup.extensions), extension_configs=setup.configs)
    features = {**setup.features, **page_features(front_matter(source))}
    context = {"presets": dict(setup.presets), "language": language, "strings": setup.strings}
    with page_context(name, offset, features=features, **context) as ctx:
        try:
            html = md.convert(body)
        except RecursionError:  # Python-Markdown recurses once per nested list, quote, ...
            return PageResult(name, "", [Problem(1, TOO_DEEP)], {})
    state = getattr(md, "rollbook", None)
    tables = dict(state.tables) if state is not None else {}
    problems = list(ctx.problems) + ([found[1]] if found is not None else [])
    return PageResult(name, html, problems, tables, dict(ctx.counts), list(ctx.dice_refs))
