"""Front matter over the YAML limits, found before MkDocs parses it.

MkDocs reads a page's front matter with libyaml itself, before any Markdown extension
runs: a deeply nested block crashes the process, and a billion-laughs block reaches every
plugin and template that walks ``page.meta``. :func:`guard_front_matter` finds the block
the way MkDocs does and, when it is over a limit of `rollbook.markup.yamlsize`, returns the
page with an empty front matter in its place (same number of lines, so every later line
number stays right) and the problem to report.
"""

from __future__ import annotations

import re

import yaml

from rollbook.markup.problems import Problem
from rollbook.markup.yamlsize import YamlSizeError, check_size

__all__ = ["front_matter_language", "guard_front_matter"]

# The pattern MkDocs uses for a leading YAML block (mkdocs.utils.meta.YAML_RE).
_FRONT_MATTER = re.compile(r"^-{3}[ \t]*\n(.*?\n)(?:\.{3}|-{3})[ \t]*\n", re.DOTALL)


def guard_front_matter(source: str) -> tuple[str, Problem] | None:
    """``None`` when the front matter (if any) is within the limits, else (safe page, problem).

    The problem's line is counted from the page's first line (the ``---``).
    """
    match = _FRONT_MATTER.match(source)
    if match is None:
        return None
    try:
        check_size(match.group(1), first_line=2)
    except YamlSizeError as err:
        blank = "\n" * (match.group(1).count("\n") - 1)
        safe = f"---\n{{}}\n{blank}---\n{source[match.end() :]}"
        return safe, Problem(err.line, f"front matter: {err.message}")
    return None


def front_matter_language(source: str) -> str | None:
    """The front matter's ``language:`` (as MkDocs gives it in ``page.meta``), else None.

    A front matter over the limits, or not YAML, has none.
    """
    match = _FRONT_MATTER.match(source)
    if match is None or guard_front_matter(source) is not None:
        return None
    try:
        meta = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return None  # the host reports it its own way
    code = meta.get("language") if isinstance(meta, dict) else None
    return str(code).strip() or None if code else None
