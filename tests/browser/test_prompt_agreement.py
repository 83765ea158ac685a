"""Links and the CLI accept exactly the same prompt values and seeds, with the same sentence.

One corpus of values goes through ``rollbook table --set`` and through the browser's
deep-link path; the engine's one judge (rollbook/engine/tables/prompt_value.py) must give
both the same verdict, and the page must show what it rolled (the slider too).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from playwright.sync_api import Page, expect

from rollbook.cli import main
from rollbook.engine.bridge import MAX_SEED
from tests.browser.conftest import READY_TIMEOUT_MS, wait_ready

DOCS = Path(__file__).resolve().parent / "site" / "docs"
CONFIG = DOCS.parent / "mkdocs.yml"
TABLE = "difficulty-check"
VALID = {"difficulty": "7", "constructor": "3", "level": "2"}

# (prompt, value as sent); every other prompt keeps its VALID value.
CORPUS = [
    ("difficulty", "7"),
    ("difficulty", "007"),
    ("difficulty", " 12"),
    ("difficulty", "١٠"),  # Arabic-Indic digits
    ("difficulty", "+7"),
    ("difficulty", "７"),  # fullwidth digit
    ("difficulty", "7.0"),
    ("difficulty", "1e1"),
    ("difficulty", "0"),
    ("difficulty", "20"),
    ("difficulty", ""),
    ("difficulty", "<b>9</b>"),
    ("constructor", "4"),
    ("constructor", "10"),
    ("level", "99999999999999999999999"),
    ("level", "1000000000"),
    ("level", "-1000000000"),
    ("level", "1000000001"),
    ("level", "-0"),
    ("level", "--5"),
]


def cli(capsys: pytest.CaptureFixture[str], seed: str, values: dict[str, str]) -> tuple[int, str]:
    """Exit code and (stdout | stderr) of ``rollbook table`` on the fixture page."""
    sets = [arg for name, value in values.items() for arg in ("--set", f"{name}={value}")]
    argv = ["table", str(DOCS / "prompts.md"), TABLE, "--config", str(CONFIG), "--seed", seed]
    try:
        code = main([*argv, *sets, "--json"])
    except SystemExit as exit:  # argparse refuses the seed itself
        code = int(exit.code or 0)
    out, err = capsys.readouterr()
    # Once it has read its arguments, the CLI names the settings file; the verdict follows.
    named = f"rollbook: settings from {CONFIG}\n"
    return code, out if code == 0 else err.removeprefix(named)


def link(base: str, seed: str, values: dict[str, str]) -> str:
    query = "&".join(f"{quote(n, safe='')}={quote(v, safe='')}" for n, v in values.items())
    return f"{base}prompts/?roll={TABLE}&seed={quote(seed, safe='')}&{query}#{TABLE}"


def shown_result(page: Page) -> str:
    result = page.locator(f".rb-table[data-rb-anchor={TABLE}] .rb-result")
    expect(result).not_to_have_text(re.compile(r"^$|Warming up"), timeout=READY_TIMEOUT_MS)
    return result.inner_text()


CASE = iter(range(10**6))


def follow(page: Page, url: str) -> str:
    """Follow a deep link within the open page (the same path a navigation takes: the
    link is followed on mount) and return the table's result text once it has one. A
    parameter no prompt has makes each URL new (a page follows one URL once)."""
    url = url.replace("#", f"&case={next(CASE)}#")
    page.evaluate(
        """([url, anchor]) => {
             const root = document.querySelector(`.rb-table[data-rb-anchor="${anchor}"]`);
             root.querySelector(".rb-result").textContent = "";
             delete root.dataset.rbTotal;
             history.pushState(null, "", url);
             window.rollbook.mountAll();
           }""",
        [url, TABLE],
    )
    return shown_result(page)


def test_prompt_values_get_the_same_verdict_in_links_and_the_cli(
    page: Page, fixture_site: str, capsys: pytest.CaptureFixture[str]
) -> None:
    page.goto(f"{fixture_site}prompts/")
    wait_ready(page)
    table = page.locator(f".rb-table[data-rb-anchor={TABLE}]")
    accepted = 0
    for name, value in CORPUS:
        values = {**VALID, name: value}
        code, said = cli(capsys, "5", values)
        shown = follow(page, link(fixture_site, "5", values))
        if code == 0:
            accepted += 1
            reply = json.loads(said)
            assert shown == re.sub(r"<[^>]+>", "", reply["text"]), (name, value)
            assert table.get_attribute("data-rb-total") == str(reply["roll"]["total"])
            # The inputs show what was rolled, and the roll's own link repeats it.
            number = str(int(value))
            expect(table.locator(f"input[name={name}]")).to_have_value(number)
            permalink = table.locator("a.rb-permalink").get_attribute("href") or ""
            assert parse_qs(urlsplit(permalink).query)[name] == [number]
            page.goto(permalink)  # a fresh page: the link as a reader opens it
            assert shown_result(page) == shown, (name, value)
        else:
            sentence = said.removeprefix("rollbook: ").strip()
            # The page writes numbers as its language does (English groups thousands:
            # 1,000,000,000); the CLI writes them bare. The words must agree.
            ungrouped = re.sub(r"(?<=\d),(?=\d{3})", "", shown)
            assert ungrouped == f"Not rolled: {sentence}", (name, value)
            assert table.locator(f"input[name={name}]").get_attribute("aria-invalid") == "true"
            assert table.get_attribute("data-rb-total") is None
    assert accepted == 7
    assert page.evaluate("window.__pwned") is None


def test_a_link_without_a_prompt_named_constructor_uses_its_input(
    page: Page, fixture_site: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # No "constructor" parameter: the input's own value (its minimum, 0) is used, not
    # whatever an object of the page's JavaScript would find under that name.
    page.goto(link(fixture_site, "11", {"difficulty": "3", "level": "4"}))
    table = page.locator(f".rb-table[data-rb-anchor={TABLE}]")
    expect(table.locator("[aria-current=true]")).to_have_count(1, timeout=READY_TIMEOUT_MS)
    code, said = cli(capsys, "11", {"difficulty": "3", "constructor": "0", "level": "4"})
    assert code == 0
    assert table.locator(".rb-result").inner_html() == json.loads(said)["text"]
    permalink = table.locator("a.rb-permalink").get_attribute("href") or ""
    assert parse_qs(urlsplit(permalink).query)["constructor"] == ["0"]


SEEDS = ["0", "007", str(MAX_SEED), "-5", "+5", " 5", "٥", "1e3", "", str(MAX_SEED + 1)]


def test_seeds_get_the_same_verdict_in_links_and_the_cli(
    page: Page, fixture_site: str, capsys: pytest.CaptureFixture[str]
) -> None:
    page.goto(f"{fixture_site}prompts/")
    wait_ready(page)
    for seed in SEEDS:
        code, said = cli(capsys, seed, VALID)
        shown = follow(page, link(fixture_site, seed, VALID))
        refused = shown.startswith("Not rolled: this link's seed must be a whole number")
        assert refused == (code != 0), (seed, shown, said)
        if refused:
            assert f"the seed must be a whole number from 0 to {MAX_SEED}" in said


def test_a_fight_link_with_a_bad_seed_says_so(page: Page, fixture_site: str) -> None:
    page.goto(f"{fixture_site}combat/")
    anchor = page.locator(".rb-combat").first.get_attribute("data-rb-anchor")
    page.goto(f"{fixture_site}combat/?fight={anchor}&seed=-5#{anchor}")
    status = page.locator(f".rb-combat[data-rb-anchor={anchor}] .rb-fight-status")
    expect(status).to_have_text(
        f"Not fought: this link's seed must be a whole number from 0 to {MAX_SEED:,}."
    )
