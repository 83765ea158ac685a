"""One key scheme for what the page keeps (storage.js): a reader's history, pins, modifiers and
offline choice stored under the keys of earlier versions move to it, none lost, and hostile
stored values (broken JSON, huge text, wrong types) leave every widget working.

The fixture site is served at the origin's root, so its keys are ``rollbook:/:<name>``.
"""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect

from tests.browser.conftest import wait_ready

OLD = {
    "history": "rollbook.history.v2:/",
    "pins": "rollbook.pins.v1@/",
    "modifiers": "rollbook.modifiers.v1@/",
    "offline-removed": "rollbook.offline.removed@/",
}
# Longer than storage.js reads (MAX_CHARS, 3,000,000), short enough for Chromium's quota.
HUGE = "[" + "1," * 1_600_000 + "1]"


def new_key(name: str) -> str:
    return f"rollbook:/:{name}"


def seed(page: Page, values: dict[str, str]) -> None:
    page.evaluate(
        """values => {
          localStorage.clear();
          for (const [key, text] of Object.entries(values)) localStorage.setItem(key, text);
        }""",
        values,
    )


def stored(page: Page) -> dict[str, str]:
    data: dict[str, str] = page.evaluate("() => ({ ...localStorage })")
    return data


def test_a_readers_old_keys_move_to_the_scheme_and_show_in_the_page(
    page: Page, fixture_site: str
) -> None:
    history = [
        {
            "time": "2026-01-01T00:00:00Z",
            "page": "Tables",
            "where": "Weather",
            "result": "Rain.",
            "href": f"{fixture_site}tables/?roll=weather&seed=7#weather",
        }
    ]
    pins = [{"page": "prompts/", "id": "recovery", "kind": "table", "label": "Recovery"}]
    modifiers = [["/#rb-roll-2", 4]]  # the home page's ![roll:1d20]()
    old = {
        OLD["history"]: json.dumps(history),
        OLD["pins"]: json.dumps(pins),
        OLD["modifiers"]: json.dumps(modifiers),
        OLD["offline-removed"]: "1",
    }
    page.goto(fixture_site)
    seed(page, old)
    page.reload()
    wait_ready(page)
    after = stored(page)
    # Each value moved as it was, under the new key; no old key is left.
    for name, key in OLD.items():
        assert key not in after, key
        assert after[new_key(name)] == old[key], name
    # The reader sees them: the history in the tray, the modifier on its roll, the pin on
    # the GM screen.
    expect(page.locator(".rb-history-toggle")).to_have_text("Rolls (1)")
    page.locator(".rb-history-toggle").click()
    expect(page.locator(".rb-history-entry a")).to_have_text("Weather")
    page.locator("#rb-roll-2 button.rb-roll").click()
    expect(page.locator("#rb-roll-2")).to_have_attribute("data-rb-notation", "(1d20)+4")
    page.goto(f"{fixture_site}gm/")
    expect(page.locator(".rb-gm-item")).to_have_count(1)
    expect(page.locator(".rb-gm-item .rb-table[data-rb-anchor=recovery]")).to_have_count(1)


def test_a_key_of_the_scheme_wins_over_its_old_one(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    seed(
        page,
        {
            OLD["modifiers"]: json.dumps([["/#rb-roll-2", 4]]),
            new_key("modifiers"): json.dumps([["/#rb-roll-2", 2]]),
        },
    )
    page.reload()
    wait_ready(page)
    after = stored(page)
    assert OLD["modifiers"] not in after
    assert json.loads(after[new_key("modifiers")]) == [["/#rb-roll-2", 2]]
    page.locator("#rb-roll-2 button.rb-roll").click()
    expect(page.locator("#rb-roll-2")).to_have_attribute("data-rb-notation", "(1d20)+2")


def test_hostile_stored_values_leave_every_widget_working(page: Page, fixture_site: str) -> None:
    # Broken JSON, wrong types and text too long to read, under old keys and new ones; the
    # `page` fixture fails the test on any uncaught error in the page.
    hostile = {
        OLD["history"]: "{not json",
        OLD["pins"]: json.dumps({"page": "", "id": "rb-roll-1", "kind": "inline"}),
        OLD["modifiers"]: HUGE,
        OLD["offline-removed"]: json.dumps({"1": True}),
        new_key("history"): json.dumps([None, 7, "text", {"time": 5}, [1, 2]]),
        "rollbook.history.v1": "[[[",
    }
    page.goto(fixture_site)
    seed(page, hostile)
    page.reload()
    wait_ready(page)
    expect(page.locator(".rb-history-toggle")).to_have_text("Rolls (0)")
    # The huge modifiers moved (nothing is lost) but are not read: the roll has none.
    assert len(stored(page)[new_key("modifiers")]) == len(HUGE)
    page.locator("#rb-roll-2 button.rb-roll").click()
    expect(page.locator("#rb-roll-2")).to_have_attribute("data-rb-notation", "1d20")
    expect(page.locator(".rb-history-toggle")).to_have_text("Rolls (1)")
    page.goto(f"{fixture_site}gm/")
    expect(page.locator(".rb-gm-item")).to_have_count(0)
    for name in ("pins", "history"):
        page.evaluate("key => localStorage.setItem(key, '[' + '{}'.repeat(3))", new_key(name))
    page.reload()
    expect(page.locator(".rb-gm-item")).to_have_count(0)
    expect(page.locator(".rb-history-toggle")).to_have_text("Rolls (0)")
