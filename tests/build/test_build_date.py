"""The plugin dates a build by its input, so sitemaps do not change from one day to the next."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from rollbook.mkdocs_plugin.build_date import input_epoch, pin_build_date

ROOT = Path(__file__).resolve().parents[2]


def test_docs_in_git_are_dated_by_their_last_commit() -> None:
    expected = subprocess.run(
        ["git", "log", "-1", "--format=%ct", "--", "docs"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not expected:  # docs not committed yet in this checkout: dated by their files
        files = [p for p in (ROOT / "docs").rglob("*") if p.is_file()]
        expected = str(max(int(p.stat().st_mtime) for p in files))
    assert input_epoch(str(ROOT / "docs")) == int(expected)


def test_docs_outside_git_are_dated_by_their_newest_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "a.md").write_text("# A\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.md").write_text("# B\n")
    os.utime(tmp_path / "a.md", (1_700_000_000, 1_700_000_000))
    os.utime(tmp_path / "sub" / "b.md", (1_700_000_500, 1_700_000_500))
    # stop git from finding an enclosing repository above tmp
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert input_epoch(str(tmp_path)) == 1_700_000_500


def test_a_date_the_user_set_wins(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "12345")
    pin_build_date(str(tmp_path))
    assert os.environ["SOURCE_DATE_EPOCH"] == "12345"


def test_an_unset_date_is_pinned(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A\n")
    os.utime(tmp_path / "a.md", (1_650_000_000, 1_650_000_000))
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    pin_build_date(str(tmp_path))
    assert os.environ["SOURCE_DATE_EPOCH"] == "1650000000"
