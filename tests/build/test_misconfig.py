"""Every way of wiring rollbook in wrongly gives one sentence that names the fix, no traceback."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import markdown
import pytest

from rollbook.markup import extension, page_state
from rollbook.markup.page_state import FEATURES
from rollbook.mkdocs_plugin.config import RollbookConfig

PAGE = textwrap.dedent("""\
    # Weather

    ![roll:1d6]()

    ```roll-table
    roll: 1d6
    results:
      1--3: Rain
      4--6: Sun
    ```
""")


def mkdocs_build(tmp_path: Path, yml: str) -> subprocess.CompletedProcess[str]:
    (tmp_path / "docs").mkdir(exist_ok=True)
    (tmp_path / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(textwrap.dedent(yml), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )


def problems(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith(("WARNING", "ERROR"))]


def test_the_extension_knows_every_plugin_option():
    # presets, the three default switches, language and strings are options of both.
    shared = {*extension.SHARED_OPTIONS, *FEATURES}
    options = {name for name, _ in RollbookConfig._schema} - shared
    assert options == extension.PLUGIN_OPTIONS


def test_a_plugin_option_under_the_extension_names_where_it_belongs(tmp_path):
    done = mkdocs_build(
        tmp_path,
        """\
        site_name: t
        plugins: [rollbook]
        markdown_extensions:
          - rollbook:
              pyodide_required: false
        """,
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "KeyError" not in done.stderr
    assert problems(done.stderr) == [
        "ERROR   -  rollbook: `pyodide_required` is an option of the rollbook MkDocs plugin, "
        "not of the Markdown extension: move it under `plugins: - rollbook:` in mkdocs.yml."
    ]


def test_an_unknown_extension_option_without_the_plugin_is_a_warning(monkeypatch, caplog):
    monkeypatch.setattr(page_state, "_WARNED", set())
    configs = {"rollbook": {"preset": {"quiet": {"odds": False}}}}
    with caplog.at_level(logging.WARNING, logger="mkdocs.rollbook.markup"):
        md = markdown.Markdown(extensions=["rollbook"], extension_configs=configs)
        html = md.convert("![roll:1d6]()\n")
        md.reset()
        md.convert("![roll:1d8]()\n")  # said once, not on every page
    assert 'data-roll="1d6"' in html
    assert [r.getMessage() for r in caplog.records] == [
        "rollbook: the rollbook Markdown extension has no option `preset`: its options are "
        "`presets`, `plain_tables`, `prose_dice`, `obsidian`, `language` and `strings` (the "
        "MkDocs plugin's options go under `plugins: - rollbook:`)."
    ]


def test_fences_without_superfences_are_named_with_page_and_line(tmp_path):
    done = mkdocs_build(
        tmp_path,
        """\
        site_name: t
        plugins:
          - rollbook:
              configure_markdown: false
              snapshot: false
        markdown_extensions:
          - rollbook
        """,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert problems(done.stderr)[0] == (
        "WARNING -  docs/index.md:5: roll-table: this block was not rendered (it shows as "
        "code): pymdownx.superfences does not list rollbook's `roll-table` fence. Use the MkDocs "
        "plugin `rollbook` (it adds the fences), or add rollbook's fences to superfences' "
        "`custom_fences` (see the README)."
    )


@pytest.mark.parametrize("fences", [[], ["toc"], ["pymdownx.superfences"]])
def test_plain_markdown_without_our_fences_warns_per_block(fences, caplog):
    text = PAGE + "\n```statblock\nsystem: scars\nname: Rat\n```\n"
    with caplog.at_level(logging.WARNING, logger="mkdocs.rollbook.markup"):
        markdown.markdown(text, extensions=[*fences, "rollbook"])
    messages = [r.getMessage() for r in caplog.records]
    assert [m.split(" this block")[0] for m in messages] == [
        "rollbook: line 5: roll-table:",
        "rollbook: line 12: statblock:",
    ]


def test_the_configured_fences_give_no_such_warning(caplog):
    from rollbook.markup.superfences import CUSTOM_FENCES

    configs = {"pymdownx.superfences": {"custom_fences": CUSTOM_FENCES}}
    with caplog.at_level(logging.WARNING):
        html = markdown.markdown(
            PAGE, extensions=["pymdownx.superfences", "rollbook"], extension_configs=configs
        )
    assert 'class="rb-table' in html
    assert not caplog.records
