# ruff: noqa: E501  (expected HTML is clearer unwrapped)
"""roll-table / roll-list fences: Markdown in, HTML out, for every form docs/authoring names."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from tests.markup.helpers import TABBED_TABLE, convert, payload_texts


def payload(html: str, n: int = 0) -> dict:
    return json.loads(payload_texts(html)[n])


def rows(html: str) -> list[tuple[str, str, str]]:
    """(data-rb-row, data-rb-p, key label as the reader sees it) of every table row."""
    found = re.findall(
        r'<tr data-rb-row="(\d+)"(?: data-rb-p="([^"]+)")?>\s*<td class="rb-key">([^<]*)</td>', html
    )
    return [(row, p, unescape(label)) for row, p, label in found]


REACTION = """\
## Reaction

```roll-table
roll: 2d6
roll_name: 2d6 reaction
results:
  2: Attacks at once
  3--5: Hostile
  6--8: Uncertain
  9--11: Friendly
  12: Eager to help
```
"""


def test_2d6_table_has_exact_row_chances_and_labels():
    html, problems = convert(REACTION)
    assert problems == []
    # The labels' en dashes are character references: an ASCII page stays ASCII.
    assert html.isascii()
    assert rows(html) == [
        ("0", "1/36", "2"),
        ("1", "1/4", "3–5"),
        ("2", "4/9", "6–8"),
        ("3", "1/4", "9–11"),
        ("4", "1/36", "12"),
    ]
    assert '<th scope="col" class="rb-key">2d6 reaction</th>\n<th scope="col">Result</th>' in html
    assert '<td class="rb-p" hidden data-search-exclude>44.4%</td>' in html


def test_wrapper_anchor_payload_bar_and_live_region():
    html, _ = convert(REACTION)
    assert html.startswith('<h2 id="reaction">Reaction</h2>\n<div class="rb-table" ')
    # The heading owns id="reaction": the block carries the anchor as data only.
    assert '<div class="rb-table" data-rb-anchor="reaction" data-rb-kind="table" ' in html
    assert html.count('id="reaction"') == 1
    data = payload(html)
    assert data["roll"] == "2d6" and data["kind"] == "table"
    assert [r["key"] for r in data["rows"]] == ["2", "3--5", "6--8", "9--11", "12"]
    assert '<button type="button" class="rb-roll" aria-controls="reaction-result">' in html
    assert 'class="rb-chances" aria-pressed="false"' in html
    assert 'class="rb-copy-link" data-rb-href="#reaction"' in html
    assert html.endswith(
        '<div class="rb-result" id="reaction-result" aria-live="polite"></div>\n</div>'
    )


def test_payload_is_sorted_json():
    html, _ = convert(REACTION)
    raw = payload_texts(html)[0]
    canonical = json.dumps(
        json.loads(raw), sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    assert raw == canonical.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@pytest.mark.parametrize("info", ["roll-table", "ROLL-TABLE", "Roll-Table"])
def test_info_string_is_case_insensitive(info):
    html, problems = convert(f"```{info}\nroll: 1d2\nresults:\n  1: a\n  2: b\n```\n")
    assert problems == []
    assert 'data-rb-kind="table"' in html


def test_open_ended_keys_inclusive_and_exclusive():
    src = """\
```roll-table
roll: 1d20
results:
  "<2": fumble
  "<=5": poor
  6--16: fair
  ">16": good
  ">=20": never
```
"""
    html, problems = convert(src)
    # "<2" is exclusive (1) but "<=5" inclusive (1..5): they overlap on 1. ">16" is exclusive
    # (17..20), so ">=20" overlaps it on 20. Both are reported at the later key's line.
    assert [p.line for p in problems] == [5, 8]
    assert "1" in problems[0].message and "20" in problems[1].message
    assert rows(html) == [] and "rb-error" in html  # the error box takes the table's place
    valid = src.replace('"<=5": poor', "2--5: poor").replace('  ">=20": never\n', "")
    html, problems = convert(valid)
    assert problems == []
    assert [label for _, _, label in rows(html)] == ["<2", "2–5", "6–16", ">16"]
    html, problems = convert(valid.replace('"<2"', '"<=1"').replace('">16"', '">=17"'))
    assert problems == []
    assert [label for _, _, label in rows(html)] == ["≤1", "2–5", "6–16", "≥17"]


def test_results_list_starts_at_lowest_total():
    src = "```roll-table\nroll: 1d6+1\nresults:\n  - two\n  - three\n  - four\n  - five\n  - six\n  - seven\n```\n"
    html, problems = convert(src)
    assert problems == []
    assert [label for _, _, label in rows(html)] == ["2", "3", "4", "5", "6", "7"]
    assert all(p == "1/6" for _, p, _ in rows(html))


def test_d66_tuple_keys_and_tabs_by_first_die():
    lines = ["```roll-table", "roll: d6,d6", "tabs:"]
    lines += [f"  {a}: Part {a}" for a in range(1, 7)]
    lines += ["results:"] + [f"  {a}-{b}: cell {a}{b}" for a in range(1, 7) for b in range(1, 7)]
    html, problems = convert("\n".join([*lines, "```", ""]))
    assert problems == []
    assert html.count('role="tab"') == 6
    assert html.count('role="tabpanel"') == 6
    assert (
        '<button type="button" role="tab" id="roll-table-tab-1" aria-controls="roll-table-panel-1" aria-selected="true" tabindex="0" data-rb-tab="1">Part 1</button>'
        in html
    )
    panel3 = re.search(r'<div role="tabpanel" id="roll-table-panel-3".*?</div>', html, re.S).group(
        0
    )
    assert " hidden>" in panel3
    assert re.findall(r'data-rb-row="(\d+)"', panel3) == [str(i) for i in range(12, 18)]
    assert '<td class="rb-key">3, 4</td>\n<td>cell 34</td>' in panel3


def test_tabs_with_explicit_results():
    html, problems = convert(TABBED_TABLE)
    assert problems == []
    assert 'data-rb-tab="low">Lowlands</button>' in html
    high = re.search(r'<div role="tabpanel" [^>]*data-rb-tab="high".*?</div>', html, re.S).group(0)
    assert re.findall(r'data-rb-row="(\d+)"', high) == ["2"]


def test_several_headers_with_list_and_mapping_cells():
    src = """\
```roll-table
roll: 1d2
headers: [Foe, Number]
results:
  1: [Wolves, 2d4]
  2: {Foe: Bandits, Number: 1d6}
```
"""
    html, problems = convert(src)
    assert problems == []
    assert '<th scope="col">Foe</th>\n<th scope="col">Number</th>' in html
    assert '<td class="rb-key">1</td>\n<td>Wolves</td>\n<td>2d4</td>' in html
    assert '<td class="rb-key">2</td>\n<td>Bandits</td>\n<td>1d6</td>' in html


def test_cells_are_inline_markdown_with_author_html_and_rolls():
    src = """\
```roll-table
roll: 1d2
results:
  1: "**Ambush**: <em>now</em> & [see](#x)"
  2: "Reinforcements: ![roll:1d4]() more"
result_text: "Rolled {{ roll }}:<br /><blockquote>{{ result }}</blockquote>"
```
"""
    html, problems = convert(src)
    assert problems == []
    assert '<td><strong>Ambush</strong>: <em>now</em> &amp; <a href="#x">see</a></td>' in html
    assert 'data-roll="1d4"' in html
    data = payload(html)
    assert data["rows"][0]["cells"] == [
        '<strong>Ambush</strong>: <em>now</em> &amp; <a href="#x">see</a>'
    ]
    assert data["result_text"] == "Rolled {{ roll }}:<br /><blockquote>{{ result }}</blockquote>"


def test_payload_is_inert_text_in_a_template():
    # Material's instant navigation re-runs inline <script>s without their type, so payloads
    # live in a <template>; with no markup characters left its text reads back as the JSON.
    src = (
        '```roll-table\nroll: 1d2\nresults:\n  1: "</template></script><b>x</b> & y"\n  2: b\n```\n'
    )
    html, _ = convert(src)
    raw = payload_texts(html)[0]
    assert not {"<", ">", "&"} & set(raw)
    assert payload(html)["rows"][0]["cells"][0].startswith("</template></script>")
    assert "<script" not in html


def test_result_text_false():
    src = "```roll-table\nroll: 1d2\nresult_text: false\nresults:\n  1: a\n  2: b\n```\n"
    html, problems = convert(src)
    assert problems == []
    assert payload(html)["result_text"] is None


def test_prompts_form():
    src = """\
```roll-table
roll: 2d6 + {{ failed_roll }} - {{bonus}}
prompt_title: Before you roll
prompts:
  - name: failed_roll
    min: 0
    max: 3
    help-text: How many times it already failed
  - name: bonus
    label: Leader's bonus
    type: range
    min: 0
    max: 2
results:
  "<=7": Hold
  ">=8": Break
```
"""
    html, problems = convert(src)
    assert problems == []
    assert '<fieldset class="rb-prompts"><legend>Before you roll</legend>' in html
    assert (
        '<label for="roll-table-in-failed_roll">Failed Roll</label><input type="number" '
        'name="failed_roll" id="roll-table-in-failed_roll" value="0" step="1" required min="0" '
        'max="3" aria-describedby="roll-table-in-failed_roll-help">'
    ) in html
    assert (
        '<small class="rb-help" id="roll-table-in-failed_roll-help">How many times it already failed</small>'
        in html
    )
    assert '<label for="roll-table-in-bonus">Leader&#x27;s bonus</label><input type="range"' in html
    assert [p["name"] for p in payload(html)["prompts"]] == ["failed_roll", "bonus"]


def test_bare_string_prompt_without_title_uses_roll_name():
    src = '```roll-table\nroll: 1d6 + {{ mod }}\nroll_name: Morale\nprompts: [mod]\nresults:\n  "<=3": flee\n  ">3": stay\n```\n'
    html, _ = convert(src)
    assert "<legend>Morale</legend>" in html
    assert '<label for="roll-table-in-mod">Mod</label>' in html


def test_id_class_and_button_below():
    src = """\
```roll-table
roll: 1d2
id: weather
class: wide compact
button:
  label: Ask the sky
  placement: below
results:
  1: Rain
  2: Sun
```
"""
    html, problems = convert(src)
    assert problems == []
    assert html.startswith(
        '<div class="rb-table wide compact" id="weather" data-rb-anchor="weather"'
    )
    assert html.index("</table>") < html.index('<div class="rb-bar"')
    assert ">Ask the sky</button>" in html


def test_preset_fills_defaults_and_author_keys_win():
    presets = {"loud": {"button": {"label": "Roll it!"}, "class": "loud", "odds": False}}
    src = "```roll-table\nroll: 1d2\npreset: loud\nbutton: {placement: below}\nresults:\n  1: a\n  2: b\n```\n"
    html, problems = convert(src, presets)
    assert problems == []
    assert ">Roll it!</button>" in html
    assert html.index("</table>") < html.index('<div class="rb-bar"')
    assert html.startswith('<div class="rb-table loud"')


def test_anchor_without_heading_and_deduplication():
    one = "```roll-list\nresults: [a, b]\n```\n"
    html, problems = convert(one + "\n" + one + "\n" + one)
    assert problems == []
    assert re.findall(r'data-rb-anchor="([^"]+)"', html) == [
        "roll-list",
        "roll-list-2",
        "roll-list-3",
    ]
    assert re.findall(r'<div class="rb-table" id="([^"]+)"', html) == [
        "roll-list",
        "roll-list-2",
        "roll-list-3",
    ]


def test_second_table_under_a_heading_gets_its_own_id():
    html, _ = convert(REACTION + "\n```roll-list\nresults: [x, y]\n```\n")
    assert re.findall(r'data-rb-anchor="([^"]+)"', html) == ["reaction", "reaction-2"]
    assert 'id="reaction-2" data-rb-anchor="reaction-2"' in html


def test_anchor_skips_ids_of_later_headings():
    src = "# Loot\n\n```roll-list\nresults: [a]\n```\n\n```roll-list\nresults: [b]\n```\n\n## Loot 2\n"
    html, _ = convert(src)
    # "loot-2" belongs to the heading below, so the second list becomes loot-3.
    assert re.findall(r'data-rb-anchor="([^"]+)"', html) == ["loot", "loot-3"]
    assert '<h2 id="loot-2">' in html


def test_heading_slug_matches_toc_for_markup_and_custom_ids():
    src = "## The *Big* `Table`!\n\n```roll-list\nresults: [a]\n```\n\n## Other {#mine}\n\n```roll-list\nresults: [b]\n```\n"
    html, _ = convert(src)
    assert '<h2 id="the-big-table">' in html and '<h2 id="mine">' in html
    assert re.findall(r'data-rb-anchor="([^"]+)"', html) == ["the-big-table", "mine"]


def test_roll_list_defaults_and_columns():
    src = "```roll-list\ncolumn_count: 3\nresult_text: 'You find {{ result }}.'\nresults:\n  - a *rope*\n  - a lamp\n  - chalk\n  - a mirror\n```\n"
    html, problems = convert(src)
    assert problems == []
    assert payload(html)["roll"] == "1d4"
    assert '<ol class="rb-rows" data-rb-columns="3" style="column-count: 3">' in html
    assert (
        '<li value="1" data-rb-row="0" data-rb-key="1" data-rb-p="1/4">a <em>rope</em> <span class="rb-p" hidden data-search-exclude>(25%)</span></li>'
        in html
    )
    assert 'data-rb-kind="list"' in html


def test_fence_inside_a_list_item():
    src = "- Weather:\n\n    ```roll-list\n    results: [rain, sun]\n    ```\n"
    html, problems = convert(src)
    assert problems == []
    assert 'data-rb-kind="list"' in html


def test_fence_shown_in_a_longer_fence_is_not_rendered():
    src = "````markdown\n```roll-table\nroll: 2d\n```\n````\n"
    html, problems = convert(src)
    assert problems == []
    assert "rb-table" not in html


def test_two_builds_give_the_same_html():
    assert convert(REACTION)[0] == convert(REACTION)[0]


def test_heading_inside_an_admonition_names_the_table_below_it():
    src = "!!! tip\n\n    ## Omens\n\n    ```roll-list\n    results: [crow, owl]\n    ```\n"
    html, problems = convert(src)
    assert problems == []
    assert '<h2 id="omens">' in html
    assert 'data-rb-anchor="omens"' in html and 'id="omens" data-rb-anchor' not in html


def test_roll_list_with_modifier_starts_at_its_lowest_total():
    src = "```roll-list\nroll: 1d3+1\nresult_text: true\nresults: [a, b, c]\n```\n"
    html, problems = convert(src)
    assert problems == []
    assert re.findall(r'<li value="(\d)" data-rb-row="(\d)"', html) == [
        ("2", "0"),
        ("3", "1"),
        ("4", "2"),
    ]
    assert payload(html)["result_text"] == "Rolled {{ roll }}: {{ result }}"
