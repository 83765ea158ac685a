"""ARCHITECTURE.md is checked against the code where it names files, modules and hooks.

A newcomer finds any behaviour in one hop from it, so every path it names must exist, every
``rollbook.`` name must import, and the hooks it lists must be the ones `System` has.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
CODE = re.findall(r"`([^`\n]+)`", TEXT)

# Paths inside this repository, as the document writes them (`rollbook/markup/html.py`).
_PATH = re.compile(r"^(?:rollbook|tests|types|scripts|docs)/[\w./-]*$")
# Generated or placeholder paths: written by builds, or a pattern (`<package>`, `{a,b}`).
_NOT_IN_GIT = ("rollbook/runtime", "rollbook/guide")


def _paths() -> list[str]:
    found = {c.rstrip("/.,") for c in CODE if _PATH.match(c)}
    return sorted(p for p in found if not p.startswith(_NOT_IN_GIT))


def _names() -> list[str]:
    # Python names only: not the served files (`rollbook.js`) or storage keys it also names.
    python = (
        r"rollbook\.(engine|markup|mkdocs_plugin|site_runtime|offline|cli|scaffold|hugo)(\.\w+)*"
    )
    # Storage keys the browser code writes (`rollbook.offline.removed`) look alike: not names.
    browser = "".join(
        p.read_text(encoding="utf-8") for p in (ROOT / "rollbook/assets").rglob("*.js")
    )
    return sorted(
        {c for c in CODE if re.fullmatch(python, c) and not re.search(rf"[\"'`]{c}", browser)}
    )


def test_the_document_names_enough_to_be_checked() -> None:
    assert len(_paths()) > 30 and len(_names()) > 10


@pytest.mark.parametrize("path", _paths())
def test_every_path_it_names_exists(path: str) -> None:
    assert (ROOT / path).exists(), f"ARCHITECTURE.md names {path}, which does not exist"


@pytest.mark.parametrize("name", _names())
def test_every_rollbook_name_it_names_imports(name: str) -> None:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            assert hasattr(obj, attr), f"ARCHITECTURE.md names {name}: no {attr} in {obj!r}"
            obj = getattr(obj, attr)
        return
    pytest.fail(f"ARCHITECTURE.md names {name}, which does not import")


def test_the_hooks_it_lists_are_the_system_s() -> None:
    from rollbook.engine.systems.base import System

    sentence = TEXT[TEXT.index("the hooks the shared encounter resolver") :]
    sentence = sentence[: sentence.index("widget's exact chances")]
    hooks = re.findall(r"`(\w+)`", sentence)
    assert "play_round" in hooks and len(hooks) >= 5
    for hook in hooks:
        assert callable(getattr(System, hook, None)), f"System has no hook {hook}"
    abstract = set(System.__abstractmethods__)
    assert abstract <= set(hooks), f"hooks not in ARCHITECTURE.md: {abstract - set(hooks)}"
