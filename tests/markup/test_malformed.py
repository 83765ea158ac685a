# ruff: noqa: E501  (each expected report is one line, as the build prints it)
"""A corpus of malformed pages: each must report exactly these `page:line: message` lines.

The lines were checked by hand against the sources in corpus.py (line = line in the .md
file). Messages after "roll-table:" / "roll-list:" are the table engine's own sentences.
"""

from __future__ import annotations

import pytest

from rollbook.markup.pages import convert_page
from tests.markup.corpus import PAGES
from tests.markup.helpers import convert, messages

EXPECTED: dict[str, list[str]] = {
    "inline_empty": [
        "inline_empty.md:3: the inline roll has no dice notation after 'roll:'.",
    ],
    "inline_unparsable": [
        "inline_unparsable.md:1: the dice notation '2d' does not parse: Expected the number of sides after 'd', but the notation ends.",
    ],
    "inline_in_list": [
        "inline_in_list.md:4: the dice notation '2d6+' does not parse: The notation ends too early: expected a number, dice, '(' or '{'.",
    ],
    "inline_in_table": [
        "inline_in_table.md:4: the dice notation 'd' does not parse: Expected the number of sides after 'd', but the notation ends.",
    ],
    "inline_after_code_span": [
        "inline_after_code_span.md:2: the dice notation '2d' does not parse: Expected the number of sides after 'd', but the notation ends.",
    ],
    "inline_too_big": [
        "inline_too_big.md:1: the dice notation '1000000d6' does not parse: 1000000 dice in one roll is more than the limit of 1000.",
    ],
    "typo_link": [
        "typo_link.md:1: '[!roll:2d6*10]' is an ordinary link, not a roll: the '!' goes before the bracket, as in '![roll:2d6*10](...)'.",
    ],
    "typo_in_list": [
        "typo_in_list.md:4: '[!roll:1d6]' is an ordinary link, not a roll: the '!' goes before the bracket, as in '![roll:1d6](...)'.",
    ],
    "inline_unknown_preset": [
        "inline_unknown_preset.md:1: unknown preset 'nope' for inline roll '1d6'; known presets: none configured.",
    ],
    "yaml_syntax": [
        "yaml_syntax.md:7: roll-table: the YAML body does not parse: expected ',' or ']', but got ':'.",
    ],
    "yaml_not_mapping": [
        "yaml_not_mapping.md:1: roll-table: the body must be a YAML mapping with at least 'roll' or 'results', but it is a list.",
    ],
    "yaml_empty": [
        "yaml_empty.md:3: roll-list: the body must be a YAML mapping with at least 'roll' or 'results', but it is empty.",
    ],
    "yaml_duplicate_key": [
        "yaml_duplicate_key.md:6: roll-table: the key 'results.1' appears twice (lines 4 and 6).",
    ],
    "table_no_results": [
        "table_no_results.md:2: roll-table: results is missing: the roll-table needs its rows",
    ],
    "table_bad_notation": [
        "table_bad_notation.md:2: roll-table: roll '2d': Expected the number of sides after 'd', but the notation ends.",
    ],
    "table_uncovered": [
        "table_uncovered.md:3: roll-table: results: no row covers 5–6 (1d6 gives 1–6)",
    ],
    "table_overlap": [
        "table_overlap.md:5: roll-table: results: keys '1--3' and '3--6' overlap (both cover 3)",
    ],
    "table_unreachable": [
        "table_unreachable.md:6: roll-table: results: key '13' can never be rolled (2d6 gives 2–12)",
    ],
    "table_single_hyphen": [
        "table_single_hyphen.md:4: roll-table: results: '1-3' is read as the range 1--3; write 1--3 (two hyphens), the documented form",
    ],
    "table_list_too_short": [
        "table_list_too_short.md:3: roll-table: results: the list has 3 items, fewer than the 4 values 1d4 can give (1–4)",
    ],
    "table_unknown_key": [
        "table_unknown_key.md:3: roll-table: unknown key 'resluts' (did you mean 'results'?)",
    ],
    "table_headers_mismatch": [
        "table_headers_mismatch.md:6: roll-table: results: row 2 has 1 cells but headers name 2 columns",
    ],
    "table_prompt_no_name": [
        "table_prompt_no_name.md:2: roll-table: roll uses {{ mod }} but no prompt is named 'mod'; add it to prompts",
        "table_prompt_no_name.md:4: roll-table: prompts: item 1 needs a name",
    ],
    "table_prompt_type": [
        "table_prompt_type.md:5: roll-table: prompts: type 'text' of 'mod' is not one of number, range",
    ],
    "table_unknown_preset": [
        "table_unknown_preset.md:3: roll-table: unknown preset 'shiny'; known presets: none configured.",
    ],
    "table_placeholder_without_prompt": [
        "table_placeholder_without_prompt.md:2: roll-table: roll uses {{ level }} but no prompt is named 'level'; add it to prompts",
    ],
    "table_result_text_type": [
        "table_result_text_type.md:3: roll-table: result_text must be text, true or false, not a list",
    ],
    "table_button_placement": [
        "table_button_placement.md:4: roll-table: button: placement must be above or below, not 'sideways'",
    ],
    "table_cell_type": [
        "table_cell_type.md:4: roll-table: results: row 1 has a cell for 'deep', which is not a column in headers",
        "table_cell_type.md:4: roll-table: results: row 1 has no cell for 'Result'",
    ],
    "table_tab_unknown": [
        "table_tab_unknown.md:4: roll-table: tabs: tab x lists key '5', which is not in results",
    ],
    "list_not_a_list": [
        "list_not_a_list.md:2: roll-list: results of a roll-list must be a list, not text",
    ],
    "list_column_count": [
        "list_column_count.md:2: roll-list: column_count must be a whole number of 1 or more, not 0",
    ],
    "duplicate_explicit_id": [
        "duplicate_explicit_id.md:6: roll-list: the id 'loot' is already used on this page; this block's anchor is 'loot-2'.",
    ],
    "upper_case_fence": [
        "upper_case_fence.md:5: roll-table: results: no row covers 3 (1d3 gives 1–3)",
    ],
    "fence_in_list": [
        "fence_in_list.md:5: roll-table: results: no row covers 4 (1d4 gives 1–4)",
    ],
    "mixed_page": [
        "mixed_page.md:3: the dice notation '1d' does not parse: Expected the number of sides after 'd', but the notation ends.",
        "mixed_page.md:7: roll-table: results: no row covers 6 (1d6 gives 1–6)",
        "mixed_page.md:12: '[!roll:1d6]' is an ordinary link, not a roll: the '!' goes before the bracket, as in '![roll:1d6](...)'.",
    ],
}


def test_corpus_is_large_enough():
    assert len(PAGES) >= 30
    assert set(PAGES) == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(PAGES))
def test_malformed_page_reports_exactly(name):
    assert messages(PAGES[name], f"{name}.md") == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(PAGES))
def test_malformed_page_still_renders_without_raising(name):
    html, problems = convert(PAGES[name])
    assert problems
    errors = [p for p in problems if p.severity == "error"]
    if any("roll-table:" in p.message or "roll-list:" in p.message for p in errors):
        assert 'class="admonition failure rb-error"' in html
    if any(p.message.startswith(("the dice notation", "the inline roll")) for p in errors):
        assert 'class="rb-error rb-inline-error"' in html


def test_front_matter_lines_count(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("---\ntitle: Traps\ntags: [a, b]\n---\n\n# Traps\n\nDarts: ![roll:2d]().\n")
    result = convert_page(page, shown="docs/page.md")
    assert result.messages() == [
        "docs/page.md:8: the dice notation '2d' does not parse: Expected the number of sides after 'd', but the notation ends."
    ]


def test_crlf_source_keeps_lines(tmp_path):
    page = tmp_path / "page.md"
    page.write_bytes(b"# A\r\n\r\n```roll-table\r\nroll: 1d2\r\nresults:\r\n  1: a\r\n```\r\n")
    assert convert_page(page, shown="p.md").messages() == [
        "p.md:5: roll-table: results: no row covers 2 (1d2 gives 1–2)"
    ]
