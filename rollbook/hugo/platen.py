"""What a Hugo/Platen page writes that MkDocs shows differently, rewritten line for line.

- Platen's block fences become their Material equivalents: ``details`` a collapsible
  admonition (``??? note "Summary"``, ``???+`` when open), ``tabs``/``tab`` content tabs
  (``=== "Name"``), ``columns``/``column`` a Material grid (``<div class="grid"
  markdown>``), ``section`` a line of links to the section's pages.
- ``{{< ref "page" >}}`` / ``{{% relref "page#id" %}}`` become relative links to the
  page's ``.md`` file, as MkDocs resolves them.
- Escaped shortcodes (``{{</* name */>}}``, ``{{%/* name */%}}``) are unescaped, which
  is how Hugo shows them.

Every rewrite keeps the page's line count and puts each line where it was (a fence's own
lines and its front matter become blank lines), so ``docs/page.md:LINE`` in the build
still names the source line. What cannot be rewritten stays as it was, for ``scan`` to
report.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Rewritten", "rewrite"]

_OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<name>[\w-]+)[ \t]*$")
_REF = re.compile(
    r"\{\{[<%]\s*(?:rel)?ref\s+\"(?P<target>[^\"]+)\"\s*[>%]\}\}",
)
_ESCAPED = re.compile(r"\{\{([<%])/\*(.*?)\*/([>%])\}\}", re.S)
_BLOCKS = frozenset({"details", "tabs", "columns", "section"})


@dataclass
class Rewritten:
    """A page body after the rewrites, and how many of each were made."""

    lines: list[str]
    counts: dict[str, int]


@dataclass
class _Fence:
    start: int  # index of the opening line
    end: int  # index of the closing line (len(lines) if unclosed)
    name: str
    indent: str
    meta: dict[str, str]
    body_start: int  # first line after the fence's front matter


def _find_close(lines: list[str], start: int, fence: str) -> int:
    close = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
    depth = 0
    for i in range(start + 1, len(lines)):
        opened = _OPEN.match(lines[i])
        if opened and opened["fence"][0] == fence[0] and len(opened["fence"]) == len(fence):
            depth += 1
            continue
        if close.match(lines[i]):
            if depth == 0:
                return i
            depth -= 1
    return len(lines)


def _front_matter(lines: list[str], start: int, end: int) -> tuple[dict[str, str], int]:
    """``key: value`` pairs of a fence's ``---`` block and the first line after it."""
    if start + 1 >= end or lines[start + 1].strip() != "---":
        return {}, start + 1
    meta: dict[str, str] = {}
    for i in range(start + 2, end):
        if lines[i].strip() == "---":
            return meta, i + 1
        key, sep, value = lines[i].partition(":")
        if sep:
            meta[key.strip()] = value.strip().strip("\"'")
    return {}, start + 1


def _fence_at(lines: list[str], i: int, names: frozenset[str]) -> _Fence | None:
    match = _OPEN.match(lines[i])
    if match is None or match["name"].lower() not in names:
        return None
    end = _find_close(lines, i, match["fence"])
    if end >= len(lines):
        return None  # unclosed: left alone (scan reports the fence)
    meta, body = _front_matter(lines, i, end)
    return _Fence(i, end, match["name"].lower(), match["indent"], meta, body)


def _title(text: str) -> str:
    return '"' + " ".join(text.split()).replace('"', "'") + '"'


def _blank(lines: list[str], start: int, stop: int) -> None:
    for i in range(start, stop):
        lines[i] = ""


def _indent(lines: list[str], start: int, stop: int, by: str) -> None:
    for i in range(start, stop):
        if lines[i].strip():
            lines[i] = by + lines[i]


def _details(lines: list[str], f: _Fence) -> None:
    summary = f.meta.get("summary") or "Details"
    mark = "???+" if f.meta.get("open", "").lower() == "true" else "???"
    _blank(lines, f.start + 1, f.body_start)
    _indent(lines, f.body_start, f.end, f.indent + "    ")
    lines[f.start] = f"{f.indent}{mark} note {_title(summary)}"
    lines[f.end] = ""


def _children(lines: list[str], f: _Fence, name: str) -> list[_Fence]:
    found, i = [], f.body_start
    while i < f.end:
        child = _fence_at(lines, i, frozenset({name}))
        if child is not None and child.end < f.end:
            found.append(child)
            i = child.end + 1
        else:
            i += 1
    return found


def _tabs(lines: list[str], f: _Fence) -> bool:
    tabs = _children(lines, f, "tab")
    if not tabs:
        return False
    _blank(lines, f.start, f.body_start)
    for n, tab in enumerate(tabs, start=1):
        name = tab.meta.get("name") or tab.meta.get("id") or f"Tab {n}"
        _blank(lines, tab.start + 1, tab.body_start)
        _indent(lines, tab.body_start, tab.end, tab.indent + "    ")
        lines[tab.start] = f"{tab.indent}=== {_title(name)}"
        lines[tab.end] = ""
    lines[f.end] = ""
    return True


def _columns(lines: list[str], f: _Fence) -> bool:
    columns = _children(lines, f, "column")
    if not columns:
        return False
    _blank(lines, f.start + 1, f.body_start)
    lines[f.start] = f'{f.indent}<div class="grid" markdown>'
    for column in columns:
        _blank(lines, column.start + 1, column.body_start)
        lines[column.start] = f"{column.indent}<div markdown>"
        lines[column.end] = f"{column.indent}</div>"
    lines[f.end] = f"{f.indent}</div>"
    return True


def _section(lines: list[str], f: _Fence, pages: list[tuple[str, str]]) -> bool:
    if not pages:
        return False
    links = " · ".join(f"[{title}]({target})" for title, target in pages)
    _blank(lines, f.start + 1, f.body_start)
    lines[f.start] = f.indent + links
    lines[f.end] = ""
    return True


def rewrite(
    lines: list[str],
    page: str,
    resolve: Callable[[str, str], str | None],
    section_pages: list[tuple[str, str]],
) -> Rewritten:
    """Rewrite a page body (its lines, in place of a copy) for MkDocs.

    Args:
        lines: The body's lines.
        page: The page's output path under docs/ (``rules/combat.md``).
        resolve: ``resolve(page, target)`` -> the output path a ``ref`` names, or ``None``.
        section_pages: ``(title, relative link)`` of the pages a ``section`` fence lists.
    """
    out = list(lines)
    counts = {"details": 0, "tabs": 0, "columns": 0, "section": 0, "ref": 0, "escaped": 0}
    i = 0
    while i < len(out):
        fence = _fence_at(out, i, _BLOCKS)
        if fence is None:
            opened = _OPEN.match(out[i]) or re.match(r"^[ \t]*(`{3,}|~{3,})", out[i])
            if opened:  # ordinary code: skip it whole, nothing inside is rewritten
                marker = opened.group("fence") if "fence" in opened.groupdict() else opened[1]
                i = _find_close(out, i, marker) + 1
                continue
            out[i] = _inline(out[i], page, resolve, counts)
            i += 1
            continue
        done = True
        if fence.name == "details":
            _details(out, fence)
        elif fence.name == "tabs":
            done = _tabs(out, fence)
        elif fence.name == "columns":
            done = _columns(out, fence)
        else:
            done = _section(out, fence, section_pages)
        if done:
            counts[fence.name] += 1
            i = fence.body_start  # the content itself is read on like any other lines
        else:
            i = fence.end + 1
    for n, line in enumerate(out):  # escaped shortcodes show unescaped, in code too
        out[n], found = _ESCAPED.subn(lambda m: "{{" + m[1] + m[2] + m[3] + "}}", line)
        counts["escaped"] += found
    return Rewritten(out, counts)


def _inline(
    line: str, page: str, resolve: Callable[[str, str], str | None], counts: dict[str, int]
) -> str:
    def link(match: re.Match[str]) -> str:
        target, _, anchor = match["target"].partition("#")
        found = resolve(page, target) if target else page
        if found is None:
            return match[0]  # unknown page: left for the report
        counts["ref"] += 1
        relative = posixpath.relpath(found, posixpath.dirname(page) or ".")
        return relative + (f"#{anchor}" if anchor else "")

    return _REF.sub(link, line) if "ref" in line else line
