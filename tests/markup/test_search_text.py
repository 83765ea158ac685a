"""What site search gets from our widgets: their content as separate words, not their controls.

The HTML goes through Material's own search parser (the one its search plugin runs at build
time), and the indexed text is split into words the way Material's default separator does.
"""

from __future__ import annotations

import re

from material.plugins.search.plugin import Parser

from tests.markup.helpers import TABBED_TABLE, convert

WORDS = re.compile(r"[\s\-]+")  # Material's default search.separator


def indexed_words(markdown_text: str) -> list[str]:
    """The words search would index for ``markdown_text``'s page, in order."""
    html, problems = convert(markdown_text)
    assert problems == []
    parser = Parser()
    parser.feed(html)
    parser.close()
    text = " ".join("".join(section.title) + " " + "".join(section.text) for section in parser.data)
    return [word for word in WORDS.split(re.sub(r"<[^>]+>", " ", text)) if word]


TABLE = """\
## Night watch

```roll-table
roll: 2d6 + {{ alertness }}
prompts:
  - name: alertness
    label: Watch bonus
    help_text: Add the best sentry's bonus.
    min: 0
    max: 3
headers: [Event, Lasts]
results:
  "<=6": [All quiet, none]
  7--10: [A noise in the dark, one turn]
  ">=11": [Wolves circle the camp, three turns]
```
"""


def test_table_cells_headers_and_prompts_are_separate_words() -> None:
    words = indexed_words(TABLE)
    for word in (
        "Event",
        "Lasts",
        "quiet",
        "none",
        "dark",
        "one",
        "turn",
        "Wolves",
        "camp",
        "three",
        "turns",
        "Watch",
        "bonus",
        "Add",
        "bonus.",
    ):
        assert word in words, (word, words)
    # The row keys are content too: a reader may search for a result by its number.
    assert "7–10" in words and "≤6" in words


def test_table_controls_and_hidden_chances_are_not_indexed() -> None:
    words = indexed_words(TABLE)
    text = " ".join(words)
    for control in ("Roll on the table", "Show chances", "Copy link", "Chance"):
        assert control not in text, (control, text)
    assert not any(word.endswith("%") for word in words), words


def test_list_items_are_separate_words_without_their_chances() -> None:
    words = indexed_words("```roll-list\nresults:\n  - a coil of rope\n  - three candles\n```\n")
    assert words[-6:] == ["a", "coil", "of", "rope", "three", "candles"], words
    assert "(50%)" not in words


def test_tabbed_table_names_each_tab_as_a_word() -> None:
    words = indexed_words(TABBED_TABLE)
    assert {"Lowlands", "Highlands", "fog", "rain", "snow"} <= set(words), words


def test_statblock_fields_are_separate_words() -> None:
    src = """\
```statblock
system: scars
name: Marsh Lurker
health: 7
attack: 12
ac: 3
damage: 1d8
```
"""
    words = indexed_words(src)
    assert words[-11:] == [
        "Marsh",
        "Lurker",
        "Scars",
        "Health",
        "7",
        "Attack",
        "12",
        "AC",
        "3",
        "Damage",
        "1d8",
    ], words


def test_combat_names_its_fighters_but_not_its_controls_state_or_odds() -> None:
    src = """\
```combat
system: scars
title: Toll bridge
sides:
  Pilgrims:
    - {name: Ansel, health: 8, attack: 12, ac: 2, damage: 1d6}
  Trolls:
    - {name: Gorm, health: 12, attack: 13, ac: 4, damage: 1d10}
```
"""
    words = indexed_words(src)
    text = " ".join(words)
    assert {"Toll", "bridge", "Pilgrims", "Ansel", "Trolls", "Gorm"} <= set(words), words
    for control in (
        "Roll initiative",
        "Next round",
        "Fight to the end",
        "Reset",
        "Copy link",
        "Not started",
        "Odds",
        "Simulate",
        "attacking",
        "Seed",
    ):
        assert control not in text, (control, text)
