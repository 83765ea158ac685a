# ruff: noqa: E501  (one page per line reads best)
"""Malformed pages (our own words) and the exact report each one must produce."""

from __future__ import annotations

# name -> page source. Expected messages live in test_malformed.py next to each name.
PAGES: dict[str, str] = {
    "inline_empty": "# Traps\n\nA dart trap deals ![roll:]() damage.\n",
    "inline_unparsable": 'Falling deals ![roll:2d](. "2d6 per level") damage.\n',
    "inline_in_list": "# Loot\n\n- copper: ![roll:3d6*10]()\n- silver: ![roll:2d6+]()\n",
    "inline_in_table": "| foe | number |\n|---|---|\n| rats | ![roll:3d6]() |\n| wolves | ![roll:d]() |\n",
    "inline_after_code_span": "`![roll:2d]()` is wrong, and so is\n![roll:2d]() here.\n",
    "inline_too_big": "Count the stars: ![roll:1000000d6]().\n",
    "typo_link": 'Jump [!roll:2d6*10](. "2d6 x 10 feet") into the pit.\n',
    "typo_in_list": "Steps:\n\n1. open the door\n2. roll [!roll:1d6]() for noise\n",
    "inline_unknown_preset": "Roll ![roll:1d6](preset:nope) now.\n",
    "yaml_syntax": "## Weather\n\n```roll-table\nroll: 1d6\nresults:\n  1--3: [rain\n  4--6: sun\n```\n",
    "yaml_not_mapping": "```roll-table\n- roll: 1d6\n- results: []\n```\n",
    "yaml_empty": "Intro.\n\n```roll-list\n```\n",
    "yaml_duplicate_key": "```roll-table\nroll: 1d2\nresults:\n  1: heads\n  2: tails\n  1: again\n```\n",
    "table_no_results": "```roll-table\nroll: 1d6\n```\n",
    "table_bad_notation": "```roll-table\nroll: 2d\nresults:\n  1: a\n```\n",
    "table_uncovered": "```roll-table\nroll: 1d6\nresults:\n  1--2: a\n  3--4: b\n```\n",
    "table_overlap": "```roll-table\nroll: 1d6\nresults:\n  1--3: a\n  3--6: b\n```\n",
    "table_unreachable": "```roll-table\nroll: 2d6\nresults:\n  2--6: a\n  7--12: b\n  13: c\n```\n",
    "table_single_hyphen": "```roll-table\nroll: 1d6\nresults:\n  1-3: a\n  4--6: b\n```\n",
    "table_list_too_short": "```roll-table\nroll: 1d4\nresults:\n  - a\n  - b\n  - c\n```\n",
    "table_unknown_key": "```roll-table\nroll: 1d2\nresluts: x\nresults:\n  1: a\n  2: b\n```\n",
    "table_headers_mismatch": "```roll-table\nroll: 1d2\nheaders: [Foe, Number]\nresults:\n  1: [rats, 2d6]\n  2: [bats]\n```\n",
    "table_prompt_no_name": '```roll-table\nroll: 1d6 + {{ mod }}\nprompts:\n  - label: Modifier\nresults:\n  ">=1": a\n```\n',
    "table_prompt_type": '```roll-table\nroll: 1d6 + {{ mod }}\nprompts:\n  - name: mod\n    type: text\n    min: 0\n    max: 1\nresults:\n  ">=1": a\n```\n',
    "table_unknown_preset": "```roll-table\nroll: 1d2\npreset: shiny\nresults:\n  1: a\n  2: b\n```\n",
    "table_placeholder_without_prompt": '```roll-table\nroll: 1d6 + {{ level }}\nresults:\n  ">=1": a\n```\n',
    "table_result_text_type": "```roll-table\nroll: 1d2\nresult_text: [a, b]\nresults:\n  1: a\n  2: b\n```\n",
    "table_button_placement": "```roll-table\nroll: 1d2\nbutton:\n  placement: sideways\nresults:\n  1: a\n  2: b\n```\n",
    "table_cell_type": "```roll-table\nroll: 1d2\nresults:\n  1: {deep: {er: x}}\n  2: b\n```\n",
    "table_tab_unknown": "```roll-table\nroll: 1d2\ntabs:\n  x: {name: X, results: [5]}\nresults:\n  1: a\n  2: b\n```\n",
    "list_not_a_list": "```roll-list\nresults: just one\n```\n",
    "list_column_count": "```roll-list\ncolumn_count: 0\nresults: [a, b]\n```\n",
    "duplicate_explicit_id": "```roll-list\nid: loot\nresults: [a]\n```\n\n```roll-list\nid: loot\nresults: [b]\n```\n",
    "upper_case_fence": "# Omens\n\n```ROLL-TABLE\nroll: 1d3\nresults:\n  1: crow\n  2: owl\n```\n",
    "fence_in_list": "- Wandering monsters:\n\n    ```roll-table\n    roll: 1d4\n    results:\n      1--2: bats\n      3: rats\n    ```\n",
    "mixed_page": "# Camp\n\nNight watch: ![roll:1d]().\n\n```roll-table\nroll: 1d6\nresults:\n  1: quiet\n  2--5: noises\n```\n\nThen [!roll:1d6](.).\n",
}
