"""The HTML the extensions write in the page's language: words, numbers, dice letters and
right-to-left, from the extension's own options (Zensical) or the host's page context."""

from __future__ import annotations

import json
import textwrap

import markdown
import pytest

from rollbook.markup.problems import PageContext, page_context
from rollbook.markup.superfences import CUSTOM_FENCES
from tests.markup.helpers import EXTENSIONS, buttons, payload_texts


def convert(src: str, **options: object) -> tuple[str, list[str]]:
    md = markdown.Markdown(
        extensions=EXTENSIONS,
        extension_configs={
            "pymdownx.superfences": {"custom_fences": CUSTOM_FENCES},
            "rollbook": options,
        },
    )
    with page_context("page.md") as ctx:
        html = md.convert(textwrap.dedent(src).lstrip("\n"))
    return html, [p.message for p in sorted(ctx.problems)]


TABLE = """
```roll-table
roll: {roll}
results:
  1--3: low
  4--6: high
```
"""


def test_a_german_page_rolls_1W20_and_shows_it_as_written() -> None:
    html, problems = convert("Roll ![roll:1W20]() or ![roll:3w6+1]().", language="de")
    assert problems == []
    assert buttons(html) == ["1d20", "3d6+1"]
    assert ">1W20</button>" in html
    assert 'title="1W20: Durchschnitt 10,5, Spanne 1&#8211;20"' in html


@pytest.mark.parametrize(("language", "roll"), [("pl", "1k6"), ("cs", "1K6"), ("ru", "1к6")])
def test_a_table_rolls_with_the_languages_letter(language: str, roll: str) -> None:
    html, problems = convert(TABLE.format(roll=roll), language=language)
    assert problems == []
    data = json.loads(payload_texts(html)[0])
    assert data["roll"] == "1d6"
    assert data["roll_name"] == roll  # the roll column as written


def test_keep_stays_keep_in_polish() -> None:
    html, problems = convert("![roll:4d6k3]() ![roll:4k6k3]()", language="pl")
    assert problems == [] and buttons(html) == ["4d6k3", "4d6k3"]


def test_a_letter_out_of_place_is_reported_as_written() -> None:
    _, problems = convert("![roll:2d6 k3]()", language="pl")
    assert problems == [
        "the dice notation '2d6 k3' does not parse: Unexpected 'k': modifiers must follow "
        "their dice with no space."
    ]
    _, english = convert("![roll:1W20]()")
    assert len(english) == 1 and "'W'" in english[0]


def test_a_table_speaks_the_language_and_writes_its_numbers() -> None:
    html, _ = convert(TABLE.format(roll="1d6"), language="fr")
    assert ">Lancer sur la table</button>" in html
    assert ">Afficher les probabilit&#233;s</button>" in html or "Afficher les probabilités" in html
    assert ">Copier le lien</button>" in html
    assert ">R&#233;sultat</th>" in html or ">Résultat</th>" in html
    assert ">50&#160;%</td>" in html
    data = json.loads(payload_texts(html)[0])
    assert data["result_text"] == "Jet de {{ roll }}\u00a0: {{ result }}"
    assert data["button"]["label"] == "Lancer sur la table"


def test_the_authors_words_win_over_the_catalogue() -> None:
    html, _ = convert(TABLE.format(roll="1d6"), language="fr", strings={"table.roll": "Tirage"})
    assert ">Tirage</button>" in html
    own, _ = convert(TABLE.format(roll="1d6") + "", language="fr")
    assert ">Tirage</button>" not in own


def test_a_bad_override_under_the_extension_is_a_sentence() -> None:
    with pytest.raises(
        ValueError, match=r"rollbook extension, strings: there is no key 'table\.rol'"
    ):
        convert("x", strings={"table.rol": "x"})


def test_the_hosts_page_language_wins_over_the_extensions() -> None:
    configs = {
        "pymdownx.superfences": {"custom_fences": CUSTOM_FENCES},
        "rollbook": {"language": "de"},
    }
    md = markdown.Markdown(extensions=EXTENSIONS, extension_configs=configs)
    with page_context("page.md") as ctx:
        assert isinstance(ctx, PageContext)
        ctx.language = "ru"
        html = md.convert("![roll:1к6]()")
    assert buttons(html) == ["1d6"]


def test_hebrew_keeps_notation_left_to_right() -> None:
    html, _ = convert('![roll:2d6+1]() ![roll:1d6](. "\u05e0\u05d6\u05e7")', language="he")
    assert '<button class="rb-roll"' in html
    assert html.count('dir="ltr"') == 1  # the notation, not the Hebrew label


def test_rollbook_check_reads_pages_in_the_sites_language(tmp_path) -> None:
    import subprocess
    import sys

    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: x\ntheme:\n  name: material\n  language: de\nplugins: [rollbook]\n"
    )
    (tmp_path / "docs" / "index.md").write_text(TABLE.format(roll="1W6") + "\n![roll:1k6]()\n")
    (tmp_path / "docs" / "pl.md").write_text("---\nlanguage: pl\n---\n\n![roll:1k6]()\n")
    run = [sys.executable, "-m", "rollbook.cli", "check", "docs/index.md", "docs/pl.md"]
    done = subprocess.run(run, cwd=tmp_path, capture_output=True, text=True, check=False)
    # German reads 1W6; 1k6 is Polish (its own page says so), not German.
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "docs/index.md:9: the dice notation '1k6' does not parse: Unexpected 'k': modifiers "
        "must follow their dice with no space."
    ]


def test_a_plain_markdown_dice_table_speaks_the_language_too() -> None:
    html, _ = convert(
        "| d6 | Rencontre |\n|---|---|\n| 1-3 | Loups |\n| 4-6 | Rien |\n", language="fr"
    )
    assert 'class="rb-table rb-plain"' in html
    assert ">Afficher les probabilités</button>" in html
    assert ">Copier le lien</button>" in html
    assert "Show chances" not in html and "Copy link" not in html
