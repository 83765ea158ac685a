"""No command reads outside its source or writes or deletes outside its destination.

Hostile trees for ``rollbook import`` (links, escaping folders, special files, odd names,
numbers no page should hold, sizes), ``rollbook assets`` (links where it writes) and
``rollbook new`` (titles MkDocs could not read, a linked destination). Each refusal is one
sentence and exit status 2, with nothing written.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from mkdocs.config import load_config

from rollbook.engine.limits import value
from tests.hardening.bounded import assert_one_sentence, rollbook, run_bounded

ROOT = Path(__file__).resolve().parents[2]
PAGE = "---\ntitle: Home\n---\n\n# Home\n\nRoll ![roll:1d6]().\n"
SECRET = "SECRET-OUTSIDE-THE-SOURCE"


def _hugo(root: Path, config: str = 'title = "Site"\n') -> Path:
    """A small Hugo site at root/src, and a file outside it at root/outside/secret.md."""
    src = root / "src"
    (src / "content" / "rules").mkdir(parents=True)
    (src / "content" / "_index.md").write_text(PAGE, encoding="utf-8")
    (src / "content" / "rules" / "a.md").write_text("# A\n", encoding="utf-8")
    (src / "hugo.toml").write_text(config, encoding="utf-8")
    outside = root / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"# {SECRET}\n", encoding="utf-8")
    (outside / "secret.yaml").write_text(f"x: {SECRET}\n", encoding="utf-8")
    (outside / "mkdocs.yml").write_text("site_name: keep me\n", encoding="utf-8")
    return src


def _written(dest: Path) -> str:
    if not dest.exists():
        return ""
    return "\n".join(
        p.read_text(encoding="utf-8", errors="replace") for p in dest.rglob("*") if p.is_file()
    )


def _refused(done, dest: Path, *said: str) -> None:
    assert_one_sentence(done)
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith("rollbook: ") and done.stderr.count("\n") == 1, done.stderr
    for words in said:
        assert words in done.stderr, done.stderr
    assert not dest.exists() or not any(dest.iterdir())  # nothing written


# -- rollbook import: links ----------------------------------------------------------------


def test_links_in_the_source_are_reported_and_never_followed(tmp_path: Path) -> None:
    src = _hugo(tmp_path)
    outside = tmp_path / "outside"
    (src / "content" / "rules" / "linked.md").symlink_to(outside / "secret.md")
    (src / "content" / "linked-dir").symlink_to(outside, target_is_directory=True)
    (src / "static").mkdir()
    (src / "static" / "leak.yaml").symlink_to(outside / "secret.yaml")
    (src / "data").symlink_to(outside, target_is_directory=True)
    (src / "content" / "rules" / "dangling.md").symlink_to(tmp_path / "nowhere.md")
    dest = tmp_path / "dest"
    done = rollbook(tmp_path, "import", "src", "dest")
    assert_one_sentence(done)
    assert done.returncode == 0, done.stderr
    assert SECRET not in _written(dest)
    for shown in ("content/rules/linked.md", "content/linked-dir", "static/leak.yaml", "data"):
        assert f"src/{shown}:1: a symbolic link; not followed, not copied" in done.stdout, shown
    assert "src/content/rules/dangling.md:1: a symbolic link" in done.stdout
    assert not (dest / "docs" / "rules" / "linked.md").exists()
    assert (
        outside_yml := tmp_path / "outside" / "mkdocs.yml"
    ).read_text() == "site_name: keep me\n"
    assert outside_yml.exists()


@pytest.mark.parametrize(
    ("config", "key"),
    [
        ('contentDir = "../outside"', "contentDir"),
        ('contentDir = "../.."', "contentDir"),
        ('contentDir = "content/../../outside"', "contentDir"),
        ('contentDir = "/etc"', "contentDir"),
        ("contentDir = 5", "contentDir"),
        ('contentdir = "../outside"', "contentdir"),
        ('dataDir = "../outside"', "dataDir"),
        ('dataDir = "../../.."', "dataDir"),
        ('dataDir = "/tmp"', "dataDir"),
    ],
)
def test_folders_named_outside_the_source_are_refused(
    tmp_path: Path, config: str, key: str
) -> None:
    src = _hugo(tmp_path, f'title = "Site"\n{config}\n')
    done = rollbook(tmp_path, "import", "src", "dest")
    _refused(done, tmp_path / "dest", f"{key} must name a folder inside the site")
    assert str(src)  # the source is untouched, and nothing outside was read


def test_a_data_folder_through_a_link_is_refused(tmp_path: Path) -> None:
    src = _hugo(tmp_path, 'title = "Site"\ndataDir = "shared/data"\n')
    (src / "shared").symlink_to(tmp_path / "outside", target_is_directory=True)
    done = rollbook(tmp_path, "import", "src", "dest")
    _refused(done, tmp_path / "dest", "a symbolic link, which import does not follow")


def test_a_linked_config_file_is_refused(tmp_path: Path) -> None:
    src = _hugo(tmp_path)
    (src / "hugo.toml").unlink()
    (src / "hugo.toml").symlink_to(tmp_path / "outside" / "secret.md")
    done = rollbook(tmp_path, "import", "src", "dest")
    _refused(done, tmp_path / "dest", "symbolic link")


# -- rollbook import: special files, names, numbers, sizes ---------------------------------


def test_a_fifo_or_device_is_reported_not_read(tmp_path: Path) -> None:
    src = _hugo(tmp_path)
    os.mkfifo(src / "content" / "rules" / "pipe.md")
    (src / "static").mkdir()
    os.mkfifo(src / "static" / "pipe.bin")
    done = rollbook(tmp_path, "import", "src", "dest")  # a read would hang until the guard
    assert_one_sentence(done)
    assert done.returncode == 0, done.stderr
    assert "src/content/rules/pipe.md:1: not a regular file; not read" in done.stdout
    assert "src/static/pipe.bin:1: not a regular file" in done.stdout


def test_a_file_name_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    src = _hugo(tmp_path)
    name = os.fsencode(src / "content" / "rules") + b"/caf\xe9.md"
    with open(name, "wb") as handle:
        handle.write(b"# Cafe\n")
    done = rollbook(tmp_path, "import", "src", "dest")
    _refused(done, tmp_path / "dest", "the file name is not UTF-8", "caf\\xe9.md")


BIG = "9" * 5000
NUMBERS = {
    "yaml_inf": "---\ntitle: A\nweight: .inf\n---\n# A\n",
    "yaml_minus_inf": "---\ntitle: A\nweight: -.inf\n---\n# A\n",
    "yaml_nan": "---\ntitle: A\nweight: .nan\n---\n# A\n",
    "yaml_text_inf": "---\ntitle: A\nweight: '1e999'\n---\n# A\n",
    "yaml_big_weight": f"---\ntitle: A\nweight: {BIG}\n---\n# A\n",
    "yaml_big_title": f"---\ntitle: {BIG}\n---\n# A\n",
    "yaml_big_nested": f"---\ntitle: A\nparams: {{deep: [{BIG}]}}\n---\n# A\n",
    "toml_inf": "+++\ntitle = 'A'\nweight = inf\n+++\n# A\n",
    "toml_nan": "+++\ntitle = 'A'\nweight = nan\n+++\n# A\n",
    "toml_big": f"+++\ntitle = 'A'\nweight = {BIG}\n+++\n# A\n",
    "json_big": f'{{"title": "A", "weight": {BIG}}}\n# A\n',
    "json_huge_float": '{"title": "A", "weight": 1e999}\n# A\n',
}


@pytest.mark.parametrize("name", sorted(NUMBERS))
def test_numbers_no_page_should_hold_are_one_sentence(tmp_path: Path, name: str) -> None:
    src = _hugo(tmp_path)
    (src / "content" / "rules" / "a.md").write_text(NUMBERS[name], encoding="utf-8")
    done = rollbook(tmp_path, "import", "src", "dest")
    _refused(done, tmp_path / "dest", "src/content/rules/a.md:")


def test_a_page_over_page_bytes_is_refused_before_it_is_read(tmp_path: Path) -> None:
    src = _hugo(tmp_path)
    with open(src / "content" / "rules" / "a.md", "wb") as handle:
        handle.truncate(value("page_bytes") + 1)  # sparse: costs nothing to make
    done = rollbook(tmp_path, "import", "src", "dest")
    _refused(done, tmp_path / "dest", "page_bytes limit")


def test_a_file_over_import_file_bytes_is_refused_before_it_is_read(tmp_path: Path) -> None:
    src = _hugo(tmp_path)
    (src / "static").mkdir()
    with open(src / "static" / "huge.bin", "wb") as handle:
        handle.truncate(value("import_file_bytes") + 1)
    done = rollbook(tmp_path, "import", "src", "dest")
    _refused(done, tmp_path / "dest", "import_file_bytes limit")


def test_the_imported_site_builds_after_a_clean_report(tmp_path: Path) -> None:
    _hugo(tmp_path)
    done = rollbook(tmp_path, "import", "src", "dest")
    assert done.returncode == 0 and "0 problem(s)" in done.stdout, done.stdout + done.stderr
    config = load_config(str(tmp_path / "dest" / "mkdocs.yml"))
    assert config["site_name"] == "Site"


# -- rollbook assets -----------------------------------------------------------------------


def _site(root: Path) -> Path:
    site = root / "site"
    (site / "assets" / "rollbook" / "wheels").mkdir(parents=True)
    (site / "index.html").write_text("<p>hi</p>", encoding="utf-8")
    return site


def _assets(root: Path):
    return rollbook(root, "assets", "site", "--pyodide", str(ROOT / "node_modules" / "pyodide"),
                    "--no-snapshot")  # fmt: skip


@pytest.mark.parametrize(
    "link",
    ["assets", "assets/rollbook", "assets/rollbook/wheels", "assets/pyodide",
     "assets/rollbook/manifest.json", "assets/rollbook/wheels/old.whl"],
)  # fmt: skip
def test_assets_never_write_or_delete_through_a_link(tmp_path: Path, link: str) -> None:
    site = _site(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "keep.whl").write_bytes(b"not ours")
    (outside / "manifest.json").write_text("{}", encoding="utf-8")
    target = site / link
    if target.exists():
        shutil.rmtree(target) if target.is_dir() else target.unlink()
    target.parent.mkdir(parents=True, exist_ok=True)
    if link.endswith(".json"):
        target.symlink_to(outside / "manifest.json")
    elif link.endswith(".whl"):
        target.symlink_to(outside / "keep.whl")
    else:
        target.symlink_to(outside, target_is_directory=True)
    done = _assets(tmp_path)
    assert_one_sentence(done)
    assert done.returncode == 2 and "is a symbolic link" in done.stderr, done.stderr
    assert sorted(p.name for p in outside.iterdir()) == ["keep.whl", "manifest.json"]
    assert (outside / "keep.whl").read_bytes() == b"not ours"
    assert (outside / "manifest.json").read_text(encoding="utf-8") == "{}"


# -- rollbook new --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "title",
    [b"Rules\x7f", b"Bad \xff bytes", b"Tab\tin", "Line\u2028break".encode(), b"Bell\x07"],
)
def test_new_refuses_a_title_mkdocs_could_not_read(tmp_path: Path, title: bytes) -> None:
    done = run_bounded(["rollbook.cli", "new", "dest", "--title", title], tmp_path)  # type: ignore[list-item]
    _refused(done, tmp_path / "dest", "the title must be one line of printable text")


@pytest.mark.parametrize(
    "title",
    ['Quotes "and" \'more\'', "Colon: # hash", "${x} and $y", "Back\\slash", "Dés 🎲 & <b>",
     "{{ braces }}", "- dash", "null", "---"],
)  # fmt: skip
def test_new_writes_a_config_mkdocs_loads_for_any_printable_title(
    tmp_path: Path, title: str
) -> None:
    done = rollbook(tmp_path, "new", "dest", f"--title={title}")
    assert done.returncode == 0, done.stderr
    config = load_config(str(tmp_path / "dest" / "mkdocs.yml"))
    assert config["site_name"] == title


def test_new_refuses_a_linked_destination(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "dest").symlink_to(elsewhere, target_is_directory=True)
    done = rollbook(tmp_path, "new", "dest")
    assert_one_sentence(done)
    assert done.returncode == 2 and "symbolic link" in done.stderr
    assert list(elsewhere.iterdir()) == []
