"""Fixtures for the browser tests: built sites served on 127.0.0.1, Debian's Chromium.

Sites are built once per test session (per xdist worker) into a temp folder. Playwright's
own browser download does not work here; we drive /usr/bin/chromium.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from rollbook.markup.refs_store import resolved
from tests.browser.fixture_site import assemble
from tests.browser.server import serve

ROOT = Path(__file__).resolve().parents[2]
FIXTURE_CONFIG = Path(__file__).resolve().parent / "site" / "mkdocs.yml"
CHROMIUM = "/usr/bin/chromium"
FIXTURE_SITE_URL = "https://rollbook.invalid/"  # site_url in tests/browser/site/mkdocs.yml
MKDOCS_BUILD = [sys.executable, "-m", "mkdocs", "build", "--strict", "-q"]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# A loaded 2-core machine can take many seconds to boot Pyodide; never a reason to fail.
READY_TIMEOUT_MS = 90_000
STEP_TIMEOUT_MS = 30_000


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.browser)


def mkdocs_build(config: Path, dest: Path) -> Path:
    """Build a site with the rollbook plugin (strict) into `dest`."""
    result = subprocess.run(
        [*MKDOCS_BUILD, "-f", str(config), "-d", str(dest)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )
    assert result.returncode == 0, f"mkdocs build of {config} failed:\n{result.stderr}"
    return dest


@pytest.fixture(scope="session")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of tests/browser/site (every widget, Material instant navigation)."""
    dest = mkdocs_build(FIXTURE_CONFIG, tmp_path_factory.mktemp("fixture-site"))
    # The sitemap keeps naming site_url: Material's own instant navigation never matches this
    # server's port, so every navigation here goes through rollbook/assets/instant.js.
    with serve(dest) as base:
        yield base


@pytest.fixture(scope="session")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """Base URL and folder of the project's demo site (mkdocs.yml at the root)."""
    dest = mkdocs_build(ROOT / "mkdocs.yml", tmp_path_factory.mktemp("demo-site"))
    with serve(dest) as base:
        yield base, dest


@pytest.fixture(scope="session")
def plain_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a hand-written page without Material or MkDocs."""
    dest = assemble(tmp_path_factory.mktemp("plain-site"))
    with serve(dest) as base:
        yield base


# One Chromium per test process. tests/hardening/conftest.py registers this same fixture
# again for its folder; a second sync_playwright() in the process, while the first is
# running, fails ("Sync API inside the asyncio loop"), so the second registration reuses it.
_SHARED: dict[str, Browser] = {}


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if "browser" in _SHARED:
        yield _SHARED["browser"]
        return
    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        _SHARED["browser"] = launched
        try:
            yield launched
        finally:
            del _SHARED["browser"]
            launched.close()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context()
    ctx.set_default_timeout(STEP_TIMEOUT_MS)
    yield ctx
    # The offline worker may still be caching files when a test ends; a route handler
    # fetching one of them as the context closes would fail the next test's set-up.
    ctx.unroute_all(behavior="ignoreErrors")
    ctx.close()


@contextmanager
def opened(context: BrowserContext) -> Iterator[Page]:
    """A page of ``context`` that fails the test on any uncaught script error."""
    errors: list[str] = []
    new = context.new_page()
    new.on("pageerror", lambda error: errors.append(str(error)))
    yield new
    # No exceptions: Material's instant navigation re-runs inline scripts without their
    # type, which is why payloads are templates; a JSON <script> would fail here.
    assert not errors, f"uncaught errors in the page: {errors}"


@pytest.fixture
def page(context: BrowserContext) -> Iterator[Page]:
    """A page that fails the test on any uncaught script error."""
    with opened(context) as new:
        yield new


# Widgets answer within a few seconds even on a loaded machine; Playwright's default is 5 s.
expect.set_options(timeout=STEP_TIMEOUT_MS)


def wait_ready(page: Page) -> None:
    """Wait until the engine worker answers requests."""
    page.wait_for_function(
        "document.documentElement.dataset.rbEngine === 'ready'", timeout=READY_TIMEOUT_MS
    )


def payload(page: Page, table_id: str) -> dict:
    """The table payload the page holds for `table_id` (what the worker is sent): the
    tables it rolls taken from the page's store, as the page's scripts take them."""
    data: dict = page.evaluate(
        "id => JSON.parse(document.querySelector(`.rb-table[data-rb-anchor='${id}'] "
        "template.rb-data`).content.textContent)",
        table_id,
    )
    if isinstance(data.get("refs"), list):
        data["refs"] = resolved(data, page.content())
    return data


def expected_table_roll(data: dict, seed: int, prompts: dict | None = None) -> object:
    """What CPython's engine rolls for this payload and seed (the worker must agree)."""
    import random

    from rollbook.engine.tables import Table

    return Table.from_dict(data).roll(random.Random(seed), prompts or {})
