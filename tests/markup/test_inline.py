"""Inline rolls: Markdown in, HTML out, for every form docs/authoring/inline-rolls.md names."""

from __future__ import annotations

import re

import markdown
import pytest

from rollbook.markup.extension import RollbookExtension
from rollbook.markup.inline import PRIORITY
from tests.markup.helpers import buttons, convert, make_md


def test_basic_roll_is_a_real_button_with_odds():
    html, problems = convert('Fall ![roll:2d6*10](. "2d6 x 10 feet") down.')
    assert problems == []
    assert html == (
        '<p>Fall <span class="rb-inline" data-rb-id="rb-roll-1"><button class="rb-roll" '
        'data-rb-advantage="{2d6*10,2d6*10}kh1" data-rb-disadvantage="{2d6*10,2d6*10}kl1" '
        'data-rb-max="120" data-rb-mean="70" data-rb-min="20" data-rb-modified="(2d6*10)" '
        'data-roll="2d6*10" '
        'title="2d6*10: average 70, range 20&#8211;120" type="button">2d6 x 10 feet</button>'
        '<output aria-live="polite" class="rb-out"></output></span> down.</p>'
    )


def test_a_labelled_roll_carries_its_variants_composed_around_the_label():
    html, problems = convert("![roll:1d6 # fire]() and ![roll:d6,d6]()")
    assert problems == []
    assert 'data-rb-advantage="{1d6 # fire&#10;,1d6 # fire&#10;}kh1"' in html
    assert 'data-rb-modified="(1d6 # fire&#10;)"' in html
    pair = html[html.index('data-roll="d6,d6"') - 200 :]
    assert "data-rb-modified" not in pair and "data-rb-advantage" not in pair


def test_without_title_the_notation_is_the_label():
    html, _ = convert("![roll:1d20]()")
    assert ">1d20</button>" in html
    assert 'data-rb-mean="10.5"' in html


def test_trailing_space_in_notation_is_trimmed():
    html, problems = convert("Roll ![roll:1d3 ]() now")
    assert problems == []
    assert buttons(html) == ["1d3"]
    assert ">1d3</button>" in html


def test_leading_space_in_notation_is_trimmed():
    html, problems = convert("![roll: 2d6 + (15 - 12)](.)")
    assert problems == []
    assert buttons(html) == ["2d6 + (15 - 12)"]
    assert 'data-rb-min="5"' in html and 'data-rb-max="15"' in html


def test_title_split_over_two_lines():
    html, problems = convert('A pit ![roll:1d6](. "1d6 times\nten feet") deep.')
    assert problems == []
    assert ">1d6 times ten feet</button>" in html


def test_dot_and_empty_destination_are_the_same():
    a, _ = convert('![roll:1d6](. "x")')
    b, _ = convert('![roll:1d6]( "x")')
    assert a == b


def test_ordinary_images_are_left_to_the_image_pattern():
    html, problems = convert('![a map](map.png "The map") and ![rolling hills](h.png)')
    assert problems == []
    assert '<img alt="a map" src="map.png" title="The map" />' in html
    assert '<img alt="rolling hills" src="h.png" />' in html
    assert "rb-roll" not in html


def test_priority_sits_between_image_and_backtick():
    md = make_md()
    index = md.inlinePatterns.get_index_for_name
    assert PRIORITY == 155
    assert index("backtick") < index("escape") < index("rollbook_roll") < index("image_link")


def test_rolls_in_a_list():
    html, problems = convert('- hit: ![roll:1d8]()\n- miss: ![roll:1d4](. "ouch")\n')
    assert problems == []
    assert html.startswith("<ul>\n<li>hit: <span")
    assert buttons(html) == ["1d8", "1d4"]


def test_twenty_rolls_in_a_gfm_table():
    notations = [f"{n}d6" for n in range(1, 9)] + ["1d20", "d20", "1d3", "1d6", "2d6",
                 "3d6", "4d6", "1d3+1", "1d6-1", "2d6+1", "2d6k1", "d6,d6"]  # fmt: skip
    assert len(notations) == 20
    rows = [f'| `{n}` | ![roll:{n}](. "roll {n}") |' for n in notations]  # code: no prose dice
    html, problems = convert("| name | roll |\n|---|---|\n" + "\n".join(rows) + "\n")
    assert problems == []
    assert buttons(html) == notations
    assert html.count('<td><span class="rb-inline"') == 20
    ids = re.findall(r'data-rb-id="([^"]+)"', html)
    assert ids == [f"rb-roll-{i}" for i in range(1, 21)]


def test_comma_roll_has_no_single_average():
    html, problems = convert("![roll:d6,d6]()")
    assert problems == []
    assert 'data-roll="d6,d6"' in html
    assert "data-rb-mean" not in html
    assert 'title="d6,d6"' in html


def test_roll_too_large_for_exact_odds_still_shows_average_and_range():
    html, problems = convert("![roll:1000d6]() and ![roll:1000d6kh3]()")
    assert problems == []
    assert 'title="1000d6: average 3,500, range 1,000&#8211;6,000"' in html
    assert 'title="1000d6kh3"' in html  # keeping three of a thousand: nothing to show


def test_code_span_is_untouched():
    html, problems = convert('Write `![roll:2d6](. "label")` in a page.')
    assert problems == []
    assert '<code>![roll:2d6](. "label")</code>' in html
    assert "rb-roll" not in html


def test_code_span_with_an_error_reports_nothing():
    html, problems = convert("Not a roll: `![roll:]()` nor `![roll:2d]()`.")
    assert problems == []
    assert "rb-error" not in html


def test_fenced_code_is_untouched():
    html, problems = convert('```text\n![roll:2d6](. "x")\n[!roll:1d6](.)\n```\n')
    assert problems == []
    assert "rb-roll" not in html
    assert "![roll:2d6]" in html


def test_indented_code_is_untouched():
    html, problems = convert("Example:\n\n    ![roll:]()\n    [!roll:1d6](.)\n\nDone.\n")
    assert problems == []
    assert "<pre><code>![roll:]()" in html


def test_escaped_bang_is_a_link_not_a_roll():
    html, _ = convert("\\![roll:1d6](x)")
    assert "rb-roll" not in html


def test_label_and_notation_are_escaped():
    html, problems = convert('![roll:1d6](. "<b>bold</b> & co")')
    assert problems == []
    assert ">&lt;b&gt;bold&lt;/b&gt; &amp; co</button>" in html


def test_preset_adds_class_and_can_hide_odds():
    presets = {"quiet": {"class": "rb-quiet", "odds": False}}
    html, problems = convert("![roll:2d6](preset:quiet)", presets)
    assert problems == []
    assert 'class="rb-inline rb-quiet"' in html
    assert "data-rb-mean" not in html


def test_unknown_preset_warns_and_still_renders():
    html, problems = convert("![roll:2d6](preset:loud)")
    assert "rb-roll" in html
    assert [(p.line, p.severity) for p in problems] == [(1, "warning")]
    assert problems[0].message == (
        "unknown preset 'loud' for inline roll '2d6'; known presets: none configured."
    )


def test_bad_notation_shows_an_inline_error_marker():
    html, problems = convert("Then ![roll:2d]() happens.")
    assert [p.line for p in problems] == [1]
    assert '<span class="rb-error rb-inline-error" role="note"><code>![roll:2d]()</code>' in html
    assert "rb-roll" not in html


def test_typo_stays_a_link_and_warns_with_the_fix():
    html, problems = convert('Fall [!roll:2d6*10](. "2d6 x 10 feet").')
    assert '<a href="." title="2d6 x 10 feet">!roll:2d6*10</a>' in html
    assert len(problems) == 1
    assert problems[0].severity == "warning"
    assert problems[0].message == (
        "'[!roll:2d6*10]' is an ordinary link, not a roll: the '!' goes before the bracket, "
        "as in '![roll:2d6*10](...)'."
    )


def test_lines_follow_the_source():
    src = "# Title\n\nText ![roll:1d6]().\n\n- ![roll:]()\n\n| a |\n|---|\n| ![roll:2d]() |\n"
    _, problems = convert(src)
    assert [p.line for p in problems] == [5, 9]


def test_same_notation_repeated_claims_lines_in_order():
    src = "![roll:1d6]() ok\n\n`![roll:zz]()` shown\n\n![roll:zz]() bad\n\n![roll:zz]() bad again\n"
    _, problems = convert(src)
    assert [p.line for p in problems] == [5, 7]


def test_conversion_is_deterministic_and_resets():
    md = make_md()
    first = md.convert("![roll:1d6]() ![roll:1d8]()")
    md.reset()
    second = md.convert("![roll:1d6]() ![roll:1d8]()")
    assert first == second
    assert 'data-rb-id="rb-roll-2"' in second and "rb-roll-3" not in second


def test_rolls_and_typos_inside_admonitions_keep_their_lines():
    src = (
        '# Rules\n\n!!! note "Falling"\n\n    Fall damage: ![roll:2d]().\n\n'
        "    Also [!roll:1d6](.) here.\n\n    ## Inside\n\nAfter ![roll:3d]().\n"
    )
    html, problems = convert(src)
    assert '<div class="admonition note">' in html
    assert [(p.line, p.message.split(":")[0]) for p in problems] == [
        (5, "the dice notation '2d' does not parse"),
        (7, "'[!roll"),
        (11, "the dice notation '3d' does not parse"),
    ]


def test_indented_code_after_a_finished_list_is_still_code():
    src = "- item\n\nText.\n\n    ![roll:]()\n"
    html, problems = convert(src)
    assert problems == []
    assert "<pre><code>![roll:]()" in html


@pytest.mark.parametrize(
    ("presets", "message"),
    [
        ([1], "expected a mapping of preset names to option mappings."),
        ({"x": {"colour": "red"}}, "preset 'x' has unknown option(s) colour; known: "),
    ],
)
def test_extension_presets_are_checked_like_the_plugins(presets, message):
    # Zensical only sees the extension's presets: a typo there must not pass in silence.
    with pytest.raises(ValueError, match=re.escape(message)):
        markdown.Markdown(extensions=[RollbookExtension(presets=presets)])
