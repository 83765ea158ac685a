"""Build the language fixture site (tests/language/site) in one language.

The theme's ``language`` is the page's, as an author sets it (Material's convention); with
``pyodide`` the site rolls (browser tests), without it the build is quick (HTML scans).
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from rollbook.language import catalogue

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(__file__).resolve().parent / "site"
PYODIDE = ROOT / "node_modules" / "pyodide"


def build(language: str, dest: Path, *, pyodide: bool = False) -> Path:
    """Build the fixture site with ``theme.language: language`` into ``dest``."""
    plugin: dict[str, Any] = {"offline": True}
    if pyodide:  # as readers get it (snapshot included), from the project's caches
        plugin.update(pyodide_path=str(PYODIDE),
                      snapshot_cache=str(ROOT / ".cache" / "rollbook" / "snapshots"))  # fmt: skip
    else:
        plugin.update(pyodide_required=False, snapshot=False)
    config = {
        "site_name": "rollbook languages",
        "docs_dir": str(SITE / "docs"),
        "strict": True,
        "use_directory_urls": True,
        "theme": {"name": "material", "font": False, "language": language,
                  "features": ["navigation.instant"]},
        "plugins": [{"rollbook": plugin}],
        "markdown_extensions": ["tables", "attr_list"],
    }  # fmt: skip
    dest.mkdir(parents=True, exist_ok=True)
    config_file = dest.parent / f"{dest.name}-mkdocs.yml"
    config_file.write_text(json.dumps(config), encoding="utf-8")  # JSON is YAML
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config_file),
         "-d", str(dest)],
        cwd=ROOT, capture_output=True, text=True, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return dest


def english_patterns(language: str) -> list[tuple[str, re.Pattern[str]]]:
    """A pattern per English catalogue text that ``language`` writes differently (placeholders
    match anything): the control text a page in ``language`` must not show."""
    english, own = catalogue("en"), catalogue(language)
    out = []
    for key, text in english.strings.items():
        forms = text.values() if isinstance(text, dict) else [text]
        theirs = own.strings[key]
        their_forms = set(theirs.values()) if isinstance(theirs, dict) else {theirs}
        for form in forms:
            if form in their_forms:
                continue  # the same word in both ("Chance", "Name")
            parts = re.split(r"\{[a-z_]+\}", form)
            body = ".*?".join(re.escape(part) for part in parts)
            out.append((key, re.compile(rf"(?<![\w-]){body}(?![\w-])")))
    return out


class _Texts(HTMLParser):
    """The texts a reader sees or hears: text nodes and the attributes read aloud or shown,
    leaving out scripts and payloads (a statblock's labels and values are the reader's too)."""

    SKIP = frozenset({"script", "style", "template"})
    SHOWN = ("title", "aria-label", "placeholder", "alt", "value")

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skipping += 1
        if not self.skipping:
            self.texts.extend(v for k, v in attrs if k in self.SHOWN and v)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1

    def handle_data(self, data: str) -> None:
        if not self.skipping and data.strip():
            self.texts.append(data.strip())


def visible_texts(page_html: str) -> list[str]:
    """The reader's texts of a page (see `_Texts`)."""
    parser = _Texts()
    parser.feed(page_html)
    return [html.unescape(text) for text in parser.texts]


def english_in(texts: list[str], language: str) -> list[tuple[str, str]]:
    """(key, text) for every text that is the English catalogue's rather than the language's."""
    found = []
    for key, pattern in english_patterns(language):
        for text in texts:
            if pattern.fullmatch(text) or (" " in pattern.pattern and pattern.search(text)):
                found.append((key, text))
    return found
