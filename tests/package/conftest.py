"""Fixtures for the tests of the released package: ``make dist`` once, one venv from it.

Slow (a wheel build and a ``pip install`` from the package index), so each runs once per
test session and everything else reuses them:

- ``dist_wheel``: the wheel ``make dist`` wrote into ``dist/``;
- ``installed_venv``: the ``bin`` folder of a fresh venv holding that wheel, its
  dependencies at the newest versions the index has (no constraints file), and the newest
  mkdocs-material;
- ``no_node_env``: an environment whose ``PATH`` is that ``bin`` folder alone (no node, no
  npm), for running the venv's commands as a user without Node.js would.

The tests of this folder share one xdist group (``make test`` runs ``--dist loadgroup``),
so one worker builds and installs once.
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

REPO = Path(__file__).resolve().parents[2]
PIP = ["-m", "pip", "install", "--quiet", "--disable-pip-version-check"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.xdist_group("package"))


def _run(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(command, capture_output=True, text=True, check=False, **kwargs)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout}\n{done.stderr}"
    return done  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def dist_wheel() -> Path:
    """``make dist``'s wheel (built from a clean copy of this checkout)."""
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
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("PIP_CONSTRAINT", "VIRTUAL_ENV"))
    }
    env.pop("PYTHONPATH", None)
    return env


@pytest.fixture(scope="session")
def installed_venv(dist_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``bin`` of a fresh venv with the wheel and the newest mkdocs-material installed."""
    venv = tmp_path_factory.mktemp("venv") / "v"
    _run([sys.executable, "-m", "venv", str(venv)])
    bin_dir = venv / "bin"
    env = _clean_pip_env()
    _run([str(bin_dir / "python"), *PIP, str(dist_wheel), "mkdocs-material"], env=env)
    return bin_dir


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
