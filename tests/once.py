"""One shared step of a test run (a slow build), done by the first xdist worker that asks.

xdist workers share the parent of their temporary folders, so the first worker to get the
lock does the work (``done`` False) and the others find it done (``done`` True).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

__all__ = ["once"]


@contextmanager
def once(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[tuple[Path, bool]]:
    """``(folder, done)`` for the step ``name`` of this run, held under a file lock."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / f"once-{name}"
    with (base / f"once-{name}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            done = (folder / "done").is_file()
            folder.mkdir(exist_ok=True)
            yield folder, done
            (folder / "done").touch()
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
