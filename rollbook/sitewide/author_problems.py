"""Author problems left in a built site, for ``rollbook assets --strict`` after any generator.

In a build that is not strict, a block the extension could not build is replaced by a visible
error box (``.rb-error``) and an inline roll by an error mark: whatever generator ran the
extension, the built pages themselves say where the author has something to fix. This
finds them, page by page, in the order of the site's files.
"""

from __future__ import annotations

from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

__all__ = ["BuiltProblem", "find_problems"]

_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


@dataclass(frozen=True)
class BuiltProblem:
    """One error box or mark: the built page (relative to the site) and what it says."""

    page: str
    text: str

    def __str__(self) -> str:
        return f"{self.page}: {self.text}"


class _ErrorText(HTMLParser):
    """Collects the text of each element whose class names ``rb-error``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._depth = 0  # open elements inside the current error element
        self._parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _VOID:
            return
        if self._depth:
            self._depth += 1
            if tag == "li":
                self._parts.append(" ")
            return
        classes = (dict(attrs).get("class") or "").split()
        if "rb-error" in classes:
            self._depth = 1
            self._parts = []

    def handle_endtag(self, tag: str) -> None:
        if tag in _VOID or not self._depth:
            return
        self._depth -= 1
        if not self._depth:
            self.found.append(" ".join("".join(self._parts).split()))

    def handle_data(self, data: str) -> None:
        if self._depth:
            self._parts.append(data)


def find_problems(site_dir: str | Path) -> list[BuiltProblem]:
    """Every error box and error mark in the site's HTML pages, sorted by page."""
    site = Path(site_dir)
    problems: list[BuiltProblem] = []
    for path in sorted(site.rglob("*.html")):
        if path.is_symlink() or not path.is_file():
            continue
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if "rb-error" not in text:
            continue
        parser = _ErrorText()
        parser.feed(text)
        page = path.relative_to(site).as_posix()
        problems.extend(BuiltProblem(page, found) for found in parser.found)
    return problems
