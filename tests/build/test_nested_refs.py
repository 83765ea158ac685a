"""The plugin resolves tables that roll tables of other pages once every page is converted."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator

import pytest
from mkdocs.structure.files import File, Files

from rollbook.markup.problems import set_host
from rollbook.markup.refs_store import resolved
from tests.build.test_plugin_events import render, site  # noqa: F401 (a fixture)


@pytest.fixture(autouse=True)
def _host_ends_with_the_test() -> Iterator[None]:
    """on_env tells the extension a host resolves references; a build's post_build (not
    run here) says it no longer does, so later tests in this process convert on their own."""
    yield
    set_host(None)


ROOTS = """\
---
title: Roots
---
# Roots

```roll-table
id: camp
roll: 1d2
results:
  1: "Magic: ![roll:../magic/spells.md#backlash]()"
  2: "![roll:../magic/spells.md#nothing]()"
```
"""

SPELLS = """\
# Spells

```roll-table
id: backlash
roll: "1d4 + {{ power }}"
prompts: [{name: power, min: 0, max: 2}]
results:
  1--3: Sparks
  ">=4": "Burn ![roll:1d4]()"
```
"""


def test_references_across_pages_are_filled_and_checked(site, caplog) -> None:  # noqa: F811
    config, plugin, docs = site
    (docs / "rules").mkdir()
    (docs / "magic").mkdir()
    first = render(config, plugin, docs, "rules/roots.md", ROOTS)
    second = render(config, plugin, docs, "magic/spells.md", SPELLS)
    files = Files([first.file, second.file, File("index.md", str(docs), config.site_dir, True)])
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.rollbook"):
        plugin.on_env(None, config=config, files=files)
    assert [r.getMessage() for r in caplog.records] == [
        "docs/rules/roots.md:11: roll-table: this row rolls the table "
        "'../magic/spells.md#nothing', but that page has no table 'nothing' "
        "(its tables: backlash)."
    ]
    assert plugin.problem_count == 1
    template = re.search(r'<template class="rb-data"[^>]*>(.*?)</template>', first.content or "")
    assert template
    refs = resolved(json.loads(template[1]), first.content or "")  # the page's store
    assert list(refs) == ["docs/magic/spells.md#backlash"]
    assert refs["docs/magic/spells.md#backlash"]["prompts"][0]["name"] == "power"
    assert "rb-refs:" not in (second.content or "") + (first.content or "")


SHARED = """\
# Shared

```roll-table
id: first
roll: 1d2
results:
  1: "![roll:../magic/spells.md#backlash]()"
  2: "![roll:#local]()"
```

```roll-list
id: second
results: ["![roll:../magic/spells.md#backlash]() and ![roll:#local]()"]
```

```roll-list
id: third
results: ["![roll:../magic/spells.md#backlash]()"]
```

```roll-list
id: local
results: ["Quillwort under the ![roll:../magic/spells.md#backlash]() bridge"]
```
"""


def test_a_table_several_tables_roll_is_written_once_per_page(site) -> None:  # noqa: F811
    config, plugin, docs = site
    (docs / "rules").mkdir()
    (docs / "magic").mkdir()
    shared = render(config, plugin, docs, "rules/shared.md", SHARED)
    spells = render(config, plugin, docs, "magic/spells.md", SPELLS)
    files = Files([shared.file, spells.file, File("index.md", str(docs), config.site_dir, True)])
    plugin.on_env(None, config=config, files=files)
    html = shared.content or ""
    # Four tables roll the other page's table: its data is in the page's one store, once.
    assert html.count('class="rb-refs"') == 1
    assert html.count("Sparks") == 1
    # Two roll a table of the page itself: its widget holds it (its text and its payload).
    assert html.count("Quillwort") == 2
    payloads = re.findall(r'<template class="rb-data"[^>]*>(.*?)</template>', html)
    keys = {json.loads(p)["id"]: json.loads(p)["refs"] for p in payloads}
    backlash, local = "docs/magic/spells.md#backlash", "docs/rules/shared.md#local"
    assert keys == {
        "first": [backlash, local],
        "second": [backlash, local],
        "third": [backlash],
        "local": [backlash],
    }
    # Each finds the tables it rolls, as when every table carried its own copies.
    first = resolved(json.loads(payloads[0]), html)
    assert first[local]["id"] == "local" and "refs" not in first[local]
    assert first[backlash]["prompts"][0]["name"] == "power"
    # Filled again with more (a page and an excerpt): still one store, each table once.
    excerpt = '<template class="rb-data">{"refs":"rb-refs:docs/rules/shared.md#third"}</template>'
    again = plugin._site.fill(html + excerpt)
    assert again.count('class="rb-refs"') == 1 and again.count("Sparks") == 1
    assert '{"refs":["docs/magic/spells.md#backlash"]}' in again
