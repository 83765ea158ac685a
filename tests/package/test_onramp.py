"""The author's on-ramp as a pip user meets it: ``rollbook new`` and ``rollbook import`` run from
a venv that holds the released wheel (``installed_venv``), built with that venv's mkdocs and no
Node.js on the PATH, then rolled in Chromium.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import ROOT, expected_table_roll, payload, wait_ready
from tests.browser.server import serve

HUGO_FIXTURE = ROOT / "tests" / "build" / "hugo-site"


def _run(command: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=600, check=False
    )


@pytest.fixture(scope="session")
def new_site(
    installed_venv: Path, no_node_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, Path]]:
    """`rollbook new` (a system, the guide) built strictly by the wheel's install: URL, folder."""
    tmp = tmp_path_factory.mktemp("new-site")
    done = _run(
        [str(installed_venv / "rollbook"), "new", "rules", "--system", "scars", "--guide"],
        tmp,
        no_node_env,
    )
    assert done.returncode == 0, done.stderr
    site = tmp / "rules"
    done = _run([str(installed_venv / "mkdocs"), "build", "--strict"], site, no_node_env)
    assert done.returncode == 0, done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    with serve(site / "site") as base:
        yield base, site


def test_the_wheels_guide_is_the_demos_guide(new_site) -> None:
    _, site = new_site
    pages = sorted(
        p.relative_to(ROOT / "docs").as_posix() for p in (ROOT / "docs/authoring").glob("*.md")
    )
    for name in [*pages, "reference/dice-grammar.md"]:
        assert (site / "docs" / name).read_bytes() == (ROOT / "docs" / name).read_bytes(), name


@pytest.fixture(scope="session")
def imported_site(
    installed_venv: Path, no_node_env: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, list[str], list[str]]]:
    """(base URL, the import's report lines, the build's warnings) of the imported fixture."""
    tmp = tmp_path_factory.mktemp("imported")
    shutil.copytree(HUGO_FIXTURE, tmp / "hugo")
    done = _run([str(installed_venv / "rollbook"), "import", "hugo", "rules"], tmp, no_node_env)
    assert done.returncode == 0, done.stderr
    report = done.stdout.splitlines()
    done = _run([str(installed_venv / "mkdocs"), "build"], tmp / "rules", no_node_env)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("WARNING")]
    with serve(tmp / "rules" / "site") as base:
        yield base, report, warnings


def _h1s(html: str) -> list[str]:
    return [
        re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<h1[^>]*>(.*?)</h1>", html, re.S)
    ]


def test_the_front_matter_title_is_the_heading_when_the_page_has_none(imported_site) -> None:
    base, _, _ = imported_site
    import urllib.request

    def heading(path: str) -> list[str]:
        with urllib.request.urlopen(f"{base}{path}") as reply:
            return _h1s(reply.read().decode("utf-8"))

    assert heading("basics/advantage/") == ["Advantage"]  # TOML title, no heading in the page
    assert heading("combat/wounds/") == ["Wounds"]  # a section page, two levels deep
    # its own heading, with its permalink
    assert heading("combat/reactions/") == ["Meeting strangers&para;"]


def test_goldmark_markdown_renders_as_in_hugo(imported_site) -> None:
    base, _, _ = imported_site
    import urllib.request

    with urllib.request.urlopen(f"{base}combat/wounds/bleeding/") as reply:
        html = reply.read().decode("utf-8")
    assert "<del>Bandages stop it at once.</del>" in html  # ~~strikethrough~~
    assert 'class="footnote"' in html and "Marsh herbs" in html  # [^footnote]
    assert 'type="checkbox"' in html  # - [x] task list


def test_a_new_site_rolls_its_inline_rolls_table_and_encounter(page: Page, new_site) -> None:
    base, _ = new_site
    page.goto(f"{base}rolls/")
    wait_ready(page)
    inline = page.locator(".rb-inline").first
    inline.locator("button.rb-roll").click()
    expect(inline.locator("output.rb-out")).to_have_text(re.compile(r"^\d+$"))
    assert 3 <= int(inline.locator("output.rb-out").inner_text()) <= 8  # 1d6+2
    page.goto(f"{base}tables/?roll=cave-finds&seed=11&depth=3#cave-finds")
    table = page.locator(".rb-table[data-rb-anchor=cave-finds]")
    expect(table.locator("[aria-current=true]")).to_have_count(1, timeout=90_000)
    rolled = expected_table_roll(payload(page, "cave-finds"), 11, {"depth": 3})
    assert table.locator("[aria-current=true]").get_attribute("data-rb-row") == str(
        rolled.row_index
    )
    page.goto(f"{base}scars/")
    wait_ready(page)
    fight = page.locator(".rb-combat").first
    fight.locator("button.rb-fight-start").click()
    expect(fight.locator(".rb-log-lines li").first).to_be_visible()


def test_the_new_sites_guide_pages_roll_too(page: Page, new_site) -> None:
    base, _ = new_site
    page.goto(f"{base}authoring/roll-tables/?roll=lock-picking&seed=5#lock-picking")
    table = page.locator(".rb-table[data-rb-anchor=lock-picking]")
    expect(table.locator("[aria-current=true]")).to_have_count(1, timeout=90_000)
    rolled = expected_table_roll(payload(page, "lock-picking"), 5)
    assert table.locator("[aria-current=true]").get_attribute("data-rb-row") == str(
        rolled.row_index
    )


def test_the_imported_build_warns_only_about_reported_problems(imported_site) -> None:
    _, report, warnings = imported_site
    assert warnings, "the fixture's [!roll: typo must reach the build"
    reported = {re.sub(r"^hugo/content/", "", line.split(": ", 1)[0]) for line in report}
    for warning in warnings:
        found = re.match(r"WARNING\s+-\s+docs/(\S+?):(\d+): ", warning)
        assert found, warning
        page, line = found.groups()
        source = re.sub(r"(^|/)index\.md$", r"\1_index.md", page)
        assert f"{source}:{line}" in reported or f"{page}:{line}" in reported, warning


def test_an_imported_page_rolls_its_prompted_table_and_its_d66(page: Page, imported_site) -> None:
    base, _, _ = imported_site
    page.goto(f"{base}combat/reactions/?roll=reaction&seed=21&charm=2#reaction")
    table = page.locator(".rb-table[data-rb-anchor=reaction]")
    expect(table.locator("[aria-current=true]")).to_have_count(1, timeout=90_000)
    rolled = expected_table_roll(payload(page, "reaction"), 21, {"charm": 2})
    hit = table.locator("[aria-current=true]")
    assert hit.get_attribute("data-rb-row") == str(rolled.row_index)
    expect(table.locator("input[name=charm]")).to_have_value("2")
    # The d66 table, two sections down, rolled with its button.
    page.goto(f"{base}combat/wounds/lasting/")
    wait_ready(page)
    d66 = page.locator(".rb-table[data-rb-anchor=injuries]")
    d66.locator(".rb-bar button.rb-roll").click()
    expect(d66.locator("[aria-current=true]")).to_have_count(1)
    seed = int(d66.get_attribute("data-rb-seed") or "")
    rolled = expected_table_roll(payload(page, "injuries"), seed)
    assert d66.locator("[aria-current=true]").get_attribute("data-rb-row") == str(rolled.row_index)
    tab = d66.locator("[role=tab][aria-selected=true]")
    assert tab.get_attribute("data-rb-tab") == str(rolled.tab)
