"""Sites in several languages with mkdocs-static-i18n, suffix (``page.fr.md``) and folder
(``fr/page.md``) layouts: each language's pages get that language's words, numbers and
dice letters, each language its GM screen, and the page's scripts every language's
catalogue."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rollbook.language import catalogue
from tests.language.build import ROOT, english_in, visible_texts

PAGES = {
    "en": "# Home\n\nRoll ![roll:1d20]().\n",
    "fr": "# Accueil\n\nLancez ![roll:1d20]().\n",
    "de": "# Start\n\nWürfle ![roll:1W20]().\n",
}


def _site(tmp: Path, layout: str) -> Path:
    docs = tmp / "docs"
    for language, text in PAGES.items():
        if layout == "suffix":
            name = "index.md" if language == "en" else f"index.{language}.md"
            path = docs / name
        else:
            path = docs / language / "index.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    config = {
        "site_name": "multilingual",
        "docs_dir": str(docs),
        "theme": {"name": "material", "font": False},
        "plugins": [
            {"i18n": {"docs_structure": layout, "languages": [
                {"locale": "en", "default": True, "name": "English"},
                {"locale": "fr", "name": "Français"},
                {"locale": "de", "name": "Deutsch"},
            ]}},
            {"rollbook": {"pyodide_required": False, "snapshot": False}},
        ],
    }  # fmt: skip
    (tmp / "mkdocs.yml").write_text(json.dumps(config), encoding="utf-8")
    site = tmp / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", "mkdocs.yml",
         "-d", str(site)],
        cwd=tmp, capture_output=True, text=True, check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return site


@pytest.fixture(scope="module", params=["suffix", "folder"])
def site(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _site(tmp_path_factory.mktemp(f"i18n-{request.param}"), request.param)


@pytest.mark.parametrize(
    ("page", "language", "title"),
    [
        ("index.html", "en", "1d20: average 10.5, range 1–20"),
        ("fr/index.html", "fr", "1d20\u00a0: moyenne 10,5, de 1 à 20"),
        ("de/index.html", "de", "1W20: Durchschnitt 10,5, Spanne 1–20"),
    ],
)
def test_each_languages_pages_speak_it(site: Path, page: str, language: str, title: str) -> None:
    html = (site / page).read_text("utf-8")
    assert f'data-rb-lang="{language}"' in html
    assert title in visible_texts(html)
    assert re.findall(r'data-roll="([^"]*)"', html) == ["1d20"]  # 1W20 in German
    assert english_in(visible_texts(html), language) == []


@pytest.mark.parametrize(("folder", "language"), [("", "en"), ("fr/", "fr"), ("de/", "de")])
def test_each_language_has_its_gm_screen(site: Path, folder: str, language: str) -> None:
    text = catalogue(language)
    html = (site / folder / "gm" / "index.html").read_text("utf-8")
    shown = visible_texts(html)
    assert text("gm.title") in shown and text("gm.empty") in shown
    assert f'data-rb-lang="{language}"' in html
    assert english_in(shown, language) == []
    home = visible_texts((site / folder / "index.html").read_text("utf-8"))
    assert text("gm.title") in home  # its entry in the navigation


def test_the_page_scripts_get_every_languages_catalogue(site: Path) -> None:
    strings = (site / "assets" / "rollbook" / "strings.js").read_text("utf-8")
    assert re.findall(r'"lang":"([^"]+)"', strings) == ["de", "en", "fr"]
    assert '"default":"en"' in strings
