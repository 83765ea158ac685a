"""Zero-config: ``plugins: [search, rollbook]`` alone renders every kind of rollbook markup.

The plugin adds the ``rollbook`` Markdown extension and the four superfences fences when
mkdocs.yml lacks them, and never a second copy of what the author lists.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import markdown
import pytest
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig

from rollbook.cli import main as cli_main
from rollbook.mkdocs_plugin.markdown_setup import SUPERFENCES
from tests.build.test_readme_config import PAGE

ROOT = Path(__file__).resolve().parents[2]
FENCE_NAMES = ["roll-table", "roll-list", "statblock", "combat"]


def _config(tmp_path: Path, yml: str) -> MkDocsConfig:
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(yml, encoding="utf-8")
    config = load_config(str(tmp_path / "mkdocs.yml"))
    config.plugins.on_config(config)
    return config


def _convert(config: MkDocsConfig, text: str = PAGE) -> str:
    md = markdown.Markdown(
        extensions=config.markdown_extensions, extension_configs=config.mdx_configs
    )
    return md.convert(text)


def _fence_names(config: MkDocsConfig) -> list[str]:
    fences: list[dict[str, Any]] = config.mdx_configs[SUPERFENCES]["custom_fences"]
    return [str(f["name"]) for f in fences]


def test_plugin_alone_renders_inline_rolls_and_all_four_fences(tmp_path, caplog):
    config = _config(tmp_path, "site_name: t\nplugins:\n  - search\n  - rollbook\n")
    with caplog.at_level(logging.WARNING):
        html = _convert(config)
    assert 'class="rb-inline"' in html
    assert html.count('class="rb-table') == 2  # the table and the list
    assert 'class="rb-statblock' in html
    assert 'class="rb-combat' in html
    assert "rb-error" not in html and "<img" not in html
    assert not [r.getMessage() for r in caplog.records]
    assert config.markdown_extensions.count("rollbook") == 1
    assert _fence_names(config) == FENCE_NAMES


def test_the_explicit_form_is_not_duplicated(tmp_path):
    config = load_config(str(ROOT / "mkdocs.yml"))
    before = list(config.markdown_extensions)
    for _ in range(2):  # `mkdocs serve` runs on_config again on every reload
        config.plugins.on_config(config)
    assert config.markdown_extensions == before
    assert _fence_names(config) == FENCE_NAMES
    # Its options stay the author's: the demo's presets reach the pages.
    assert "quiet" in config.mdx_configs["rollbook"]["presets"]


def test_the_authors_other_fences_stay_and_ours_are_added(tmp_path):
    yml = (
        "site_name: t\nplugins: [rollbook]\nmarkdown_extensions:\n"
        "  - pymdownx.superfences:\n      custom_fences:\n"
        "        - name: ROLL-TABLE\n"
        "          class: rollbook\n"
        "          format: !!python/name:rollbook.markup.roll_table.fence.formatter\n"
        "          validator: !!python/name:rollbook.markup.roll_table.fence.validator\n"
        "        - name: diagram\n"
        "          class: diagram\n"
        "          format: !!python/name:pymdownx.superfences.fence_code_format\n"
    )
    config = _config(tmp_path, yml)
    assert _fence_names(config) == ["ROLL-TABLE", "diagram", "roll-list", "statblock", "combat"]
    assert config.markdown_extensions.count(SUPERFENCES) == 1
    html = _convert(config, PAGE + "\n```diagram\na -> b\n```\n")
    assert html.count('class="rb-table') == 2 and 'class="diagram"' in html


def test_configure_markdown_false_without_the_extension_names_the_fix(tmp_path, caplog):
    yml = "site_name: t\nplugins:\n  - rollbook:\n      configure_markdown: false\n"
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.rollbook"):
        config = _config(tmp_path, yml)
    assert "rollbook" not in config.markdown_extensions
    messages = [r.getMessage() for r in caplog.records if r.name == "mkdocs.plugins.rollbook"]
    assert messages == [
        "rollbook: the plugin's `configure_markdown: false` leaves out the `rollbook` Markdown "
        "extension, so rolls render as broken images: add `- rollbook` under "
        "`markdown_extensions`, or drop `configure_markdown: false`."
    ]


def test_the_cli_converts_a_zero_config_site_like_the_build(tmp_path, capsys):
    _config(tmp_path, "site_name: t\nplugins:\n  - search\n  - rollbook\n")
    page = tmp_path / "docs" / "index.md"
    page.write_text(PAGE.replace("roll: 1d6\n", "id: weather\nroll: 1d6\n"), encoding="utf-8")
    assert cli_main(["table", str(page), "weather", "--seed", "3", "--json"]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["row"] in {0, 1} and reply["text"].endswith(("Rain", "Sun"))
    assert cli_main(["check", str(page)]) == 0


@pytest.mark.parametrize("name", ["rollbook.markup.extension", "rollbook"])
def test_an_extension_named_by_module_path_counts_as_listed(tmp_path, name):
    yml = f"site_name: t\nplugins: [rollbook]\nmarkdown_extensions:\n  - {name}\n"
    config = _config(tmp_path, yml)
    assert [n for n in config.markdown_extensions if n.startswith("rollbook")] == [name]
