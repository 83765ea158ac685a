"""A rules site not written for rollbook, rolled in Chromium: plain and header-less
tables, an Obsidian Dice Roller table, dice in prose, and a seeded link to a plain table
that gives exactly what `rollbook table ... --seed N` gives."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import READY_TIMEOUT_MS, mkdocs_build
from tests.browser.server import serve

SITE = Path(__file__).resolve().parents[1] / "markup" / "rules_site"


@pytest.fixture(scope="module")
def rules_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of tests/markup/rules_site, built with `mkdocs build --strict`."""
    dest = mkdocs_build(SITE / "mkdocs.yml", tmp_path_factory.mktemp("rules-site"))
    with serve(dest) as base:
        yield base


def roll_table(page: Page, anchor: str) -> tuple[str, str]:
    """Roll the table ``anchor`` once; its hit row's key cell and the result sentence."""
    table = page.locator(f".rb-table[data-rb-anchor={anchor}]")
    table.locator(".rb-bar button.rb-roll").click()
    hit = table.locator("tr[aria-current=true]")
    expect(hit).to_have_count(1, timeout=READY_TIMEOUT_MS)
    expect(table.locator(".rb-result")).not_to_be_empty(timeout=READY_TIMEOUT_MS)
    return hit.locator("td.rb-key").inner_text(), table.locator(".rb-result").inner_text()


def test_a_plain_table_rolls_and_keeps_its_own_keys(page: Page, rules_site: str) -> None:
    page.goto(f"{rules_site}tables/keys/")
    key, sentence = roll_table(page, "zero-padded-percentile")
    assert key in {"01-20", "21-45", "46-70", "71-95", "96-00"}
    match = re.match(r"Rolled (\d+): (\w+)", sentence)
    assert match is not None and 1 <= int(match[1]) <= 100
    assert match[2] in {"Salt", "Timber", "Wool", "Iron", "Silver"}


def test_a_header_less_table_rolls_on_its_first_row(page: Page, rules_site: str) -> None:
    page.goto(f"{rules_site}tables/layouts/")
    table = page.locator(".rb-table[data-rb-anchor=exported-from-a-pdf]")
    expect(table.locator("th.rb-key")).to_have_text("d20")
    key, sentence = roll_table(page, "exported-from-a-pdf")
    assert key in {"1-5", "6-10", "11-15", "16-20"}
    assert re.match(r"Rolled \d+: (Aldo|Brin|Cass|Dell)$", sentence)


def test_an_obsidian_table_roll_and_its_column(page: Page, rules_site: str) -> None:
    page.goto(f"{rules_site}play/session/")
    refs = page.locator(".rb-dice-ref")
    expect(refs).to_have_count(4)
    refs.nth(0).locator("button.rb-roll").click()
    out = refs.nth(0).locator("output.rb-out")
    expect(out).to_have_text(re.compile(r"^Rolled \d+: \w+"), timeout=READY_TIMEOUT_MS)
    refs.nth(2).locator("button.rb-roll").click()  # [[Story Theme#^theme|Tone]]
    tone = refs.nth(2).locator("output.rb-out")
    expect(tone).to_have_text(
        re.compile(r"^Rolled [1-6]: (grim|tense|warm|sharp|quiet|loud)$"), timeout=READY_TIMEOUT_MS
    )


def test_dice_in_prose_roll_like_inline_rolls(page: Page, rules_site: str) -> None:
    page.goto(f"{rules_site}play/travel/")
    roll = page.locator(".rb-inline", has=page.locator("button[data-roll='3d6*10']")).first
    expect(roll.locator("button.rb-roll")).to_have_text("3d6 x 10")
    roll.locator("button.rb-roll").click()
    out = roll.locator("output.rb-out")
    expect(out).to_have_text(re.compile(r"\d+"), timeout=READY_TIMEOUT_MS)
    total = int(re.sub(r"\D", "", out.inner_text()))
    assert 30 <= total <= 180 and total % 10 == 0


def test_a_seeded_link_to_a_plain_table_equals_the_cli(page: Page, rules_site: str) -> None:
    page.goto(f"{rules_site}tables/headers/?roll=reaction&seed=4242#reaction")
    table = page.locator(".rb-table[data-rb-anchor=reaction]")
    hit = table.locator("tr[aria-current=true]")
    expect(hit).to_have_count(1, timeout=READY_TIMEOUT_MS)
    page_md, config = SITE / "docs" / "tables" / "headers.md", SITE / "mkdocs.yml"
    command = [sys.executable, "-m", "rollbook.cli", "table", str(page_md), "reaction",
               "--seed", "4242", "--json", "--config", str(config)]  # fmt: skip
    cli = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    assert int(hit.get_attribute("data-rb-row") or "-1") == cli["row"]
    assert table.get_attribute("data-rb-total") == str(cli["roll"]["total"])
    assert table.locator(".rb-result").inner_html() == cli["text"]
