"""``rollbook new``: a ready site, refused into a non-empty folder, with the guide on request."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
import yaml

from rollbook.cli import main
from rollbook.scaffold import SYSTEM_NAMES
from rollbook.scaffold.guide import ORDER, PRESETS, source_files

ROOT = Path(__file__).resolve().parents[2]


def _tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _new(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["new", *args])
    out, err = capsys.readouterr()
    return code, out, err


def _config(site: Path) -> dict:
    return yaml.safe_load((site / "mkdocs.yml").read_text(encoding="utf-8"))


def test_new_writes_a_ready_site(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    site = tmp_path / "my-rules"
    code, out, err = _new(capsys, str(site), "--title", "Lantern & Ash")
    assert code == 0 and err == ""
    assert "mkdocs serve" in out
    assert sorted(_tree(site)) == [
        ".github/workflows/publish.yml", ".gitignore", "docs/index.md", "docs/lists.md",
        "docs/rolls.md", "docs/tables.md", "mkdocs.yml", "requirements.txt",
    ]  # fmt: skip
    config = _config(site)
    assert config["site_name"] == "Lantern & Ash"
    assert config["plugins"] == ["search", "rollbook"]  # zero-config: nothing else for dice
    assert "pymdownx.superfences" not in str(config["markdown_extensions"])
    assert config["theme"]["name"] == "material" and config["theme"]["font"] is False
    assert [p["scheme"] for p in config["theme"]["palette"]] == ["default", "slate"]
    assert config["nav"][0] == {"Home": "index.md"}
    assert (site / ".gitignore").read_text(encoding="utf-8").splitlines()[1:] == [
        "site/",
        ".cache/",
    ]
    assert "# Lantern & Ash" in (site / "docs/index.md").read_text(encoding="utf-8")
    pages = {name: (site / "docs" / name).read_text(encoding="utf-8") for name in
             ("rolls.md", "tables.md", "lists.md")}  # fmt: skip
    assert pages["rolls.md"].count("![roll:") >= 4
    assert "```roll-table" in pages["tables.md"] and "prompts:" in pages["tables.md"]
    assert "```roll-list" in pages["lists.md"]


def test_the_workflow_builds_with_pip_alone_and_publishes_to_pages(tmp_path, capsys) -> None:
    _new(capsys, str(tmp_path / "s"))
    workflow = yaml.safe_load((tmp_path / "s/.github/workflows/publish.yml").read_text("utf-8"))
    build = [step.get("run") or step.get("uses") for step in workflow["jobs"]["build"]["steps"]]
    assert "pip install -r requirements.txt" in build
    assert "mkdocs build --strict" in build
    assert any(str(s).startswith("actions/upload-pages-artifact@") for s in build)
    deploy = workflow["jobs"]["deploy"]["steps"]
    assert deploy[0]["uses"].startswith("actions/deploy-pages@")
    assert not re.search(r"\b(npm|node|npx)\b", str(build))
    requirement = (tmp_path / "s/requirements.txt").read_text("utf-8").splitlines()[-1]
    import rollbook

    assert requirement == f"rollbook[material]=={rollbook.__version__}"


def test_the_same_command_writes_the_same_bytes(tmp_path, capsys) -> None:
    for name in ("a", "b"):
        _new(capsys, str(tmp_path / name), "--title", "T", "--system", "scars", "--guide")
    assert _tree(tmp_path / "a") == _tree(tmp_path / "b")


@pytest.mark.parametrize("content", ["file", "hidden file", "folder"])
def test_a_non_empty_folder_is_refused_and_left_alone(tmp_path, capsys, content) -> None:
    site = tmp_path / "site"
    site.mkdir()
    name = {"file": "notes.md", "hidden file": ".git", "folder": "docs"}[content]
    if content == "folder":
        (site / name).mkdir()
    else:
        (site / name).write_text("mine\n", encoding="utf-8")
    before = sorted(p.relative_to(site).as_posix() for p in site.rglob("*"))
    code, out, err = _new(capsys, str(site))
    assert code == 2 and out == ""
    assert (
        err == f"rollbook: {site} is not empty; give a new or empty folder, nothing was written.\n"
    )
    assert sorted(p.relative_to(site).as_posix() for p in site.rglob("*")) == before


def test_an_unknown_system_is_one_sentence(tmp_path, capsys) -> None:
    code, out, err = _new(capsys, str(tmp_path / "s"), "--system", "chess")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "unknown system 'chess'" in err and "scars" in err
    assert not (tmp_path / "s").exists()


@pytest.mark.parametrize("system", list(SYSTEM_NAMES))
def test_each_system_page_holds_valid_stat_blocks_and_an_encounter(tmp_path, capsys, system):
    site = tmp_path / system
    _new(capsys, str(site), "--system", system)
    page = (site / "docs" / f"{system}.md").read_text(encoding="utf-8")
    assert "```statblock" in page and "```combat" in page
    assert re.findall(r"^system: (.+)$", page, re.M) == [system] * page.count("system: ")
    assert {f"An encounter ({SYSTEM_NAMES[system]})": f"{system}.md"} in _config(site)["nav"]
    code = main(["check", str(site / "docs")])  # converts like the build, zero-config included
    out, _ = capsys.readouterr()
    assert code == 0, out
    assert out == ""  # no problem printed


def test_the_guide_is_the_demo_sites_own_pages(tmp_path, capsys) -> None:
    site = tmp_path / "s"
    _new(capsys, str(site), "--guide")
    demo = source_files(ROOT / "docs")
    assert "authoring/roll-tables.md" in demo and "reference/dice-grammar.md" in demo
    for name in demo:  # byte for byte: one copy in the repository
        assert (site / "docs" / name).read_bytes() == (ROOT / "docs" / name).read_bytes(), name
    guide_nav = _config(site)["nav"][-1]["Authoring guide"]
    listed = [next(iter(entry.values())) for entry in guide_nav]
    assert sorted(listed) == demo
    assert listed[: len([n for n in ORDER if n in demo])] == [n for n in ORDER if n in demo]
    plugin = _config(site)["plugins"][1]["rollbook"]
    assert plugin == {"presets": PRESETS}


def test_the_guide_links_only_to_its_own_pages() -> None:
    # A new site has the guide's pages and nothing else of the demo: a link out of the
    # guide would be a broken link there (and fail `mkdocs build --strict`).
    pages = set(source_files(ROOT / "docs"))
    link = re.compile(r"\]\(([^)\s]+?\.md)(?:[?#][^)\s]*)?(?:\s+\"[^\"]*\")?\)")
    for name in sorted(pages):
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        for target in link.findall(text):
            if "://" in target:
                continue
            resolved = (Path(name).parent / target).as_posix()
            parts: list[str] = []
            for part in resolved.split("/"):
                if part == "..":
                    parts.pop()
                elif part != ".":
                    parts.append(part)
            assert "/".join(parts) in pages, f"docs/{name} links to {target}"


def test_the_guides_presets_are_the_demo_sites() -> None:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    block = text[text.index("  - rollbook:\n      presets:") :]
    presets = yaml.safe_load(block)[0]["rollbook"]["presets"]
    assert presets == PRESETS


@pytest.mark.parametrize("title", ['Grimoire "Rot" – 2ᵉ édition', "yes", "#1: Dice: & more"])
def test_any_one_line_title_reads_back_from_mkdocs_yml(tmp_path, capsys, title) -> None:
    code, _, err = _new(capsys, str(tmp_path / "s"), "--title", title)
    assert code == 0, err
    assert _config(tmp_path / "s")["site_name"] == title


def test_the_title_defaults_to_the_folder_name(tmp_path, capsys) -> None:
    _new(capsys, str(tmp_path / "my-rules"))
    assert _config(tmp_path / "my-rules")["site_name"] == "My rules"
