"""`mkdocs build --strict` of the demo site, twice: it must pass and be byte-identical.

One pair of builds per session (module fixture): the builds are the slow part.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _build(site: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "NO_MKDOCS_2_WARNING": "1",
        # mkdocs stamps the sitemap with the build date; pin it like any reproducible build.
        "SOURCE_DATE_EPOCH": "1767225600",
    }
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
         "-d", str(site)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip


def _tree(site: Path) -> dict[str, str]:
    return {
        p.relative_to(site).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(site.rglob("*"))
        if p.is_file()
    }


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    base = tmp_path_factory.mktemp("demo")
    results = []
    for name in ("one", "two"):
        site = base / name
        done = _build(site)
        assert done.returncode == 0, done.stderr[-3000:]
        results.append((site, done))
    return results


def test_strict_build_passes_without_warnings(builds):
    for _, done in builds:
        assert "WARNING" not in done.stderr, done.stderr


def test_two_builds_are_byte_identical(builds):
    (one, _), (two, _) = builds
    first, second = _tree(one), _tree(two)
    assert len(first) > 20
    assert first.keys() == second.keys()
    assert [path for path in first if first[path] != second[path]] == []


def test_every_page_loads_our_module_and_stylesheet(builds):
    site, _ = builds[0]
    pages = [p for p in site.rglob("index.html")]
    assert pages
    for page in pages:
        html = page.read_text(encoding="utf-8")
        script = r'<script src="[./]*assets/rollbook/rollbook\.js" type="module">'
        assert re.search(script, html), page
        assert re.search(r'href="[./]*assets/rollbook/rollbook\.css"', html), page


def test_no_page_loads_anything_from_another_host(builds):
    site, _ = builds[0]
    for page in site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert not re.search(r'<(?:script|link)[^>]+(?:src|href)="(?:https?:)?//', html), page


def test_manifest_names_files_that_exist(builds):
    site, _ = builds[0]
    ours = site / "assets" / "rollbook"
    manifest = json.loads((ours / "manifest.json").read_text())
    for path in manifest["wheels"]:
        assert (ours / path).is_file()
    pyodide = (ours / manifest["pyodide"]).resolve()
    assert (pyodide / "pyodide.mjs").is_file() and (pyodide / "pyodide.asm.wasm.br").is_file()


def test_search_finds_table_results_as_words_and_skips_the_controls(builds):
    site, _ = builds[0]
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    tour = next(d for d in index["docs"] if d["location"] == "#a-quick-tour")
    words = re.split(r"[\s\-]+", re.sub(r"<[^>]+>", " ", tour["text"]))
    assert {"Hostile", "They", "charge.", "Wary", "Friendly"} <= set(words), tour["text"]
    for doc in index["docs"]:
        # The bar's labels side by side only ever come from the bar itself.
        assert "Show chances Copy link" not in doc["text"]
        assert "Show chancesCopy link" not in doc["text"]
        prose = re.sub(r"<code>.*?</code>", "", doc["text"])  # `-7%3` is dice notation
        assert not re.search(r"\d%\w", prose), prose  # hidden chances, run together


def test_demo_pages_have_live_rolls_and_tables(builds):
    site, _ = builds[0]
    html = "".join(p.read_text(encoding="utf-8") for p in site.rglob("index.html"))
    assert html.count('class="rb-roll"') > 20
    assert html.count('<div class="rb-table') >= 5
    assert 'class="admonition failure rb-error"' not in html
    assert "rb-inline-error" not in html
