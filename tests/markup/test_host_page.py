"""Problems name the page and its file line under a host that runs extensions but no plugin.

Zensical converts pages with the Markdown extensions only (no MkDocs plugin, so no
PageContext). It registers a ``rendering_context`` preprocessor holding the page's path and
its config, and drops the front matter (and the blank lines after it) before converting.
The stand-in below has exactly those attributes, so Zensical need not be installed.
"""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from rollbook.markup.superfences import CUSTOM_FENCES
from tests.markup.helpers import EXTENSIONS, GAP_TABLE

PAGE = (
    """\
---
title: Broken
---

# Broken

Roll ![roll:2d6+](.) now.

"""
    + GAP_TABLE
)
BODY = PAGE.split("---\n", 2)[2].lstrip("\n")  # what the host hands to Markdown


class _Context(Preprocessor):
    def __init__(self, md: markdown.Markdown, page: Any, config: dict[str, Any]) -> None:
        super().__init__(md)
        self.page, self.config = page, config

    def run(self, lines: list[str]) -> list[str]:
        return lines


class _HostContext(Extension):
    def __init__(self, path: str, config: dict[str, Any]) -> None:
        super().__init__()
        self.path, self.host_config = path, config

    def extendMarkdown(self, md: markdown.Markdown) -> None:
        page = SimpleNamespace(path=self.path, url="", meta={})
        md.preprocessors.register(_Context(md, page, self.host_config), "rendering_context", 0)


def _logged(caplog, text: str, host: Extension | None) -> list[str]:
    md = markdown.Markdown(
        extensions=[*([host] if host else []), *EXTENSIONS],
        extension_configs={"pymdownx.superfences": {"custom_fences": CUSTOM_FENCES}},
    )
    with caplog.at_level(logging.WARNING, logger="mkdocs.rollbook.markup"):
        md.convert(text)
    return [r.getMessage() for r in caplog.records]


def test_host_page_context_gives_path_and_front_matter_lines(tmp_path, caplog):
    (tmp_path / "docs" / "rules").mkdir(parents=True)
    (tmp_path / "docs" / "rules" / "broken.md").write_text(PAGE, encoding="utf-8")
    host = _HostContext("rules/broken.md", {"root_dir": str(tmp_path), "docs_dir": "docs"})
    assert _logged(caplog, BODY, host) == [
        "docs/rules/broken.md:7: the dice notation '2d6+' does not parse: The notation ends "
        "too early: expected a number, dice, '(' or '{'.",
        "docs/rules/broken.md:11: roll-table: results: no row covers 3 (1d6 gives 1–6)",
    ]


def test_host_page_whose_file_cannot_be_read_still_names_the_page(tmp_path, caplog):
    host = _HostContext("gone.md", {"root_dir": str(tmp_path), "docs_dir": "docs"})
    assert _logged(caplog, "x\n\n![roll:]()\n", host) == [
        "docs/gone.md:3: the inline roll has no dice notation after 'roll:'."
    ]


def test_without_a_host_context_lines_stay_bare(caplog):
    assert _logged(caplog, "x\n\n![roll:]()\n", None) == [
        "rollbook: line 3: the inline roll has no dice notation after 'roll:'."
    ]


ROAD = """---
title: Road
---

# Road

```roll-table
roll: 1d2
id: road
results:
  1: "The sky: ![roll:../weather.md#sky]()"
  2: "Nowhere: ![roll:../weather.md#nope]()"
```
"""
WEATHER = "# Weather\n\n```roll-table\nroll: 1d2\nid: sky\nresults:\n  1: Rain\n  2: Sun\n```\n"


def _convert_as_host(tmp_path, path: str, caplog) -> tuple[str, list[str]]:
    config = {
        "root_dir": str(tmp_path),
        "docs_dir": "docs",
        "markdown_extensions": list(EXTENSIONS),
        "mdx_configs": {"pymdownx.superfences": {"custom_fences": CUSTOM_FENCES}},
    }
    md = markdown.Markdown(
        extensions=[_HostContext(path, config), *EXTENSIONS],
        extension_configs=config["mdx_configs"],
    )
    text = (tmp_path / "docs" / path).read_text(encoding="utf-8").split("---\n", 2)[2]
    with caplog.at_level(logging.WARNING, logger="mkdocs.rollbook.markup"):
        html = md.convert(text.lstrip("\n"))
    return html, [r.getMessage() for r in caplog.records]


def test_a_host_page_reads_the_other_pages_its_tables_roll(tmp_path, caplog):
    (tmp_path / "docs" / "travel").mkdir(parents=True)
    (tmp_path / "docs" / "travel" / "road.md").write_text(ROAD, encoding="utf-8")
    (tmp_path / "docs" / "weather.md").write_text(WEATHER, encoding="utf-8")
    html, logged = _convert_as_host(tmp_path, "travel/road.md", caplog)
    # The file's line of the row, and the page named as the other hosts name it.
    assert logged == [
        "docs/travel/road.md:12: roll-table: this row rolls the table '../weather.md#nope', "
        "but that page has no table 'nope' (its tables: sky)."
    ]
    assert '"refs":["docs/weather.md#sky"]' in html  # named, and in the page's store:
    assert '"docs/weather.md#sky":{' in html and '"Rain"' in html
    assert 'data-rb-table="docs/weather.md#sky"' in html
    # Changed on disk (as under `serve`): the next conversion reads it again.
    (tmp_path / "docs" / "weather.md").write_text(WEATHER.replace("Rain", "Hail, long"))
    html, _ = _convert_as_host(tmp_path, "travel/road.md", caplog)
    assert '"Hail, long"' in html and '"Rain"' not in html


def test_a_host_page_never_reads_outside_the_docs_folder(tmp_path, caplog):
    (tmp_path / "docs").mkdir()
    (tmp_path / "secret.md").write_text(WEATHER, encoding="utf-8")
    (tmp_path / "docs" / "road.md").write_text(
        ROAD.replace("../weather.md#sky", "../secret.md#sky"), encoding="utf-8"
    )
    html, logged = _convert_as_host(tmp_path, "road.md", caplog)
    assert "secret.md#sky', but secret.md is not a page of this site." in logged[0]
    assert '"Rain"' not in html
