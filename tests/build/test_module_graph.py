"""The browser modules' entry points name their whole static import graph.

A module's imports are only fetched once it has been read, so a graph five levels deep
costs five round trips before the page's scripts run (0.3 s on a 60 ms link). The page's
entry (rollbook.js) and the engine worker's (worker.js) import every module of their
graph directly, so the browser fetches them all after reading the entry: one level.
Dynamic imports (combat.mjs, loaded on pages with a fight) are not part of it, except
the worker's: it asks for the manifest first, then imports its whole graph at once.
"""

from __future__ import annotations

import re

import pytest

from rollbook.site_runtime.build import browser_assets

ASSETS = browser_assets()  # served name -> source file (the site serves them side by side)
_STATIC = re.compile(
    r'^\s*(?:import|export)\s[^;]*?\sfrom\s+"\./([\w.-]+)"|^\s*import\s+"\./([\w.-]+)"', re.M
)


_DYNAMIC = re.compile(r'\bimport\("\./([\w.-]+)"\)')


def _imports(name: str) -> set[str]:
    text = ASSETS[name].read_text(encoding="utf-8")
    found = {a or b for a, b in _STATIC.findall(text)}
    return found | set(_DYNAMIC.findall(text)) if name == "worker.js" else found


def _graph(entry: str) -> set[str]:
    seen: set[str] = set()
    todo = [entry]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_imports(name))
    return seen - {entry}


@pytest.mark.parametrize("entry", ["rollbook.js", "worker.js"])
def test_the_entry_imports_its_whole_graph_directly(entry: str) -> None:
    graph = _graph(entry)
    assert len(graph) >= 5
    assert graph - _imports(entry) == set()


def test_the_reader_finds_static_and_side_effect_imports() -> None:
    assert {"engine.js", "storage.js", "chart.js"} <= _imports("rollbook.js")
    assert "combat.mjs" not in _graph("rollbook.js")  # a dynamic import: pages with fights
    assert "sha256.js" in _imports("wheel-check.js")
    assert {"fetchfile.js", "sha256.js"} <= _imports("worker.js")  # dynamic, after the manifest
