"""`rollbook import` of a Hugo/Platen site: Platen's block fences, ref/relref links,
escaped shortcodes and Hugo's typographer come out as MkDocs shows them, each line where
it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from rollbook.cli import main
from rollbook.hugo import plan_import, write_import
from rollbook.markup.pages import convert_page
from rollbook.mkdocs_plugin.site_config import markdown_setup

FIXTURE = Path(__file__).resolve().parent / "platen-site"


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    base = tmp_path_factory.mktemp("platen")
    src, dest = base / "hugo", base / "site"
    shutil.copytree(FIXTURE, src)
    plan = plan_import(src)
    write_import(dest, plan)
    return src, dest, "\n".join(plan.report())


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")


def test_every_page_keeps_its_line_count(imported) -> None:
    src, dest, _ = imported
    for name, out in [("rules.md", "rules.md"), ("_index.md", "index.md")]:
        assert len(_lines(src / "content" / name)) == len(_lines(dest / "docs" / out))


def test_platen_fences_become_material_blocks_line_for_line(imported) -> None:
    src, dest, _ = imported
    before, after = _lines(src / "content" / "rules.md"), _lines(dest / "docs" / "rules.md")
    at = before.index("```details")
    assert after[at] == '???+ note "An optional rule"'
    assert after[at + 5] == "    Roll ![roll:1d6]() for luck -- or don't."  # same line, indented
    tab = before.index("name: Drover") - 2
    assert after[tab] == '=== "Drover"' and after[tab + 4] == "    Drovers keep the beasts calm."
    grid = before.index("``````columns")
    assert after[grid] == '<div class="grid" markdown>'
    assert after[before.index("Left: the coast road.") + 1] == "</div>"


def test_refs_become_relative_links_and_unknown_ones_are_reported(imported) -> None:
    src, dest, report = imported
    text = (dest / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "[the lore](lore/index.md)" in text
    assert "[the map](lore/map.md#north)" in text
    assert '[lost]({{< ref "nowhere" >}})' in text
    line = (
        _lines(src / "content" / "rules.md").index(
            'This one names no page: [lost]({{< ref "nowhere" >}}).'
        )
        + 1
    )
    assert f"rules.md:{line}: Hugo shortcode" in report and "relative link" in report
    assert "rewrote 1 Platen details block(s)" in report


def test_escaped_shortcodes_and_section_lists(imported) -> None:
    _, dest, _ = imported
    assert "Write {{< hint info >}} to get a hint box." in (dest / "docs" / "rules.md").read_text()
    home = (dest / "docs" / "index.md").read_text(encoding="utf-8")
    assert "[Rules](rules.md) · [Lore](lore/index.md)" in home
    assert "```section" not in home


def test_the_site_renders_them_as_material_does_with_hugos_typographer(imported) -> None:
    _, dest, _ = imported
    config = yaml.safe_load((dest / "mkdocs.yml").read_text(encoding="utf-8"))
    names = [e if isinstance(e, str) else next(iter(e)) for e in config["markdown_extensions"]]
    assert {"smarty", "md_in_html", "pymdownx.details", "pymdownx.tabbed"} <= set(names)
    page = convert_page(dest / "docs" / "rules.md", markdown_setup(dest / "mkdocs.yml"))
    assert page.messages() == []
    assert '<details class="note" open="open">' in page.html
    assert "for luck &ndash; or don&rsquo;t." in page.html
    assert 'class="tabbed-set' in page.html and 'class="grid"' in page.html


def test_the_command_prints_the_same_report(imported, tmp_path, capsys) -> None:
    src, _, report = imported
    assert main(["import", str(src), str(tmp_path / "again")]) == 0
    out = capsys.readouterr().out
    assert all(line in out for line in report.splitlines())
