"""The Zensical-built demo in Chromium: the rollers work without the MkDocs plugin."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests.browser.a11y import explain, violations_after_use
from tests.browser.conftest import wait_ready
from tests.browser.server import serve
from tests.zensical_build import add_assets, zensical_build


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site, _ = zensical_build(tmp_path_factory.mktemp("zensical-browser") / "demo")
    add_assets(site)
    with serve(site) as base:
        yield base


def test_rolls_and_tables_work_on_a_zensical_site(page: Page, zensical_site: str) -> None:
    page.goto(f"{zensical_site}authoring/roll-tables/")
    wait_ready(page)
    inline = page.locator(".rb-inline").first
    inline.locator("button.rb-roll").click()
    expect(inline.locator("output.rb-out")).to_have_text(re.compile(r"^-?\d+$"))
    table = page.locator(".rb-table").first
    table.locator(".rb-bar button.rb-roll").click()
    expect(table.locator("[aria-current=true]")).to_have_count(1)
    expect(table.locator(".rb-result")).not_to_be_empty()
    assert page.evaluate("window.rollbook.workerStarts") == 1


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_widgets_pass_axe_on_a_zensical_site(page: Page, zensical_site: str, scheme: str) -> None:
    # Zensical's theme draws the page around the widgets; their contrast must hold there too.
    found = violations_after_use(page, f"{zensical_site}authoring/roll-tables/", scheme)
    assert not found, explain(found)
