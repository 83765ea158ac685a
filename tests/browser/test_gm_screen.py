"""The GM screen with links anyone can write: listed pages only, HTML only, inert copies,
modifiers of each page's own roll, referenced prompts kept, and asking before replacing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from urllib.parse import quote, urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

from tests.browser.conftest import STEP_TIMEOUT_MS, opened, wait_ready

# Markup a hostile host would answer with, if anything ever asked it.
HOSTILE = (
    '<div class="rb-table" data-rb-anchor="x"><img src="missing.png" '
    'onerror="window.pwned = 1"></div>'
)
# Pages that are not pages of the site: traversal in its encodings, other places, other
# files (big or not HTML), the 404 page.
OUTSIDE = [
    "%2e%2e%2fb/",
    "%2E%2E/b/",
    "..%2fb/",
    "%252e%252e%252fb/",
    "../b/",
    "./../b/",
    ".\t./b/",
    "tables/../../b/",
    "\\..\\b/",
    "tables%5c..%5c..%5cb/",
    "//evil.example/b/",
    "https://evil.example/b/",
    "javascript:window.pwned=1//",
    "tables//",
    "sitemap.xml",
    "search/search_index.json",
    "assets/rollbook/manifest.json",
    "assets/rollbook/pages.json",
    "404.html",
    "b/",
]


@pytest.fixture
def gm(browser: Browser) -> Iterator[BrowserContext]:
    """A context without service workers, so that routes see every request of the page."""
    ctx = browser.new_context(service_workers="block")
    ctx.set_default_timeout(STEP_TIMEOUT_MS)
    yield ctx
    ctx.unroute_all(behavior="ignoreErrors")
    ctx.close()


def link(base: str, *pins: str) -> str:
    return f"{base}gm/?" + "&".join(f"pin={quote(pin, safe='')}" for pin in pins)


def storage(name: str) -> str:
    """The key of `name` (storage.js; the fixture site is served at the origin's root)."""
    return f"rollbook:/:{name}"


def test_shared_links_fetch_only_pages_the_site_lists(
    gm: BrowserContext, fixture_site: str
) -> None:
    asked: list[str] = []
    gm.on("request", lambda request: asked.append(request.url))
    # A host that decodes %2F (or anything outside the site) would answer with this.
    gm.route(
        lambda url: bool(re.search(r"%2[ef5]|%5c|/b/|evil", urlsplit(url).path, re.I)),
        lambda route: route.fulfill(body=HOSTILE, content_type="text/html"),
    )
    with opened(gm) as page:
        before = len(asked)
        page.goto(link(fixture_site, *(f"{p}|x|table" for p in OUTSIDE), "prompts/|recovery|table"))
        expect(page.locator(".rb-gm-item")).to_have_count(1)
        expect(page.locator(".rb-gm-item .rb-table[data-rb-anchor]")).to_have_count(1)
        expect(page.locator(".rb-gm-status")).to_contain_text("left out")
        page.wait_for_timeout(300)
        fetched = [urlsplit(url).path for url in asked[before:]]
        # (Material's instant navigation reads the sitemap itself.)
        assert not [u for u in fetched if re.search(r"%2|%5|/b/|evil|search_index|404", u)]
        assert fetched.count("/prompts/") == 1
        assert page.evaluate("window.pwned") is None


def test_the_gms_own_pins_of_unlisted_pages_are_never_fetched(
    gm: BrowserContext, fixture_site: str
) -> None:
    asked: list[str] = []
    gm.on("request", lambda request: asked.append(request.url))
    with opened(gm) as page:
        page.goto(f"{fixture_site}gm/")
        page.evaluate(
            "([key, pins]) => localStorage.setItem(key, JSON.stringify(pins))",
            [
                storage("pins"),
                [{"page": "404.html", "id": "x", "kind": "table"},
                 {"page": "prompts/", "id": "recovery", "kind": "table"}],
            ],
        )  # fmt: skip
        page.reload()
        items = page.locator(".rb-gm-item")
        expect(items).to_have_count(2)
        expect(items.nth(0)).to_contain_text("not one of this site's pages")
        expect(items.nth(1).locator(".rb-table")).to_have_count(1)
        assert not [url for url in asked if url.endswith("404.html")]


def _with_injection(route: Route) -> None:
    """The prompts page as served, with handlers planted in and around its recovery table."""
    html = route.fetch().text()
    planted = (
        '<img src="missing.png" onerror="window.pwned = 1">'
        "<script>window.pwned = 2</script>"
        '<a class="planted" href="javascript:window.pwned = 3" onclick="window.pwned = 4">x</a>'
        '<iframe srcdoc="<script>parent.pwned = 5</script>"></iframe>'
    )
    html, count = re.subn(
        r'(<div class="rb-table[^>]*data-rb-anchor="recovery"[^>]*>)', rf"\1{planted}", html
    )
    assert count == 1
    route.fulfill(body=html, content_type="text/html; charset=utf-8")


def test_copied_widgets_never_run_what_their_markup_carries(
    gm: BrowserContext, fixture_site: str
) -> None:
    gm.route(f"{fixture_site}prompts/", _with_injection)
    with opened(gm) as page:
        page.goto(link(fixture_site, "prompts/|recovery|table"))
        table = page.locator(".rb-gm-item .rb-table")
        expect(table).to_have_count(1)
        expect(table.locator("img")).to_have_count(1)
        planted = table.locator("a.planted")
        assert planted.get_attribute("href") == "#" and planted.get_attribute("onclick") is None
        planted.click()
        expect(table.locator("script, iframe")).to_have_count(0)
        page.wait_for_timeout(500)  # the image's error event has long fired
        assert page.evaluate("window.pwned") is None
        # The copy still rolls.
        wait_ready(page)
        table.locator(".rb-bar button.rb-roll").click()
        expect(table.locator("[aria-current=true]")).to_have_count(1)


@pytest.mark.parametrize("served_as", ["application/octet-stream", "application/json", ""])
def test_a_listed_page_that_is_not_html_is_not_read(
    gm: BrowserContext, fixture_site: str, served_as: str
) -> None:
    headers = {"content-type": served_as} if served_as else {}
    gm.route(
        f"{fixture_site}prompts/",
        lambda route: route.fulfill(body=HOSTILE.replace('"x"', '"recovery"'), headers=headers),
    )
    with opened(gm) as page:
        page.goto(link(fixture_site, "prompts/|recovery|table"))
        item = page.locator(".rb-gm-item")
        expect(item).to_contain_text("did not arrive as a web page")
        expect(item.locator(".rb-table")).to_have_count(0)
        assert page.evaluate("window.pwned") is None


def test_modifiers_belong_to_each_pages_own_roll(page: Page, fixture_site: str) -> None:
    # rb-roll-1 is 2d6*10 on the home page and 3d6 on limits/; rb-roll-2 the home's 1d20.
    page.goto(f"{fixture_site}gm/")
    page.evaluate(
        """([pinsKey, modsKey]) => {
          localStorage.setItem(pinsKey, JSON.stringify([
            {page: "", id: "rb-roll-1", kind: "inline"},
            {page: "limits/", id: "rb-roll-1", kind: "inline"},
            {page: "", id: "rb-roll-2", kind: "inline"},
          ]));
          // Set on the home page; and two of the old keys, under the GM screen's own path.
          localStorage.setItem(modsKey, JSON.stringify([
            ["/#rb-roll-1", 5], ["/gm/#rb-roll-1", 7], ["/gm/#rb-roll-2", 3],
          ]));
        }""",
        [storage("pins"), storage("modifiers")],
    )
    page.reload()
    wait_ready(page)
    rolls = page.locator(".rb-gm-item .rb-inline")
    expect(rolls).to_have_count(3)
    expected = ["(2d6*10)+5", "3d6", "(1d20)+3"]
    for i, notation in enumerate(expected):
        rolls.nth(i).locator("button.rb-roll").click()
        expect(rolls.nth(i)).to_have_attribute("data-rb-notation", notation)
    kept = dict(json.loads(page.evaluate(f"localStorage.getItem('{storage('modifiers')}')")))
    # The old key of one pinned roll moved to its page; the one two rolls shared is gone.
    assert kept == {"/#rb-roll-1": 5, "/#rb-roll-2": 3}
    # The home page's own roll has the modifier set there, and only that one.
    page.goto(fixture_site)
    wait_ready(page)
    page.locator("#rb-roll-1 button.rb-roll").click()
    expect(page.locator("#rb-roll-1")).to_have_attribute("data-rb-notation", "(2d6*10)+5")


def test_prompts_of_referenced_tables_stay_in_links_and_storage(
    page: Page, fixture_site: str
) -> None:
    page.goto(link(fixture_site, "nested/|camp|table|backlash.power=2"))
    table = page.locator(".rb-gm-item .rb-table")
    field = table.locator('input[name="backlash.power"]')
    expect(field).to_have_value("2")
    page.locator(".rb-gm-share").click()
    shared = page.locator(".rb-gm-link").get_attribute("href") or ""
    assert "backlash.power%3D2" in shared
    # Kept as the GM's own, a change is stored and survives a reload.
    page.locator(".rb-gm-keep").click()
    field.fill("3")
    field.dispatch_event("change")
    page.goto(f"{fixture_site}gm/")
    expect(page.locator('.rb-gm-item input[name="backlash.power"]')).to_have_value("3")


def test_keeping_a_shared_screen_asks_before_replacing_the_gms_own(
    page: Page, fixture_site: str
) -> None:
    page.goto(f"{fixture_site}gm/")
    page.evaluate(
        "key => localStorage.setItem(key, JSON.stringify("
        "[{page: '', id: 'rb-roll-2', kind: 'inline'}]))",
        storage("pins"),
    )
    page.goto(link(fixture_site, "prompts/|recovery|table", "combat/|ford|combat"))
    keep = page.locator(".rb-gm-keep")
    ask = page.locator(".rb-gm-confirm")
    expect(ask).to_be_hidden()
    keep.click()
    expect(ask).to_be_visible()
    assert ask.get_attribute("role") == "group"
    expect(ask).to_contain_text("Your own screen has 1 item")
    expect(ask.locator(".rb-gm-cancel")).to_be_focused()
    page.keyboard.press("Escape")
    expect(ask).to_be_hidden()
    expect(keep).to_be_focused()
    own = page.evaluate("key => JSON.parse(localStorage.getItem(key))", storage("pins"))
    assert [p["id"] for p in own] == ["rb-roll-2"]
    keep.click()
    ask.locator(".rb-gm-replace").click()
    expect(page.locator(".rb-gm-status")).to_have_text("This screen is now yours.")
    own = page.evaluate("key => JSON.parse(localStorage.getItem(key))", storage("pins"))
    assert [p["id"] for p in own] == ["recovery", "ford"]


def test_pinned_tables_roll_the_tables_their_page_stores(page: Page, fixture_site: str) -> None:
    # ward rolls another page's table (in its page's store); deep0 tables of its own page
    # (their widgets there): the screen has neither page's store, only the copied widgets.
    page.goto(link(fixture_site, "nested/|ward|list", "nested/|deep0|list"))
    wait_ready(page)
    tables = page.locator(".rb-gm-item .rb-table")
    expect(tables).to_have_count(2)
    ward, deep = tables.nth(0), tables.nth(1)
    ward.locator(".rb-bar button.rb-roll").click()
    expect(ward.locator(".rb-result")).to_contain_text("A ward fails:")
    expect(ward.locator(".rb-result")).to_contain_text(re.compile(r"Storm|Fair skies|Fog"))
    ref = ward.locator(".rb-ref")
    ref.locator("button.rb-roll").click()
    expect(ref.locator("output.rb-out")).to_have_text(re.compile(r"Storm|Fair skies|Fog"))
    deep.locator(".rb-bar button.rb-roll").click()
    expect(deep.locator(".rb-result")).to_contain_text("steps down.")
