"""The encounter widget of a ``combat`` block: its fights equal ``rollbook fight`` with the seed."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import yaml
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import READY_TIMEOUT_MS, wait_ready

ROOT = Path(__file__).resolve().parents[2]


def _payload(page: Page, anchor: str) -> dict:
    data: dict = page.evaluate(
        "id => JSON.parse(document.querySelector(`.rb-combat[data-rb-anchor='${id}'] "
        "template.rb-data`).content.textContent)",
        anchor,
    )
    return data


def _cli_fight(tmp_path: Path, data: dict, seed: int) -> dict:
    """`rollbook fight FILE.yaml --seed N --json` on the sides the page holds."""
    file = tmp_path / "fight.yaml"
    sides = {name: members for name, members in data["sides"]}  # the page's order
    file.write_text(yaml.safe_dump({"system": data["system"], "sides": sides}, sort_keys=False))
    done = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "fight", str(file), "--seed", str(seed), "--json"],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out: dict = json.loads(done.stdout)
    return out


def _fight_module_loads(page: Page) -> int:
    """How many times this document fetched combat.mjs (it loads only where a fight is)."""
    count: int = page.evaluate(
        "performance.getEntriesByType('resource').filter(e => e.name.endsWith('/combat.mjs'))"
        ".length"
    )
    return count


def test_stat_cards_are_styled_on_a_page_without_a_fight(page: Page, fixture_site: str) -> None:
    page.goto(fixture_site + "bestiary/")
    wait_ready(page)
    card = page.locator(".rb-statblock[data-rb-anchor=bog-wight]")
    expect(card).to_be_visible()
    assert card.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
    stats = card.locator("dl.rb-stats")
    assert stats.evaluate("e => getComputedStyle(e).display") == "flex"
    assert _fight_module_loads(page) == 0
    # Its dice are live like any inline roll.
    damage = card.locator("[data-rb-field=damage] .rb-inline")
    damage.locator("button.rb-roll").click()
    expect(damage.locator("output.rb-out")).to_have_text(re.compile(r"^[1-8]$"))


def _log(page: Page, widget: str) -> list[str]:
    lines: list[str] = page.locator(f"{widget} ol.rb-log-lines > li").all_inner_texts()
    return lines


FORD = ".rb-combat[data-rb-anchor=ford]"


def _ford_with_seed(page: Page, site: str, tmp_path: Path, seed: int) -> tuple[Locator, dict]:
    """The ford fight of the combat page, ready, its seed typed; what the CLI fights with it."""
    page.goto(f"{site}combat/")
    wait_ready(page)
    root = page.locator(FORD)
    expected = _cli_fight(tmp_path, _payload(page, "ford"), seed)
    root.locator("input.rb-seed").fill(str(seed))
    return root, expected


def test_stepped_fight_then_to_the_end_equals_the_cli(
    page: Page, fixture_site: str, tmp_path: Path
) -> None:
    seed = 4242
    root, expected = _ford_with_seed(page, fixture_site, tmp_path, seed)
    root.locator("button.rb-fight-start").click()
    status = root.locator(".rb-fight-status")
    expect(status).to_contain_text(f"seed {seed}", timeout=READY_TIMEOUT_MS)
    expect(root.locator("button.rb-fight-start")).to_be_disabled()
    root.locator("button.rb-fight-next").click()
    expect(status).to_contain_text(re.compile(r"Round 1 done|Fight over"))
    after_one = _log(page, FORD)
    assert after_one and after_one == expected["log"][: len(after_one)]
    root.locator("button.rb-fight-end").click()
    expect(status).to_contain_text("Fight over")
    assert _log(page, FORD) == expected["log"]
    winner = expected["result"]["winner"]
    expect(status).to_contain_text(f"{winner} win" if winner else "no winner")
    expect(root.locator("button.rb-fight-next")).to_be_disabled()
    # hit points and who is out, as the engine left them
    rows = root.locator("tr[data-rb-c]")
    for i, c in enumerate(expected["combatants"]):
        expect(rows.nth(i).locator(".rb-hp")).to_have_text(f"{c['hp']}/{c['max_hp']}")
        if c["out"]:
            expect(rows.nth(i).locator(".rb-status")).to_contain_text(c["out"])
    # Reset clears the fight and restores full health.
    root.locator("button.rb-fight-reset").click()
    expect(root.locator("ol.rb-log-lines > li")).to_have_count(0)
    expect(rows.first.locator(".rb-hp")).to_have_text(
        f"{expected['combatants'][0]['max_hp']}/{expected['combatants'][0]['max_hp']}"
    )
    expect(status).to_have_text("Not started.")


def test_a_click_while_the_fight_is_busy_is_done_after_it(
    page: Page, fixture_site: str, tmp_path: Path
) -> None:
    # "Start" then at once "To the end", in one task: the second click always lands while
    # the first request is out (as on a slow phone); it runs after it, it is not dropped.
    root, expected = _ford_with_seed(page, fixture_site, tmp_path, 77)
    root.evaluate(
        """root => {
          root.querySelector("button.rb-fight-start").click();
          root.querySelector("button.rb-fight-end").click();
        }"""
    )
    expect(root.locator(".rb-fight-status")).to_contain_text("Fight over")
    assert _log(page, FORD) == expected["log"]


def test_fight_link_with_seed_replays_the_same_fight(
    page: Page, fixture_site: str, tmp_path: Path
) -> None:
    page.goto(f"{fixture_site}combat/?fight=ford&seed=77#ford")
    root = page.locator(".rb-combat[data-rb-anchor=ford]")
    expect(root.locator(".rb-fight-status")).to_contain_text("Fight over", timeout=READY_TIMEOUT_MS)
    expected = _cli_fight(tmp_path, _payload(page, "ford"), 77)
    assert _log(page, ".rb-combat[data-rb-anchor=ford]") == expected["log"]
    expect(root.locator("input.rb-seed")).to_have_value("77")


def test_odds_show_exact_hit_chances_and_monte_carlo_rates(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}combat/")
    root = page.locator(".rb-combat[data-rb-anchor=ford]")
    root.locator("details.rb-combat-odds summary").click()
    # Brand: attack bonus 2 against the goblins' AC 6 (from the build, no engine needed).
    from rollbook.engine.systems import get

    odds = get("dark-dungeons").procedure("attack").odds({"attack_bonus": 2, "ac": 6})
    assert odds is not None
    cell = root.locator(".rb-pair-odds[data-rb-side=Party] tbody tr").first.locator("td").first
    hit = odds["hit"]
    expect(cell).to_have_attribute("data-rb-p", f"{hit.numerator}/{hit.denominator}")
    wait_ready(page)
    root.locator("button.rb-mc-run").click()
    rates = root.locator(".rb-mc-rates > li[data-rb-side]")
    expect(rates).to_have_count(2, timeout=READY_TIMEOUT_MS)
    texts = rates.all_inner_texts()
    assert texts[0].startswith("Party win ") and "95% interval" in texts[0]
    expect(root.locator(".rb-mc-result")).to_contain_text("1,000 fights")


def test_card_dice_roll_and_widget_mounts_after_instant_navigation(
    page: Page, fixture_site: str
) -> None:
    page.goto(fixture_site)
    wait_ready(page)
    assert _fight_module_loads(page) == 0  # a page without a fight never fetches it
    # Material's instant navigation swaps the page in place; the widgets mount again.
    page.locator("a.md-nav__link[href$='combat/']").first.click()
    card = page.locator(".rb-statblock[data-rb-anchor=goblin]")
    damage = card.locator("[data-rb-field=damage] .rb-inline")
    damage.locator("button.rb-roll").click()
    expect(damage.locator("output.rb-out")).to_have_text(re.compile(r"^[1-6]$"))
    assert page.evaluate("window.rollbook.workerStarts") == 1  # the same worker throughout
    root = page.locator(".rb-combat[data-rb-anchor=ford]")
    root.locator("button.rb-fight-end").click()
    expect(root.locator(".rb-fight-status")).to_contain_text("Fight over")
    assert _fight_module_loads(page) == 1
    seed = int(root.locator("input.rb-seed").input_value())
    assert 0 <= seed < 2**32  # drawn by the page and shown, so it can be shared


def test_a_fight_module_that_cannot_load_says_so(page: Page, fixture_site: str) -> None:
    page.route("**/combat.mjs", lambda route: route.abort())
    page.goto(fixture_site + "combat/")
    status = page.locator(".rb-combat[data-rb-anchor=ford] .rb-fight-status")
    expect(status).to_have_text("The fight controls could not load. Reload the page to try again.")
    # The rest of the page still works: the stat card's dice roll.
    wait_ready(page)
    damage = page.locator(".rb-statblock[data-rb-anchor=goblin] [data-rb-field=damage] .rb-inline")
    damage.locator("button.rb-roll").click()
    expect(damage.locator("output.rb-out")).to_have_text(re.compile(r"^[1-6]$"))


def test_keyboard_reaches_every_control_and_the_round_log_with_visible_focus(
    page: Page, fixture_site: str
) -> None:
    page.goto(f"{fixture_site}combat/")
    root = page.locator(".rb-combat[data-rb-anchor=ford]")
    expect(root).to_have_attribute("data-rb-mounted", "true")
    root.locator("input.rb-seed").focus()
    reached = []
    for _ in range(12):  # seed, the five buttons, the log (which scrolls), the odds
        page.keyboard.press("Tab")
        focus = page.evaluate(
            """() => {
              const el = document.activeElement;
              const style = getComputedStyle(el);
              const own = [...el.classList].filter((c) => c.startsWith("rb-")).join(" ");
              return { name: own || el.tagName.toLowerCase(),
                       outline: style.outlineStyle, width: parseFloat(style.outlineWidth),
                       inWidget: !!el.closest(".rb-combat[data-rb-anchor=ford]") };
            }"""
        )
        if not focus["inWidget"]:
            break
        assert focus["outline"] != "none" and focus["width"] >= 2, focus
        reached.append(focus["name"])
    assert "rb-log" in reached, reached  # it scrolls, so the keyboard must reach it
    assert "summary" in reached, reached  # the odds
    assert any("rb-fight-start" in name for name in reached), reached
