"""Nested rolls in Chromium: a row's inline rolls and table references are rolled with it,
the same as `rollbook table --json` under the same seed."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

from playwright.sync_api import Page, expect

from rollbook.cli import main
from rollbook.engine.bridge import handle
from tests.browser.conftest import READY_TIMEOUT_MS, payload, wait_ready

DOCS = Path(__file__).resolve().parent / "site" / "docs"


def cli_table(page_md: str, table_id: str, seed: int, *values: str) -> dict:
    """`rollbook table PAGE ID --seed N --set ... --json`, in this process."""
    sets = [arg for v in values for arg in ("--set", v)]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["table", str(DOCS / page_md), table_id, "--seed", str(seed), *sets, "--json"])
    assert code == 0
    reply: dict = json.loads(out.getvalue())
    return reply


def rolled(page: Page, table_id: str) -> tuple[int, str]:
    table = page.locator(f".rb-table[data-rb-anchor={table_id}]")
    hit = table.locator("[aria-current=true]")
    expect(hit).to_have_count(1, timeout=READY_TIMEOUT_MS)
    return int(hit.get_attribute("data-rb-row") or "-1"), table.locator(".rb-result").inner_html()


def seed_for(table_id: str, page_md: str, row: int, *values: str) -> tuple[int, dict]:
    """The first seed whose roll lands on `row`, and the CLI's reply for it."""
    for seed in range(1, 200):
        reply = cli_table(page_md, table_id, seed, *values)
        if reply["row"] == row:
            return seed, reply
    raise AssertionError(f"no seed rolls row {row} of {table_id}")


def test_an_inline_roll_in_a_cell_is_rolled_with_its_row(page: Page, fixture_site: str) -> None:
    seed, cli = seed_for("camp", "nested.md", 0)
    page.goto(f"{fixture_site}nested/?roll=camp&seed={seed}#camp")
    row, text = rolled(page, "camp")
    assert (row, text) == (cli["row"], cli["text"])
    value = cli["nested"][0]["roll"]["total"]
    assert f">{value}</span> torches" in text  # the sentence carries the value
    hit = page.locator(".rb-table[data-rb-anchor=camp] [aria-current=true]")
    expect(hit.locator(".rb-inline .rb-out")).to_have_text(str(value))  # the row shows it
    # The button stays: it rolls that die again on its own, into the history.
    before = page.locator(".rb-history-toggle").inner_text()
    hit.locator(".rb-inline button.rb-roll").click()
    expect(page.locator(".rb-history-toggle")).not_to_have_text(before)
    expect(hit.locator(".rb-inline .rb-out")).to_have_text(re.compile(r"^[123]$"))


def test_a_table_of_another_page_is_rolled_with_its_prompt(page: Page, fixture_site: str) -> None:
    seed, cli = seed_for("camp", "nested.md", 2, "backlash.power=3")
    page.goto(f"{fixture_site}nested/?roll=camp&seed={seed}&backlash.power=3#camp")
    # The referenced table's prompt is asked beside the table's own controls.
    prompt = page.get_by_label("Backlash: Spell power")
    expect(prompt).to_have_value("3")
    row, text = rolled(page, "camp")
    assert (row, text) == (cli["row"], cli["text"])
    nested = cli["nested"][0]
    assert nested["kind"] == "table" and nested["ref"] == "magic.md#backlash"
    assert nested["roll"]["notation"] == "1d4 + 3"
    hit = page.locator(".rb-table[data-rb-anchor=camp] [aria-current=true]")
    expect(hit.locator(".rb-ref .rb-out")).not_to_be_empty()
    # Out of range: explained, not rolled.
    prompt.fill("9")
    page.locator(".rb-table[data-rb-anchor=camp] .rb-bar button.rb-roll").click()
    expect(page.locator(".rb-table[data-rb-anchor=camp] .rb-result")).to_contain_text(
        "Prompt 'power' must be from 0 to 3, not 9"
    )
    expect(prompt).to_have_attribute("aria-invalid", "true")


def test_browser_and_cli_agree_for_seeds_1_to_20(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}nested/")
    wait_ready(page)
    for table_id, values in (("camp", {"backlash.power": 2}), ("old-notes", {})):
        data = payload(page, table_id)
        sets = [f"{k}={v}" for k, v in values.items()]
        for seed in range(1, 21):
            got = page.evaluate(
                "([table, seed, prompts]) => window.rollbook.request("
                "{op: 'table', table, seed, prompts})",
                [data, seed, values],
            )
            cli = cli_table("nested.md", table_id, seed, *sets)
            del cli["seed"], cli["table"]
            assert got == cli, (table_id, seed)
    # Every form of nested roll came up among those seeds.
    kinds = {
        n["kind"] for s in range(1, 21) for n in cli_table("nested.md", "camp", s).get("nested", [])
    }
    assert kinds == {"dice", "table"}


def test_plain_notation_in_cells_becomes_nested_rolls(page: Page, fixture_site: str) -> None:
    seed, cli = seed_for("old-notes", "nested.md", 1)
    page.goto(f"{fixture_site}nested/?roll=old-notes&seed={seed}#old-notes")
    row, text = rolled(page, "old-notes")
    assert (row, text) == (cli["row"], cli["text"])
    total = cli["nested"][0]["roll"]["total"]
    assert cli["nested"][0]["roll"]["notation"] == "2d6"
    assert f">{total}</span> x 10 feet" in text


def test_references_five_deep_roll_and_six_are_refused(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}nested/?roll=deep0&seed=11#deep0")
    cli = cli_table("nested.md", "deep0", 11)
    row, text = rolled(page, "deep0")
    assert (row, text) == (cli["row"], cli["text"])
    assert "Level 5: <span" in text and "steps down." in text
    # One level more than the engine allows: the worker refuses it with the CLI's sentence.
    data = payload(page, "deep0")
    inner = data["refs"][next(k for k in data["refs"] if k.endswith("#deep5"))]
    inner["rows"][0]["cells"] = ['<span data-rb-nest="#deep0" data-rb-table="X#deep0"></span>']
    inner["rows"][0]["nested"] = [{"ref": "#deep0", "table": "X#deep0"}]
    data["refs"]["X#deep0"] = {k: v for k, v in data.items() if k != "refs"}
    got = page.evaluate("(table) => window.rollbook.request({op: 'table', table, seed: 1})", data)
    assert got == handle({"op": "table", "table": data, "seed": 1})
    assert got["error"] == "Table references nest deeper than 5 levels."


def test_each_table_the_page_rolls_is_in_it_once(page: Page, fixture_site: str) -> None:
    html = page.request.get(f"{fixture_site}nested/").text()
    assert html.count('class="rb-refs"') == 1
    # Three tables roll the weather table of another page: the page's store has it once.
    assert html.count("Fair skies") == 1
    # Five tables reach deep5: its own widget holds it (its cell and its payload), no copy.
    assert html.count("The bottom, ") == 2


def test_tables_roll_the_table_they_share_from_the_page_store(
    page: Page, fixture_site: str
) -> None:
    for table_id in ("omen", "ward", "vigil"):
        cli = cli_table("nested.md", table_id, 7)
        page.goto(f"{fixture_site}nested/?roll={table_id}&seed=7#{table_id}")
        assert rolled(page, table_id) == (cli["row"], cli["text"])
        assert cli["nested"][0]["kind"] == "table" and not cli["nested"][0].get("error")
    # The reference's own button rolls the stored table on its own.
    ref = page.locator(".rb-table[data-rb-anchor=ward] .rb-ref")
    ref.locator("button.rb-roll").click()
    expect(ref.locator("output.rb-out")).to_have_text(re.compile(r"Storm|Fair skies|Fog"))
