"""Reading offline: the service worker caches the engine and pages, updates, and turns off.

Each test builds the small site of offline_site.py into its own folder and serves it, so
it can rebuild it (a redeploy) under the same URL.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import READY_TIMEOUT_MS, mkdocs_build, opened, wait_ready
from tests.browser.offline_site import write_site
from tests.browser.server import requested, serve

HAS_CACHED = """async (url) => {
  for (const name of await caches.keys()) {
    if (await (await caches.open(name)).match(url)) return true;
  }
  return false;
}"""
REGISTRATIONS = "navigator.serviceWorker.getRegistrations().then((r) => r.length)"


def build(folder: Path, **options: object) -> Path:
    """Build (or rebuild, into the same output) the offline fixture site."""
    return mkdocs_build(write_site(folder / "src", **options), folder / "site")


def wait_offline_state(page: Page, *states: str) -> None:
    page.wait_for_function(
        "states => states.includes(document.documentElement.dataset.rbOffline)",
        arg=list(states),
        timeout=READY_TIMEOUT_MS,
    )


def cached(page: Page, url: str) -> bool:
    return bool(page.evaluate(HAS_CACHED, url))


def roll_inline(page: Page) -> None:
    wait_ready(page)
    root = page.locator(".rb-inline").first
    root.locator("button.rb-roll").click()
    expect(root.locator(".rb-out")).not_to_be_empty()


def test_pages_search_and_every_widget_work_offline(
    context: BrowserContext, tmp_path: Path
) -> None:
    site = build(tmp_path)
    with serve(site) as base, opened(context) as page:
        elsewhere: list[str] = []
        # blob: URLs of the site's own origin are memory, not the network (the worker imports
        # Pyodide's runtime from one once it has inflated it).
        own = (base, f"blob:{base.rstrip('/')}/")
        context.on("request", lambda r: None if r.url.startswith(own) else elsewhere.append(r.url))
        page.goto(base)
        wait_offline_state(page, "ready")
        # Two more pages online: one through instant navigation, one loaded directly.
        page.locator(".md-nav--primary a.md-nav__link", has_text="Tables").first.click()
        expect(page.locator("h1")).to_have_text("Tables")
        page.goto(base + "fights/")
        wait_offline_state(page, "ready")
        page.wait_for_function(HAS_CACHED, arg=base + "fights/index.html")
        assert cached(page, base + "tables/index.html")
        assert not cached(page, base + "lore/index.html")  # never opened

        # Save the rest from the tray; the progress bar goes, the status says it is done.
        page.evaluate(
            """() => {
              window.progress = [];
              navigator.serviceWorker.addEventListener("message", ({ data }) => {
                if (data.type === "progress") window.progress.push(data);
              });
            }"""
        )
        page.locator(".rb-history-toggle").click()
        page.locator("button.rb-offline-save").focus()
        page.keyboard.press("Enter")
        status = page.locator(".rb-offline-status")
        # The four pages of the nav and the GM screen the plugin adds (gm/).
        expect(status).to_contain_text("Saved: all 5 pages", timeout=READY_TIMEOUT_MS)
        expect(page.locator(".rb-offline-progress")).to_be_hidden()
        progress = page.evaluate("window.progress")
        assert progress and progress[-1]["done"] == progress[-1]["total"] > 0
        assert cached(page, base + "lore/index.html")

        context.set_offline(True)
        served = len(requested(base))
        # A page only "save" kept, loaded directly, with its inline roll.
        page.goto(base + "lore/")
        expect(page.locator("h1")).to_have_text("Lore")
        roll_inline(page)
        # A visited page through instant navigation: a table with a prompt.
        page.locator(".md-nav--primary a.md-nav__link", has_text="Tables").first.click()
        expect(page.locator("h1")).to_have_text("Tables")
        table = page.locator(".rb-table[data-rb-anchor=recovery]")
        table.locator("input[name=bonus]").fill("3")
        table.locator(".rb-bar button.rb-roll").click()
        expect(table.locator(".rb-result")).to_contain_text("Recovery")
        # Exact odds at that bonus, from the engine (the build wrote them for bonus 0 only).
        table.locator("button.rb-chances").click()
        expect(table.locator("tr[data-rb-row='0'] .rb-p")).to_have_text("0%")
        # The other visited page, loaded directly: a fight to the end.
        page.goto(base + "fights/")
        fight = page.locator(".rb-combat[data-rb-anchor=ford]")
        wait_ready(page)
        fight.locator("button.rb-fight-start").click()
        fight.locator("button.rb-fight-end").click()
        expect(fight.locator(".rb-fight-status")).to_contain_text("Fight over")
        # Search finds a page by a word only its text has.
        search = page.locator("input.md-search__input")
        search.click()
        search.press_sequentially("wyrm")  # Material searches on key presses
        expect(page.locator(".md-search-result__item").first).to_contain_text("Lore")
        # Reloaded offline, it still rolls.
        page.reload()
        expect(page.locator("h1")).to_have_text("Fights")
        page.goto(base)
        roll_inline(page)
        # Everything above came from the cache. (Chromium's offline emulation covers pages
        # and workers, not the browser's own check for a new service worker script.)
        fetched = [path for path in requested(base)[served:] if path != "/rollbook-sw.js"]
        assert fetched == []
    assert elsewhere == []


def test_a_redeployed_site_shows_its_new_text_within_one_reload(
    context: BrowserContext, tmp_path: Path
) -> None:
    site = build(tmp_path)
    with serve(site) as base, opened(context) as page:
        page.goto(base)
        wait_offline_state(page, "ready")
        old = page.evaluate("caches.keys()")
        assert len(old) == 1
        page.locator(".rb-history-toggle").click()
        page.locator("button.rb-offline-save").click()
        expect(page.locator(".rb-offline-status")).to_contain_text("Saved")
        build(tmp_path, home_text="Freshly rebuilt.")
        served = len(requested(base))
        page.goto(base)
        # The browser finds the new worker; once it has taken over, the page says so.
        notice = page.locator(".rb-update")
        expect(notice).to_contain_text("new version", timeout=READY_TIMEOUT_MS)
        notice.locator("button").click()  # reloads
        expect(page.locator("article")).to_contain_text("Freshly rebuilt.")
        page.wait_for_function(
            "old => caches.keys().then((k) => k.length === 1 && k[0] !== old)", arg=old[0]
        )
        # The reader had saved the site: the new version holds all of it again.
        assert cached(page, base + "lore/index.html")
        # Files that did not change were copied from the old cache, not fetched again (the
        # page asks the server for the small manifest on each load, to hear of "offline: false").
        again = {p for p in requested(base)[served:] if "/assets/" in p}
        assert again <= {"/assets/rollbook/manifest.json"}, again


def test_offline_off_registers_nothing_and_removes_a_worker_readers_had(
    context: BrowserContext, tmp_path: Path
) -> None:
    site = build(tmp_path, offline=False)
    with serve(site) as base, opened(context) as page:
        page.goto(base)
        wait_offline_state(page, "off")
        assert page.evaluate(REGISTRATIONS) == 0
        build(tmp_path, offline=True)
        page.goto(base)
        wait_offline_state(page, "ready")
        assert page.evaluate(REGISTRATIONS) == 1
        build(tmp_path, offline=False)
        page.goto(base)
        page.wait_for_function(f"{REGISTRATIONS}.then((n) => n === 0)", polling=100)
        page.wait_for_function("caches.keys().then((k) => k.length === 0)", polling=100)
        page.reload()
        wait_offline_state(page, "off")
        assert page.evaluate(REGISTRATIONS) == 0


def test_a_site_under_a_sub_path_keeps_only_its_own_scope(
    context: BrowserContext, tmp_path: Path
) -> None:
    mkdocs_build(write_site(tmp_path / "src"), tmp_path / "host" / "rules")
    with serve(tmp_path / "host") as host, opened(context) as page:
        base = host + "rules/"
        page.goto(base)
        wait_offline_state(page, "ready")
        scopes = page.evaluate(
            "navigator.serviceWorker.getRegistrations().then((r) => r.map((x) => x.scope))"
        )
        assert scopes == [base]
        names = page.evaluate("caches.keys()")
        assert len(names) == 1 and names[0].startswith("rollbook:/rules/:")
        page.goto(base + "lore/")
        wait_offline_state(page, "ready")
        page.wait_for_function(HAS_CACHED, arg=base + "lore/index.html")
        context.set_offline(True)
        page.goto(base)
        page.locator(".md-nav--primary a.md-nav__link", has_text="Lore").first.click()
        expect(page.locator("h1")).to_have_text("Lore")
        roll_inline(page)


CACHED_TEXT = """async (url) => {
  const names = await caches.keys();
  const copy = names.length === 1 ? await (await caches.open(names[0])).match(url) : null;
  return copy ? copy.text() : null;
}"""


def test_a_page_changed_after_the_build_is_served_but_never_kept(
    context: BrowserContext, tmp_path: Path
) -> None:
    site = build(tmp_path)
    lore = site / "lore" / "index.html"
    lore.write_text(lore.read_text(encoding="utf-8").replace("sleeps", "snores"), "utf-8")
    with serve(site) as base, opened(context) as page:
        page.goto(base)
        wait_offline_state(page, "ready")
        page.goto(base + "lore/")  # through the worker now
        expect(page.locator("article")).to_contain_text("snores")
        page.goto(base + "fights/")
        wait_offline_state(page, "ready")
        page.wait_for_function(HAS_CACHED, arg=base + "fights/index.html")
        assert not cached(page, base + "lore/index.html")
        # Put back as built, it is kept on the next visit and served from then on.
        build(tmp_path)
        page.goto(base + "lore/")
        expect(page.locator("article")).to_contain_text("sleeps")
        page.wait_for_function(HAS_CACHED, arg=base + "lore/index.html")


def test_a_new_version_never_copies_an_unchecked_entry(
    context: BrowserContext, tmp_path: Path
) -> None:
    site = build(tmp_path)
    with serve(site) as base, opened(context) as page:
        page.goto(base + "lore/")
        wait_offline_state(page, "ready")
        url = base + "lore/index.html"
        page.wait_for_function(HAS_CACHED, arg=url)
        # What a worker before the check could have kept: other bytes under the listed hash.
        # The copy is looked for until found (the worker may still be writing what the page
        # opened when the first look saw it), in whichever cache holds it.
        page.evaluate(
            """async (url) => {
              for (;;) {
                for (const name of await caches.keys()) {
                  const cache = await caches.open(name);
                  const kept = await cache.match(url);
                  if (!kept) continue;
                  const headers = new Headers(kept.headers);
                  return cache.put(url, new Response("<p>forged</p>", { headers }));
                }
                await new Promise((resolve) => setTimeout(resolve, 100));
              }
            }""",
            url,
        )
        assert "forged" in page.evaluate(CACHED_TEXT, url)
        old = page.evaluate("caches.keys()")
        build(tmp_path, home_text="Freshly rebuilt.")  # lore/ itself is the same file
        page.goto(base)
        expect(page.locator(".rb-update")).to_contain_text("new version", timeout=READY_TIMEOUT_MS)
        page.wait_for_function(
            "old => caches.keys().then((k) => k.length === 1 && k[0] !== old)", arg=old[0]
        )
        # The new version kept the page (the reader had it), fetched again, not copied.
        text = page.evaluate(CACHED_TEXT, url)
        assert text is not None and "sleeps" in text and "forged" not in text


def test_removing_the_offline_copy_is_a_choice_per_site(
    context: BrowserContext, tmp_path: Path
) -> None:
    # The same site twice on one origin (every URL it uses is relative to its base).
    first = mkdocs_build(write_site(tmp_path / "src"), tmp_path / "host" / "a")
    shutil.copytree(first, tmp_path / "host" / "b")
    with serve(tmp_path / "host") as host, opened(context) as page:
        # An older version kept one flag for the whole origin: sites that have no flag of
        # their own yet take its word.
        page.goto(host)
        page.evaluate("localStorage.setItem('rollbook.offline.removed', '1')")
        page.goto(host + "a/")
        wait_offline_state(page, "removed")
        assert page.evaluate(REGISTRATIONS) == 0
        page.locator(".rb-history-toggle").click()
        page.locator("button.rb-offline-save").click()
        expect(page.locator(".rb-offline-status")).to_contain_text(
            "Saved", timeout=READY_TIMEOUT_MS
        )
        page.goto(host + "b/")
        wait_offline_state(page, "removed")  # a's choice is not b's
        page.goto(host + "a/")
        wait_offline_state(page, "ready", "saved")
        # Removing a's copy leaves b's choice and b's worker alone, and the other way round.
        page.locator(".rb-history-toggle").click()
        page.locator("button.rb-offline-remove").click()
        wait_offline_state(page, "removed")
        page.evaluate("localStorage.removeItem('rollbook.offline.removed')")
        page.goto(host + "b/")
        wait_offline_state(page, "removed")
        page.locator(".rb-history-toggle").click()
        page.locator("button.rb-offline-save").click()
        expect(page.locator(".rb-offline-status")).to_contain_text(
            "Saved", timeout=READY_TIMEOUT_MS
        )
        page.goto(host + "a/")
        wait_offline_state(page, "removed")
        scopes = page.evaluate(
            "navigator.serviceWorker.getRegistrations().then((r) => r.map((x) => x.scope))"
        )
        assert scopes == [host + "b/"]
