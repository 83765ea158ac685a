"""``rollbook import``: a Hugo site (tests/build/hugo-site, our own words) becomes a rollbook site.

The fixture has sections two levels deep (``_index.md``), YAML and TOML front matter, weights
that differ from alphabetical order, a draft, two shortcodes, a ``[!roll:`` typo, an unknown
fence, a roll-table with a prompt, a d66 table with tabs, a page bundle and Hugo data.
"""

from __future__ import annotations

import hashlib
import re
import shutil
import tomllib
from pathlib import Path

import pytest
import yaml

from rollbook.cli import main

HERE = Path(__file__).resolve().parent
FIXTURE = HERE / "hugo-site"


def _tree(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _import(src: Path, dest: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["import", str(src), str(dest)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def imported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[Path, Path, str]:
    """(source copy, destination, stdout) of one import of the fixture."""
    src = tmp_path / "hugo"
    shutil.copytree(FIXTURE, src)
    dest = tmp_path / "out"
    code, out, err = _import(src, dest, capsys)
    assert code == 0, err
    assert err == ""
    return src, dest, out


def _nav(dest: Path) -> list:
    # mkdocs.yml written by the import has no !!python tags: plain YAML
    return yaml.safe_load((dest / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]


def test_the_nav_follows_weight_then_title_not_the_alphabet(imported) -> None:
    _, dest, _ = imported
    assert _nav(dest) == [
        {"Home": "index.md"},
        {"Combat": [  # weight 1, though "Basics" (weight 2) comes first alphabetically
            "combat/index.md",
            {"Reactions": "combat/reactions.md"},
            {"Morale": "combat/morale/index.md"},  # a page bundle is one page
            {"Wounds": [  # a section two levels deep
                "combat/wounds/index.md",
                {"Lasting injuries": "combat/wounds/lasting.md"},  # weight 1
                {"Bleeding": "combat/wounds/bleeding.md"},  # no weight: after the weighted
            ]},
        ]},
        {"Basics": [
            "basics/index.md",
            {"Checks": "basics/checks.md"},  # weight 1
            {"Advantage": "basics/advantage.md"},  # weight 3
        ]},
    ]  # fmt: skip


def test_the_report_names_each_problem_by_source_page_and_line(imported) -> None:
    src, _, out = imported
    lines = out.splitlines()
    shown = str(src)
    located = [re.match(r"(.+?\.md):(\d+): ", line) for line in lines]
    problems = [(m.group(1), int(m.group(2))) for m in located if m]
    assert problems == [
        (f"{shown}/content/basics/advantage.md", 8),  # shortcode {{< hint >}} (TOML page)
        (f"{shown}/content/basics/checks.md", 10),  # the [!roll: typo
        (f"{shown}/content/combat/morale/index.md", 10),  # the mermaid fence
        (f"{shown}/content/combat/reactions.md", 28),  # shortcode reading data/
    ]
    assert "{{< hint info >}}" in lines[0] and "admonition" in lines[0]
    assert "'[!roll:1d4]'" in lines[1] and "'![roll:1d4](...)'" in lines[1]
    assert "'mermaid'" in lines[2]
    assert "encounter-table" in lines[3] and "data/encounters.yaml" in lines[3]
    assert lines[4] == f"left out (draft): {shown}/content/basics/wip.md"
    assert lines[5].endswith("4 problem(s) to look at, 1 draft(s) left out.")
    assert len(lines) == 6


def test_pages_keep_every_roll_byte_for_byte_and_their_line_numbers(imported) -> None:
    src, dest, _ = imported
    pages = 0
    for source in sorted((src / "content").rglob("*.md")):
        relative = source.relative_to(src / "content")
        if relative.name == "wip.md":
            assert not (dest / "docs" / relative).exists()  # the draft
            continue
        name = "index.md" if relative.name == "_index.md" else relative.name
        written = (dest / "docs" / relative.parent / name).read_bytes()
        before, after = source.read_bytes().split(b"\n"), written.split(b"\n")
        assert len(before) == len(after), relative
        body = before.index(b"+++", 1) if before[0] == b"+++" else before.index(b"---", 1)
        assert after[body + 1 :] == before[body + 1 :], relative  # the whole body, unchanged
        for number, line in enumerate(before):
            if b"![roll:" in line or b"[!roll:" in line:
                assert after[number] == line, (relative, number + 1)
        pages += 1
    assert pages == 10


def test_toml_front_matter_becomes_yaml_with_the_same_values(imported) -> None:
    src, dest, _ = imported
    for name in ("basics/_index.md", "basics/advantage.md", "combat/wounds/bleeding.md"):
        source = (src / "content" / name).read_text(encoding="utf-8")
        toml_text = source.split("+++\n")[1]
        out = dest / "docs" / name.replace("_index.md", "index.md")
        written = out.read_text(encoding="utf-8")
        assert written.startswith("---\n")
        yaml_text = written.split("---\n")[1]
        assert yaml.safe_load(yaml_text) == tomllib.loads(toml_text), name


def test_yaml_front_matter_is_kept_as_written(imported) -> None:
    src, dest, _ = imported
    for name in ("basics/checks.md", "combat/reactions.md", "combat/morale/index.md"):
        assert (dest / "docs" / name).read_bytes() == (src / "content" / name).read_bytes()


def test_bundles_static_files_and_used_data_are_copied(imported) -> None:
    src, dest, _ = imported
    banner = "combat/morale/banner.svg"
    assert (dest / "docs" / banner).read_bytes() == (src / "content" / banner).read_bytes()
    assert (dest / "docs/img/lantern.svg").read_bytes() == (
        src / "static/img/lantern.svg"
    ).read_bytes()
    used = "data/encounters.yaml"
    assert (dest / used).read_bytes() == (src / used).read_bytes()
    assert not (dest / "data/weather.yaml").exists()  # no page uses it


def test_the_site_settings_come_from_hugo_toml(imported) -> None:
    _, dest, _ = imported
    config = yaml.safe_load((dest / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["site_name"] == "Lantern Rules"
    assert config["site_url"] == "https://rules.example.net/lantern/"
    assert config["plugins"] == ["search", "rollbook"]
    assert config["theme"]["font"] is False
    for extra in (".gitignore", "requirements.txt", ".github/workflows/publish.yml"):
        assert (dest / extra).is_file()


def test_importing_twice_gives_the_same_bytes_and_never_touches_the_source(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "hugo"
    shutil.copytree(FIXTURE, src)
    before = _tree(src)
    first, second = tmp_path / "one", tmp_path / "two"
    assert _import(src, first, capsys)[0] == 0
    assert _import(src, second, capsys)[0] == 0
    assert _tree(first) == _tree(second)
    assert _tree(src) == before


def test_a_content_folder_on_its_own_is_a_hugo_site_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _import(FIXTURE / "content", tmp_path / "out", capsys)
    assert code == 0, err
    assert _nav(tmp_path / "out")[1]["Combat"][0] == "combat/index.md"
    assert not (tmp_path / "out" / "data").exists()  # no data/ next to a bare content folder


def _bad_sources(tmp: Path) -> dict[str, tuple[Path, str]]:
    """name -> (SRC, a phrase its sentence must hold)."""
    cases: dict[str, tuple[Path, str]] = {
        "missing": (tmp / "nowhere", "does not exist"),
        "a file": (FIXTURE / "hugo.toml", "is a file"),
        "not hugo": (HERE, "is not a Hugo site"),
    }
    checks, advantage = "content/basics/checks.md", "content/basics/advantage.md"
    broken = {
        "not utf-8": (checks, b"help each", b"h\xe9lp each"),
        "broken yaml": (checks, b"weight: 1", b"weight: [1"),
        "broken toml": (advantage, b"weight = 3", b"weight = = 3"),
        "unclosed": ("content/combat/_index.md", b"---\n\nFights", b"\nFights"),
    }
    for name, (page, old, new) in broken.items():
        src = tmp / name.replace(" ", "-")
        shutil.copytree(FIXTURE, src)
        original = (src / page).read_bytes()
        (src / page).write_bytes(original.replace(old, new))
        assert (src / page).read_bytes() != original
        cases[name] = (src, page)
    return cases


@pytest.mark.parametrize(
    "case",
    ["missing", "a file", "not hugo", "not utf-8", "broken yaml", "broken toml", "unclosed"],
)
def test_bad_input_is_one_sentence_exit_2_and_nothing_written(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src, phrase = _bad_sources(tmp_path)[case]
    dest = tmp_path / "out"
    code, out, err = _import(src, dest, capsys)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("rollbook: ") and err.endswith(".\n"), err
    assert "Traceback" not in err
    if phrase.endswith(".md"):
        assert re.search(rf"{re.escape(phrase)}:\d+: ", err), err  # page and line
    else:
        assert phrase in err
    assert not dest.exists()


@pytest.mark.parametrize(
    ("case", "line", "words"),
    [
        ("not utf-8", 8, "not UTF-8"),
        ("broken yaml", 3, "YAML front matter"),
        ("broken toml", 3, "TOML front matter"),
        ("unclosed", 1, "never closed"),
    ],
)
def test_page_problems_name_the_line(case, line, words, tmp_path, capsys) -> None:
    src, page = _bad_sources(tmp_path)[case]
    _, _, err = _import(src, tmp_path / "out", capsys)
    assert f"{src}/{page}:{line}: " in err and words in err, err


def test_a_destination_that_is_not_empty_is_refused_untouched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dest = tmp_path / "out"
    dest.mkdir()
    (dest / "notes.txt").write_text("mine\n", encoding="utf-8")
    code, out, err = _import(FIXTURE, dest, capsys)
    assert code == 2 and out == ""
    assert (
        err == f"rollbook: {dest} is not empty; give a new or empty folder, nothing was written.\n"
    )
    assert _tree(dest) == {"notes.txt": hashlib.sha256(b"mine\n").hexdigest()}


def test_a_destination_inside_the_source_is_refused(tmp_path, capsys) -> None:
    src = tmp_path / "hugo"
    shutil.copytree(FIXTURE, src)
    before = _tree(src)
    code, out, err = _import(src, src / "content" / "new-site", capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "inside" in err and "never changes" in err
    assert _tree(src) == before


def test_a_site_without_a_home_page_gets_one_linking_its_sections(tmp_path, capsys) -> None:
    src = tmp_path / "hugo"
    shutil.copytree(FIXTURE, src)
    (src / "content" / "_index.md").unlink()
    code, out, _ = _import(src, tmp_path / "out", capsys)
    assert code == 0
    assert f"{src}/content has no _index.md: wrote a home page, docs/index.md" in out
    home = (tmp_path / "out" / "docs" / "index.md").read_text(encoding="utf-8")
    assert home == "# Lantern Rules\n\n- [Combat](combat/index.md)\n- [Basics](basics/index.md)\n"
    assert _nav(tmp_path / "out")[0] == {"Home": "index.md"}


TOML_PAGE = '''+++
title = "Odd \\"values\\": a, b"
date = 2024-05-06T07:08:09+02:00
day = 2024-05-06
tags = ["dice", "yes", "null"]
ratio = 0.5
"key with space" = true
notes = """
two
lines"""
[params.deep]
  level = 3
[[links]]
  name = "one"
[[links]]
  name = "two"
+++
Body line.
'''


def test_toml_of_every_kind_reads_back_the_same_and_keeps_the_body_line() -> None:
    from rollbook.hugo.frontmatter import read, to_yaml_lines

    front = read(TOML_PAGE)
    assert front.kind == "toml" and front.lines == 17
    lines = to_yaml_lines(front.meta, front.lines)
    assert len(lines) == 17 and lines[0] == lines[-1] == "---"
    assert yaml.safe_load("\n".join(lines[1:-1])) == tomllib.loads(TOML_PAGE.split("+++")[1])


def test_json_front_matter_is_read_too() -> None:
    from rollbook.hugo.frontmatter import read

    front = read('{\n  "title": "Gear",\n  "weight": 5\n}\n\nText.\n')
    assert (front.kind, front.meta, front.lines) == ("json", {"title": "Gear", "weight": 5}, 4)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("---\ntitle: [a\n---\n", 2, "YAML front matter is broken"),
        ("---\n- a list\n---\n", 1, "must be a set of key: value pairs"),
        ("+++\ntitle = \n+++\n", 2, "TOML front matter is broken"),
        ('{\n  "title": \n}\n', 3, "JSON front matter is broken"),
        ("+++\ntitle = 'x'\n", 1, "never closed"),
    ],
)
def test_front_matter_mistakes_name_their_line(text: str, line: int, words: str) -> None:
    from rollbook.hugo.frontmatter import FrontMatterError, read

    with pytest.raises(FrontMatterError) as caught:
        read(text)
    assert (caught.value.line, words in caught.value.message) == (line, True), caught.value.message


def test_the_scan_reports_openings_once_and_leaves_known_fences_alone() -> None:
    from rollbook.hugo.scan import scan

    body = "\n".join([
        "{{% notice tip %}}",  # 10
        "Inside.",
        "{{% /notice %}}",  # the closing half: not reported again
        "{{< figure",  # 13: a shortcode over two lines
        '  src="map.png" >}}',
        "````markdown",  # 15: a longer fence holding a fence
        "```mermaid",
        "```",
        "````",
        "```Roll-Table",  # ours, any letter case
        "roll: 1d6 + {{ bonus }}",  # a placeholder, not a shortcode
        "```",
        "~~~ python {linenos=true}",
        "~~~",
        "```goat",  # 24: Hugo draws these as diagrams; here neither ours nor a language
        "```",
        "{{</* ref rules.md */>}}",  # 26: escaped, shows literally here
    ])  # fmt: skip
    found = [(f.line, f.message.split(" left in place")[0]) for f in scan(body, 10)]
    assert found == [
        (10, "Hugo shortcode {{% notice tip %}}"),
        (13, 'Hugo shortcode {{< figure src="map.png" >}}'),
        (24, "unknown fence 'goat'"),
        (26, "escaped Hugo shortcode {{</* ref rules.md */>}}"),
    ]
