"""Browser fixtures for the hardening suite: the tests/browser ones, plus a crafted site."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.conftest import browser, context, mkdocs_build, page  # noqa: F401
from tests.browser.server import serve

SITE_CONFIG = Path(__file__).resolve().parent / "site" / "mkdocs.yml"


@pytest.fixture(scope="session")
def hard_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of tests/hardening/site, built once per session (per xdist worker)."""
    dest = mkdocs_build(SITE_CONFIG, tmp_path_factory.mktemp("hardening-site"))
    with serve(dest) as base:
        yield base
