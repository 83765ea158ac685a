"""Test helper: a fence body (YAML text) -> (dict, positions), as the Markdown side hands it.

Tests may use yaml; the engine may not. Positions map key paths to 1-based lines.
"""

from __future__ import annotations

from typing import Any

import yaml

Path = tuple[Any, ...]


def load(body: str) -> tuple[Any, dict[Path, int]]:
    """Parse a YAML body and record the line of every mapping key and list item."""
    data = yaml.safe_load(body)
    positions: dict[Path, int] = {}

    def walk(node: Any, value: Any, path: Path) -> None:
        if isinstance(node, yaml.MappingNode) and isinstance(value, dict):
            for (key_node, value_node), key in zip(node.value, value, strict=True):
                positions[(*path, key)] = key_node.start_mark.line + 1
                walk(value_node, value[key], (*path, key))
        elif isinstance(node, yaml.SequenceNode) and isinstance(value, list):
            for i, (item_node, item) in enumerate(zip(node.value, value, strict=True)):
                positions[(*path, i)] = item_node.start_mark.line + 1
                walk(item_node, item, (*path, i))

    walk(yaml.compose(body), data, ())
    return data, positions
