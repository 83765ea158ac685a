"""A build date that depends on the input, so two builds of the same pages are identical.

MkDocs stamps the sitemap (``lastmod``, and the gzip header of ``sitemap.xml.gz``) with the
build time unless ``SOURCE_DATE_EPOCH`` is set. We set it, when the user has not, to the time
of the last commit touching the docs (the input's own date), or else to the newest
modification time of the docs files.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

__all__ = ["input_epoch", "pin_build_date"]


def _git_epoch(docs_dir: Path) -> int | None:
    try:
        out = subprocess.run(
            ["git", "log", "-1", "--format=%ct", "--", "."],
            cwd=docs_dir,
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    text = out.stdout.strip()
    return int(text) if out.returncode == 0 and text.isdigit() else None


def _mtime_epoch(docs_dir: Path) -> int | None:
    times = [int(p.stat().st_mtime) for p in docs_dir.rglob("*") if p.is_file()]
    return max(times, default=None)


def input_epoch(docs_dir: str) -> int | None:
    """Seconds since the epoch that date the docs: last docs commit, else newest file."""
    path = Path(docs_dir)
    if not path.is_dir():
        return None
    return _git_epoch(path) or _mtime_epoch(path)


def pin_build_date(docs_dir: str) -> None:
    """Set ``SOURCE_DATE_EPOCH`` from the docs unless the user already set it."""
    if os.environ.get("SOURCE_DATE_EPOCH"):
        return
    epoch = input_epoch(docs_dir)
    if epoch is not None:
        os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
