"""YAML bodies are bounded by the input's size: aliases are counted, never expanded.

A few hundred bytes of anchors and aliases (the billion laughs) or of nested brackets must
get one ``page.md:LINE`` sentence, quickly and in little memory, from every fence, from front
matter, from a fight file, from ``rollbook check`` and from ``mkdocs build``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rollbook.engine.limits import value
from rollbook.markup.yamlsize import YamlSizeError, check_size
from tests.hardening.bounded import assert_one_sentence, rollbook, run_bounded

FENCES = ("roll-table", "roll-list", "statblock", "combat")


def laughs(levels: int = 9) -> str:
    """``a`` holds nine strings, ``b`` nine ``a``, ...: 9**levels strings in ~40 bytes a line."""
    names = "abcdefghijklmnop"
    text = "a: &a [" + ", ".join(["lol"] * 9) + "]\n"
    for i in range(1, levels):
        text += f"{names[i]}: &{names[i]} [" + ", ".join([f"*{names[i - 1]}"] * 9) + "]\n"
    return text


def deep(levels: int = 100_000) -> str:
    return "x: " + "[" * levels + "]" * levels + "\n"


NODES = "once every alias (*name) is counted as a copy of what it names (the yaml_nodes limit)"
DEPTH = f"more than {value('yaml_depth')} levels deep (the yaml_depth limit)"


def lines_of(out: str, page: str) -> list[int]:
    return [int(n) for n in re.findall(rf"^{re.escape(page)}:(\d+): ", out, re.M)]


@pytest.mark.parametrize("kind", FENCES)
def test_billion_laughs_in_each_fence_is_one_message(tmp_path: Path, kind: str) -> None:
    body = laughs()
    (tmp_path / "bomb.md").write_text(f"# Bomb\n\n```{kind}\n{body}```\n", encoding="utf-8")
    done = rollbook(tmp_path, "check", "bomb.md")
    assert_one_sentence(done)
    assert done.returncode == 1
    assert NODES in done.stdout
    # the line of the alias that crosses the limit, inside the fence's body (lines 4..12)
    assert all(4 <= n <= 3 + body.count("\n") for n in lines_of(done.stdout, "bomb.md"))
    assert lines_of(done.stdout, "bomb.md")


@pytest.mark.parametrize("kind", FENCES)
def test_deep_nesting_in_each_fence_is_one_message(tmp_path: Path, kind: str) -> None:
    (tmp_path / "deep.md").write_text(f"# Deep\n\n```{kind}\n{deep()}```\n", encoding="utf-8")
    done = rollbook(tmp_path, "check", "deep.md")
    assert_one_sentence(done)  # libyaml's composer crashed the process at this depth
    assert f"deep.md:4: {kind}: the YAML nests lists and mappings {DEPTH}" in done.stdout


def test_front_matter_bombs_are_reported_at_their_line(tmp_path: Path) -> None:
    (tmp_path / "laughs.md").write_text(f"---\n{laughs()}---\n\n# Page\n", encoding="utf-8")
    (tmp_path / "deep.md").write_text(f"---\ntitle: x\n{deep()}---\n\n# Page\n", encoding="utf-8")
    done = rollbook(tmp_path, "check", ".")
    assert_one_sentence(done)
    assert f"deep.md:3: front matter: the YAML nests lists and mappings {DEPTH}" in done.stdout
    assert f"{NODES}" in done.stdout and lines_of(done.stdout, "laughs.md")


def test_self_referring_alias_is_refused() -> None:
    with pytest.raises(YamlSizeError, match=r"\*a stands for the list or mapping it is part of"):
        check_size("results: &a [1, *a]\n")


def test_aliases_are_counted_without_expanding() -> None:
    # 9**5 = 59049 values under the limit pass; one level more (531441) does not.
    check_size(laughs(5))
    with pytest.raises(YamlSizeError) as err:
        check_size(laughs(6), first_line=10)
    assert err.value.line == 15  # the line of `f`, whose aliases cross the limit
    # an alias of a scalar costs one value, of a big list the whole list
    check_size("a: &a x\nb: [" + ", ".join(["*a"] * 1000) + "]\n")


def test_fight_file_bombs_are_one_sentence(tmp_path: Path) -> None:
    (tmp_path / "laughs.yaml").write_text("system: scars\n" + laughs(), encoding="utf-8")
    (tmp_path / "deep.yaml").write_text(
        "system: scars\nsides:\n  a: " + deep()[3:] + "  b: [x]\n", encoding="utf-8"
    )
    for name in ("laughs.yaml", "deep.yaml"):
        done = rollbook(tmp_path, "fight", name)
        assert_one_sentence(done)
        assert done.returncode == 2
        assert done.stderr.startswith(f"rollbook: {name}:")
        assert "yaml_nodes limit" in done.stderr or "yaml_depth limit" in done.stderr


def test_mkdocs_build_reports_bombs_in_fences_and_front_matter(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text(
        f"---\n{laughs()}---\n\n# Bombs\n\n```roll-table\n{laughs()}```\n\n"
        f"```statblock\n{laughs()}```\n",
        encoding="utf-8",
    )
    (docs / "deep.md").write_text(f"---\n{deep()}---\n\n# Deep\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: bombs\ndocs_dir: docs\nplugins:\n  - rollbook:\n"
        "      pyodide_required: false\n      snapshot: false\n"
        "markdown_extensions:\n  - pymdownx.superfences:\n      custom_fences:\n"
        "        - name: roll-table\n          class: rollbook\n"
        "          validator: !!python/name:rollbook.markup.roll_table.fence.validator\n"
        "          format: !!python/name:rollbook.markup.roll_table.fence.formatter\n"
        "        - name: statblock\n          class: rollbook\n"
        "          validator: !!python/name:rollbook.markup.statblock.fence.validator\n"
        "          format: !!python/name:rollbook.markup.statblock.fence.formatter\n"
        "  - rollbook\n",
        encoding="utf-8",
    )
    done = run_bounded(["mkdocs", "build", "--strict", "-d", str(tmp_path / "site")], tmp_path)
    assert done.returncode == 1, done.stderr[-2000:]  # strict: the warnings stop the build
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    assert f"docs/deep.md:2: front matter: the YAML nests lists and mappings {DEPTH}" in (
        done.stderr
    )
    found = re.findall(r"docs/index\.md:(\d+): (front matter|roll-table|statblock): ", done.stderr)
    assert {kind for _, kind in found} == {"front matter", "roll-table", "statblock"}
