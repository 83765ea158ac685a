"""Fixtures of the coexistence suite: each fixture site built (strictly) twice, once per
session, and served; Chromium from the browser suite."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.conftest import browser, context, mkdocs_build, page  # noqa: F401
from tests.coexist.sites import Case, write_site


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Callable[[Case], tuple[Path, Path]]:
    """``built(case)``: the two output folders of the case's site, built on first use."""
    done: dict[str, tuple[Path, Path]] = {}

    def get(case: Case) -> tuple[Path, Path]:
        if case.name not in done:
            root = tmp_path_factory.mktemp(f"coexist-{case.name}")
            config = write_site(case, root / "project")
            done[case.name] = (
                mkdocs_build(config, root / "first"),
                mkdocs_build(config, root / "second"),
            )
        return done[case.name]

    return get
