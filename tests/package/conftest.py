"""Fixtures for the tests of the released package: ``make dist`` once, one venv from it.

Slow (a wheel build and a ``pip install`` from the package index), so each runs once per
test session and everything else reuses them:

- ``dist_wheel``: the wheel ``make dist`` wrote into ``dist/``;
- ``installed_venv``: the ``bin`` folder of a fresh venv holding that wheel, its
  dependencies at the newest versions the index has (no constraints file), and the newest
  mkdocs-material;
- ``no_node_env``: an environment whose ``PATH`` is that ``bin`` folder alone (no node, no
  npm), for running the venv's commands as a user without Node.js would.

Under xdist both workers may ask for them: ``tests.once`` lets the first one build and
install, and the other reuse its result.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.conftest import browser, context, page  # noqa: F401 - fixtures reused
from tests.once import once

REPO = Path(__file__).resolve().parents[2]
PIP = ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]


def _run(
    command: list[str], *, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="session")
def dist_wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``make dist``'s wheel (built from a clean copy of this checkout), once per run."""
    with once(tmp_path_factory, "package-dist") as (_, done):
        if not done:
            for old in (REPO / "dist").glob("rollbook-*.whl"):
                old.unlink()
            make = shutil.which("make")
            if make:
                _run([make, "-s", "dist"], cwd=REPO)
            else:  # the same command the Makefile runs
                _run([sys.executable, str(REPO / "scripts" / "make_dist.py")], cwd=REPO)
    wheels = sorted((REPO / "dist").glob("rollbook-*.whl"))
    assert len(wheels) == 1, f"make dist wrote {wheels}"
    return wheels[0]


def _clean_pip_env() -> dict[str, str]:
    """This process's environment without anything that would pin or redirect pip."""
    drop = ("PIP_CONSTRAINT", "VIRTUAL_ENV", "PYTHONPATH")
    return {k: v for k, v in os.environ.items() if not k.startswith(drop)}


@pytest.fixture(scope="session")
def installed_venv(dist_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``bin`` of a fresh venv with the wheel and the newest mkdocs-material, once per run."""
    with once(tmp_path_factory, "package-venv") as (folder, done):
        venv = folder / "v"
        if not done:
            _run([sys.executable, "-m", "venv", str(venv)])
            command = [str(venv / "bin" / "python"), *PIP, str(dist_wheel), "mkdocs-material"]
            _run(command, env=_clean_pip_env())
    return venv / "bin"


@pytest.fixture(scope="session")
def no_node_env(installed_venv: Path) -> dict[str, str]:
    """Environment for the venv's commands: PATH holds the venv alone (no node, no npm)."""
    env = {
        "HOME": os.environ.get("HOME", "/tmp"),
        "PATH": str(installed_venv),
        "LANG": "C.UTF-8",
        "NO_MKDOCS_2_WARNING": "1",
    }
    for tool in ("node", "npm"):
        assert shutil.which(tool, path=env["PATH"]) is None
    return env


@pytest.fixture(scope="session")
def site_factory(tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """Make a site folder: ``make(name, mkdocs_yml, pages: dict[path, text]) -> Path``."""

    def make(name: str, yml: str, pages: dict[str, str]) -> Path:
        root = tmp_path_factory.mktemp(name)
        (root / "mkdocs.yml").write_text(yml, encoding="utf-8")
        for rel, text in pages.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
        return root

    yield make
