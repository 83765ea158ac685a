"""rollbook beside each popular MkDocs plugin, and beside all of them at once.

Every site builds with ``--strict`` twice to identical bytes, its offline worker's hashes
match the files as the other plugins left them, and in Chromium the table ``meeting`` rolls
the table of another page (``index.md#reaction``) on the page the plugin is about.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import READY_TIMEOUT_MS, wait_ready
from tests.browser.server import serve
from tests.coexist.sites import CASES, Case

BY_NAME = {case.name: case for case in CASES}


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def worker_files(site: Path) -> dict[str, list]:
    text = (site / "rollbook-sw.js").read_text(encoding="utf-8")
    build = re.search(r"^const BUILD = (\{.*\});$", text, re.MULTILINE)
    assert build, "the offline worker carries no file list"
    files: dict[str, list] = json.loads(build[1])["files"]
    return files


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_builds_strictly_twice_the_same_with_a_valid_worker(case: Case, built) -> None:
    first, second = built(case)
    one, two = tree(first), tree(second)
    assert sorted(one) == sorted(two)
    assert [p for p in one if one[p] != two[p]] == []
    listed = worker_files(first)
    for path, (digest, size, _kind) in listed.items():
        data = one[path]
        assert (hashlib.sha256(data).hexdigest()[:20], len(data)) == (digest, size), path
    assert set(listed) == set(one) - {"rollbook-sw.js"}


def roll_meeting(page: Page) -> None:
    """Roll ``meeting`` (every row rolls ``index.md#reaction``) and see both results."""
    table = page.locator(".rb-table[data-rb-anchor=meeting]").first
    table.locator(".rb-bar button.rb-roll").first.click()
    hit = table.locator("[aria-current=true]")
    expect(hit).to_have_count(1, timeout=READY_TIMEOUT_MS)
    expect(hit.locator(".rb-ref .rb-out")).to_have_text(re.compile(r"Wary|Friendly"))
    expect(table.locator(".rb-result")).not_to_contain_text("not available")


@pytest.mark.parametrize("case", [c for c in CASES if c.name != "offline"], ids=lambda c: c.name)
def test_rolls_another_pages_table_in_chromium(case: Case, built, page: Page) -> None:
    site, _ = built(case)
    with serve(site) as base:
        page.goto(f"{base}{case.visit}")
        wait_ready(page)
        if case.name == "blog":  # the post's excerpt on the blog's index
            table = page.locator(".rb-table[data-rb-anchor=notes]")
            table.locator(".rb-bar button.rb-roll").click()
            hit = table.locator("[aria-current=true]")
            expect(hit).to_have_count(1, timeout=READY_TIMEOUT_MS)
            expect(hit.locator(".rb-ref .rb-out")).to_have_text(re.compile(r"Wary|Friendly"))
            return
        if case.name == "no-gm-screen":  # the home page: an inline roll and its menu
            page.locator(".rb-more").first.click()
            expect(page.locator(".rb-menu [role=menuitem]").first).to_be_visible()
            expect(page.locator(".rb-table[data-rb-anchor=reaction] .rb-bar")).to_be_visible()
            expect(page.locator("[data-rb-pin]")).to_have_count(0)
            assert not (site / "gm").exists()
            return
        if case.name == "macros":  # its roll adds the prompt `bonus`
            page.get_by_label("Bonus").fill("1")
        roll_meeting(page)
        if case.name == "print-site":  # printed: no roll menus, no GM screen items
            page.emulate_media(media="print")
            expect(page.locator(".rb-more").first).to_be_hidden()
            expect(page.locator(".rb-gm").first).to_be_hidden()
            expect(page.locator(".rb-table[data-rb-anchor=meeting] tbody").first).to_be_visible()
        if case.name == "redirects":  # a deep link through the old address lands on the roll
            page.goto(f"{base}old/?roll=meeting&seed=7")
            expect(page).to_have_url(re.compile(r"/other/\?roll=meeting&seed=7"))
            hit = page.locator(".rb-table[data-rb-anchor=meeting] [aria-current=true]")
            expect(hit).to_have_count(1, timeout=READY_TIMEOUT_MS)


def test_a_page_opened_as_a_file_says_why_dice_cannot_roll(built, page: Page) -> None:
    site, _ = built(BY_NAME["offline"])
    page.goto((site / "other.html").as_uri())
    notice = page.locator(".rb-file-notice")
    expect(notice).to_have_count(1)
    text = notice.inner_text()
    assert text.count(". ") == 0 and "file://" in text and "web server" in text
    expect(page.locator(".rb-table[data-rb-anchor=meeting] button.rb-roll").first).to_be_disabled()
    expect(page.locator(".rb-table[data-rb-anchor=meeting] tbody tr")).to_have_count(2)


# -- what each plugin's site shows without a browser ---------------------------------------


def page_text(site: Path, rel: str) -> str:
    return (site / rel).read_text(encoding="utf-8")


def test_i18n_resolves_references_per_language_with_fallback_pages(built) -> None:
    suffix, _ = built(BY_NAME["i18n-suffix"])
    assert 'data-rb-table="docs/index.fr.md#reaction"' in page_text(suffix, "fr/other/index.html")
    assert 'data-rb-table="docs/index.md#reaction"' in page_text(suffix, "other/index.html")
    fallback = page_text(suffix, "fr/only-en/index.html")  # English page in the French site
    assert '"refs":{"docs/index.fr.md#reaction"' in fallback and "rb-refs:" not in fallback
    assert "Écran du MJ" in page_text(suffix, "fr/gm/index.html")  # the author's translation
    assert "GM screen" in page_text(suffix, "gm/index.html")  # the generated page
    folder, _ = built(BY_NAME["i18n-folder"])
    assert '"refs":{"docs/en/index.md#reaction"' in page_text(folder, "fr/other/index.html")
    for gm in ("gm/index.html", "fr/gm/index.html"):
        assert "data-rb-gm" in page_text(folder, gm)


def test_offline_save_keeps_the_search_language_files(built) -> None:
    site, _ = built(BY_NAME["i18n-suffix"])
    kinds = {path: entry[2] for path, entry in worker_files(site).items()}
    lunr = "assets/javascripts/lunr/min/"
    for name in ("lunr.fr.min.js", "lunr.multi.min.js", "lunr.stemmer.support.min.js"):
        assert kinds[lunr + name] == "t", name
    assert kinds[lunr + "lunr.de.min.js"] == "r"  # a language the site does not have


def test_redirect_stubs_keep_the_query_and_are_not_pages(built) -> None:
    site, _ = built(BY_NAME["redirects"])
    assert "location.search" in page_text(site, "old/index.html")
    kinds = {path: entry[2] for path, entry in worker_files(site).items()}
    assert kinds["old/index.html"] == "s" and kinds["other/index.html"] == "p"


def test_blog_excerpts_and_print_page_carry_the_referenced_tables(built) -> None:
    blog, _ = built(BY_NAME["blog"])
    index = page_text(blog, "blog/index.html")
    assert '"refs":{"docs/index.md#reaction"' in index and "rb-refs:" not in index
    printed, _ = built(BY_NAME["print-site"])
    text = page_text(printed, "print_page/index.html")
    assert '"refs":{"docs/index.md#reaction"' in text and "rb-refs:" not in text


def test_navigation_from_awesome_nav_lists_the_gm_screen(built) -> None:
    site, _ = built(BY_NAME["awesome-nav"])
    nav = page_text(site, "index.html")
    assert re.search(
        r'<a href="gm/" class="md-nav__link">\s*<span class="md-ellipsis">\s*GM screen', nav
    )


def test_git_dates_date_the_gm_page_by_the_commit(built) -> None:
    site, _ = built(BY_NAME["git-revision-date"])
    assert "March 14, 2026" in page_text(site, "gm/index.html")
    assert "March 14, 2026" in page_text(site, "other/index.html")


def test_macros_leave_rollbook_placeholders_alone(built) -> None:
    site, _ = built(BY_NAME["macros"])
    text = page_text(site, "other/index.html")
    assert "1d2 + {{ bonus }}" in text and "The ford" in text


def test_other_plugins_keep_their_own_feature(built) -> None:
    social, _ = built(BY_NAME["social"])
    assert (social / "assets/images/social/other.png").is_file()
    excluded, _ = built(BY_NAME["exclude"])
    assert not (excluded / "drafts").exists()
    minified, _ = built(BY_NAME["minify"])
    assert len(page_text(minified, "other/index.html").splitlines()) < 5
    tags, _ = built(BY_NAME["tags"])
    assert (tags / "tags/index.html").is_file()
