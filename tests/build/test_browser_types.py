"""The browser code is type-checked and linted: `// @ts-check` in each module, tsc --strict
(the pinned `typescript` dev dependency) finds no error in the page modules, the engine
worker's or the offline service worker's, and Biome (pinned too) finds nothing to lint or
format in the JS and CSS. `make lint` runs the same commands."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from rollbook.site_runtime.build import browser_assets

ROOT = Path(__file__).resolve().parents[2]
TSC = ROOT / "node_modules" / ".bin" / "tsc"
BIOME = ROOT / "node_modules" / ".bin" / "biome"
PROJECTS = ["tsconfig.json", "tsconfig.worker.json", "tsconfig.sw.json"]
OFFLINE = ROOT / "rollbook" / "assets" / "offline"


def test_every_browser_module_asks_for_checking() -> None:
    served = [p for p in browser_assets().values() if p.suffix in {".js", ".mjs"}]
    modules = sorted([*served, *OFFLINE.glob("*.js")])
    assert len(modules) > 20 and OFFLINE / "service_worker.js" in modules
    unchecked = [p.name for p in modules if not p.read_text().startswith("// @ts-check\n")]
    assert unchecked == []


def test_worker_modules_are_checked_as_worker_code() -> None:
    # They see the worker's globals (WebWorker lib), the page modules the DOM's.
    page = json.loads((ROOT / "tsconfig.json").read_text())
    worker = json.loads((ROOT / "tsconfig.worker.json").read_text())
    modules = {p for p in worker["include"] if p.endswith(".js")}
    assert "rollbook/assets/worker/**/*.js" in modules
    assert not any(p.startswith("rollbook/assets/worker/") for p in page["include"])


def test_every_project_is_strict_and_the_service_worker_one_of_them() -> None:
    base = json.loads((ROOT / "tsconfig.json").read_text())
    assert base["compilerOptions"]["strict"] is True
    for project in PROJECTS[1:]:
        config = json.loads((ROOT / project).read_text())
        assert config["extends"] == "./tsconfig.json"
        assert "strict" not in config.get("compilerOptions", {})
    service = json.loads((ROOT / "tsconfig.sw.json").read_text())
    assert "rollbook/assets/offline/**/*.js" in service["include"]
    assert "WebWorker" in service["compilerOptions"]["lib"]


@pytest.mark.parametrize("project", PROJECTS)
def test_tsc_finds_no_error(project: str) -> None:
    assert TSC.exists(), "run scripts/setup.sh (npm ci installs typescript)"
    proc = subprocess.run(
        [str(TSC), "-p", project], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_biome_finds_nothing_to_lint_or_format() -> None:
    assert BIOME.exists(), "run scripts/setup.sh (npm ci installs @biomejs/biome)"
    proc = subprocess.run(
        [str(BIOME), "check", "--colors=off"], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
