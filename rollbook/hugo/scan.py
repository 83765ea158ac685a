"""What a Hugo page holds that rollbook does not read: shortcodes and unknown fences.

Both are left in the page as they are; each is reported with its line (in the source page,
front matter included) and, where one exists, the Markdown that does the same job.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from rollbook.engine.located import Problem
from rollbook.markup.prescan import FENCE_NAMES

__all__ = ["DIALECT_FENCES", "Finding", "scan"]

DIALECT_FENCES = frozenset(FENCE_NAMES)

# Code fences that are plain code, for hosts without Pygments (its lexer names count too).
_PLAIN = frozenset({"", "text", "txt", "plain", "plaintext", "markdown", "md", "console"})

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$")
_OPENER = re.compile(r"\{\{([<%])")
# The inside of one shortcode, between its opener and the first "}}" after it.
_INSIDE = re.compile(r"(?P<esc>/\*)?\s*(?P<close>/)?\s*(?P<name>[\w./-]+)?")
_HINTS = {
    "ref": "write a relative link to the page's .md file instead",
    "relref": "write a relative link to the page's .md file instead",
    "figure": "write an image, ![text](picture.png), instead",
    "highlight": "write a fenced code block instead",
    "hint": "write an admonition (!!! note) instead",
    "notice": "write an admonition (!!! note) instead",
    "details": "write an admonition instead",
    "tabs": "write separate headings or a roll-table with tabs instead",
    "youtube": "an embedded video would load from another site; link to it instead",
    "vimeo": "an embedded video would load from another site; link to it instead",
}


@dataclass(frozen=True)
class Finding(Problem):
    """One thing to report: the line in the source page and a sentence (a `Problem`)."""

    shortcode: str = ""  # the shortcode's whole text, for finding data files it names


def _known_language(name: str) -> bool:
    if name.casefold() in _PLAIN or name.casefold() in DIALECT_FENCES:
        return True
    try:
        from pygments.lexers import find_lexer_class_by_name
        from pygments.util import ClassNotFound
    except ImportError:  # pragma: no cover - Pygments comes with Material
        return True
    try:
        find_lexer_class_by_name(name)
    except ClassNotFound:
        return False
    return True


def _fence_language(info: str) -> str:
    info = info.strip()
    if info.startswith("{"):  # ```{.python linenos=true} (Pandoc-style attributes)
        info = info[1:].lstrip(".")
    match = re.match(r"[^\s{`]*", info)
    return match.group(0) if match else ""


def _fences(lines: list[str], first: int) -> Iterator[Finding]:
    opened: tuple[str, int] | None = None
    for number, line in enumerate(lines, start=first):
        match = _FENCE.match(line)
        if opened is not None:
            marker, length = opened
            closes = match and match.group(2)[0] == marker and len(match.group(2)) >= length
            if closes and match and not match.group(3).strip():
                opened = None
            continue
        if not match or (match.group(2)[0] == "`" and "`" in match.group(3)):
            continue
        opened = (match.group(2)[0], len(match.group(2)))
        language = _fence_language(match.group(3))
        if not _known_language(language):
            yield Finding(number, f"unknown fence {language!r} left in place; it shows as code")


def _shortcodes(text: str, first: int) -> Iterator[Finding]:
    """Each ``{{< ... >}}`` / ``{{% ... %}}``, in one pass over ``text``.

    Every opener is paired with the first ``}}`` after it (none: the scan ends), and lines
    are counted from the previous finding, so the work is linear in the page's length.
    """
    pos = 0
    line, counted = first, 0
    while (opener := _OPENER.search(text, pos)) is not None:
        end = text.find("}}", opener.end())
        if end < 0:
            return
        pos = end + 2
        inside = text[opener.end() : end]
        if inside.endswith(opener[1]):
            inside = inside[:-1]
        parts = _INSIDE.match(inside)
        assert parts is not None  # every group is optional
        if parts.group("close"):
            continue  # the closing half of a pair: reported with its opening
        line += text.count("\n", counted, opener.start())
        counted = opener.start()
        whole = text[opener.start() : pos]
        shown = " ".join(whole.split())
        if len(shown) > 60:
            shown = f"{shown[:28]} … {shown[-28:]}"
        if parts.group("esc"):
            message = f"escaped Hugo shortcode {shown} left in place; it shows with its /* */"
        else:
            name = parts.group("name") or ""
            hint = _HINTS.get(name, "rewrite it in Markdown")
            message = f"Hugo shortcode {shown} left in place; {hint}"
        yield Finding(line, message, shortcode=whole)


def scan(body: str, first_line: int) -> list[Finding]:
    """Findings in ``body``, whose first line is line ``first_line`` of the page."""
    found = [*_fences(body.split("\n"), first_line), *_shortcodes(body, first_line)]
    return sorted(found, key=lambda f: (f.line, f.message))
