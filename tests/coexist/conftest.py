"""Chromium for the coexistence suite: the browser suite's fixtures."""

from tests.browser.conftest import browser, context, page  # noqa: F401
