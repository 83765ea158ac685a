"""The demo site built for a sub-path (`site_url` with a path), served under that prefix only,
rolls in Chromium: nothing it needs is asked for above the prefix.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ROOT, expected_table_roll, payload, wait_ready
from tests.browser.server import requested, serve

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


@pytest.fixture(scope="session")
def subpath_demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The demo built with a `site_url` that has a path, served under that path only."""
    tmp = tmp_path_factory.mktemp("subpath")
    served = tmp / "www"
    served.mkdir()
    with serve(served) as base:
        url = f"{base}books/rules/"
        config = tmp / "mkdocs.yml"
        config.write_text(
            f"INHERIT: {ROOT / 'mkdocs.yml'}\n"
            f"site_url: {url}\n"
            f"docs_dir: {ROOT / 'docs'}\n"
            "plugins:\n  - search\n  - rollbook:\n"
            f"      pyodide_path: {ROOT / 'node_modules' / 'pyodide'}\n",
            encoding="utf-8",
        )
        dest = served / "books" / "rules"
        done = subprocess.run(
            [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-f", str(config),
             "-d", str(dest)],
            cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert f"<loc>{url}authoring/publishing/</loc>" in (dest / "sitemap.xml").read_text()
        yield url


def test_the_demo_rolls_under_a_sub_path(page: Page, subpath_demo: str) -> None:
    page.goto(f"{subpath_demo}authoring/inline-rolls/")
    wait_ready(page)
    inline = page.locator(".rb-inline").first
    inline.locator("button.rb-roll").click()
    expect(inline.locator("output.rb-out")).to_have_text(re.compile(r"^-?\d+$"))
    # Material's own instant navigation (the sitemap names this very host), then a table.
    page.locator("nav a", has_text="Roll tables").first.click()
    expect(page).to_have_url(f"{subpath_demo}authoring/roll-tables/")
    table = page.locator(".rb-table[data-rb-anchor=lock-picking]")
    table.locator(".rb-bar button.rb-roll").click()
    expect(table.locator("[aria-current=true]")).to_have_count(1)
    seed = int(table.get_attribute("data-rb-seed") or "")
    rolled = expected_table_roll(payload(page, "lock-picking"), seed)
    assert table.locator("[aria-current=true]").get_attribute("data-rb-row") == str(
        rolled.row_index
    )
    assert page.evaluate("window.rollbook.workerStarts") == 1  # one engine for the visit
    base = subpath_demo.split("/books/")[0] + "/"
    outside = [p for p in requested(base) if not p.startswith("/books/rules/")]
    assert outside == []  # nothing asked for above the prefix
