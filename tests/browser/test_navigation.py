"""Material's instant navigation: one worker serves every page; history follows the reader."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import Page, Route, expect

from tests.browser.conftest import FIXTURE_SITE_URL, wait_ready


def arrive(page: Page, go: Callable[[], object], path: str) -> None:
    """Run `go` (a click, Back) and wait until the page at `path` has replaced this one.

    Instant navigation changes the address first and swaps the content later, so the
    address alone is not enough: until the swap, locators still find the old page's
    widgets. The old article is marked, and the wait lasts until it is gone.
    """
    page.evaluate("document.querySelector('article').dataset.rbLeaving = 'true'")
    go()
    page.wait_for_function(
        "p => location.pathname === p && document.querySelector('article')"
        " && !document.querySelector('article[data-rb-leaving]')",
        arg=path,
    )


def follow(page: Page, link_text: str, path: str) -> None:
    arrive(page, page.get_by_role("link", name=link_text).first.click, path)


def test_instant_navigation_keeps_one_worker(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    wait_ready(page)
    page.evaluate("window.__sameDocument = true")
    page.locator(".rb-inline button").first.click()
    expect(page.locator(".rb-inline output").first).to_have_text(re.compile(r"^\d+$"))

    follow(page, "the tables page", "/tables/")
    table = page.locator(".rb-table[data-rb-anchor=weather]")
    expect(table).to_have_attribute("data-rb-mounted", "true")
    table.locator(".rb-bar button.rb-roll").click()
    expect(table.locator("[aria-current=true]")).to_have_count(1)
    expect(table.locator(".rb-result")).to_contain_text("Weather (")

    follow(page, "the inline rolls", "/")
    page.locator(".rb-inline button").nth(1).click()
    expect(page.locator(".rb-inline output").nth(1)).to_have_text(re.compile(r"^\d+$"))
    # No full page load happened (Material swapped the content) and the worker never restarted.
    assert page.evaluate("window.__sameDocument") is True
    assert page.evaluate("window.rollbook.workerStarts") == 1


def test_instant_navigation_on_the_demo_site(page: Page, demo_site: tuple[str, Path]) -> None:
    # The demo has no site_url and this server has a random port: Material's sitemap match
    # never succeeds, so instant.js must claim the links (and payloads must not be scripts:
    # the page fixture fails on any uncaught error).
    base, _ = demo_site
    page.goto(base)
    wait_ready(page)
    page.evaluate("window.__sameDocument = true")
    page.locator(".rb-inline button").first.click()
    expect(page.locator(".rb-inline output").first).to_have_text(re.compile(r"^-?\d+$"))

    link = page.locator("nav.md-nav--primary a", has_text=re.compile(r"^\s*Roll tables\s*$"))
    arrive(page, link.click, "/authoring/roll-tables/")
    table = page.locator(".rb-table").first
    expect(table).to_have_attribute("data-rb-mounted", "true")
    table.locator(".rb-bar button.rb-roll").click()
    expect(table.locator("[aria-current=true]")).to_have_count(1)
    # Material swapped the content (no page load) and the one worker answered both rolls.
    assert page.evaluate("window.__sameDocument") is True
    assert page.evaluate("window.rollbook.workerStarts") == 1
    assert page.evaluate("window.rollbook.instantClaims") == 1

    # Back is Material's too: the home page returns without a page load, its rolls work.
    arrive(page, page.go_back, "/")
    page.locator(".rb-inline button").nth(1).click()
    expect(page.locator(".rb-inline output").nth(1)).to_have_text(re.compile(r"^-?\d+$"))
    assert page.evaluate("window.__sameDocument") is True
    assert page.evaluate("window.rollbook.workerStarts") == 1


def test_material_claims_links_itself_when_site_url_matches(page: Page, fixture_site: str) -> None:
    # What `mkdocs serve` gives (site_url = the server): Material's own sitemap match claims
    # the link, and instant.js must leave it alone (one navigation, one history entry).
    def sitemap(route: Route) -> None:
        response = route.fetch()
        fixed = response.text().replace(FIXTURE_SITE_URL, fixture_site)
        route.fulfill(response=response, body=fixed)

    page.route("**/sitemap.xml", sitemap)
    page.goto(fixture_site)
    wait_ready(page)
    page.evaluate("window.__sameDocument = true")
    length = page.evaluate("history.length")
    follow(page, "the tables page", "/tables/")
    expect(page.locator(".rb-table[data-rb-anchor=weather]")).to_have_attribute(
        "data-rb-mounted", "true"
    )
    assert page.evaluate("window.__sameDocument") is True
    assert page.evaluate("history.length") == length + 1
    assert page.evaluate("window.rollbook.instantClaims") == 0


def test_history_tray_lists_rolls_across_pages_and_reloads(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    wait_ready(page)
    page.locator(".rb-inline button").first.click()
    expect(page.locator(".rb-inline output").first).to_have_text(re.compile(r"^\d+$"))
    follow(page, "the tables page", "/tables/")
    table = page.locator(".rb-table[data-rb-anchor=weather]")
    table.locator(".rb-bar button.rb-roll").click()
    expect(table.locator("[aria-current=true]")).to_have_count(1)
    seed = table.get_attribute("data-rb-seed")

    page.reload()
    toggle = page.locator(".rb-history-toggle")
    expect(toggle).to_have_text("Rolls (2)")
    toggle.click()
    assert toggle.get_attribute("aria-expanded") == "true"
    entries = page.locator(".rb-history-entry")
    expect(entries).to_have_count(2)
    newest = entries.nth(0).locator("a")
    expect(newest).to_have_text("Weather")
    assert newest.get_attribute("href").endswith(f"/tables/?roll=weather&seed={seed}#weather")
    assert entries.nth(1).locator("a").get_attribute("href").endswith("/#rb-roll-1")
    expect(entries.nth(1)).to_contain_text("2d6 x 10 feet")

    with page.expect_download() as download:
        page.get_by_role("button", name="Download Markdown").click()
    text = Path(download.value.path()).read_text(encoding="utf-8")
    assert text.startswith("# Roll history\n")
    assert "[Weather](" in text and f"?roll=weather&seed={seed}#weather)" in text

    page.keyboard.press("Escape")
    expect(page.locator(".rb-history-panel")).to_be_hidden()
    expect(toggle).to_be_focused()
    toggle.click()
    page.get_by_role("button", name="Clear history").click()
    expect(toggle).to_have_text("Rolls (0)")
    expect(page.locator(".rb-history-empty")).to_be_visible()
    page.reload()
    expect(page.locator(".rb-history-toggle")).to_have_text("Rolls (0)")
