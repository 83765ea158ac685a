"""Where the authoring guide's pages come from, for ``rollbook new --guide``.

The guide has one copy in the repository: the demo site's ``docs/authoring/`` pages and
``docs/reference/dice-grammar.md``. ``setup.py`` copies exactly these (``SOURCES``) into the
wheel as ``rollbook/guide/``; a development install, which has no such folder, reads them
from the checkout. Standard library only: ``setup.py`` loads this file by path.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["ORDER", "PRESETS", "SOURCES", "guide_pages", "guide_root"]

# Paths relative to the docs folder: a folder (its *.md files) or one page. A new site gets
# them at the same paths, so the pages' relative links between each other keep working.
SOURCES = ("authoring", "reference/dice-grammar.md")

# Navigation order in a new site; a guide page not named here follows, sorted by path.
ORDER = (
    "authoring/index.md",
    "authoring/inline-rolls.md",
    "authoring/roll-tables.md",
    "authoring/roll-lists.md",
    "authoring/existing-pages.md",
    "authoring/encounters.md",
    "authoring/links.md",
    "authoring/languages.md",
    "authoring/checks.md",
    "authoring/publishing.md",
    "authoring/pdf.md",
    "authoring/hugo.md",
    "authoring/differences.md",
    "reference/dice-grammar.md",
)

# The presets the guide's examples use (the demo site's mkdocs.yml defines the same).
PRESETS = {"quiet": {"odds": False}, "reaction": {"button": {"label": "Roll for reaction"}}}

_PACKAGED = Path(__file__).resolve().parent.parent / "guide"
_CHECKOUT = Path(__file__).resolve().parents[2] / "docs"


def guide_root() -> Path | None:
    """The folder holding the guide's pages: the wheel's copy, else a checkout's docs/."""
    for root in (_PACKAGED, _CHECKOUT):
        if (root / SOURCES[0]).is_dir():
            return root
    return None


def source_files(docs: Path) -> list[str]:
    """The guide's pages under ``docs``, as sorted relative POSIX paths."""
    found: list[str] = []
    for source in SOURCES:
        path = docs / source
        if path.is_dir():
            found += [f"{source}/{p.name}" for p in path.glob("*.md") if p.is_file()]
        elif path.is_file():
            found.append(source)
    return sorted(found)


def guide_pages() -> dict[str, bytes]:
    """Relative path -> bytes of every guide page, in navigation order."""
    root = guide_root()
    if root is None:
        return {}
    names = source_files(root)
    known = [name for name in ORDER if name in names]
    ordered = known + [name for name in names if name not in known]
    return {name: (root / name).read_bytes() for name in ordered}
