"""rollbook on other hosts, in Chromium: Zensical through ``rollbook build`` (a config with no
rollbook entries), plain Python-Markdown finished by ``rollbook assets``, and ProperDocs.

The sites come from ``tests.host_sites``, built once per run and shared with tests/build.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests import host_sites
from tests.browser.a11y import explain, violations_after_use
from tests.browser.conftest import READY_TIMEOUT_MS, opened, wait_ready
from tests.browser.server import requested, serve


@pytest.fixture(scope="module")
def zensical(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serve(host_sites.zensical_site(tmp_path_factory)) as base:
        yield base


def _roll_first_inline(page: Page) -> None:
    wait_ready(page)
    inline = page.locator(".rb-inline").first
    inline.locator("button.rb-roll").click()
    expect(inline.locator("output.rb-out")).to_have_text(re.compile(r"^-?\d+$"))


def _cli_table(page_md: Path, table_id: str, seed: int) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "table", str(page_md), table_id,
         "--seed", str(seed), "--json"],
        capture_output=True, text=True, check=True, cwd=page_md.parents[1],
    )  # fmt: skip
    reply: dict = json.loads(done.stdout)
    return reply


def test_zensical_rolls_inline_tables_and_another_pages_table(page: Page, zensical: str) -> None:
    page.goto(f"{zensical}authoring/roll-tables/")
    _roll_first_inline(page)
    table = page.locator(".rb-table").first
    table.locator(".rb-bar button.rb-roll").click()
    expect(table.locator("[aria-current=true]")).to_have_count(1)
    assert page.evaluate("window.rollbook.workerStarts") == 1
    # Row 1 of the road table rolls the weather page's table, resolved without the plugin.
    for seed in range(1, 60):
        page.goto(f"{zensical}road/?roll=road&seed={seed}#road")
        road = page.locator(".rb-table[data-rb-anchor=road]")
        hit = road.locator("[aria-current=true]")
        expect(hit).to_have_count(1, timeout=READY_TIMEOUT_MS)
        if hit.get_attribute("data-rb-row") == "0":
            break
    else:
        raise AssertionError("no seed rolled the road table's first row")
    result = road.locator(".rb-result")
    expect(result).to_contain_text(re.compile(r"Weather turns: (Rain|Wind|Clear skies)"))


def test_a_zensical_deep_link_rolls_what_the_cli_rolls(
    page: Page, zensical: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    project = host_sites.zensical_site(tmp_path_factory).parent
    cli = _cli_table(project / "docs" / "road.md", "road", 7)
    page.goto(f"{zensical}road/?roll=road&seed=7#road")
    road = page.locator(".rb-table[data-rb-anchor=road]")
    expect(road.locator("[aria-current=true]")).to_have_count(1, timeout=READY_TIMEOUT_MS)
    assert road.locator("[aria-current=true]").get_attribute("data-rb-row") == str(cli["row"])
    assert road.locator(".rb-result").inner_html() == cli["text"]


def test_the_zensical_gm_screen_keeps_pins_and_rolls_them(page: Page, zensical: str) -> None:
    page.goto(f"{zensical}road/")
    pin = page.locator(".rb-table[data-rb-anchor=road] [data-rb-pin]")
    pin.click()
    expect(pin).to_have_attribute("aria-pressed", "true")
    page.goto(f"{zensical}gm/")
    expect(page).to_have_title(re.compile(r"^GM screen - "))
    expect(page.locator("h1")).to_have_text("GM screen")
    item = page.locator(".rb-gm-item")
    expect(item).to_have_count(1)
    wait_ready(page)
    table = item.locator(".rb-table")
    table.locator(".rb-bar button.rb-roll").click()
    expect(table.locator("[aria-current=true]")).to_have_count(1)
    # The page has the site's own header and navigation; its logo leads home.
    assert page.locator(".md-header").count() == 1
    logo = page.locator(".md-header a.md-header__button.md-logo")
    assert logo.evaluate("a => a.href") == zensical


def test_a_zensical_site_reads_offline_after_one_visit(
    context: BrowserContext, zensical: str
) -> None:
    with opened(context) as page:
        page.goto(f"{zensical}road/")
        page.wait_for_function(
            "document.documentElement.dataset.rbOffline === 'ready'", timeout=READY_TIMEOUT_MS
        )
        wait_ready(page)
        page.wait_for_function(
            """async (url) => {
                for (const name of await caches.keys())
                    if (await (await caches.open(name)).match(url)) return true;
                return false;
            }""",
            arg=f"{zensical}road/index.html",
            timeout=READY_TIMEOUT_MS,
        )
        context.set_offline(True)
        served = len(requested(zensical))
        page.reload()
        expect(page.locator("h1")).to_contain_text("Road trouble")
        wait_ready(page)
        road = page.locator(".rb-table[data-rb-anchor=road]")
        road.locator(".rb-bar button.rb-roll").click()
        expect(road.locator("[aria-current=true]")).to_have_count(1)
        fetched = [p for p in requested(zensical)[served:] if p != "/rollbook-sw.js"]
        assert fetched == []
        context.set_offline(False)


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_zensical_widgets_pass_axe(page: Page, zensical: str, scheme: str) -> None:
    # Zensical's theme draws the page around the widgets; their contrast must hold there too.
    found = violations_after_use(page, f"{zensical}authoring/roll-tables/", scheme)
    assert not found, explain(found)


def test_a_plain_markdown_site_rolls_after_rollbook_assets(
    page: Page, tmp_path_factory: pytest.TempPathFactory
) -> None:
    with serve(host_sites.markdown_site(tmp_path_factory)) as base:
        page.goto(base)
        _roll_first_inline(page)
        table = page.locator(".rb-table[data-rb-anchor=watch]")
        table.locator(".rb-bar button.rb-roll").click()
        expect(table.locator("[aria-current=true]")).to_have_count(1)
        table.locator("[data-rb-pin]").click()
        page.goto(f"{base}gm/")
        expect(page.locator(".rb-gm-item")).to_have_count(1)


def test_a_properdocs_site_rolls(page: Page, tmp_path_factory: pytest.TempPathFactory) -> None:
    with serve(host_sites.properdocs_site(tmp_path_factory)) as base:
        page.goto(f"{base}authoring/roll-tables/")
        _roll_first_inline(page)
        table = page.locator(".rb-table").first
        table.locator(".rb-bar button.rb-roll").click()
        expect(table.locator("[aria-current=true]")).to_have_count(1)
