"""Each widget on the fixture site, as a reader uses it (mouse and keyboard)."""

from __future__ import annotations

import random
import re

from playwright.sync_api import Locator, Page, expect

from rollbook.engine import dice
from tests.browser.conftest import expected_table_roll, payload, wait_ready
from tests.browser.server import snapshot_forced


def _recovery_table(page: Page, fixture_site: str) -> tuple[Locator, Locator]:
    """The prompts page's `recovery` table, engine ready, and its `bonus` input."""
    page.goto(f"{fixture_site}prompts/")
    wait_ready(page)
    table = page.locator(".rb-table[data-rb-anchor=recovery]")
    return table, table.locator("input[name=bonus]")


def test_engine_ready_then_inline_roll_by_mouse_and_keyboard(page: Page, fixture_site: str) -> None:
    with snapshot_forced(fixture_site):
        page.goto(fixture_site)
        wait_ready(page)
    assert page.evaluate("window.rollbook.workerStarts") == 1
    # Started from the build's snapshot, which the site serves packed.
    assert page.evaluate("window.rollbook.restored") is True
    inline = page.locator(".rb-inline").first
    button = inline.locator("button.rb-roll")
    # Average and range come from the build, before any roll.
    assert button.get_attribute("title") == "2d6*10: average 70, range 20–120"
    button.click()
    output = inline.locator("output.rb-out")
    expect(output).to_have_text(re.compile(r"^\d+$"))
    total = int(output.inner_text())
    assert 20 <= total <= 120 and total % 10 == 0
    assert button.inner_text() == "2d6 x 10 feet"  # the label stays
    # Every die shows on focus, and describes the button for screen readers.
    dice_tip = inline.locator(".rb-dice")
    button.focus()
    expect(dice_tip).to_be_visible()
    assert dice_tip.inner_text().startswith("2d6*10")
    assert button.get_attribute("aria-describedby") == dice_tip.get_attribute("id")
    # Enter and Space re-roll (a new seed each time: the dice text changes or stays valid).
    seeds = {inline.get_attribute("data-rb-seed")}
    page.keyboard.press("Enter")
    page.wait_for_function(
        "s => document.querySelector('.rb-inline').dataset.rbSeed !== s", arg=seeds.pop()
    )
    seed = int(inline.get_attribute("data-rb-seed") or "")
    expect(output).to_have_text(str(dice.roll("2d6*10", random.Random(seed)).total))


def test_inline_deep_link_with_seed_is_exact(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}?roll=rb-roll-2&seed=99#rb-roll-2")
    expected = dice.roll("1d20", random.Random(99)).to_dict()
    expect(page.locator("#rb-roll-2 output")).to_have_text(str(expected["total"]), timeout=90_000)
    expect(page.locator("#rb-roll-2 .rb-dice")).to_have_text(expected["text"])


def test_table_roll_highlights_the_row_and_shows_the_sentence(
    page: Page, fixture_site: str
) -> None:
    page.goto(f"{fixture_site}tables/")
    wait_ready(page)
    table = page.locator(".rb-table[data-rb-anchor=weather]")
    table.locator(".rb-bar button.rb-roll").click()
    expect(table.locator("[aria-current=true]")).to_have_count(1)
    seed = int(table.get_attribute("data-rb-seed") or "")
    rolled = expected_table_roll(payload(page, "weather"), seed)
    hit = table.locator("[aria-current=true]")
    assert hit.get_attribute("data-rb-row") == str(rolled.row_index)
    assert "rb-hit" in (hit.get_attribute("class") or "")
    assert table.locator(".rb-result").inner_html() == rolled.text
    assert table.locator(".rb-result em").count() == (1 if rolled.row_index == 0 else 0)
    # The link offered reproduces this exact roll.
    link = table.locator("a.rb-permalink")
    expect(link).to_be_visible()
    assert link.get_attribute("href").endswith(f"/tables/?roll=weather&seed={seed}#weather")
    # Rolling again moves the highlight: only one row is ever current.
    table.locator(".rb-bar button.rb-roll").click()
    page.wait_for_function(
        "s => document.querySelector('[data-rb-anchor=weather]').dataset.rbSeed !== s",
        arg=str(seed),
    )
    expect(table.locator("[aria-current=true]")).to_have_count(1)


def test_chances_toggle_shows_exact_probabilities_without_the_engine(
    page: Page, fixture_site: str
) -> None:
    page.goto(f"{fixture_site}tables/")
    table = page.locator(".rb-table[data-rb-anchor=weather]")
    toggle = table.locator("button.rb-chances")
    chance = table.locator("tr[data-rb-row='1'] .rb-p")
    expect(chance).to_be_hidden()
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    expect(chance).to_be_visible()
    expect(chance).to_have_text("66.7%")  # 5..9 on 2d6: 24/36
    assert table.locator("tr[data-rb-row='1']").get_attribute("data-rb-p") == "2/3"
    toggle.click()
    expect(chance).to_be_hidden()


def test_prompt_out_of_range_is_refused_and_in_range_is_rolled(
    page: Page, fixture_site: str
) -> None:
    table, bonus = _recovery_table(page, fixture_site)
    result = table.locator(".rb-result")
    bonus.fill("9")
    table.locator(".rb-bar button.rb-roll").click()
    expect(result).to_contain_text("Not rolled")
    expect(result).to_contain_text("from 0 to 3")
    assert bonus.get_attribute("aria-invalid") == "true"
    assert table.locator("[aria-current=true]").count() == 0
    assert table.get_attribute("data-rb-seed") is None
    bonus.fill("2.5")
    bonus.press("Enter")
    expect(result).to_contain_text("whole number")
    bonus.fill("2")
    bonus.press("Enter")  # Enter in the form rolls too
    expect(result).to_contain_text("with bonus 2")
    seed = int(table.get_attribute("data-rb-seed") or "")
    rolled = expected_table_roll(payload(page, "recovery"), seed, {"bonus": 2})
    assert result.inner_html() == rolled.text
    assert bonus.get_attribute("aria-invalid") is None
    expect(table.locator("[aria-current=true]")).to_have_attribute(
        "data-rb-row", str(rolled.row_index)
    )


def _chances(data: dict, values: dict) -> list[tuple[str, str]]:
    """("p/q", shown percentage) per row, as CPython's engine and the build compute them."""
    from rollbook.engine.numbers import fraction_text, percent_text
    from rollbook.engine.tables import Table

    chances = Table.from_dict(data).probabilities(values)
    return [(fraction_text(p), percent_text(p)) for p in chances]


def test_chances_follow_the_prompt_values(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}prompts/")
    table = page.locator(".rb-table[data-rb-anchor=recovery]")
    rows = table.locator("tbody tr[data-rb-row]")
    data = payload(page, "recovery")

    def shown() -> list[tuple[str | None, str]]:
        return [
            (rows.nth(i).get_attribute("data-rb-p"), rows.nth(i).locator(".rb-p").inner_text())
            for i in range(rows.count())
        ]

    table.get_by_role("button", name="Show chances").click()
    # First paint: the build's numbers at the default, before the engine has started.
    assert shown() == _chances(data, {"bonus": 0})
    bonus = table.locator("input[name=bonus]")
    for value in (2, 3):
        bonus.fill(str(value))
        want = _chances(data, {"bonus": value})
        assert want != _chances(data, {"bonus": 0})
        expect(rows.last.locator(".rb-p")).to_have_text(want[-1][1])
        page.wait_for_function("!document.querySelector('.rb-chances-busy')")
        assert shown() == want
        title = rows.last.locator(".rb-p").get_attribute("title")
        assert title == f"exactly {want[-1][0]}"
    bonus.fill("9")  # out of range: no chance is shown for a value that cannot be rolled
    expect(rows.first.locator(".rb-p")).to_have_text("–")
    assert "from 0 to 3" in (rows.first.locator(".rb-p").get_attribute("title") or "")
    bonus.fill("0")  # back to the default: the build's numbers again
    expect(rows.last.locator(".rb-p")).to_have_text(_chances(data, {"bonus": 0})[-1][1])
    assert shown() == _chances(data, {"bonus": 0})
    assert page.evaluate("window.rollbook.workerStarts") == 1


def test_d66_tabs_switch_by_click_and_keys_and_follow_the_roll(
    page: Page, fixture_site: str
) -> None:
    data_seed = next(  # a seed whose first die is 5: the "Legs" tab, not the first one
        s for s in range(200) if dice.roll("d6,d6", random.Random(s)).total[0] == 5
    )
    page.goto(f"{fixture_site}d66/")
    table = page.locator(".rb-table[data-rb-anchor=locations]")
    tabs = table.locator("[role=tab]")
    expect(tabs).to_have_count(6)
    head_panel = table.locator("[role=tabpanel]").nth(0)
    expect(head_panel).to_be_visible()
    tabs.nth(2).click()  # Arms
    expect(tabs.nth(2)).to_have_attribute("aria-selected", "true")
    expect(head_panel).to_be_hidden()
    expect(table.locator("[role=tabpanel]").nth(2)).to_be_visible()
    page.keyboard.press("ArrowRight")  # focus is on Arms after the click
    expect(tabs.nth(3)).to_have_attribute("aria-selected", "true")
    expect(tabs.nth(3)).to_be_focused()
    page.keyboard.press("Home")
    expect(tabs.nth(0)).to_have_attribute("aria-selected", "true")
    # A roll shows the tab holding its row.
    page.goto(f"{fixture_site}d66/?roll=locations&seed={data_seed}#locations")
    rolled = expected_table_roll(payload(page, "locations"), data_seed)
    hit = table.locator("[aria-current=true]")
    expect(hit).to_be_visible(timeout=90_000)
    assert hit.get_attribute("data-rb-row") == str(rolled.row_index)
    expect(tabs.nth(4)).to_have_attribute("aria-selected", "true")
    expect(table.locator(".rb-result")).to_contain_text("Legs wound 5")


def test_list_roll_highlights_the_item_named_in_the_sentence(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}lists/")
    wait_ready(page)
    table = page.locator(".rb-table[data-rb-anchor=names]")
    table.locator(".rb-bar button.rb-roll").click()
    hit = table.locator("li[aria-current=true]")
    expect(hit).to_have_count(1)
    name = hit.inner_text().split(" (")[0].strip()
    expect(table.locator(".rb-result")).to_have_text(f"The stranger is called {name}.")
    seed = int(table.get_attribute("data-rb-seed") or "")
    rolled = expected_table_roll(payload(page, "names"), seed)
    assert hit.get_attribute("data-rb-row") == str(rolled.row_index)


def test_widgets_work_without_material(page: Page, plain_site: str) -> None:
    page.goto(plain_site + "index.html")
    wait_ready(page)
    page.locator("#gate-distance button").click()
    expect(page.locator("#gate-distance output")).to_have_text(re.compile(r"^\d+0$"))
    # The engine refuses a roll over its limits with a sentence, never a number.
    page.locator("#too-many button").click()
    expect(page.locator("#too-many output")).to_contain_text("limit")


def test_click_before_ready_warms_up_then_answers(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}tables/", wait_until="domcontentloaded")
    table = page.locator(".rb-table[data-rb-anchor=weather]")
    expect(table).to_have_attribute("data-rb-mounted", "true")
    assert page.evaluate("document.documentElement.dataset.rbEngine") != "ready"
    page.evaluate(
        """() => {
          const result = document.querySelector('[data-rb-anchor=weather] .rb-result');
          window.__texts = [];
          new MutationObserver(() => window.__texts.push(result.textContent))
            .observe(result, {childList: true, characterData: true, subtree: true});
        }"""
    )
    table.locator(".rb-bar button.rb-roll").press("Space")  # keyboard only
    expect(table.locator("[aria-current=true]")).to_have_count(1, timeout=90_000)
    assert page.evaluate("window.__texts")[0] == "Warming up the dice…"
    expect(table.locator(".rb-result")).to_contain_text("Weather (")
    assert page.evaluate("window.rollbook.workerStarts") == 1


def test_engine_starts_after_the_first_frame_without_waiting_for_load(
    page: Page, fixture_site: str
) -> None:
    # An image that never arrives holds the page's `load` event back for the whole test; the
    # worker must start (and get ready) anyway, since it does not wait for `load`.
    held = []
    page.route("**/never-loads.png", lambda route: held.append(route))
    page.add_init_script(
        """addEventListener("DOMContentLoaded", () => {
             const img = document.createElement("img");
             img.src = "/never-loads.png";
             document.body.append(img);
           });"""
    )
    page.goto(fixture_site, wait_until="domcontentloaded")
    wait_ready(page)
    assert page.evaluate("document.readyState") != "complete"  # `load` has still not fired
    assert page.evaluate("window.rollbook.workerStarts") == 1
    assert len(held) == 1  # the image really was held, not merely slow
    inline = page.locator(".rb-inline").first
    inline.locator("button.rb-roll").click()
    expect(inline.locator("output.rb-out")).to_have_text(re.compile(r"^\d+$"))
    for route in held:
        route.abort()


def test_a_roll_in_hand_is_painted_by_the_click_itself(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    wait_ready(page)
    inline = page.locator(".rb-inline").first
    button = inline.locator("button.rb-roll")
    button.hover()  # the next result is asked for ahead of the click
    page.wait_for_function("window.rollbook.idle")
    # Clicked and read in one task: the result is there before the browser renders again.
    text = page.evaluate(
        """() => { const root = document.querySelector('.rb-inline');
                   root.querySelector('button.rb-roll').click();
                   return root.querySelector('output.rb-out').textContent; }"""
    )
    seed = int(inline.get_attribute("data-rb-seed") or "")
    assert text == str(dice.roll("2d6*10", random.Random(seed)).total)
    # Each roll readies the next one, with a fresh seed, and it is used only once.
    page.wait_for_function("window.rollbook.idle")
    button.click()
    expect(inline).not_to_have_attribute("data-rb-seed", str(seed))
    second = int(inline.get_attribute("data-rb-seed") or "")
    expect(inline.locator("output.rb-out")).to_have_text(
        str(dice.roll("2d6*10", random.Random(second)).total)
    )


def test_a_readers_request_goes_before_rolls_asked_ahead(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site)
    wait_ready(page)
    order = page.evaluate(
        """async () => {
          const done = [];
          const ask = (name, background) => window.rollbook
            .request({op: 'roll', expr: '3d6', seed: 1}, {background})
            .then(() => done.push(name));
          const all = [0, 1, 2, 3].map((n) => ask('ahead ' + n, true));
          all.push(ask('reader', false));
          await Promise.all(all);
          return done;
        }"""
    )
    # The first roll ahead was already sent when the reader asked; the reader's comes next.
    assert order == ["ahead 0", "reader", "ahead 1", "ahead 2", "ahead 3"]


def test_a_table_without_prompts_holds_its_next_roll_too(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}tables/")
    wait_ready(page)
    page.locator(".rb-table[data-rb-anchor=weather] .rb-bar button.rb-roll").focus()
    page.wait_for_function("window.rollbook.idle")
    seen = page.evaluate(
        """() => { const table = document.querySelector('[data-rb-anchor=weather]');
                   table.querySelector('.rb-bar button.rb-roll').click();
                   const hit = table.querySelector('[aria-current=true]');
                   return {seed: table.dataset.rbSeed, row: hit && hit.dataset.rbRow,
                           text: table.querySelector('.rb-result').innerHTML}; }"""
    )
    rolled = expected_table_roll(payload(page, "weather"), int(seen["seed"]))
    assert seen["row"] == str(rolled.row_index)
    assert seen["text"] == rolled.text


def test_a_prompt_table_holds_a_roll_only_for_the_values_it_was_asked_with(
    page: Page, fixture_site: str
) -> None:
    table, bonus = _recovery_table(page, fixture_site)
    bonus.fill("3")
    table.locator(".rb-bar button.rb-roll").hover()  # asks ahead with bonus 3
    page.wait_for_function("window.rollbook.idle")
    click_and_read = """() => {
        const table = document.querySelector('[data-rb-anchor=recovery]');
        table.querySelector('.rb-bar button.rb-roll').click();
        return {seed: table.dataset.rbSeed || null,
                text: table.querySelector('.rb-result').innerHTML}; }"""
    seen = page.evaluate(click_and_read)
    rolled = expected_table_roll(payload(page, "recovery"), int(seen["seed"]), {"bonus": 3})
    assert seen["text"] == rolled.text  # painted by the click itself, with bonus 3
    # The value changes after the next roll was asked for: that roll is not used.
    page.wait_for_function("window.rollbook.idle")
    bonus.fill("0")
    before = seen["seed"]
    changed = page.evaluate(click_and_read)
    assert changed["seed"] == before  # nothing shown synchronously: it went to the engine
    expect(table).not_to_have_attribute("data-rb-seed", before)
    seed = int(table.get_attribute("data-rb-seed") or "")
    expected = expected_table_roll(payload(page, "recovery"), seed, {"bonus": 0})
    expect(table.locator(".rb-result")).to_contain_text("with bonus 0")
    assert table.locator(".rb-result").inner_html() == expected.text
