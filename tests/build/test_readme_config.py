"""The README's "Using it in your own site" configuration, as a reader would copy it.

The three-line set-up names the plugin only; the explicit form (for hosts without MkDocs
plugins) must be valid YAML for MkDocs, name every fence the demo's mkdocs.yml uses, and
turn each kind of markup into its widget when Python-Markdown runs the extensions it lists.
"""

from __future__ import annotations

import logging
import re
import textwrap
from pathlib import Path
from typing import Any

import markdown
import pytest
from mkdocs.utils.yaml import yaml_load

ROOT = Path(__file__).resolve().parents[2]

PAGE = textwrap.dedent("""
    Roll ![roll:1d20]() under your Agility.

    ```roll-table
    roll: 1d6
    results:
      1--3: Rain
      4--6: Sun
    ```

    ```roll-list
    results:
      - Lantern
      - Rope
    ```

    ```statblock
    system: dark-dungeons
    name: Orc
    hp: 6
    damage: 1d8
    ```

    ```combat
    system: dark-dungeons
    sides:
      party:
        - name: Hero
          hp: 8
          damage: 1d8
      foes:
        - orc
    ```
""")


def _block(heading: str) -> str:
    """The first indented block of the README section ``heading``."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split(heading, 1)[1].split("\n#", 1)[0] + "\n"
    block = re.search(r"\n\n((?:    .*\n|\n)+)", section)
    assert block, f"{heading!r} no longer holds an indented block"
    return textwrap.dedent(block.group(1))


def _snippet() -> dict[str, Any]:
    """The explicit form, for hosts without MkDocs plugins."""
    config: dict[str, Any] = yaml_load(_block("### The explicit form"))
    return config


def test_the_readme_setup_is_three_lines_and_one_of_them_mkdocs_yml() -> None:
    lines = _block("## Using it in your own site").strip().splitlines()
    assert [line.split("#")[0].strip() for line in lines] == [
        "pip install rollbook",
        "plugins: [search, rollbook]",
        "mkdocs serve",
    ]
    assert yaml_load(lines[1]) == {"plugins": ["search", "rollbook"]}


def _fences(extensions: list[Any]) -> list[dict[str, Any]]:
    for entry in extensions:
        if isinstance(entry, dict) and "pymdownx.superfences" in entry:
            fences: list[dict[str, Any]] = entry["pymdownx.superfences"]["custom_fences"]
            return fences
    raise AssertionError("no pymdownx.superfences entry")


def test_the_readme_names_every_fence_of_the_demo_config() -> None:
    ours = _fences(_snippet()["markdown_extensions"])
    demo_config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    demo = _fences(demo_config["markdown_extensions"])
    assert [(f["name"], f["validator"], f["format"]) for f in ours] == [
        (f["name"], f["validator"], f["format"]) for f in demo
    ]
    assert "rollbook" in _snippet()["markdown_extensions"]


def test_the_readme_extensions_render_every_widget(caplog: pytest.LogCaptureFixture) -> None:
    extensions: list[Any] = []
    configs: dict[str, Any] = {}
    for entry in _snippet()["markdown_extensions"]:
        if isinstance(entry, dict):
            ((name, options),) = entry.items()
            extensions.append(name)
            configs[name] = options
        else:
            extensions.append(entry)
    html = markdown.Markdown(extensions=extensions, extension_configs=configs).convert(PAGE)
    assert 'class="rb-inline"' in html
    assert html.count('class="rb-table') == 2  # the table and the list
    assert 'class="rb-statblock' in html
    assert 'class="rb-combat' in html
    assert "rb-error" not in html
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
