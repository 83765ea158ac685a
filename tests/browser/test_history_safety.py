"""The history tray treats storage as hostile: only this site's links, only clean entries.

Every test runs under a tripwire: nothing on the page defines ``window.__pwned``; the
hostile entries set it when they run. It must stay undefined after every click.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import wait_ready
from tests.browser.server import root_of, serve

OLD_KEY = "rollbook.history.v1"
TIME = "2026-01-01T00:00:00Z"
PWN = "window.__pwned=true"


def entry(href: object, **fields: object) -> dict[str, object]:
    return {"time": TIME, "page": "p", "where": "x", "result": "7", "href": href, **fields}


def hostile(base: str) -> list[object]:
    """Junk and attacks, as another script or an older version could have stored them."""
    other_port = urlsplit(base).port + 1  # type: ignore[operator]
    return [
        None,
        [],
        "text",
        7,
        entry(f"javascript:{PWN}"),
        entry(f" JaVaScRiPt:{PWN}"),
        entry(f"java\tscript:{PWN}"),
        entry(f"data:text/html,<script>{PWN}</script>"),
        entry(f"vbscript:{PWN}"),
        entry("//evil.example/steal"),
        entry("https://other.origin/"),
        entry(f"http://127.0.0.1:{other_port}/"),
        entry(f"blob:{base}1234"),
        entry(f"{base.replace('http://', 'http://user:pw@')}tables/"),
        {"__proto__": {"href": f"javascript:{PWN}"}, "time": TIME, "where": "x", "result": "7"},
        {"constructor": {"prototype": {"href": f"javascript:{PWN}"}}, "time": TIME},
        entry(f"{base}tables/", time=None),
        entry(f"{base}tables/", time=12345),
        entry(f"{base}tables/", time="yesterday"),
        entry(f"{base}tables/", where=5),
        entry(f"{base}tables/", where=["Weather"]),
        entry(f"{base}tables/", result={"toString": "7"}),
        entry(f"{base}tables/", where="x" * 100_000),
        entry(["javascript:alert(1)"]),
        entry(None),
    ]


def good(base: str) -> list[dict[str, object]]:
    return [
        entry(f"{base}tables/?roll=weather&seed=7#weather", where="Weather", result="Rain."),
        entry("/prompts/#recovery", where="Recovery", result="Up."),
    ]


def store(page: Page, key: str, entries: list[object]) -> None:
    page.evaluate("([key, text]) => localStorage.setItem(key, text)", [key, json.dumps(entries)])


def new_key(site: str) -> str:
    """The history's key for the site at `site` (storage.js: its base path scopes it)."""
    return f"rollbook:{urlsplit(site).path}:history"


def open_tray(page: Page) -> None:
    toggle = page.locator(".rb-history-toggle")
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    expect(page.locator(".rb-history-panel")).to_be_visible()


def assert_only_good_links(page: Page, base: str, count: int) -> list[str]:
    """The tray shows `count` entries, the count agrees, every link is this site's."""
    expect(page.locator(".rb-history-toggle")).to_have_text(f"Rolls ({count})")
    open_tray(page)
    links = page.locator(".rb-history-entry a")
    expect(links).to_have_count(count)
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(count)]
    assert all(href.startswith(base) for href in hrefs), hrefs
    return hrefs


def click_every_entry(page: Page, url: str) -> int:
    """Click each link the tray draws (from a fresh load each time); how many there were.

    A link to a roll rolls it again, and that roll goes into the history too (at the top),
    so each link is found again by its address, not by its place in the list.
    """
    page.goto(url)
    open_tray(page)
    links = page.locator(".rb-history-entry a")
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
    for href in hrefs:
        page.goto(url)
        open_tray(page)
        page.locator(f'.rb-history-entry a[href="{href}"]').first.click()
        page.wait_for_load_state()
        assert page.evaluate("window.__pwned") is None
    return len(hrefs)


def test_a_stored_script_link_never_runs(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    page.evaluate("localStorage.clear()")
    store(page, OLD_KEY, [entry(f"javascript:{PWN}"), entry(f"javascript:{PWN}", where="y")])
    store(page, new_key(fixture_site), [entry(f"javascript:{PWN}")])
    assert click_every_entry(page, fixture_site) == 0
    expect(page.locator(".rb-history-toggle")).to_have_text("Rolls (0)")


@pytest.mark.parametrize("key", ["old", "new"])
def test_hostile_history_entries_are_dropped_and_never_run(
    page: Page, fixture_site: str, key: str
) -> None:
    page.goto(fixture_site)
    name = OLD_KEY if key == "old" else new_key(fixture_site)
    entries = [*hostile(fixture_site), *good(fixture_site)]
    store(page, name, entries)
    page.reload()
    hrefs = assert_only_good_links(page, fixture_site, 2)
    assert hrefs == [f"{fixture_site}prompts/#recovery", good(fixture_site)[0]["href"]]
    assert click_every_entry(page, fixture_site) == 2


def test_copy_and_download_hold_the_clean_entries_only(browser: Browser, fixture_site: str) -> None:
    context = browser.new_context()
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=fixture_site)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(fixture_site)
        store(page, new_key(fixture_site), [*hostile(fixture_site), *good(fixture_site)])
        page.reload()
        open_tray(page)
        page.get_by_role("button", name="Copy as Markdown").click()
        expect(page.locator(".rb-history-status")).to_have_text("Copied.")
        copied = str(page.evaluate("navigator.clipboard.readText()"))
        with page.expect_download() as download:
            page.get_by_role("button", name="Download Markdown").click()
        saved = Path(download.value.path()).read_text(encoding="utf-8")
        assert copied == saved
        lines = [line for line in saved.splitlines() if line.startswith("- ")]
        when = "- 2026-01-01 00:00:00 · "
        assert lines == [
            f"{when}[Weather]({fixture_site}tables/?roll=weather&seed=7#weather): Rain.",
            f"{when}[Recovery]({fixture_site}prompts/#recovery): Up.",
        ]
        assert "script" not in saved.lower() and "evil" not in saved
        assert errors == []
        assert page.evaluate("window.__pwned") is None
    finally:
        context.close()


@pytest.fixture(scope="module")
def two_sites(fixture_site: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One origin serving the fixture site twice, at /a/ and /b/ (like two project sites)."""
    folder = tmp_path_factory.mktemp("two-sites")
    for name in ("a", "b"):
        (folder / name).symlink_to(root_of(fixture_site), target_is_directory=True)
    with serve(folder) as base:
        yield base


def test_two_sites_on_one_origin_keep_separate_histories(page: Page, two_sites: str) -> None:
    page.goto(f"{two_sites}a/")
    wait_ready(page)
    page.locator(".rb-inline button").first.click()
    expect(page.locator(".rb-inline output").first).to_have_text(re.compile(r"^\d+$"))
    expect(page.locator(".rb-history-toggle")).to_have_text("Rolls (1)")
    page.goto(f"{two_sites}b/")
    expect(page.locator(".rb-history-toggle")).to_have_text("Rolls (0)")
    page.goto(f"{two_sites}a/tables/")
    expect(page.locator(".rb-history-toggle")).to_have_text("Rolls (1)")
    assert page.evaluate("window.__pwned") is None


def test_old_shared_history_is_claimed_per_site(page: Page, two_sites: str) -> None:
    page.goto(f"{two_sites}a/")
    page.evaluate("localStorage.clear()")
    old = [
        entry(f"{two_sites}a/tables/#weather", where="A weather"),
        entry(f"{two_sites}b/tables/#weather", where="B weather"),
        entry(f"{two_sites}a/#rb-roll-1", where="A inline"),
        entry(f"javascript:{PWN}", where="A attack"),
        None,
    ]
    store(page, OLD_KEY, old)
    page.reload()
    hrefs = assert_only_good_links(page, f"{two_sites}a/", 2)
    assert hrefs == [f"{two_sites}a/#rb-roll-1", f"{two_sites}a/tables/#weather"]
    left = json.loads(page.evaluate(f"localStorage.getItem('{OLD_KEY}')"))
    assert [e["where"] for e in left] == ["B weather"]  # site b's, waiting for it
    page.goto(f"{two_sites}b/")
    assert_only_good_links(page, f"{two_sites}b/", 1)
    assert page.evaluate(f"localStorage.getItem('{OLD_KEY}')") is None
    assert click_every_entry(page, f"{two_sites}b/") == 1


def test_a_huge_stored_history_costs_little_and_keeps_the_newest(
    page: Page, fixture_site: str
) -> None:
    page.goto(fixture_site)
    store(page, new_key(fixture_site), [None] * 50_000 + good(fixture_site))
    page.reload()
    assert_only_good_links(page, fixture_site, 2)
    # Beyond what any history of 200 entries could hold (3 million characters): not read.
    store(page, new_key(fixture_site), [entry("/", where="x" * 1000)] * 4000)
    page.reload()
    expect(page.locator(".rb-history-toggle")).to_have_text("Rolls (0)")
