"""Shared pieces of the hardening browser tests: the script tripwire and engine waits."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser.conftest import READY_TIMEOUT_MS

# Any injected script, handler or javascript: URL would set this or open a dialog.
TRIPWIRE = "window.__pwned === undefined"


def arm(page: Page) -> list[str]:
    """Fail-fast hooks: dialogs are recorded (and dismissed); returns the record."""
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:  # type: ignore[no-untyped-def]
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    return dialogs


def ready(page: Page) -> None:
    page.wait_for_function(
        "document.documentElement.dataset.rbEngine === 'ready'", timeout=READY_TIMEOUT_MS
    )


def request(page: Page, req: dict) -> dict:
    """One bridge request through the page's worker (retried once if the watchdog fired:
    a first import on a loaded machine can exceed the runtime's one-second budget)."""
    for _ in range(2):
        reply: dict = page.evaluate("req => window.rollbook.request(req)", req)
        if reply.get("kind") != "Runaway":
            return reply
        ready(page)
    return reply
