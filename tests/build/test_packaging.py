"""An installed rollbook carries every file its packages read at run time, not only the .py;
its metadata holds one version and dependency ranges."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

import rollbook
from rollbook.cli import main

REPO = Path(__file__).resolve().parents[2]


def _declared() -> dict[str, list[str]]:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    return config["tool"]["setuptools"]["package-data"]


def _shipped(package: str, patterns: list[str]) -> set[Path]:
    root = REPO / package
    return {path for pattern in patterns for path in root.glob(pattern) if path.is_file()}


def test_every_data_file_of_the_packages_is_declared() -> None:
    declared = _declared()
    missing = []
    for package in ("rollbook",):
        shipped = _shipped(package, declared.get(package, []))
        for path in sorted((REPO / package).rglob("*")):
            if not path.is_file() or path.suffix in {".py", ".pyc"}:
                continue
            if path not in shipped:
                missing.append(str(path.relative_to(REPO)))
    # e.g. rollbook/site_runtime/node/make_snapshot.mjs: without it an installed plugin makes
    # no snapshot
    assert missing == [], f"not in [tool.setuptools.package-data]: {missing}"


# Written by `make dist` into its clean copy only (tests/package checks the wheel has it).
GENERATED = {"runtime/**/*"}


def test_the_declared_patterns_each_match_something() -> None:
    for package, patterns in _declared().items():
        for pattern in patterns:
            if pattern in GENERATED:
                assert not (REPO / package / "runtime").exists(), "runtime/ is never committed"
                continue
            assert _shipped(package, [pattern]), f"{package}: {pattern!r} matches no file"


def test_the_version_is_defined_once(capsys: pytest.CaptureFixture[str]) -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert capsys.readouterr().out == f"rollbook {rollbook.__version__}\n"


def test_dependencies_are_ranges_and_material_is_optional() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    exact = [dep for dep in project["dependencies"] if "==" in dep]
    assert exact == ["icepool==2.2.2"]  # its API moves between minor releases
    assert not [dep for dep in project["dependencies"] if "material" in dep]
    assert project["optional-dependencies"]["material"]
