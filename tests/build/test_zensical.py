"""The demo built by Zensical: our extensions without the MkDocs plugin (tests/zensical_build).

What the architecture promises for Material's successor: the pages convert unchanged (with
the presets, script and stylesheet mkdocs.yml names), author problems still name the page
and its line, and ``rollbook assets`` adds the run-time files afterwards.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.markup.helpers import GAP_TABLE
from tests.zensical_build import add_assets, zensical_build

BROKEN = (
    """---
title: Broken on purpose
---

# A table with a gap

"""
    + GAP_TABLE
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    site, output = zensical_build(tmp_path_factory.mktemp("zensical") / "demo")
    add_assets(site)
    return site, output


def test_the_demo_builds_without_a_single_author_problem(built: tuple[Path, str]) -> None:
    _, output = built
    assert "rollbook" not in output and ".md:" not in output, output


def test_pages_have_live_markup_presets_script_and_stylesheet(built: tuple[Path, str]) -> None:
    site, _ = built
    tables = (site / "authoring" / "roll-tables" / "index.html").read_text(encoding="utf-8")
    assert tables.count('<div class="rb-table') >= 3
    assert "Roll for reaction" in tables  # a preset, set on the extension in mkdocs.yml
    assert re.search(r'<script src="[./]*assets/rollbook/rollbook\.js" type="module">', tables)
    assert re.search(r'href="[./]*assets/rollbook/rollbook\.css"', tables)
    inline = (site / "authoring" / "inline-rolls" / "index.html").read_text(encoding="utf-8")
    assert inline.count('class="rb-roll"') > 5
    assert "rb-error" not in inline


def test_its_search_index_has_table_results_as_words_and_no_controls(
    built: tuple[Path, str],
) -> None:
    site, _ = built
    items = json.loads((site / "search.json").read_text(encoding="utf-8"))["items"]
    tour = next(item["text"] for item in items if item["location"] == "#a-quick-tour")
    assert "Hostile They charge." in tour and "Curious They want" in tour, tour
    assert "Show chances" not in tour and "Copy link" not in tour and "%" not in tour, tour


def test_rollbook_assets_completes_the_site(built: tuple[Path, str]) -> None:
    site, _ = built
    ours = site / "assets" / "rollbook"
    manifest = json.loads((ours / "manifest.json").read_text(encoding="utf-8"))
    assert all((ours / wheel).is_file() for wheel in manifest["wheels"])
    assert (ours / manifest["snapshot"]).is_file()
    assert ((ours / manifest["pyodide"]).resolve() / "pyodide.asm.wasm.br").is_file()


def test_author_problems_name_the_page_and_its_file_line(tmp_path: Path) -> None:
    _, output = zensical_build(tmp_path / "demo", {"broken.md": BROKEN})
    # Line 9 of the file is the `results:` key (front matter included), as `rollbook check`
    # and the MkDocs build say it.
    assert "docs/broken.md:9: roll-table: results: no row covers 3 (1d6 gives 1–6)" in output


def test_a_page_in_another_language_speaks_it_without_the_plugin(
    built: tuple[Path, str],
) -> None:
    """`language: fr` in a page's front matter picks its catalogue under Zensical too, and
    `rollbook assets` gives the page scripts that catalogue beside the site's."""
    from rollbook.language import catalogue

    site, _ = built
    fr, en = catalogue("fr"), catalogue("en")
    page = (site / "en-francais" / "index.html").read_text(encoding="utf-8")
    body = page[page.index('data-rb-anchor="roseaux"') :]
    for key in ("table.roll", "chances.show", "table.copy_link"):
        assert f">{fr(key)}<" in body, key
        assert f">{en(key)}<" not in body, key
    assert "moyenne 10,5" in page  # the inline 1d20's tooltip, French numbers
    assert '<div hidden data-rb-lang="fr"></div>' in page
    english = (site / "index.html").read_text(encoding="utf-8")
    assert "data-rb-lang" not in english  # the site's own language needs no mark
    strings = (site / "assets" / "rollbook" / "strings.js").read_text(encoding="utf-8")
    assert re.findall(r'"lang":"([^"]+)"', strings) == ["en", "fr"]
    assert '"default":"en"' in strings
