"""Run the ``rollbook`` command or ``mkdocs build`` in a child process with bounded memory.

The address-space limit turns "grows until the machine gives up" into a quick failure
(MemoryError, a crash) that the tests see; the timeout only guards against a hang.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MEMORY = 1536 * 1024 * 1024  # bytes of address space: ample for mkdocs, far below a bomb
HANG_GUARD = 120  # seconds; never reached by a passing test


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def run_bounded(argv: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m ARGV...`` (e.g. ``["rollbook.cli", "check", "p.md"]``) in ``cwd``."""
    return subprocess.run(
        [sys.executable, "-m", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        preexec_fn=_limit_memory,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)},
        check=False,
    )


def rollbook(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The ``rollbook`` command in ``cwd`` under the memory limit."""
    return run_bounded(["rollbook.cli", *args], cwd)


def assert_one_sentence(done: subprocess.CompletedProcess[str]) -> None:
    """No traceback, no crash: the child ended by itself with an exit status it chose."""
    assert done.returncode in (0, 1, 2), (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr + done.stdout, done.stderr[-2000:]
