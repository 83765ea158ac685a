"""Convert Markdown with the demo site's extension set, collecting problems (never logging)."""

from __future__ import annotations

import re
import textwrap
from typing import Any

import markdown

from rollbook.markup.problems import Problem, page_context
from rollbook.markup.superfences import CUSTOM_FENCES

EXTENSIONS = ["toc", "tables", "attr_list", "admonition", "pymdownx.superfences", "rollbook"]

#: A table whose 1d6 roll can land on 3, which no row covers (the build reports it).
GAP_TABLE = """```roll-table
roll: 1d6
results:
  1--2: Low
  4--6: High
```
"""

#: Tabs that name their rows (row 2, "3--4", sits in the second tab).
TABBED_TABLE = """```roll-table
roll: 1d4
tabs:
  low: {name: Lowlands, results: [1, 2]}
  high: {name: Highlands, results: ["3--4"]}
results:
  1: fog
  2: rain
  3--4: snow
```
"""


def make_md(presets: dict[str, Any] | None = None) -> markdown.Markdown:
    return markdown.Markdown(
        extensions=EXTENSIONS,
        extension_configs={
            "pymdownx.superfences": {"custom_fences": CUSTOM_FENCES},
            "rollbook": {"presets": presets or {}},
        },
    )


def convert(src: str, presets: dict[str, Any] | None = None) -> tuple[str, list[Problem]]:
    """HTML and problems (lines 1-based in ``src``) of one page."""
    md = make_md(presets)
    with page_context("page.md") as ctx:
        html = md.convert(textwrap.dedent(src).lstrip("\n"))
    return html, sorted(ctx.problems)


def messages(src: str, name: str = "page.md") -> list[str]:
    """``name:line: message`` for every problem, as the build prints them."""
    _, problems = convert(src)
    return [f"{name}:{p.line}: {p.message}" for p in problems]


def buttons(html: str) -> list[str]:
    """The inline roll buttons' data-roll values, in order."""
    return re.findall(r'<button class="rb-roll"[^>]*data-roll="([^"]*)"', html)


PAYLOAD = re.compile(r'<template class="rb-data" data-search-exclude>(.*?)</template>', re.S)


def payload_texts(html: str) -> list[str]:
    """The raw text of every widget payload (``template.rb-data``) in ``html``, in order."""
    return PAYLOAD.findall(html)
