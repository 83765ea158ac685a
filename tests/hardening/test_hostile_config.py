"""`rollbook check` / `rollbook table` never run code from an mkdocs.yml.

They read the config named by ``--config`` or the one in the current folder (as ``mkdocs``
does), never one in a parent folder, and read it with a loader that runs no YAML tag: only
``!!python/name:`` references into the Markdown tool chain, ``!ENV`` and ``!relative``.
Every case has a tripwire file that a call of ``os.system`` would create.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hardening.bounded import assert_one_sentence, rollbook

PAGE = "# Page\n\n![roll:1d6]()\n\n```roll-table\nroll: 1d2\nresults:\n  1: a\n  2: b\n```\n"

FENCES = """\
markdown_extensions:
  - pymdownx.superfences:
      custom_fences:
        - name: roll-table
          class: rollbook
          validator: !!python/name:rollbook.markup.roll_table.fence.validator
          format: {format}
  - rollbook
"""
GOOD_FORMAT = "!!python/name:rollbook.markup.roll_table.fence.formatter"


def trap(tripwire: Path) -> str:
    return f'!!python/object/apply:os.system ["touch {tripwire}"]'


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "page.md").write_text(PAGE, encoding="utf-8")
    return tmp_path


def test_a_config_in_a_parent_folder_is_not_read(tree: Path) -> None:
    tripwire = tree / "PWNED"
    (tree / "mkdocs.yml").write_text(f"site_name: t\nextra:\n  x: {trap(tripwire)}\n")
    done = rollbook(tree / "sub", "check", "page.md")
    assert_one_sentence(done)
    assert not tripwire.exists()
    assert done.returncode == 0
    assert "no mkdocs.yml in this folder; using the default extensions" in done.stderr


@pytest.mark.parametrize(
    "tag",
    [
        '!!python/object/apply:os.system ["touch {wire}"]',
        '!!python/object/new:os.system ["touch {wire}"]',
        "!!python/module:os",
        '!!python/object:builtins.dict {{"a": 1}}',
        "!custom thing",
    ],
)
@pytest.mark.parametrize("how", ["current folder", "--config"])
def test_tags_that_run_code_are_refused_with_file_and_line(tree: Path, tag: str, how: str) -> None:
    tripwire = tree / "PWNED"
    config = tree / "mkdocs.yml"
    config.write_text(f"site_name: t\nextra:\n  x: {tag.format(wire=tripwire)}\n")
    args = ["check", "sub/page.md"] + (["--config", str(config)] if how == "--config" else [])
    done = rollbook(tree, *args)
    assert_one_sentence(done)
    assert not tripwire.exists()
    assert done.returncode == 2
    assert done.stderr.startswith("rollbook: ") and "mkdocs.yml:3: the tag " in done.stderr
    assert done.stderr.count("\n") == 1  # one sentence


@pytest.mark.parametrize(
    "name", ["os.system", "subprocess.run", "builtins.eval", "rollbook.cli.main", "nothing"]
)
def test_names_outside_the_markdown_tool_chain_are_refused(tree: Path, name: str) -> None:
    (tree / "mkdocs.yml").write_text(
        "site_name: t\n" + FENCES.format(format=f"!!python/name:{name}")
    )
    done = rollbook(tree, "check", "sub/page.md")
    assert_one_sentence(done)
    assert done.returncode == 2
    assert f"mkdocs.yml:8: the reference !!python/name:{name} is refused" in done.stderr


def test_inherited_config_is_read_the_same_safe_way(tree: Path) -> None:
    tripwire = tree / "PWNED"
    (tree / "base.yml").write_text(f"extra:\n  x: {trap(tripwire)}\n")
    (tree / "mkdocs.yml").write_text("INHERIT: base.yml\nsite_name: t\n")
    done = rollbook(tree, "check", "sub/page.md")
    assert_one_sentence(done)
    assert not tripwire.exists()
    assert "base.yml:2: the tag !!python/object/apply:os.system is refused" in done.stderr


def test_env_relative_and_tool_chain_names_still_work(tree: Path) -> None:
    (tree / "docs").mkdir()
    (tree / "mkdocs.yml").write_text(
        "site_name: !ENV [ROLLBOOK_NO_SUCH_VARIABLE, fallback]\n"
        "extra:\n  here: !relative $config_dir\n" + FENCES.format(format=GOOD_FORMAT)
    )
    done = rollbook(tree, "check", "sub/page.md")
    assert_one_sentence(done)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "rollbook: settings from mkdocs.yml" in done.stderr
    table = rollbook(tree, "table", "sub/page.md", "page", "--seed", "1")
    assert table.returncode == 0, table.stderr
    assert "settings from mkdocs.yml" in table.stderr


HOOK = "import pathlib\npathlib.Path({wire!r}).write_text('ran')\n"


@pytest.mark.parametrize("command", ["check", "table"])
def test_hooks_plugins_and_local_extensions_never_run(tree: Path, command: str) -> None:
    """The config is data: hooks are not imported, plugins not loaded, local modules refused."""
    tripwire = tree / "PWNED"
    (tree / "hook.py").write_text(HOOK.format(wire=str(tripwire)), encoding="utf-8")
    (tree / "mkdocs.yml").write_text(
        "site_name: t\nhooks:\n  - hook.py\nplugins:\n  - no-such-plugin-anywhere\n"
        "  - rollbook:\n      presets: {dm: {odds: true}}\n"
        "theme:\n  name: no-such-theme\n" + FENCES.format(format=GOOD_FORMAT),
        encoding="utf-8",
    )
    args = ["sub/page.md"] + (["page", "--seed", "1"] if command == "table" else [])
    done = rollbook(tree, command, *args)
    assert_one_sentence(done)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not tripwire.exists()

    (tree / "mkdocs.yml").write_text(
        "site_name: t\nmarkdown_extensions:\n  - hook\n", encoding="utf-8"
    )
    done = rollbook(tree, command, *args)
    assert_one_sentence(done)
    assert done.returncode == 2 and not tripwire.exists()
    assert "the Markdown extension 'hook' is " in done.stderr
    assert "never run a site's own code" in done.stderr


@pytest.mark.parametrize(
    ("plugin", "said"),
    [
        ("presets: 3", "the rollbook setting 'presets' is not valid"),
        ("enabled: maybe", "the rollbook setting 'enabled' is not valid"),
        ("gm_screen: ../x", "the rollbook setting 'gm_screen' is not valid"),
    ],
)
def test_rollbook_options_are_checked_by_its_own_schema(tree: Path, plugin: str, said: str) -> None:
    (tree / "mkdocs.yml").write_text(
        f"site_name: t\nplugins:\n  - rollbook:\n      {plugin}\n", encoding="utf-8"
    )
    done = rollbook(tree, "check", "sub/page.md")
    assert_one_sentence(done)
    assert done.returncode == 2 and said in done.stderr, done.stderr
