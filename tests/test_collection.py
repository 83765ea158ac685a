"""The suite runs every test file: none is left out by a collection rule."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_test_file_is_collected() -> None:
    # pytest's default norecursedirs skipped tests/build/ for a long time, silently.
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    collected = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    expected = {p.relative_to(ROOT).as_posix() for p in (ROOT / "tests").rglob("test_*.py")}
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert sorted(expected - collected) == []
