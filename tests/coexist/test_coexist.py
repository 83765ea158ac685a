"""rollbook beside each popular MkDocs plugin, and beside all of them at once.

One test per site, so each site is built by one worker only: it builds with ``--strict``
twice to identical bytes, its offline worker's hashes match the files as the other plugins
left them, the plugin's own feature is there, and in Chromium (one page visit) the table
``meeting`` rolls the table of another page (``index.md#reaction``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from rollbook.markup.refs_store import resolved
from tests.browser.conftest import READY_TIMEOUT_MS, mkdocs_build, wait_ready
from tests.browser.server import serve
from tests.coexist.sites import CASES, Case, write_site


def tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in folder.rglob("*") if p.is_file()
    }


def worker_files(site: Path) -> dict[str, dict]:
    text = (site / "rollbook-sw.js").read_text(encoding="utf-8")
    build = re.search(r"^const BUILD = (\{.*\});$", text, re.MULTILINE)
    assert build, "the offline worker carries no file list"
    files: dict[str, dict] = json.loads(build[1])["files"]
    return files


def built_twice(case: Case, tmp_path: Path) -> Path:
    """Build the case's site twice (strict); both builds identical, the worker's hashes right."""
    config = write_site(case, tmp_path / "project")
    first = mkdocs_build(config, tmp_path / "first")
    second = mkdocs_build(config, tmp_path / "second")
    one, two = tree(first), tree(second)
    assert sorted(one) == sorted(two)
    assert [p for p in one if one[p] != two[p]] == []
    listed = worker_files(first)
    for path, entry in listed.items():
        data = one[path]
        assert (hashlib.sha256(data).hexdigest()[:20], len(data)) == (
            entry["hash"],
            entry["size"],
        ), path
    assert set(listed) == set(one) - {"rollbook-sw.js"}
    return first


def rolls(page: str, key: str) -> bool:
    """Whether a payload of ``page`` rolls the table ``key``, which its store holds."""
    return f'"refs":["{key}"' in page and key in resolved({"refs": [key]}, page)


def text(site: Path, rel: str) -> str:
    return (site / rel).read_text(encoding="utf-8")


def kinds(site: Path) -> dict[str, str]:
    return {path: entry["kind"] for path, entry in worker_files(site).items()}


# -- what each plugin's site shows without a browser ---------------------------------------


def i18n_suffix(site: Path) -> None:
    assert 'data-rb-table="docs/index.fr.md#reaction"' in text(site, "fr/other/index.html")
    assert 'data-rb-table="docs/index.md#reaction"' in text(site, "other/index.html")
    fallback = text(site, "fr/only-en/index.html")  # an English page in the French site
    assert rolls(fallback, "docs/index.fr.md#reaction") and "rb-refs:" not in fallback
    assert "Écran du MJ" in text(site, "fr/gm/index.html")  # the author's translation
    assert "GM screen" in text(site, "gm/index.html")  # the generated page
    lunr = "assets/javascripts/lunr/min/"  # "Save this site": search in French too
    for name in ("lunr.fr.min.js", "lunr.multi.min.js", "lunr.stemmer.support.min.js"):
        assert kinds(site)[lunr + name] == "shell", name
    assert kinds(site)[lunr + "lunr.de.min.js"] == "later"  # a language the site does not have


def i18n_folder(site: Path) -> None:
    assert rolls(text(site, "fr/other/index.html"), "docs/en/index.md#reaction")
    for gm in ("gm/index.html", "fr/gm/index.html"):
        assert "data-rb-gm" in text(site, gm)


def filled(site: Path, rel: str) -> None:
    page = text(site, rel)
    assert rolls(page, "docs/index.md#reaction") and "rb-refs:" not in page


def redirects(site: Path) -> None:
    assert "location.search" in text(site, "old/index.html")
    assert kinds(site)["old/index.html"] == "other" and kinds(site)["other/index.html"] == "page"


def awesome_nav(site: Path) -> None:
    nav = text(site, "index.html")
    assert re.search(
        r'<a href="gm/" class="md-nav__link">\s*<span class="md-ellipsis">\s*GM screen', nav
    )


def git_dates(site: Path) -> None:
    assert "March 14, 2026" in text(site, "gm/index.html")  # the commit's date, not today's
    assert "March 14, 2026" in text(site, "other/index.html")


def macros(site: Path) -> None:
    page = text(site, "other/index.html")
    assert "1d2 + {{ bonus }}" in page and "The ford" in page


def has(site: Path, rel: str, *, present: bool = True) -> None:
    assert (site / rel).exists() == present, rel


CHECKS: dict[str, Callable[[Path], None]] = {
    "i18n-suffix": i18n_suffix,
    "i18n-folder": i18n_folder,
    "blog": lambda site: filled(site, "blog/index.html"),  # the post's excerpt
    "print-site": lambda site: filled(site, "print_page/index.html"),
    "redirects": redirects,
    "awesome-nav": awesome_nav,
    "git-revision-date": git_dates,
    "macros": macros,
    "social": lambda site: has(site, "assets/images/social/other.png"),
    "exclude": lambda site: has(site, "drafts", present=False),
    "minify": lambda site: has(site, "assets/rollbook/table.min.js"),
    "tags": lambda site: has(site, "tags/index.html"),
    "no-gm-screen": lambda site: has(site, "gm", present=False),
}


# -- in Chromium ------------------------------------------------------------------------------


def roll(page: Page, anchor: str) -> None:
    """Roll the table ``anchor`` (every row rolls ``index.md#reaction``), see both results."""
    table = page.locator(f".rb-table[data-rb-anchor={anchor}]").first
    table.locator(".rb-bar button.rb-roll").first.click()
    hit = table.locator("[aria-current=true]")
    expect(hit).to_have_count(1, timeout=READY_TIMEOUT_MS)
    expect(hit.locator(".rb-ref .rb-out")).to_have_text(re.compile(r"Wary|Friendly"))
    expect(table.locator(".rb-result")).not_to_contain_text("not available")


def as_a_file(page: Page, site: Path) -> None:
    """Material's offline plugin: the site opened from its folder says why dice cannot roll."""
    page.goto((site / "other.html").as_uri())
    notice = page.locator(".rb-file-notice")
    expect(notice).to_have_count(1)
    sentence = notice.inner_text()
    assert sentence.count(". ") == 0 and "file://" in sentence and "web server" in sentence
    table = page.locator(".rb-table[data-rb-anchor=meeting]")
    expect(table.locator("button.rb-roll").first).to_be_disabled()
    expect(table.locator("tbody tr")).to_have_count(2)  # the table stays readable


def visit(page: Page, case: Case, base: str) -> None:
    page.goto(f"{base}{case.visit}")
    wait_ready(page)
    if case.name == "blog":  # the post's excerpt on the blog's index
        roll(page, "notes")
        return
    if case.name == "no-gm-screen":  # the home page: an inline roll's menu has no pin
        page.locator(".rb-more").first.click()
        expect(page.locator(".rb-menu [role=menuitem]").first).to_be_visible()
        expect(page.locator(".rb-table[data-rb-anchor=reaction] .rb-bar")).to_be_visible()
        expect(page.locator("[data-rb-pin]")).to_have_count(0)
        return
    if case.name == "macros":  # its roll adds the prompt `bonus`
        page.get_by_label("Bonus").fill("1")
    roll(page, "meeting")
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


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_rollbook_beside(case: Case, tmp_path: Path, page: Page) -> None:
    site = built_twice(case, tmp_path)
    CHECKS.get(case.name, lambda _: None)(site)
    if case.name == "offline":
        as_a_file(page, site)
        return
    with serve(site) as base:
        visit(page, case, base)
