"""The browser modules are type-checked: `// @ts-check` in each, and tsc (the pinned
`typescript` dev dependency) finds no error in the page modules or the worker modules.
`make lint` runs the same two commands."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from rollbook.site_runtime.build import browser_assets

ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / "node_modules" / ".bin" / "tsc"


def test_every_browser_module_asks_for_checking() -> None:
    modules = sorted(p for p in browser_assets().values() if p.suffix in {".js", ".mjs"})
    assert len(modules) > 20
    unchecked = [p.name for p in modules if not p.read_text().startswith("// @ts-check\n")]
    assert unchecked == []


def test_worker_modules_are_checked_as_worker_code() -> None:
    # They see the worker's globals (WebWorker lib), the page modules the DOM's.
    page = json.loads((ROOT / "tsconfig.json").read_text())
    worker = json.loads((ROOT / "tsconfig.worker.json").read_text())
    modules = {p for p in worker["include"] if p.endswith(".js")}
    assert "rollbook/assets/worker/**/*.js" in modules
    assert not any(p.startswith("rollbook/assets/worker/") for p in page["include"])


@pytest.mark.parametrize("project", ["tsconfig.json", "tsconfig.worker.json"])
def test_tsc_finds_no_error(project: str) -> None:
    assert TSC.exists(), "run scripts/setup.sh (npm ci installs typescript)"
    proc = subprocess.run(
        [str(TSC), "-p", project], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
