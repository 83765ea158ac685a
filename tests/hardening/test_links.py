"""Crafted deep links and prompt values never run script or corrupt the page.

Every payload would set `window.__pwned` or open a dialog if it ever became markup, a handler
or a URL. Bad values must get a plain sentence; good ones roll. Most links are followed in
one document (history.pushState + the runtime's own `mountAll`, which follows the new URL),
a few by real navigation, so the engine starts only where a roll is expected.
"""

from __future__ import annotations

import re
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import READY_TIMEOUT_MS
from tests.hardening.browser_helpers import TRIPWIRE, arm

pytestmark = pytest.mark.browser

XSS_ID = '"><img src=x onerror="window.__pwned=1">'
SCRIPT = "<script>window.__pwned=1</script>"
IMG = "<img src=x onerror=window.__pwned=1>"
JS_URL = "javascript:window.__pwned=1"

BAD_SEEDS = ["-5", "1.5", "NaN", "1e3", "99999999999999999999", "9007199254740992", SCRIPT,
             "", "0x10", " 5", IMG, JS_URL]  # fmt: skip
BAD_BONUS = [IMG, JS_URL, SCRIPT, "NaN", "1e400", "99999999999999999999999", "Infinity", "1.5",
             "-1", "4", "", "\u0663", "1 OR 1=1", "' onfocus='window.__pwned=1' x='",
             "+2"]  # fmt: skip
BAD_IDS = [SCRIPT, JS_URL, IMG, "nope", "", "loot#", "rb-roll-999"]

INTACT = """() => {
  const loot = document.querySelector(".rb-table[data-rb-anchor=loot]");
  const handlers = [...document.querySelectorAll("*")].filter(
    (e) => [...e.attributes].some((a) => a.name.startsWith("on")));
  return {
    rows: loot.querySelectorAll("[data-rb-row]").length,
    buttons: loot.querySelectorAll(".rb-bar button.rb-roll").length,
    images: document.querySelectorAll("main img, .rb-table img, .rb-inline img").length,
    handlers: handlers.length,
    pwned: window.__pwned !== undefined,
  };
}"""


def follow(page: Page, query: str) -> None:
    """Point the document at `?query` and let the runtime follow it, without reloading
    (the loot table's result is emptied first, so `result_text` reads this link's)."""
    page.evaluate(
        "q => { document.querySelector('.rb-table[data-rb-anchor=loot] .rb-result')"
        ".replaceChildren(); history.pushState(null, '', location.pathname + '?' + q); "
        "window.rollbook.mountAll(); }",
        query,
    )


# Prompt values are judged by the engine (the same rule as `rollbook table --set`), so a
# refusal can arrive after the engine has started.
RESULT = """a => new Promise((resolve) => {
  const result = [...document.querySelectorAll('.rb-table')]
    .find(t => t.dataset.rbAnchor === a).querySelector('.rb-result');
  const done = () => result.textContent && !result.textContent.startsWith('Warming up');
  if (done()) return resolve(result.textContent);
  new MutationObserver((_, observer) => {
    if (done()) { observer.disconnect(); resolve(result.textContent); }
  }).observe(result, { childList: true, characterData: true, subtree: true });
})"""


def result_text(page: Page, anchor: str = "loot") -> str:
    text: str = page.evaluate(RESULT, anchor)
    return text


def assert_intact(page: Page, dialogs: list[str]) -> None:
    state = page.evaluate(INTACT)
    assert state == {"rows": 3, "buttons": 1, "images": 0, "handlers": 0, "pwned": False}
    assert dialogs == []


def test_crafted_links_are_refused_with_a_sentence_and_run_nothing(
    page: Page, hard_site: str
) -> None:
    dialogs = arm(page)
    page.goto(f"{hard_site}?{urlencode({'roll': 'loot', 'seed': SCRIPT, 'bonus': IMG})}#loot")
    expect(page.locator(".rb-table[data-rb-anchor=loot] .rb-result")).to_contain_text("Not rolled")
    cases = 1
    for seed in BAD_SEEDS:
        follow(page, urlencode({"roll": "loot", "seed": seed, "bonus": "1", "n": cases}))
        text = result_text(page)
        assert text.startswith("Not rolled: this link's seed must be a whole number"), (seed, text)
        assert_intact(page, dialogs)
        cases += 1
    for bonus in BAD_BONUS:
        follow(page, urlencode({"roll": "loot", "seed": "1", "bonus": bonus, "n": cases}))
        text = result_text(page)
        assert text.startswith("Not rolled: Prompt 'bonus' "), (bonus, text)
        assert "<" not in bonus or page.locator(".rb-result img, .rb-result script").count() == 0
        assert_intact(page, dialogs)
        cases += 1
    # Repeated parameters: the first seed counts, the last value of a prompt counts.
    follow(page, f"roll=loot&seed=1&bonus=1&bonus={IMG}&n={cases}")
    assert result_text(page).startswith("Not rolled: Prompt 'bonus' ")
    for bad_id in BAD_IDS:
        follow(page, urlencode({"roll": bad_id, "seed": "1", "n": cases}))
        assert_intact(page, dialogs)
        cases += 1
    # Raw, unencoded payloads in the query and the fragment.
    follow(page, f"roll=loot&seed=<svg/onload=window.__pwned=1>&n={cases}#<img src=x onerror=1>")
    assert_intact(page, dialogs)
    print(f"\ncrafted links followed: {cases + 1}")
    assert page.evaluate(TRIPWIRE)


def test_good_links_roll_and_a_crafted_id_is_data(page: Page, hard_site: str) -> None:
    dialogs = arm(page)
    query = urlencode({"roll": "loot", "seed": "1", "seed2": SCRIPT, "bonus": "02", "x": IMG})
    page.goto(f"{hard_site}?{query}#loot")
    result = page.locator(".rb-table[data-rb-anchor=loot] .rb-result")
    expect(result).to_contain_text("Loot", timeout=READY_TIMEOUT_MS)
    expect(page.locator("input[name=bonus]")).to_have_value("2")
    # A table whose id is an HTML payload is found by that id and rolled, as text.
    follow(page, urlencode({"roll": XSS_ID, "seed": "3"}))
    crafted = page.locator(".rb-table").nth(1)
    expect(crafted.locator("[aria-current=true]")).to_have_count(1, timeout=READY_TIMEOUT_MS)
    assert crafted.get_attribute("data-rb-anchor") == XSS_ID
    # An inline roll by its id, with a seed at the top of the range.
    follow(page, "roll=rb-roll-1&seed=9007199254740991")
    expect(page.locator(".rb-inline .rb-out").first).to_have_text(
        re.compile(r"^-?\d+$"), timeout=READY_TIMEOUT_MS
    )
    assert_intact(page, dialogs)


def test_bad_seed_on_an_inline_roll_link_gets_a_sentence(page: Page, hard_site: str) -> None:
    dialogs = arm(page)
    page.goto(f"{hard_site}?{urlencode({'roll': 'rb-roll-1', 'seed': IMG})}")
    out = page.locator(".rb-inline .rb-out").first
    expect(out).to_contain_text("seed must be a whole number")
    assert_intact(page, dialogs)


def test_typed_prompt_values_are_checked_as_text(page: Page, hard_site: str) -> None:
    dialogs = arm(page)
    page.goto(hard_site)
    loot = page.locator(".rb-table[data-rb-anchor=loot]")
    field = loot.locator("input[name=bonus]")
    for typed in ["99999999999999999999", "-1", "4", "1e999"]:
        field.fill(typed)
        loot.locator(".rb-bar button.rb-roll").click()
        expect(loot.locator(".rb-result")).to_contain_text("Not rolled: Prompt 'bonus' ")
        assert field.get_attribute("aria-invalid") == "true"
    field.fill("3")
    loot.locator(".rb-bar button.rb-roll").click()
    expect(loot.locator(".rb-result")).to_contain_text("Loot", timeout=READY_TIMEOUT_MS)
    assert_intact(page, dialogs)
