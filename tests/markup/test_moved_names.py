"""The fence modules' former names (0.1's ``mkdocs.yml`` files name them) still resolve."""

from __future__ import annotations

import importlib

import pytest
import yaml

from rollbook.markup.moved import MOVED
from rollbook.markup.superfences import CUSTOM_FENCES

CONFIG = """\
custom_fences:
  - name: roll-table
    class: rollbook
    validator: !!python/name:rollbook.markup.fences.validator
    format: !!python/name:rollbook.markup.fences.formatter
  - name: roll-list
    class: rollbook
    validator: !!python/name:rollbook.markup.fences.validator
    format: !!python/name:rollbook.markup.fences.formatter
  - name: statblock
    class: rollbook
    validator: !!python/name:rollbook.markup.statblock_fence.validator
    format: !!python/name:rollbook.markup.statblock_fence.formatter
  - name: combat
    class: rollbook
    validator: !!python/name:rollbook.markup.combat_fence.validator
    format: !!python/name:rollbook.markup.combat_fence.formatter
"""


def _former_fences() -> list[dict[str, object]]:
    from mkdocs.utils.yaml import get_yaml_loader

    fences: list[dict[str, object]] = yaml.load(CONFIG, Loader=get_yaml_loader())["custom_fences"]
    return fences  # as MkDocs reads it


def test_a_former_config_names_the_moved_functions() -> None:
    fences = {fence["name"]: fence for fence in _former_fences()}
    for name in ("statblock", "combat"):
        module = importlib.import_module(f"rollbook.markup.{name}.fence")
        assert fences[name]["format"] is module.formatter
        assert fences[name]["validator"] is module.validator


def test_the_former_table_functions_draw_each_table_fence_as_its_own() -> None:
    import markdown

    page = (
        "```roll-table\nroll: 1d2\nresults: {1: a, 2: b}\n```\n\n"
        "```roll-list\nresults: [c, d]\n```\n"
    )
    html = {}
    for fences in (_former_fences(), CUSTOM_FENCES):
        md = markdown.Markdown(
            extensions=["pymdownx.superfences", "rollbook"],
            extension_configs={"pymdownx.superfences": {"custom_fences": fences}},
        )
        html[id(fences)] = md.convert(page)
    former, now = html.values()
    assert former == now
    assert '<ol class="rb-rows"' in now and "<table" in now


@pytest.mark.parametrize("former", sorted(MOVED))
def test_a_former_name_is_the_module_itself(former: str) -> None:
    assert importlib.import_module(former) is importlib.import_module(MOVED[former])


def test_an_unknown_name_still_fails() -> None:
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("rollbook.markup.no_such_fence")
