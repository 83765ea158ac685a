"""The command line answers bad input with one sentence, never a traceback.

Undecodable pages, deeply nested fight files and Markdown that Python-Markdown cannot
convert for nesting all end as ``page:line: sentence`` (or ``rollbook: sentence``).
"""

from __future__ import annotations

from pathlib import Path

from tests.hardening.bounded import assert_one_sentence, rollbook

GOOD = "# Good\n\n```roll-table\nroll: 1d2\nresults:\n  1: a\n  2: b\n```\n"


def test_non_utf8_page_is_a_problem_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "bad.md").write_bytes(b"# Bad\n\nsome text \xff\xfe here\n")
    (tmp_path / "good.md").write_text(GOOD, encoding="utf-8")
    done = rollbook(tmp_path, "check", ".")
    assert_one_sentence(done)
    assert done.returncode == 1
    assert (
        done.stdout
        == "bad.md:3: the page is not UTF-8 text: byte 0xff on this line cannot be read.\n"
    )
    assert "2 page(s) checked, 1 problem(s)." in done.stderr  # the good page is still checked
    table = rollbook(tmp_path, "table", "bad.md", "good")
    assert_one_sentence(table)
    assert table.returncode == 2
    assert "bad.md:3: the page is not UTF-8 text" in table.stderr


def test_deeply_nested_fight_sides_are_one_sentence(tmp_path: Path) -> None:
    nested = "[" * 50_000 + "]" * 50_000
    (tmp_path / "fight.yaml").write_text(
        f"system: scars\nsides:\n  a: {nested}\n  b: [{{name: B, health: 3}}]\n"
    )
    done = rollbook(tmp_path, "fight", "fight.yaml")
    assert_one_sentence(done)
    assert done.returncode == 2
    assert done.stderr.startswith("rollbook: fight.yaml:3: the YAML nests lists and mappings")
    assert done.stderr.count("\n") == 1


def test_markdown_nested_too_deeply_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "list.md").write_text("".join("    " * i + "- x\n" for i in range(250)))
    (tmp_path / "stars.md").write_text("*" * 3000 + "x" + "*" * 3000 + "\n")
    done = rollbook(tmp_path, "check", ".")
    assert_one_sentence(done)
    assert done.returncode == 1
    for page in ("list.md", "stars.md"):
        assert f"{page}:1: the page nests Markdown (lists, quotes or emphasis) too deeply" in (
            done.stdout
        )


def test_a_folder_given_as_a_fight_file_is_one_sentence(tmp_path: Path) -> None:
    done = rollbook(tmp_path, "fight", ".")
    assert_one_sentence(done)
    assert done.returncode == 2 and done.stderr.count("\n") == 1


def test_numbers_too_long_for_int_are_one_sentence(tmp_path: Path) -> None:
    # PyYAML and int() raise a ValueError (not a YAML error) past a few thousand digits.
    digits = "9" * 5000
    (tmp_path / "fight.yaml").write_text(
        f"system: scars\nsides:\n  a: [{{name: A, health: {digits}}}]\n"
        "  b: [{name: B, health: 3}]\n"
    )
    done = rollbook(tmp_path, "fight", "fight.yaml")
    assert_one_sentence(done)
    assert done.stderr == (
        "rollbook: fight.yaml:3: a number here has more than 1000 digits "
        "(the yaml_number_digits limit).\n"
    )
    (tmp_path / "page.md").write_text(
        f"---\nx: {digits}\n---\n\n# P\n\n```roll-table\nroll: 1d6\nid: {digits}\n"
        "results:\n  1--6: a\n```\n"
    )
    done = rollbook(tmp_path, "check", "page.md")
    assert_one_sentence(done)
    assert done.stdout.splitlines() == [
        "page.md:2: front matter: a number here has more than 1000 digits "
        "(the yaml_number_digits limit).",
        "page.md:9: roll-table: a number here has more than 1000 digits "
        "(the yaml_number_digits limit).",
    ]
    dice = rollbook(tmp_path, "rules", "dark-dungeons", "damage", "--set", f"damage={digits}d6",
                    "--set", "target_hp=3")  # fmt: skip
    assert_one_sentence(dice)
    assert dice.returncode == 2 and dice.stderr.startswith("rollbook: damage must look like 1d6")
