"""The fence modules' former names, still importable: sites name them in ``mkdocs.yml``.

Before 0.2 the fences lived in ``rollbook.markup.fences``, ``statblock_fence`` and
``combat_fence``, and a site's ``custom_fences`` name their ``validator`` and ``formatter``
there (``!!python/name:rollbook.markup.fences.formatter``). Those names import the moved
module itself, so such a configuration builds unchanged.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType

#: Former module name -> where it lives now.
MOVED = {
    "rollbook.markup.fences": "rollbook.markup.superfences",
    "rollbook.markup.statblock_fence": "rollbook.markup.statblock.fence",
    "rollbook.markup.combat_fence": "rollbook.markup.combat.fence",
}


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds a former name and loads it as the module it moved to."""

    def find_spec(
        self, fullname: str, path: object = None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MOVED:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return importlib.import_module(MOVED[spec.name])

    def exec_module(self, module: ModuleType) -> None:
        """Nothing to run: the module it moved to is imported already."""


def install() -> None:
    """Let the former names import (once per process)."""
    if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
        sys.meta_path.append(_MovedModules())
