# ruff: noqa: E501  (each expected report is one line, as the build prints it)
"""``statblock`` and ``combat`` fences: Markdown in, HTML out, and every problem with its line."""

from __future__ import annotations

import json
import random
import re
from fractions import Fraction

import pytest

from rollbook.engine.systems import get
from rollbook.engine.systems.encounter import Fight
from rollbook.markup.pages import convert_page
from tests.markup.helpers import convert, messages

GOBLIN = """
# Bestiary

```statblock
system: scars
name: Cave Goblin
health: 5
attack: 11
ac: 2
damage: 1d6
notes: Hates *light*.
```
"""

ENCOUNTER = """
# The ford

```combat
system: scars
seed: 7
title: Ambush at the ford
sides:
  Heroes:
    - name: Wren
      kind: pc
      health: 9
      attack: 13
      ac: 3
      damage: 1d8
    - {ref: hound, name: Rex}
  Goblins:
    - {ref: cave-goblin, count: 3}
```

```statblock
system: scars
name: Cave Goblin
health: 5
attack: 11
ac: 2
damage: 1d6
```

```statblock
system: scars
id: hound
name: War hound
health: 6
attack: 12
damage: 1d4+1
```
"""


def _payload(html: str, anchor: str) -> dict:
    block = re.search(
        rf'<div class="rb-combat"[^>]*data-rb-anchor="{anchor}".*?'
        r'<template class="rb-data" data-search-exclude>(.*?)</template>',
        html,
        re.S,
    )
    assert block, html
    data: dict = json.loads(block.group(1))
    return data


def test_statblock_card_is_a_definition_list_with_a_slug_anchor() -> None:
    html, problems = convert(GOBLIN)
    assert problems == []
    card = re.search(
        r'<div class="rb-statblock" id="cave-goblin" data-rb-anchor="cave-goblin" '
        r'data-rb-system="scars">(.*)</div>\s*$',
        html,
        re.S,
    )
    assert card, html
    body = card.group(1)
    assert '<strong>Cave Goblin</strong> <span class="rb-statblock-system">Scars</span>' in body
    fields = re.findall(r'data-rb-field="(\w+)"><dt[^>]*>([^<]*)</dt>\s*<dd>(.*?)</dd>', body)
    assert [(f, label) for f, label, _ in fields] == [
        ("health", "Health"),
        ("attack", "Attack"),
        ("ac", "AC"),
        ("damage", "Damage"),
    ]
    assert fields[0][2] == "5"
    assert '<p class="rb-statblock-notes">Hates <em>light</em>.</p>' in body


def test_dice_fields_are_inline_rolls_with_the_inline_roll_html() -> None:
    html, _ = convert(GOBLIN + "\nBite: ![roll:1d6]()\n")
    rolls = re.findall(r'<span class="rb-inline" data-rb-id="rb-roll-\d+">.*?</span>', html)
    assert len(rolls) == 2
    card_roll, text_roll = (re.sub(r"rb-roll-\d+", "rb-roll-N", r) for r in rolls)
    assert card_roll == text_roll  # byte for byte, so inline.js treats both alike
    assert 'data-rb-mean="3.5"' in card_roll
    ids = re.findall(r'data-rb-id="(rb-roll-\d+)"', html)
    assert len(set(ids)) == 2  # one counter for the page


def test_explicit_id_and_heading_that_owns_the_slug() -> None:
    html, problems = convert("""
        ```statblock
        system: dark-dungeons
        id: boss
        name: Ogre chief
        hp: 30
        damage: 2d6
        ```

        ## Orc

        ```statblock
        system: dark-dungeons
        name: Orc
        hp: 5
        ```
        """)
    assert problems == []
    assert 'id="boss" data-rb-anchor="boss"' in html
    # the heading keeps the id; the card below it carries only data-rb-anchor
    assert '<h2 id="orc">' in html
    assert '<div class="rb-statblock" data-rb-anchor="orc"' in html
    assert 'data-rb-field="damage"' in html and 'data-roll="2d6"' in html


def test_combat_resolves_refs_counts_and_names_in_the_authors_order() -> None:
    html, problems = convert(ENCOUNTER)
    assert problems == []
    data = _payload(html, "the-ford")
    assert data["system"] == "scars" and data["seed"] == 7 and data["runs"] == 1000
    assert [side for side, _ in data["sides"]] == ["Heroes", "Goblins"]
    heroes, goblins = (members for _, members in data["sides"])
    assert [m["name"] for m in heroes] == ["Wren", "Rex"]
    assert heroes[1] == {"name": "Rex", "health": 6, "attack": 12, "damage": "1d4+1"}
    assert [m["name"] for m in goblins] == ["Cave Goblin 1", "Cave Goblin 2", "Cave Goblin 3"]
    assert all(m["damage"] == "1d6" and m["health"] == 5 for m in goblins)
    assert "<strong>Ambush at the ford</strong>" in html
    # the heading owns the id; the widget has the anchor, the seed is filled in
    assert '<div class="rb-combat" data-rb-anchor="the-ford" data-rb-system="scars">' in html
    assert 'class="rb-seed" id="the-ford-seed"' in html and 'value="7"' in html
    rows = re.findall(
        r'<tr data-rb-c="(\d)"><td>(\w+)</td>\s*<td>([\w ]+)</td>\s*<td class="rb-hp">(\d+/\d+)</td>',
        html,
    )
    assert rows == [
        ("0", "Heroes", "Wren", "9/9"),
        ("1", "Heroes", "Rex", "6/6"),
        ("2", "Goblins", "Cave Goblin 1", "5/5"),
        ("3", "Goblins", "Cave Goblin 2", "5/5"),
        ("4", "Goblins", "Cave Goblin 3", "5/5"),
    ]
    for label in ("Roll initiative", "Next round", "Fight to the end", "Reset", "Copy link"):
        assert f">{label}</button>" in html
    assert (
        '<div class="rb-log" role="log" aria-live="polite"' in html
        and '<ol class="rb-log-lines">' in html
    )


def test_pair_odds_are_the_systems_exact_attack_odds() -> None:
    html, _ = convert(ENCOUNTER)
    attack = get("scars").procedure("attack")
    tables = re.findall(
        r'<table class="rb-pair-odds" data-rb-side="(\w+)">(.*?)</table>', html, re.S
    )
    assert [side for side, _ in tables] == ["Heroes", "Goblins"]
    heroes = dict(tables)["Heroes"]
    assert '<th scope="col">Cave Goblin ×3</th>' in heroes
    cells = re.findall(r'<th scope="row">([^<]+)</th>\s*<td data-rb-p="(\d+/\d+)"', heroes)
    wren = attack.odds({"attribute": 13, "ac": 2})
    rex = attack.odds({"attribute": 12, "ac": 2})
    assert wren is not None and rex is not None
    assert cells == [
        ("Wren", str(wren["stun"] + wren["hit"])),
        ("Rex", str(rex["stun"] + rex["hit"])),
    ]
    goblins = dict(tables)["Goblins"]
    first = re.search(r'<td data-rb-p="(\d+/\d+)"', goblins)
    odds = attack.odds({"attribute": 11, "ac": 3})
    assert first and odds and Fraction(first.group(1)) == odds["stun"] + odds["hit"]
    assert 'data-rb-runs="1000">Simulate 1,000 fights</button>' in html


@pytest.mark.parametrize(
    ("system", "attacker", "defender", "procedure", "params", "landing"),
    [
        (
            "grit-flesh",
            {"flesh": 5, "violence": 3},
            {"flesh": 5, "defense": 13},
            "attack",
            {"violence": 3, "defense": 13},
            ("critical_hit", "hit"),
        ),
        (
            "dark-dungeons",
            {"hp": 9, "attack_bonus": 2},
            {"hp": 5, "ac": 4},
            "attack",
            {"attack_bonus": 2, "ac": 4},
            ("hit",),
        ),
        (
            "roll-under-atk",
            {"kind": "pc", "hp": 8, "atk": 13},
            {"hp": 4, "armor": 2},
            "attack",
            {"atk": 13, "enemy_def": 2},
            ("critical", "hit"),
        ),
        (
            "roll-under-atk",
            {"hp": 4, "hd": 2},
            {"kind": "pc", "hp": 8, "armor": 3},
            "defend",
            {"armor": 3, "enemy_hd": 2},
            ("hit", "fumble", "armor_breaks"),
        ),
    ],
)
def test_pair_odds_per_system(
    system: str,
    attacker: dict,
    defender: dict,
    procedure: str,
    params: dict,
    landing: tuple[str, ...],
) -> None:
    html, problems = convert(f"""
        ```combat
        system: {system}
        sides:
          A: [{json.dumps({"name": "Att", **attacker})}]
          B: [{json.dumps({"name": "Def", **defender})}]
        ```
        """)
    assert problems == []
    odds = get(system).procedure(procedure).odds(params)
    assert odds is not None
    want = sum((odds[n] for n in landing), Fraction(0))
    cell = re.search(r'data-rb-side="A">.*?<td data-rb-p="(\d+/\d+)" title="([^"]*)"', html, re.S)
    assert cell and Fraction(cell.group(1)) == want
    assert cell.group(2).startswith(f"{procedure}: ")


def test_stamina_wounds_blows_land_when_they_beat_the_armour() -> None:
    html, _ = convert("""
        ```combat
        system: stamina-wounds
        sides:
          A: [{name: Delver, max_wounds: 4, weapon: d8}]
          B: [{name: Brute, max_wounds: 5, av: 2}]
        ```
        """)
    odds = (
        get("stamina-wounds").procedure("attack").odds({"weapon": "d8", "av": 2, "max_wounds": 5})
    )
    assert odds is not None
    cell = re.search(r'data-rb-side="A">.*?<td data-rb-p="(\d+/\d+)"', html, re.S)
    assert cell and Fraction(cell.group(1)) == 1 - odds["no_damage"]


def test_the_payload_fights_exactly_like_the_engine() -> None:
    html, _ = convert(ENCOUNTER)
    data = _payload(html, "the-ford")
    sides = {name: members for name, members in data["sides"]}
    a = Fight.start(get("scars"), sides, random.Random(7))
    a.run()
    from rollbook.engine.bridge import handle

    reply = handle({"op": "fight", "system": "scars", "sides": data["sides"], "seed": 7})
    assert reply["log"] == a.lines and reply["result"]["winner"] == a.result.winner  # type: ignore[union-attr]
    first = handle(
        {"op": "fight", "system": "scars", "sides": data["sides"], "seed": 7, "rounds": 1}
    )
    assert first["log"] == a.lines[: len(first["log"])] and first["round"] == 1


def test_output_is_deterministic() -> None:
    assert convert(ENCOUNTER)[0] == convert(ENCOUNTER)[0]


MALFORMED: dict[str, tuple[str, list[str]]] = {
    "unknown system": (
        """
        ```statblock
        system: chess
        name: Pawn
        ```
        """,
        [
            "page.md:2: statblock: unknown system 'chess'; known systems: scars, grit-flesh, stamina-wounds, dark-dungeons, roll-under-atk."
        ],
    ),
    "no system": (
        """
        ```statblock
        name: Pawn
        health: 3
        ```
        """,
        [
            "page.md:1: statblock: needs 'system' (one of: scars, grit-flesh, stamina-wounds, dark-dungeons, roll-under-atk)."
        ],
    ),
    "no name": (
        """
        ```statblock
        system: scars
        health: 3
        ```
        """,
        ["page.md:1: statblock: needs a 'name' (the text shown on the card)."],
    ),
    "bad fields": (
        """
        # Bestiary

        ```statblock
        system: scars
        name: Wolf
        health: lots
        atack: 12
        hd: -1
        surprised: 1
        ```
        """,
        [
            "page.md:6: statblock: field 'health' must be a whole number, not 'lots'.",
            "page.md:7: statblock: unknown field 'atack' for scars; its fields are: kind, health, attack, ac, damage, hd, agility, cunning, scars, leader, surprised.",
            "page.md:8: statblock: field 'hd' must be at least 0, not -1.",
            "page.md:9: statblock: field 'surprised' must be true or false, not 1.",
        ],
    ),
    "missing field": (
        """
        ```statblock
        system: dark-dungeons
        name: Orc
        ac: 6
        ```
        """,
        ["page.md:1: statblock: missing field 'hp' (hit points)."],
    ),
    "bad damage dice": (
        """
        ```statblock
        system: scars
        name: Wolf
        health: 4
        damage: lots of teeth
        ```
        """,
        [
            "page.md:5: statblock: Wolf's damage must look like 1d6, 2d4+1 or 3, not 'lots of teeth'."
        ],
    ),
    "not a mapping": (
        """
        ```statblock
        - system: scars
        ```
        """,
        [
            "page.md:1: statblock: the body must be a YAML mapping with 'system', 'name' and the stat-block fields, but it is a list."
        ],
    ),
    "yaml error": (
        """
        ```statblock
        system: scars
        name: [Wolf
        ```
        """,
        [
            "page.md:3: statblock: the YAML body does not parse: expected ',' or ']', but got '<stream end>'."
        ],
    ),
    "combat unknown system": (
        """
        ```combat
        system: chess
        sides: {A: [x], B: [y]}
        ```
        """,
        [
            "page.md:2: combat: unknown system 'chess'; known systems: scars, grit-flesh, stamina-wounds, dark-dungeons, roll-under-atk."
        ],
    ),
    "combat keys and one side": (
        """
        ```combat
        system: scars
        seed: -3
        runs: 0
        colour: red
        sides:
          Alone:
            - name: Wren
              health: 5
        ```
        """,
        [
            "page.md:3: combat: 'seed' must be a whole number from 0 to 9007199254740991, not -3.",
            "page.md:4: combat: 'runs' must be a whole number from 1 to 20000, not 0.",
            "page.md:5: combat: unknown key 'colour'; a combat block may have system, sides, seed, runs, id, title.",
            "page.md:6: combat: needs 'sides': exactly two sides, each a name with a list of stat blocks (found 1 side).",
        ],
    ),
    "combat refs and inline blocks": (
        """
        ```statblock
        system: dark-dungeons
        name: Orc
        hp: 5
        ```

        ```statblock
        system: scars
        name: Rat
        health: nope
        ```

        ```statblock
        system: scars
        id: hound
        name: Hound
        health: 4
        ```

        ```combat
        system: scars
        sides:
          Heroes:
            - goblin
            - rat
            - {ref: orc, count: 2}
          Beasts:
            - {ref: hound, colour: grey, health: 0}
            - name: Wolf
              health: 0
              bite: 1d6
            - 42
            - count: 2
            - name: Crow
              health: 2
              count: 99
        ```
        """,
        [
            "page.md:10: statblock: field 'health' must be a whole number, not 'nope'.",
            "page.md:24: combat: side 'Heroes': no statblock 'goblin' on this page (statblocks here: hound, orc, rat).",
            "page.md:25: combat: side 'Heroes': the statblock 'rat' (line 7) has errors, so it cannot fight.",
            "page.md:26: combat: side 'Heroes': the statblock 'orc' is for dark-dungeons, but this fight uses scars.",
            "page.md:28: combat: side 'Beasts', 'hound': field 'health' must be at least 1, not 0.",
            "page.md:28: combat: side 'Beasts', 'hound': unknown field 'colour' for scars; its fields are: kind, health, attack, ac, damage, hd, agility, cunning, scars, leader, surprised.",
            "page.md:30: combat: side 'Beasts', 'Wolf': field 'health' must be at least 1, not 0.",
            "page.md:31: combat: side 'Beasts', 'Wolf': unknown field 'bite' for scars; its fields are: kind, health, attack, ac, damage, hd, agility, cunning, scars, leader, surprised.",
            "page.md:32: combat: side 'Beasts': each entry is a statblock name, {ref: NAME, count: N}, or a stat block; not 42.",
            "page.md:33: combat: side 'Beasts': a stat block written here needs a 'name' (or use 'ref' to name a statblock of this page).",
            "page.md:36: combat: 'count' must be a whole number from 1 to 50, not 99.",
        ],
    ),
    "combat empty side": (
        """
        ```combat
        system: scars
        sides:
          A: []
          B: {name: Rat, health: 2}
        ```
        """,
        ["page.md:4: combat: side 'A' needs a list of one or more stat blocks or statblock names."],
    ),
}


@pytest.mark.parametrize("case", list(MALFORMED))
def test_each_problem_is_reported_with_its_line(case: str) -> None:
    src, expected = MALFORMED[case]
    assert messages(src) == expected


def test_a_broken_block_becomes_a_visible_error_box() -> None:
    html, _ = convert(MALFORMED["missing field"][0])
    assert (
        '<div class="admonition failure rb-error" role="note"><p class="admonition-title">'
        "This stat block has errors</p>\n<ul>\n<li>line 1: statblock: missing field &#x27;hp&#x27; "
        "(hit points).</li>\n</ul></div>"
    ) in html
    html, _ = convert(MALFORMED["combat unknown system"][0])
    assert "This combat block has errors" in html and "rb-combat" not in html


def test_page_lines_count_front_matter(tmp_path: object) -> None:
    from pathlib import Path

    page = Path(str(tmp_path)) / "fight.md"
    page.write_text(
        "---\ntitle: Fight\n---\n\n```combat\nsystem: scars\nsides:\n  A: [ghost]\n"
        "  B: [{name: Rat, health: 2}]\n```\n",
        encoding="utf-8",
    )
    result = convert_page(page, shown="docs/fight.md")
    assert result.messages() == [
        "docs/fight.md:8: combat: side 'A': no statblock 'ghost' on this page (statblocks here: there are none)."
    ]


@pytest.mark.parametrize(
    "system", ["scars", "grit-flesh", "stamina-wounds", "dark-dungeons", "roll-under-atk"]
)
def test_docs_encounter_steps_replay_the_whole_fight(system: str) -> None:
    """The widget's stateless stepping: the log after N rounds is the start of the full log."""
    from pathlib import Path

    from rollbook.engine.bridge import handle

    page = Path(__file__).resolve().parents[2] / "docs" / "systems" / system / "index.md"
    result = convert_page(page)
    assert result.messages() == []
    found = re.search(
        r'<div class="rb-combat".*?class="rb-data"[^>]*>(.*?)</template>', result.html, re.S
    )
    assert found
    data = json.loads(found.group(1))
    assert data["system"] == system
    for seed in (1, 2, 3):
        full = handle({"op": "fight", "system": system, "sides": data["sides"], "seed": seed})
        assert full["result"] is not None
        sides = {name: members for name, members in data["sides"]}
        fight = Fight.start(get(system), sides, random.Random(seed))
        fight.run()
        assert full["log"] == fight.lines  # what `rollbook fight --seed` prints
        previous: list[str] = []
        for rounds in range(full["round"] + 1):
            part = handle(
                {
                    "op": "fight",
                    "system": system,
                    "sides": data["sides"],
                    "seed": seed,
                    "rounds": rounds,
                }
            )
            assert part["round"] == rounds
            assert part["log"][: len(previous)] == previous
            assert part["log"] == full["log"][: len(part["log"])]
            previous = part["log"]
        assert previous == full["log"]
