"""Accessibility of every widget, checked by axe-core (npm, pinned) in Chromium.

axe runs on the demo site's widgets only (the theme around them is Material's to answer
for): as each page loads, and again once everything on a page has been used (every roll
rolled, chances shown, fights fought, details opened, the history tray open), in the
light and the dark scheme. Any violation fails the test with axe's own explanation.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.a11y import WIDGETS, explain, violations, violations_after_use


def _demo_pages(folder: Path) -> list[str]:
    pages = []
    for html in sorted(folder.rglob("index.html")):
        if "assets" in html.parts:
            continue
        text = html.read_text(encoding="utf-8")
        if any(f'class="{w[1:]}' in text for w in WIDGETS):
            path = html.parent.relative_to(folder).as_posix()
            pages.append("" if path == "." else f"{path}/")
    return pages


def test_every_widget_page_as_loaded(page: Page, demo_site: tuple[str, Path]) -> None:
    base, folder = demo_site
    pages = _demo_pages(folder)
    assert len(pages) >= 15  # the demo's widget pages, all of them
    problems = {}
    for path in pages:
        page.goto(base + path)
        expect(page.locator("[data-rb-mounted]").first).to_be_attached()
        if found := violations(page):
            problems[path] = found
    assert not problems, explain(problems)


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize(
    "path",
    [
        "",  # inline rolls, a table and a list
        "authoring/roll-tables/",  # prompts, tabs, every table form
        "systems/dark-dungeons/",  # stat cards and fights
    ],
)
def test_widgets_after_use(page: Page, demo_site: tuple[str, Path], path: str, scheme: str) -> None:
    base, _ = demo_site
    found = violations_after_use(page, base + path, scheme)
    assert not found, explain(found)


# The fixture site's pages: each widget form the demo does not use (d66, limits, range
# prompts, presets), used in full in both schemes.
FIXTURE_PAGES = [
    "", "tables/", "lists/", "prompts/", "d66/", "limits/", "bestiary/", "combat/", "nested/",
    "magic/",
]  # fmt: skip


def test_every_fixture_page_is_checked() -> None:
    docs = Path(__file__).parent / "site" / "docs"
    names = {p.stem for p in docs.glob("*.md")}
    assert {path.rstrip("/") or "index" for path in FIXTURE_PAGES} == names


@pytest.mark.parametrize("scheme", ["default", "slate"])
@pytest.mark.parametrize("path", FIXTURE_PAGES)
def test_fixture_widgets_after_use(page: Page, fixture_site: str, path: str, scheme: str) -> None:
    found = violations_after_use(page, fixture_site + path, scheme)
    assert not found, explain(found)


def test_the_bad_link_notice(page: Page, demo_site: tuple[str, Path]) -> None:
    base, _ = demo_site
    page.goto(base + "?roll=no-such-table")
    expect(page.locator(".rb-link-notice")).to_be_visible()
    found = violations(page)
    assert not found, explain(found)
