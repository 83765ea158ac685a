"""Rules text in a language with its own dice letter rolls as written: ``1W20`` in German
prose, a ``| W6 |`` table, ``1k6`` in Polish, ``1к6`` in Russian; a page in another
language leaves those letters alone."""

from __future__ import annotations

import re

import markdown
import pytest

TABLE = """## Begegnungen (W6)

| W6 | Begegnung |
|----|-----------|
| 1 | Eine Streife |
| 2-3 | Pilger |
| 4-6 | Nichts |

Würfle 1W6:

| Ergebnis | Wetter |
|---|---|
| 1-3 | Regen |
| 4-6 | Sonne |
"""


def _html(text: str, language: str) -> str:
    md = markdown.Markdown(
        extensions=["tables", "rollbook"], extension_configs={"rollbook": {"language": language}}
    )
    return md.convert(text)


@pytest.mark.parametrize(
    ("language", "text", "rolls", "shown"),
    [
        (
            "de",
            "Würfle 1W20 und 2W6 x 10 Meter; ein Dolch (W4).",
            ["1d20", "2d6*10", "d4"],
            ["1W20", "2W6 x 10", "W4"],
        ),
        # German groups thousands with a dot: "× 1.000" is a thousand, never "× 1".
        ("de", "Schatz: 4W6 x 1.000 Silber.", ["4d6*1000"], ["4W6 x 1.000"]),
        # Kept dice in German words: never the plain total of all the dice.
        ("de", "Wirf 3W6 und streiche den niedrigsten, 2W20 (nimm den höheren).", [], []),
        ("pl", "Rzuć 1k6 albo k8.", ["1d6", "d8"], ["1k6", "k8"]),
        ("ru", "Бросьте 1к6 и 2к6.", ["1d6", "2d6"], ["1к6", "2к6"]),
        ("en", "Roll 1d6, but 1W20 and 1k6 are words here.", ["1d6"], ["1d6"]),
        ("fr", "Lancez 1d6 (pas 1k6).", ["1d6"], ["1d6"]),
    ],
)
def test_prose_dice_in_the_pages_letters(
    language: str, text: str, rolls: list[str], shown: list[str]
) -> None:
    html = _html(text, language)
    assert re.findall(r'data-roll="([^"]*)"', html) == rolls
    assert re.findall(r'type="button">([^<]*)</button>', html) == shown
    if (
        language == "de" and "1W20" in text
    ):  # the tooltip says the roll as written, in the page's words
        assert 'title="1W20: Durchschnitt 10,5' in html


def test_plain_tables_named_with_the_pages_letter() -> None:
    html = _html(TABLE, "de")
    assert html.count('class="rb-table') == 2
    assert re.findall(r'<th scope="col" class="rb-key">([^<]*)', html) == ["W6", "Ergebnis"]
    assert _html(TABLE, "en").count('class="rb-table') == 0  # W6 is no die in English
