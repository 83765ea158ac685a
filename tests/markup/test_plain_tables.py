"""Plain Markdown dice tables: the same widget contract as a roll-table fence."""

from __future__ import annotations

import json
import re

import pytest

from rollbook.markup.plain.die import die_in_header, die_in_lead
from rollbook.markup.plain.keys import read_key
from rollbook.markup.plain.prose import PROSE_DICE, notation_of
from tests.markup.helpers import convert, payload_texts

PLAIN = """\
# Weather

| d6 | Sky |
|----|-----|
| 1 | Fog |
| 2-3 | Rain |
| 4+ | Sun |
"""

FENCE = """\
# Weather

```roll-table
roll: d6
roll_name: d6
class: rb-plain
headers: [Sky]
results:
  1: Fog
  2--3: Rain
  ">=4": Sun
```
"""


def test_a_plain_table_gives_the_fences_payload_and_widget():
    plain, problems = convert(PLAIN)
    fence, fence_problems = convert(FENCE)
    assert problems == fence_problems == []
    assert payload_texts(plain) == payload_texts(fence)
    # The same block, byte for byte, but for the key column: it keeps the author's spelling.
    shown = fence.replace("2&#8211;3</td>", "2-3</td>").replace("&#8805;4</td>", "4+</td>")
    assert plain == shown
    assert plain.count('class="rb-table rb-plain"') == 1
    assert '<td class="rb-key">2-3</td>' in plain and '<td class="rb-key">4+</td>' in plain
    for marker in ('data-rb-anchor="weather"', 'data-rb-kind="table"', 'data-roll="d6"',
                   'class="rb-bar"', 'class="rb-result"', 'data-rb-row="2"'):  # fmt: skip
        assert marker in plain and marker in fence


@pytest.mark.parametrize(
    ("cell", "top", "expected"),
    [
        ("7", 6, "7"), ("2-3", 6, "2--3"), ("2–3", 6, "2--3"), ("2—3", 6, "2--3"),
        ("2 - 3", 6, "2--3"), ("01-20", 100, "1--20"), ("00", 100, "100"), ("0", 100, "100"),
        ("91-00", 100, "91--100"), ("4+", 6, ">=4"), ("15+", 20, ">=15"), ("5-", 20, "<=5"),
        ("5 or less", 20, "<=5"), ("12 or more", None, ">=12"), ("**3**", 6, "3"),
        ("1.", 6, "1"), ("6 to 9", 20, "6--9"), ("≥ 10", 20, ">=10"),
        # German tables (found on the QA page: each left its table static).
        ("3 bis 6", 6, "3--6"), ("2 oder weniger", 12, "<=2"), ("12 oder mehr", 12, ">=12"),
    ],
)  # fmt: skip
def test_keys_as_real_tables_write_them(cell, top, expected):
    key = read_key(cell, top=top)
    assert key is not None and key.text == expected and key.label == ""


def test_a_number_with_a_label_keeps_the_label():
    key = read_key("**2.** A patrol", top=6)
    assert key is not None and (key.text, key.label) == ("2", "A patrol")
    key = read_key("3) Rough", top=4)
    assert key is not None and (key.text, key.label) == ("3", "Rough")


def test_d66_pairs_and_zero_on_small_dice():
    assert read_key("1-1", top=None, d66=True).text == "11"  # type: ignore[union-attr]
    assert read_key("11", top=None, d66=True).text == "11"  # type: ignore[union-attr]
    assert read_key("0", top=6).text == "0"  # type: ignore[union-attr]  # only d100 reads 100


@pytest.mark.parametrize("cell", ["Captain", "+2 per rank", "—", "1d6", "a-b", ""])
def test_text_is_no_key(cell):
    assert read_key(cell, top=20) is None


@pytest.mark.parametrize(
    ("cell", "roll"),
    [
        ("d6", "d6"), ("1d6", "d6"), ("D6", "d6"), ("2d6", "2d6"), ("d66", "d6*10+d6"),
        ("d100", "d100"), ("d%", "d%"), ("1d6+1", "1d6+1"), ("d6 roll", "d6"),
        ("Roll (d8)", "d8"), ("**d20**", "d20"), ("dice: 1d%", "d%"), ("1d12", "d12"),
    ],
)  # fmt: skip
def test_header_cells_that_name_a_die(cell, roll):
    die = die_in_header(cell)
    assert die is not None and die.roll == roll


@pytest.mark.parametrize("cell", ["d20 System", "Damage", "3D", "Hit die", "2d6 x 10", "Level"])
def test_header_cells_that_do_not(cell):
    assert die_in_header(cell) is None


def test_lead_lines():
    assert die_in_lead("Roll 1d6:").roll == "d6"  # type: ignore[union-attr]
    assert die_in_lead("### Encounters (d20)").roll == "d20"  # type: ignore[union-attr]
    assert die_in_lead("Roll 1d6 and 1d8:") is None  # two dice: which one?
    assert die_in_lead("The wolves roll 1d6 each round.") is None  # not a lead-in
    # A PDF export's bold heading line and a title ending with its die were left static.
    assert die_in_lead("**Hazards (1d10)**").roll == "d10"  # type: ignore[union-attr]
    assert die_in_lead("Encounters on the road (d20)").roll == "d20"  # type: ignore[union-attr]
    assert die_in_lead("**Note:** the wolves roll 1d6") is None


def test_a_header_less_table_under_a_lead_keeps_its_first_row():
    # Found building a PDF-export page: under "Roll 1d6:" the empty header row made row "1"
    # the header, so the table lost it and warned "no row covers 1".
    html, problems = convert("Roll 1d6:\n\n| | |\n|---|---|\n| 1 | Locked |\n| 2-6 | Open |\n")
    assert problems == []
    rows = json.loads(payload_texts(html)[0])["rows"]
    assert [(r["key"], r["cells"]) for r in rows] == [("1", ["Locked"]), ("2--6", ["Open"])]
    # A first row that names the die is still the header row, lead or not.
    html, problems = convert(
        "Roll 1d6:\n\n| | |\n|---|---|\n| **d6** | **Door** |\n| 1-6 | Open |\n"
    )
    assert problems == [] and json.loads(payload_texts(html)[0])["headers"] == ["Door"]


def test_a_d100_keyed_from_00_reads_the_die_00_to_99():
    # Found on an OSR loot table: "00-30" was read as 100-30 ("runs backwards") and the
    # table left static; the table counts 00 as nought, so it rolls 0-99.
    html, problems = convert(
        "| d% | Loot |\n|---|---|\n| 00-30 | a |\n| 31-70 | b |\n| 71-99 | c |\n"
    )
    assert problems == []
    data = json.loads(payload_texts(html)[0])
    assert (data["roll"], data["roll_name"]) == ("d%-1", "d%")
    assert [r["key"] for r in data["rows"]] == ["0--30", "31--70", "71--99"]
    # A d10 keyed from 0 reads 0-9 (it warned "no row covers 10" and "0 can never be rolled").
    html, problems = convert("| d10 | Hit |\n|---|---|\n| 0-4 | Miss |\n| 5-9 | Hit |\n")
    data = json.loads(payload_texts(html)[0])
    assert problems == [] and data["roll"] == "d10-1"
    assert [r["key"] for r in data["rows"]] == ["0--4", "5--9"]
    # 00 alone, with 01-99 beside it, is still 100.
    html, _ = convert("| d100 | X |\n|---|---|\n| 01-99 | a |\n| 00 | b |\n")
    assert [r["key"] for r in json.loads(payload_texts(html)[0])["rows"]] == ["1--99", "100"]


def test_a_level_table_under_a_heading_naming_a_die_stays_a_table():
    # Found on the QA class page: a progression table under "### Hit Points (d10)" became a
    # d10 roll over its levels, each row a 10% chance.
    rows = "".join(f"| {n} | {4 + 6 * n} |\n" for n in range(1, 11))
    html, problems = convert(f"### Hit Points (d10)\n\n| Level | HP |\n|---|---|\n{rows}")
    assert "rb-table" not in html and "<table>" in html
    assert [(p.line, p.severity) for p in problems] == [(3, "info")]
    assert "first column is headed 'Level', not a roll" in problems[0].message
    # A key column headed as rolls are stays a roll table, and a heading over words is quiet.
    html, problems = convert("Roll 1d4:\n\n| Die roll | Omen |\n|---|---|\n| 1-4 | Owl |\n")
    assert problems == [] and "rb-table" in html
    assert convert("## Arms (d8)\n\n| Weapon | Cost |\n|---|---|\n| Axe | 5 |\n")[1] == []


def test_a_result_wrapped_onto_a_row_with_no_key_continues_the_row_above():
    # Found on the QA PDF-export page: a long result wrapped onto a row with an empty key
    # cell left the whole table static ("starts with ''").
    src = "| d4 | Result |\n|---|---|\n| 1 | A long result that |\n| | goes on |\n| 2-4 | Short |\n"
    html, problems = convert(src)
    assert problems == []
    rows = json.loads(payload_texts(html)[0])["rows"]
    assert [(r["key"], r["cells"]) for r in rows] == [
        ("1", ["A long result that goes on"]), ("2--4", ["Short"])
    ]  # fmt: skip
    _, problems = convert("| d4 | Result |\n|---|---|\n| | orphan |\n| 1-4 | x |\n")
    assert "starts with an empty cell, which is no d4 result" in problems[0].message


def test_prose_notation_and_its_label():
    found = [m.group(0) for m in PROSE_DICE.finditer("Roll 2d6 x 10, then d% and 3d6 × 10 (d8).")]
    assert found == ["2d6 x 10", "d%", "3d6 × 10", "d8"]
    assert [notation_of(f) for f in found] == ["2d6*10", "d%", "3d6*10", "d8"]
    assert notation_of("d66") == "d6*10+d6"
    # A multiplier after a modifier scales the whole roll: 20-50, not 11-14.
    assert notation_of("1d4+1 x 10") == "(1d4+1)*10"
    assert notation_of("2d6 − 1 × 100") == "(2d6-1)*100"


@pytest.mark.parametrize(
    ("text", "rolls"),
    [
        # Found by pointing the built wheel at hand-written rules pages: each was a silent
        # wrong range (the factor read as "× 1", a sum split into two rolls, an addend dropped).
        ("Hoard: 2d6 × 1,000 gp.", ["2d6*1000"]),
        ("Fire: 7 (1d6 + 1d4) damage and 2d6+1d8 cold.", ["1d6+1d4", "2d6+1d8"]),
        ("Bonus 1d4+1d4+1, minus 1d6 − 1d4.", ["1d4+1d4+1", "1d6-1d4"]),
        # A bare hyphen between dice is a range, never a difference (-5 to 5 for "1d6-2d6").
        ("Damage 1d6-2d6 by size, or 1d6 - 1d4 net.", ["1d6-1d4"]),
        ("Tiny: 1d3 x 1d6 bars.", ["1d3*1d6"]),
        ("They land d6 x 10 + 5 feet away.", ["d6*10+5"]),
        ("A 1d10 x 10% chance.", ["1d10*10"]),
        # Kept dice are part of the roll: "4d6" alone rolled 4-24 for a score of 3-18.
        ("Roll 4d6 and drop the lowest die, or 4d6 drop lowest.", ["4d6dl1", "4d6dl1"]),
        ("Roll 2d20 and take the higher; 3d6, keep the two highest.", ["2d20kh1", "3d6kh2"]),
        ("Roll 2d20, use the worse one.", ["2d20kl1"]),
        # Kept dice said another way stay text rather than roll the plain total.
        ("Roll 2d20 (take the higher), then 2d6 and keep the result.", ["2d6"]),
        # A die "per level" is no part of a sum.
        ("Heal 1d6 + 1d6 per 2 levels.", ["1d6", "1d6"]),
        # A bracket scaled as a whole (found on the QA pages: "(1d4+1) x 10" rolled 1d4+1).
        ("They are (1d4+1) x 10 yards off with (1d6)×100 gp.", ["(1d4+1)*10", "1d6*100"]),
        ("Plain (1d6) stays one die; (1d6 + 1) x 1.5 stays text.", ["1d6"]),
        # An attached small count is attacks, as stat blocks write them (an ambiguous text:
        # most readers of "Bite 1d4 x2" mean two bites, not one doubled); a spaced or large
        # factor scales.
        ("Bite 1d4 x2, claws 1d6 ×3; 1d6x10 gp, 1d4 x 2 days.", ["1d4", "1d6", "1d6*10", "1d4*2"]),
        # What prose dice cannot read stays text whole, never a part of it rolled alone.
        ("Scale by 1d6 x 1.5 or 2d6 + 1d4 × 2 × 3.", []),
    ],
)
def test_prose_arithmetic_is_one_roll_or_none(text, rolls):
    html, problems = convert(text + "\n")
    assert problems == []
    assert re.findall(r'data-roll="([^"]*)"', html) == rolls


def test_repeated_column_names_are_accepted_in_fences_too():
    html, problems = convert(
        """\
        ```roll-table
        roll: d4
        headers: [Name, Name]
        results:
          1--2: [Ann, Reed]
          3--4: [Bel, Marsh]
        ```
        """
    )
    assert problems == []
    [payload] = payload_texts(html)
    assert json.loads(payload)["headers"] == ["Name", "Name"]


def test_a_blocked_plain_table_stays_a_table_with_an_info_line():
    html, problems = convert("| d6 | Result |\n|---|---|\n| 5-2 | Backwards |\n")
    assert "rb-table" not in html and "<table>" in html
    assert [(p.line, p.severity) for p in problems] == [(3, "info")]  # the row's line
    assert "stays a plain table" in problems[0].message
    # In the table's own spelling: it has no double hyphen to write (found on the QA pages).
    assert problems[0].message.startswith("table: results: '5-2' runs backwards; write 2-5 ")


def test_a_table_folded_into_column_pairs_says_so():
    # Found on the QA PDF page: "| d6 | Result | d6 | Result |" keyed 1-3 then 4-6 was
    # called "rolls side by side", which it is not; the INFO line now says what it is.
    src = "| d6 | R | d6 | R |\n|---|---|---|---|\n| 1-2 | a | 5 | c |\n| 3-4 | b | 6 | d |\n"
    _, problems = convert(src)
    assert [p.severity for p in problems] == ["info"]
    assert "one table folded into column pairs" in problems[0].message


def test_a_die_plus_a_modifier_in_words_stays_a_table_and_says_why():
    # Found on the QA pages: "| 2d6 + CHA | Reaction |" (the modifier only named) stayed a
    # table without a word, though it clearly names a roll.
    src = (
        "| 2d6 + CHA | Reaction |\n|---|---|\n| 6- | Hostile |\n| 7-9 | Unsure |\n| 10+ | Warm |\n"
    )
    html, problems = convert(src)
    assert "rb-table" not in html and [(p.line, p.severity) for p in problems] == [(1, "info")]
    assert problems[0].message == (
        "the first column is headed '2d6 + CHA': the roll adds CHA, which the table does not "
        "give, so it stays a plain table."
    )


def test_opt_out_below_and_above():
    below, _ = convert("| d6 | R |\n|---|---|\n| 1-6 | x |\n{: .no-roll }\n")
    above, _ = convert("<!-- rollbook: static -->\n| d6 | R |\n|---|---|\n| 1-6 | x |\n")
    assert "rb-table" not in below and "no-roll" not in below and "<table>" in below
    assert "rb-table" not in above and "<table>" in above


def test_a_page_turns_prose_dice_off_in_its_front_matter(tmp_path):
    from rollbook.markup.pages import convert_page

    page = tmp_path / "notation.md"
    page.write_text("---\nrollbook:\n  prose_dice: false\n---\n\nWrite d20 or 2d6.\n")
    off = convert_page(page)
    page.write_text("---\ntitle: Rules\n---\n\nRoll d20 or 2d6.\n")
    on = convert_page(page)
    assert (off.counts["prose"], on.counts["prose"]) == (0, 2)
    assert "rb-inline" not in off.html


def test_dice_roller_spans_keep_one_die_by_default_and_say_what_stays_code():
    # Found on the QA vault: `dice: 2d20kl` (Dice Roller keeps one die) stayed code, and a
    # span meant as a roll that rollbook cannot read stayed code without a word.
    html, problems = convert(
        "Worse of two: `dice: 2d20kl`.\n\nFar: `dice: 1d6 x 10`; `dice: ask`.\n"
    )
    assert re.findall(r'data-roll="([^"]*)"[^>]*>([^<]*)', html) == [("2d20kl1", "2d20kl")]
    assert [(p.line, p.severity) for p in problems] == [(3, "info")]
    assert problems[0].message.startswith("`dice: 1d6 x 10` stays code: the dice notation")
    assert "<code>dice: 1d6 x 10</code>" in html and "<code>dice: ask</code>" in html


def test_a_dice_roller_roll_of_a_missing_page_is_reported_once_every_page_is_known():
    from rollbook.markup.refs import Site

    site = Site(complete=True)
    site.add("docs/a.md", 2, {}, [(5, "[[Oracles]]#action", "[[Oracles#^action]]")])
    [problem] = site.problems()
    assert (problem.page, problem.line) == ("docs/a.md", 7)
    assert "names the page 'Oracles', which this site does not have" in problem.message
    assert Site(complete=False, pages=dict(site.pages)).problems() == []  # may be unread


@pytest.mark.parametrize(
    "table",
    [
        "| d6 | R |\n|---|---|\n| 9999-1 | x |\n",
        "| d0 | R |\n|---|---|\n| 1 | x |\n",
        "| d999 | R |\n|---|---|\n| 1-999 | x |\n",
        "| 99d999 | R |\n|---|---|\n| 99-98901 | x |\n",
        "| d66 | R |\n|---|---|\n| 0-0 | x |\n| 7-7 | y |\n",
        "| d6 | R |\n|---|---|\n| | |\n| 1-6 | x |\n",
        "| d% | R | R | R |\n|---|---|---|---|\n| 00 | a |\n| 1-99 | b | c | d |\n",
        "| **d20** |\n|---|\n| 1. |\n| 2) |\n",
        "|  |  |\n|---|---|\n",
        "| d6 | <b>R</b> |\n|---|---|\n| 1-6 | <script>x</script> |\n",
        "Roll 1d6:\n\n| 1 | x |\n|---|---|\n| 2 | y |\n",
    ],
)
def test_odd_tables_never_raise_and_say_what_they_did(table):
    html, problems = convert(table)
    assert ("rb-table" in html) or ("<table>" in html)
    assert all(p.severity in ("error", "warning", "info") for p in problems)
    assert "Traceback" not in html
