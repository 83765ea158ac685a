"""The dice box: any notation, rolled by the engine in the worker, into the history."""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest
from playwright.sync_api import Page, expect

from rollbook.cli import main
from tests.browser.a11y import SEEDED, explain, violations
from tests.browser.conftest import READY_TIMEOUT_MS


def cli_roll(expr: str, seed: int) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["roll", expr, "--seed", str(seed), "--json"]) == 0
    reply: dict = json.loads(out.getvalue())
    return reply


def open_box(page: Page) -> None:
    """The shortcut from the page: the tray opens with the cursor in the box."""
    expect(page.locator("[data-rb-mounted]").first).to_be_attached()
    box = page.locator("input[data-rb-dicebox]")
    assert "shortcut: D" in (box.get_attribute("title") or "")
    page.locator("body").press("d")
    expect(box).to_be_focused()
    # Material's search, which has its own keys, stays closed.
    assert not page.evaluate("document.querySelector('[data-md-toggle=search]')?.checked")


def roll(page: Page, expr: str) -> None:
    box = page.locator("input[data-rb-dicebox]")
    box.fill(expr)
    box.press("Enter")


def test_rolls_any_notation_with_every_die_into_the_history(page: Page, fixture_site: str) -> None:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(fixture_site)
    open_box(page)
    result = page.locator(".rb-dicebox-result")
    for expr in ("4d6kh3", "d66"):
        roll(page, expr)
        expect(result).to_have_attribute("data-rb-seed", timeout=READY_TIMEOUT_MS)
        seed = int(result.get_attribute("data-rb-seed") or "-1")
        expected = cli_roll(expr, seed)["text"]
        expect(result).to_have_text(expected)
        expect(page.locator(".rb-history-list li").first).to_contain_text(f"Dice box: {expected}")
        page.evaluate(
            "document.querySelector('.rb-dicebox-result').removeAttribute('data-rb-seed')"
        )
    assert "4d6kh3: [" in page.locator(".rb-history-list").inner_text()
    # A notation the engine refuses: its sentence and caret in place, nothing rolled.
    count = page.locator(".rb-history-list li").count()
    roll(page, "3d6+")
    expect(result.locator("pre.rb-caret")).to_have_text("3d6+\n    ^")
    expect(result.locator("p")).to_have_text(
        "The notation ends too early: expected a number, dice, '(' or '{'."
    )
    expect(page.locator("input[data-rb-dicebox]")).to_have_attribute("aria-invalid", "true")
    assert not result.get_attribute("data-rb-seed")
    expect(page.locator(".rb-history-list li")).to_have_count(count)
    assert errors == []


@pytest.mark.parametrize("scheme", ["default", "slate"])
def test_dice_box_accessibility(page: Page, fixture_site: str, scheme: str) -> None:
    page.add_init_script(SEEDED)
    page.goto(fixture_site)
    page.evaluate("s => document.body.setAttribute('data-md-color-scheme', s)", scheme)
    open_box(page)
    roll(page, "2d6+1")
    expect(page.locator(".rb-dicebox-result")).to_have_attribute(
        "data-rb-seed", timeout=READY_TIMEOUT_MS
    )
    found = violations(page)
    roll(page, "3d6+")
    expect(page.locator(".rb-dicebox-result pre.rb-caret")).to_be_visible()
    found += page.evaluate(
        "async () => (await axe.run({include: [['.rb-history']]}, {resultTypes: ['violations']}))"
        ".violations.map((v) => v.id + ': ' + v.nodes.map((n) => n.target.join(' ')).join(', '))"
    )
    assert not found, explain(found)


def test_a_huge_paste_is_echoed_cut_and_the_page_stays_responsive(
    page: Page, fixture_site: str
) -> None:
    page.goto(fixture_site)
    open_box(page)
    box = page.locator("input[data-rb-dicebox]")
    result = page.locator(".rb-dicebox-result")
    # 5 MB pasted: not sent to the engine, echoed as its start.
    box.evaluate("input => { input.value = '1d6+'.repeat(1_250_000); }")
    box.press("Enter")
    expect(result).to_contain_text("far too long")
    expect(result).to_contain_text("Shortened: what was typed is 5,000,000 characters long.")
    assert len(result.inner_text()) < 400
    assert result.locator("pre").inner_text().endswith("…")
    # Longer than the engine takes, but sent: its caret is cut around the problem.
    roll(page, "1d6+" * 700 + "x")
    expect(result).to_contain_text("longer than", timeout=READY_TIMEOUT_MS)
    caret = result.locator("pre.rb-caret").inner_text()
    line, marker = caret.split("\n")
    assert line.startswith("…") and line.endswith("…") and len(line) < 130
    assert marker.rstrip().endswith("^") and len(marker) <= len(line)
    expect(result).to_contain_text("Shortened")
    # Over a limit of the engine: the roll says so, and the same engine rolls on.
    roll(page, "100000d100000")
    expect(result).to_contain_text("limit")
    assert "Shortened" not in result.inner_text()
    roll(page, "2d6")
    expect(result).to_have_attribute("data-rb-seed", re.compile(r"^\d+$"))
    assert page.evaluate("window.rollbook.workerStarts") == 1
