"""Fixtures for every test folder."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _build_date_stays_in_its_test() -> Iterator[None]:
    """Undo a ``SOURCE_DATE_EPOCH`` an in-process build set (``pin_build_date``).

    Left set, it would date the builds of later tests in the same worker, which run
    ``mkdocs build`` with this process's environment (git-revision-date's page dates).
    """
    before = os.environ.get("SOURCE_DATE_EPOCH")
    yield
    if before is None:
        os.environ.pop("SOURCE_DATE_EPOCH", None)
    else:
        os.environ["SOURCE_DATE_EPOCH"] = before
