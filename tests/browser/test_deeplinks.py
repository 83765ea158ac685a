"""Deep links: the same URL gives every reader the same roll, the CLI's roll."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

from playwright.sync_api import Browser, Page, expect

from tests.browser.conftest import READY_TIMEOUT_MS

DOCS = Path(__file__).resolve().parent / "site" / "docs"


def cli_table(page_md: str, table_id: str, seed: int, *values: str) -> dict:
    sets = [arg for v in values for arg in ("--set", v)]
    command = [sys.executable, "-m", "rollbook.cli", "table", str(DOCS / page_md), table_id,
               "--config", str(DOCS.parent / "mkdocs.yml")]  # fmt: skip
    done = subprocess.run(
        [*command, "--seed", str(seed), *sets, "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    reply: dict = json.loads(done.stdout)
    return reply


def shown(page: Page, table_id: str) -> dict:
    table = page.locator(f".rb-table[data-rb-anchor={table_id}]")
    expect(table.locator("[aria-current=true]")).to_have_count(1, timeout=READY_TIMEOUT_MS)
    return {
        "row": int(table.locator("[aria-current=true]").get_attribute("data-rb-row") or "-1"),
        "text": table.locator(".rb-result").inner_html(),
        "total": table.get_attribute("data-rb-total"),
    }


def test_same_seeded_link_same_result_in_two_fresh_browsers_and_the_cli(
    browser: Browser, fixture_site: str
) -> None:
    url = f"{fixture_site}prompts/?roll=recovery&seed=4242&bonus=3#recovery"
    seen = []
    for _ in range(2):
        context = browser.new_context()  # fresh profile: no shared storage or cache
        try:
            page = context.new_page()
            page.goto(url)
            seen.append(shown(page, "recovery"))
            expect(page.locator("input[name=bonus]")).to_have_value("3")
        finally:
            context.close()
    assert seen[0] == seen[1]
    cli = cli_table("prompts.md", "recovery", 4242, "bonus=3")
    assert seen[0] == {"row": cli["row"], "text": cli["text"], "total": str(cli["roll"]["total"])}


def test_copy_link_reproduces_the_roll(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}tables/")
    table = page.locator(".rb-table[data-rb-anchor=weather]")
    table.locator(".rb-bar button.rb-roll").click()
    first = shown(page, "weather")
    link = table.locator("a.rb-permalink").get_attribute("href") or ""
    seed = int(link.split("seed=")[1].split("#")[0])
    cli = cli_table("tables.md", "weather", seed)
    assert first["text"] == cli["text"] and first["row"] == cli["row"]
    page.goto(link)
    assert shown(page, "weather") == first


def test_link_parameters_are_data_never_html(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}prompts/?roll=recovery&seed=1&bonus=<img src=x onerror=alert(1)>")
    result = page.locator(".rb-table[data-rb-anchor=recovery] .rb-result")
    expect(result).to_contain_text("Not rolled")
    expect(result).to_contain_text("<img src=x onerror=alert(1)>")
    assert result.locator("img").count() == 0
    page.goto(f"{fixture_site}prompts/?roll=recovery&seed=1&bonus=7")
    expect(result).to_contain_text("from 0 to 3")
    page.goto(f"{fixture_site}prompts/?roll=recovery&seed=-5&bonus=1")
    expect(result).to_contain_text("seed must be a whole number")


def test_copy_link_button_puts_the_seeded_link_on_the_clipboard(
    browser: Browser, fixture_site: str
) -> None:
    context = browser.new_context()
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=fixture_site)
        page = context.new_page()
        page.goto(f"{fixture_site}tables/")
        table = page.locator(".rb-table[data-rb-anchor=weather]")
        copy = table.locator("button.rb-copy-link")
        expect(copy).to_be_hidden()  # nothing to link to before a roll
        table.locator(".rb-bar button.rb-roll").click()
        shown(page, "weather")
        copy.click()
        expect(table.locator(".rb-result .rb-note")).to_have_text(" Link copied.")
        copied = page.evaluate("navigator.clipboard.readText()")
        seed = table.get_attribute("data-rb-seed")
        assert copied == f"{fixture_site}tables/?roll=weather&seed={seed}#weather"
    finally:
        context.close()


def test_unknown_roll_id_tells_the_reader_in_plain_text(page: Page, fixture_site: str) -> None:
    payload = '"><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'
    page.goto(f"{fixture_site}tables/?roll={quote(payload)}&seed=1")
    notice = page.locator(".rb-link-notice[role=status]")
    expect(notice).to_have_count(1)
    expect(notice).to_contain_text("does not have")
    expect(notice.locator("p")).to_contain_text(payload)  # the id, quoted back as text
    assert notice.locator("img, script").count() == 0
    assert page.evaluate("window.__pwned === undefined")
    # At the top of the page's content, and the reader can dismiss it.
    assert page.evaluate(
        "document.querySelector('article.md-content__inner').firstElementChild"
        ".classList.contains('rb-link-notice')"
    )
    notice.get_by_role("button", name="Dismiss this notice").click()
    expect(notice).to_have_count(0)
    # A known id gets no notice; the widgets stay usable after an unknown one.
    page.goto(f"{fixture_site}tables/?roll=weather&seed=7#weather")
    table = page.locator(".rb-table[data-rb-anchor=weather]")
    expect(table.locator("[aria-current=true]")).to_have_count(1, timeout=READY_TIMEOUT_MS)
    expect(page.locator(".rb-link-notice")).to_have_count(0)
    assert page.evaluate("window.__pwned === undefined")
