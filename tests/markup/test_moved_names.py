"""The fence modules' former names (0.1's ``mkdocs.yml`` files name them) still resolve."""

from __future__ import annotations

import importlib

import pytest
import yaml

from rollbook.markup.moved import MOVED

CONFIG = """\
custom_fences:
  - name: roll-table
    validator: !!python/name:rollbook.markup.fences.validator
    format: !!python/name:rollbook.markup.fences.formatter
  - name: statblock
    validator: !!python/name:rollbook.markup.statblock_fence.validator
    format: !!python/name:rollbook.markup.statblock_fence.formatter
  - name: combat
    validator: !!python/name:rollbook.markup.combat_fence.validator
    format: !!python/name:rollbook.markup.combat_fence.formatter
"""


def test_a_former_config_names_the_moved_functions() -> None:
    from mkdocs.utils.yaml import get_yaml_loader

    fences = yaml.load(CONFIG, Loader=get_yaml_loader())["custom_fences"]  # as MkDocs reads it
    now = {
        "roll-table": "rollbook.markup.roll_table.fence",
        "statblock": "rollbook.markup.statblock.fence",
        "combat": "rollbook.markup.combat.fence",
    }
    for fence in fences:
        module = importlib.import_module(now[fence["name"]])
        assert fence["format"] is module.formatter
        assert fence["validator"] is module.validator


@pytest.mark.parametrize("former", sorted(MOVED))
def test_a_former_name_is_the_module_itself(former: str) -> None:
    assert importlib.import_module(former) is importlib.import_module(MOVED[former])


def test_an_unknown_name_still_fails() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("rollbook.markup.no_such_fence")
