"""The reader's tools at the table: variants of an inline roll, chances, pins, GM screen."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from fractions import Fraction

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from rollbook.engine import dice
from tests.browser.a11y import explain, violations
from tests.browser.conftest import STEP_TIMEOUT_MS, wait_ready


def _cli_roll(notation: str, seed: int) -> str:
    """`rollbook roll NOTATION --seed N`, as a reader would run it."""
    out = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "roll", notation, "--seed", str(seed)],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def _history(page: Page) -> list[dict]:
    return page.evaluate(
        """() => {
          const key = Object.keys(localStorage).find((k) => /^rollbook:.*:history$/.test(k));
          return key ? JSON.parse(localStorage.getItem(key)) : [];
        }"""
    )


def _tools(page: Page, inline_id: str) -> Locator:
    """The reader's menu and panels beside an inline roll."""
    return page.locator(f"#{inline_id} + .rb-inline-tools")


def _choose(page: Page, inline_id: str, variant: str) -> None:
    tools = _tools(page, inline_id)
    tools.locator("button.rb-more").click()
    tools.locator(f'[role=menu] [data-rb-variant="{variant}"]').click()


def _seed_changed(page: Page, inline_id: str, before: str | None) -> None:
    page.wait_for_function(
        "([id, s]) => document.getElementById(id).dataset.rbSeed !== s && "
        "document.getElementById(id).dataset.rbSeed !== undefined",
        arg=[inline_id, before],
    )


def test_advantage_rolls_2d20kh1_like_the_cli(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    wait_ready(page)
    root = page.locator("#rb-roll-2")  # ![roll:1d20]()
    toggle = _tools(page, "rb-roll-2").locator("button.rb-more")
    assert toggle.get_attribute("aria-haspopup") == "menu"
    expect(toggle).to_have_attribute("aria-expanded", "false")
    _choose(page, "rb-roll-2", "advantage")
    _seed_changed(page, "rb-roll-2", None)
    expect(root).to_have_attribute("data-rb-notation", "2d20kh1")
    seed = int(root.get_attribute("data-rb-seed") or "")
    cli = _cli_roll("2d20kh1", seed)
    expect(root.locator(".rb-dice")).to_have_text(cli)
    expect(root.locator("output.rb-out")).to_have_text(cli.rsplit("= ", 1)[1])
    page.wait_for_function(
        "() => Object.keys(localStorage).some((k) => /^rollbook:.*:history$/.test(k))"
    )
    assert _history(page)[-1]["result"] == cli  # the notation rolled is what is recorded
    # Disadvantage keeps the lower of two.
    _choose(page, "rb-roll-2", "disadvantage")
    _seed_changed(page, "rb-roll-2", str(seed))
    expect(root).to_have_attribute("data-rb-notation", "2d20kl1")


def test_a_modifier_is_rolled_and_remembered(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    wait_ready(page)
    root = page.locator("#rb-roll-1")  # ![roll:2d6*10]()
    _choose(page, "rb-roll-1", "modifier")
    form = _tools(page, "rb-roll-1").locator(".rb-mod-form")
    field = form.locator("input")
    expect(field).to_be_focused()
    field.fill("+2x")
    form.locator("button[type=submit]").click()
    expect(form.locator(".rb-mod-note")).to_have_text(
        "A modifier is a whole number such as +2 or -1."
    )
    expect(field).to_have_attribute("aria-invalid", "true")
    field.fill("+2")
    form.locator("button[type=submit]").click()
    _seed_changed(page, "rb-roll-1", None)
    expect(root).to_have_attribute("data-rb-notation", "(2d6*10)+2")
    seed = int(root.get_attribute("data-rb-seed") or "")
    expected = dice.roll("(2d6*10)+2", random.Random(seed)).to_dict()
    expect(root.locator("output.rb-out")).to_have_text(str(expected["total"]))
    # Remembered for that roll on that page: after a reload the roll's own button adds it.
    page.reload()
    wait_ready(page)
    page.locator("#rb-roll-1 button.rb-roll").click()
    _seed_changed(page, "rb-roll-1", None)
    expect(page.locator("#rb-roll-1")).to_have_attribute("data-rb-notation", "(2d6*10)+2")
    # ...and only for that roll: the 1d20 beside it rolls as written.
    page.locator("#rb-roll-2 button.rb-roll").click()
    _seed_changed(page, "rb-roll-2", None)
    expect(page.locator("#rb-roll-2")).to_have_attribute("data-rb-notation", "1d20")


def test_the_chances_chart_sums_to_one_hundred(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    wait_ready(page)
    _choose(page, "rb-roll-1", "chances")
    bars = _tools(page, "rb-roll-1").locator(".rb-chart-bar")
    expect(bars).to_have_count(11)  # 2d6*10: 20, 30, ... 120
    shares = [float(bars.nth(i).get_attribute("data-rb-percent") or "") for i in range(11)]
    assert sum(shares) == pytest.approx(100)
    exact = dice.odds("2d6*10").pmf
    labels = [bars.nth(i).get_attribute("data-rb-value") for i in range(11)]
    assert labels == [str(v) for v in sorted(exact)]
    assert shares[5] == pytest.approx(float(Fraction(1, 6) * 100))
    expect(_tools(page, "rb-roll-1").locator(".rb-chart figcaption")).to_contain_text("average 70")


def test_menu_by_keyboard_and_escape(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    wait_ready(page)
    toggle = _tools(page, "rb-roll-2").locator("button.rb-more")
    toggle.focus()
    page.keyboard.press("Enter")
    items = _tools(page, "rb-roll-2").locator("[role=menu] [role^=menuitem]")
    expect(items.first).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(items.nth(1)).to_be_focused()
    page.keyboard.press("Escape")
    expect(_tools(page, "rb-roll-2").locator("[role=menu]")).to_be_hidden()
    expect(toggle).to_be_focused()
    toggle.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")  # advantage
    _seed_changed(page, "rb-roll-2", None)
    expect(page.locator("#rb-roll-2")).to_have_attribute("data-rb-notation", "2d20kh1")


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_reader_tools_pass_axe(page: Page, fixture_site: str, scheme: str) -> None:
    page.goto(fixture_site)
    page.evaluate("s => document.body.setAttribute('data-md-color-scheme', s)", scheme)
    wait_ready(page)
    _choose(page, "rb-roll-1", "chances")
    expect(_tools(page, "rb-roll-1").locator(".rb-chart-bar").first).to_be_visible()
    found = violations(page)
    assert not found, explain(found)
    _tools(page, "rb-roll-1").locator(".rb-panel-close").click()
    _tools(page, "rb-roll-2").locator("button.rb-more").click()
    expect(_tools(page, "rb-roll-2").locator("[role=menu]")).to_be_visible()
    found = violations(page)
    assert not found, explain(found)
    page.keyboard.press("Escape")
    _choose(page, "rb-roll-2", "modifier")
    expect(_tools(page, "rb-roll-2").locator(".rb-mod-form")).to_be_visible()
    found = violations(page)
    assert not found, explain(found)


def _pin_all(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    wait_ready(page)
    _tools(page, "rb-roll-2").locator("button.rb-more").click()
    pin = _tools(page, "rb-roll-2").locator("[role=menu] [data-rb-pin]")
    expect(pin).to_have_attribute("aria-checked", "false")
    pin.click()
    page.goto(f"{fixture_site}prompts/")
    page.locator(".rb-table[data-rb-anchor=recovery] [data-rb-pin]").click()
    expect(page.locator(".rb-table[data-rb-anchor=recovery] [data-rb-pin]")).to_have_attribute(
        "aria-pressed", "true"
    )
    page.goto(f"{fixture_site}combat/")
    page.locator(".rb-combat [data-rb-pin]").first.click()


def _screen_ids(page: Page) -> list[str]:
    items = page.locator(".rb-gm-item")
    return [items.nth(i).get_attribute("data-rb-gm-id") or "" for i in range(items.count())]


def test_gm_screen_pins_reorder_roll_and_share(
    page: Page, fixture_site: str, browser: Browser
) -> None:
    _pin_all(page, fixture_site)
    page.goto(f"{fixture_site}gm/")
    expect(page.locator(".rb-gm-item")).to_have_count(3)
    page.reload()  # the screen survives reloads
    expect(page.locator(".rb-gm-item")).to_have_count(3)
    first_three = _screen_ids(page)
    assert first_three[0] == "rb-roll-2" and first_three[1] == "recovery"
    # Reorder by keyboard-reachable buttons: the encounter moves to the top.
    page.locator(".rb-gm-item").nth(2).locator(".rb-gm-up").click()
    page.locator(".rb-gm-item").nth(1).locator(".rb-gm-up").click()
    order = _screen_ids(page)
    assert order == [first_three[2], "rb-roll-2", "recovery"]
    page.reload()
    expect(page.locator(".rb-gm-item")).to_have_count(3)
    assert _screen_ids(page) == order
    wait_ready(page)
    # Each rolls in place: the inline roll, the table with its prompt, the fight.
    gm_inline = page.locator(".rb-gm-item .rb-inline")
    gm_inline.locator("button.rb-roll").click()
    expect(gm_inline.locator("output.rb-out")).to_have_text(re.compile(r"^\d+$"))
    table = page.locator(".rb-gm-item .rb-table")
    table.locator("input[name=bonus]").fill("3")
    table.locator("input[name=bonus]").dispatch_event("change")
    table.locator(".rb-bar button.rb-roll").click()
    expect(table.locator("[aria-current=true]")).to_have_count(1)
    seed = int(table.get_attribute("data-rb-seed") or "")
    data = json.loads(table.locator("template.rb-data").evaluate("t => t.content.textContent"))
    from rollbook.engine.tables import Table

    expected = Table.from_dict(data).roll(random.Random(seed), {"bonus": 3})
    assert table.locator("[aria-current=true]").get_attribute("data-rb-row") == str(
        expected.row_index
    )
    fight = page.locator(".rb-gm-item .rb-combat")
    fight.locator("button.rb-fight-end").click()
    expect(fight.locator(".rb-fight-status")).to_contain_text("Fight over")
    # Share: a fresh browser (no storage) opens the same screen, in the same order.
    page.locator(".rb-gm-share").click()
    link = page.locator(".rb-gm-link").get_attribute("href") or ""
    assert "pin=" in link and "bonus%3D3" in link
    other = browser.new_context()
    other.set_default_timeout(STEP_TIMEOUT_MS)
    try:
        fresh = other.new_page()
        fresh.goto(link)
        expect(fresh.locator(".rb-gm-item")).to_have_count(3)
        assert _screen_ids(fresh) == order
        expect(fresh.locator(".rb-gm-item .rb-table input[name=bonus]")).to_have_value("3")
        expect(fresh.locator(".rb-gm-keep")).to_be_visible()
    finally:
        other.close()


def test_stored_pins_are_checked(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}gm/")
    page.evaluate(
        """() => {
          const key = "rollbook:" + new URL("../", location.href).pathname + ":pins";
          localStorage.setItem(key, JSON.stringify([
            null, 7, {"page": "javascript:alert(1)//", "id": "x", "kind": "table"},
            {"page": "//evil.example/", "id": "x", "kind": "table"},
            {"page": "../../", "id": "x", "kind": "table"},
            {"page": "prompts/", "id": "recovery", "kind": "nope"},
            {"page": "prompts/", "id": "recovery", "kind": "table", "label": 5},
          ]));
        }"""
    )
    page.reload()
    expect(page.locator(".rb-gm-item")).to_have_count(1)
    assert _screen_ids(page) == ["recovery"]


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_gm_screen_passes_axe(page: Page, fixture_site: str, scheme: str) -> None:
    _pin_all(page, fixture_site)
    page.goto(f"{fixture_site}gm/")
    page.evaluate("s => document.body.setAttribute('data-md-color-scheme', s)", scheme)
    expect(page.locator(".rb-gm-item .rb-table")).to_have_count(1)
    found = violations(page)
    assert not found, explain(found)


def test_fight_health_and_win_bars(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}combat/")
    wait_ready(page)
    root = page.locator(".rb-combat").first
    root.locator("button.rb-fight-end").click()
    expect(root.locator(".rb-fight-status")).to_contain_text("Fight over")
    for i in range(root.locator("tr[data-rb-c]").count()):
        cell = root.locator("tr[data-rb-c]").nth(i).locator(".rb-hp")
        hp, top = (int(x) for x in cell.inner_text().split("/"))
        width = cell.locator(".rb-hp-fill").evaluate("f => f.style.inlineSize")
        assert float(width.rstrip("%")) == pytest.approx(max(0, hp) / top * 100)
        assert cell.locator(".rb-hp-bar").get_attribute("aria-hidden") == "true"
    root.locator("details.rb-combat-odds").evaluate("d => (d.open = true)")
    root.locator("button.rb-mc-run").click()
    rates = root.locator(".rb-mc-rates > li[data-rb-side]")
    expect(rates.first.locator(".rb-win-bar")).to_be_attached()
    text = rates.first.inner_text()
    share = float(text.split(" win ")[1].split("%")[0])
    fill = rates.first.locator(".rb-win-fill").evaluate("f => f.style.inlineSize")
    assert float(fill.rstrip("%")) == pytest.approx(share, abs=0.06)


# The labelled rolls of the limits page (rb-roll-1 there is a plain 3d6).
LABELLED = {
    "rb-roll-2": ("1d6 # fire", "fire"),
    "rb-roll-3": ("2d6+1 // attack", "attack"),
    "rb-roll-4": ("1d20 # a+b #c", "a+b #c"),
    "rb-roll-5": ("1d8 /* x+1 */", "x+1"),
}


def _rolled(page: Page, inline_id: str, before: str | None) -> tuple[str, int]:
    """The notation and seed of the roll that replaced the one seeded `before`."""
    _seed_changed(page, inline_id, before)
    root = page.locator(f"#{inline_id}")
    expect(root).not_to_have_class(re.compile("rb-failed"))
    return root.get_attribute("data-rb-notation") or "", int(
        root.get_attribute("data-rb-seed") or ""
    )


def test_labelled_rolls_keep_their_label_through_every_variant(
    page: Page, fixture_site: str
) -> None:
    from rollbook.engine.dice.variants import compose

    page.goto(f"{fixture_site}limits/")
    # A modifier an older menu stored for a labelled roll (it broke the roll then).
    page.evaluate(
        "localStorage.setItem('rollbook:/:modifiers', JSON.stringify([['/limits/#rb-roll-2', 2]]))"
    )
    page.reload()
    wait_ready(page)
    page.locator("#rb-roll-2 button.rb-roll").click()
    notation, seed = _rolled(page, "rb-roll-2", None)
    assert notation == "(1d6 # fire\n)+2"
    expected = dice.roll(notation, random.Random(seed)).total
    expect(page.locator("#rb-roll-2 output.rb-out")).to_have_text(str(expected))
    for inline_id, (written, label) in LABELLED.items():
        extra = "+2" if inline_id == "rb-roll-2" else ""
        seed_text: str | None = page.locator(f"#{inline_id}").get_attribute("data-rb-seed")
        for variant in ("advantage", "disadvantage"):
            _choose(page, inline_id, variant)
            notation, seed = _rolled(page, inline_id, seed_text)
            seed_text = str(seed)
            assert notation == compose(written, variant) + extra
            assert label in notation
            result = dice.roll(notation, random.Random(seed)).to_dict()
            output = page.locator(f"#{inline_id} output.rb-out")
            expect(output).to_have_text(str(result["total"]))
        # A new modifier, typed in the menu, composes around the label too.
        _choose(page, inline_id, "modifier")
        form = _tools(page, inline_id).locator(".rb-mod-form")
        form.locator("input").fill("-1")
        form.locator("button[type=submit]").click()
        notation, seed = _rolled(page, inline_id, seed_text)
        assert notation == compose(written, "modified") + "-1"
        _tools(page, inline_id).locator(".rb-panel-close").click()
    # Its chances, with the modifier, from the engine.
    _choose(page, "rb-roll-3", "chances")
    bars = _tools(page, "rb-roll-3").locator(".rb-chart-bar")
    expect(bars).to_have_count(11)  # 2d6+1-1: 2..12
    assert bars.first.get_attribute("data-rb-value") == "2"


def test_the_menu_offers_only_what_the_roll_takes(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}limits/")
    wait_ready(page)
    pair = page.locator(".rb-inline", has=page.locator('button[data-roll="d6,d6"]'))
    pair_id = pair.get_attribute("id") or ""
    _tools(page, pair_id).locator("button.rb-more").click()
    offered = _tools(page, pair_id).locator("[role=menu] [data-rb-variant]")
    assert [offered.nth(i).get_attribute("data-rb-variant") for i in range(offered.count())] == [
        "again"
    ]
    # A stored modifier for it is ignored: it still rolls as written.
    page.evaluate(
        "id => localStorage.setItem('rollbook:/:modifiers', "
        "JSON.stringify([['/limits/#' + id, 4]]))",
        pair_id,
    )
    page.reload()
    wait_ready(page)
    page.locator(f"#{pair_id} button.rb-roll").click()
    notation, _seed = _rolled(page, pair_id, None)
    assert notation == "d6,d6"
