"""The pymdownx.superfences configuration of rollbook's fences (``custom_fences``).

Each fence lives in the package named after it (``roll-table``: ``rollbook.markup.roll_table``)
and its ``fence`` module has the ``validator`` and ``formatter`` superfences calls.
``RollbookExtension`` makes superfences match the names in any letter case (``ROLL-TABLE``
too; superfences alone compares names exactly)::

    custom_fences:
      - name: roll-table
        class: rollbook
        validator: !!python/name:rollbook.markup.roll_table.fence.validator
        format: !!python/name:rollbook.markup.roll_table.fence.formatter
      - name: roll-list        # and statblock, combat: the same with their package
        class: rollbook
        validator: !!python/name:rollbook.markup.roll_list.fence.validator
        format: !!python/name:rollbook.markup.roll_list.fence.formatter

:data:`CUSTOM_FENCES` is that configuration for use from Python (``rollbook check``, the
plugin's zero-config set-up, the Hugo importer). Before 0.2 both table fences named
``rollbook.markup.fences.validator`` / ``formatter``: that name is this module
(``rollbook.markup.moved``), whose ``validator`` and ``formatter`` still take either.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from markdown import Markdown

from rollbook.markup.prescan import FENCE_NAMES, fence_name
from rollbook.markup.roll_table import fence as roll_table_fence

__all__ = ["CUSTOM_FENCES", "fence_module", "formatter", "validator"]


def fence_module(name: str) -> ModuleType:
    """The ``fence`` module of the fence written ``name`` (``roll-table``, ``combat``)."""
    return importlib.import_module(f"rollbook.markup.{name.replace('-', '_')}.fence")


CUSTOM_FENCES: list[dict[str, Any]] = [
    {
        "name": name,
        "class": "rollbook",
        "validator": fence_module(name).validator,
        "format": fence_module(name).formatter,
    }
    for name in FENCE_NAMES
]


validator = roll_table_fence.validator  # 0.1's validator of both table fences


def formatter(
    src: str, language: str, class_name: str, options: dict[str, Any], md: Markdown, **kwargs: Any
) -> str:
    """0.1's formatter of both table fences: the HTML of the fence its language names."""
    module = fence_module(fence_name(language))
    return str(module.formatter(src, language, class_name, options, md, **kwargs))
