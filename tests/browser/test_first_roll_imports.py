"""A plain start answers the first inline roll before icepool, the tables or the rule systems
are imported, and imports them outside the requests' one-second watchdog.

The engine wheel is held back by the server until the reader has clicked the page's first
inline roll and the page has queued a table, a fight and an odds request, so all of them are
waiting when the worker becomes ready. The worker's own record of each reply
(``window.rollbook.imports``: the modules it imported for the request before it began,
the background modules still missing then, and how many it imported while the request ran)
says what it had imported when.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

import rollbook
from rollbook.engine import bridge
from tests.browser.conftest import READY_TIMEOUT_MS, wait_ready
from tests.browser.server import held, plain_forced
from tests.build.bridge_requests import requests

ASSETS = Path(rollbook.__file__).parent / "assets"
ENGINE_WHEEL = r"/assets/rollbook/wheels/rollbook_engine-"
# engine.js LATER_MS: how long the page stays idle before the background imports begin.
LATER_MS = int(
    re.search(
        r"export const LATER_MS = (\d+);", (ASSETS / "page" / "engine.js").read_text("utf-8")
    )[1]  # type: ignore[index]
)


def _first_of(op: str) -> dict[str, Any]:
    return next(request for request in requests() if request["op"] == op)


def test_the_first_roll_waits_for_no_import_and_no_import_runs_under_the_watchdog(
    page: Page, fixture_site: str
) -> None:
    queued = [_first_of("table"), _first_of("fight"), _first_of("odds")]
    with plain_forced(fixture_site), held(fixture_site, ENGINE_WHEEL) as gate:
        page.goto(fixture_site)
        inline = page.locator(".rb-inline").first
        inline.locator("button.rb-roll").click()
        page.evaluate(
            "(requests) => { window.__replies = Promise.all("
            "requests.map((request) => window.rollbook.request(request))); }",
            queued,
        )
        assert page.evaluate("document.documentElement.dataset.rbEngine") != "ready"
        gate.set()
        wait_ready(page)
        expect(inline.locator("output.rb-out")).to_have_text(
            re.compile(r"^\d+$"), timeout=READY_TIMEOUT_MS
        )
        replies = page.evaluate("window.__replies")
    assert page.evaluate("window.rollbook.restored") is False
    records = page.evaluate("window.rollbook.imports")
    first, table, fight, odds = records[:4]
    # The click's roll came first, with none of the rest of the engine imported.
    assert first["waited"] == []
    for module in ("rollbook.engine.tables", "rollbook.engine.systems", "icepool"):
        assert module in first["notYet"]
    # Each later request had its own modules imported before it began, and answered as
    # CPython does with the same seed.
    assert table["waited"] == ["rollbook.engine.tables"]
    assert "rollbook.engine.systems.encounter" in fight["waited"]
    assert "icepool" in odds["waited"]
    for request, reply in zip(queued, replies, strict=True):
        assert "error" not in reply, reply
        assert reply == json.loads(json.dumps(bridge.handle(request)))
    # Nothing was imported under a request's watchdog, and no worker was replaced.
    assert [record["during"] for record in records] == [0] * len(records)
    assert page.evaluate("window.rollbook.workerStarts") == 1


def test_the_rest_of_the_engine_is_imported_once_the_page_is_idle(
    page: Page, fixture_site: str
) -> None:
    with plain_forced(fixture_site):
        page.goto(fixture_site)
        wait_ready(page)
    roll = {"op": "roll", "expr": "2d6", "seed": 3}
    deadline = time.monotonic() + READY_TIMEOUT_MS / 1000
    missing = ["not asked yet"]
    while missing and time.monotonic() < deadline:
        page.evaluate("(request) => window.rollbook.request(request)", roll)
        missing = page.evaluate("window.rollbook.imports.at(-1).notYet")
        if missing:
            page.wait_for_timeout(LATER_MS + 500)  # idle, so the worker goes on importing
    assert missing == []
    assert page.evaluate("window.rollbook.workerStarts") == 1


def test_a_pointer_over_a_button_holds_the_background_imports_back(
    page: Page, fixture_site: str
) -> None:
    # A reader about to click: while the pointer keeps coming over buttons the worker
    # imports nothing in the background, so the click's roll never waits behind an import.
    with plain_forced(fixture_site):
        page.goto(fixture_site)
        wait_ready(page)
    button = page.locator(".rb-inline button.rb-roll").first
    for _ in range(8):  # 3 s and more in all: twice LATER_MS, never LATER_MS between two
        page.mouse.move(0, 0)
        button.hover()
        page.wait_for_timeout(LATER_MS // 4)
    roll = {"op": "roll", "expr": "2d6", "seed": 3}
    page.evaluate("(request) => window.rollbook.request(request)", roll)
    assert "icepool" in page.evaluate("window.rollbook.imports.at(-1).notYet")
    assert "rollbook.engine.tables" in page.evaluate("window.rollbook.imports.at(-1).notYet")
