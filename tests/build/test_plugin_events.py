"""The MkDocs plugin: config schema and events called directly with a loaded config."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import markdown
import pytest
from mkdocs.config import load_config
from mkdocs.config.base import ValidationError
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

from rollbook.markup.problems import active_context
from rollbook.mkdocs_plugin import plugin as plugin_module
from rollbook.mkdocs_plugin.config import Presets, RollbookConfig
from rollbook.mkdocs_plugin.plugin import RollbookPlugin, front_matter_lines
from tests.build.plugin_only import only

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture()
def site(tmp_path):
    """A loaded demo config whose docs and site folders are temporary."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n")
    config = load_config(
        str(ROOT / "mkdocs.yml"), docs_dir=str(docs), site_dir=str(tmp_path / "site")
    )
    plugin = config.plugins["rollbook"]
    assert isinstance(plugin, RollbookPlugin)
    return config, plugin, docs


def render(config, plugin, docs, name: str, text: str) -> Page:
    (docs / name).write_text(text, encoding="utf-8")
    file = File(name, str(docs), config.site_dir, config.use_directory_urls)
    files = Files([file])
    page = Page(None, file, config)
    page.read_source(config)
    md = page.markdown
    assert md is not None
    md = only(plugin).on_page_markdown(md, page=page, config=config, files=files) or md
    page.markdown = md
    page.render(config, files)
    plugin.on_page_content(page.content or "", page=page, config=config, files=files)
    return page


def test_defaults_and_enabled_first():
    names = [name for name, _ in RollbookConfig._schema]
    assert names[0] == "enabled"
    cfg = RollbookConfig()
    cfg.load_dict({})
    errors, warnings = cfg.validate()
    assert errors == [] and warnings == []
    assert cfg.enabled is True
    assert cfg.pyodide_path is None  # the bundled Pyodide, else node_modules/pyodide
    assert cfg.presets == {}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ([1], "expected a mapping of preset names to option mappings."),
        ({"x": 3}, "preset 'x' must be a mapping of options."),
        ({"x": {"colour": "red"}}, "preset 'x' has unknown option(s) colour; known: "),
    ],
)
def test_presets_are_validated(value, message):
    with pytest.raises(ValidationError, match="^" + re.escape(message)):
        Presets().run_validation(value)


def test_on_config_adds_module_script_and_css_once(site):
    config, plugin, _ = site
    plugin.on_config(config)
    plugin.on_config(config)  # idempotent (mkdocs serve reloads)
    scripts = [s for s in config.extra_javascript if str(s) == "assets/rollbook/rollbook.js"]
    assert len(scripts) == 1 and scripts[0].type == "module"
    assert config.extra_css.count("assets/rollbook/rollbook.css") == 1


def test_page_problems_are_logged_with_page_and_line(site, caplog):
    config, plugin, docs = site
    plugin.on_startup(command="build", dirty=False)
    plugin.on_config(config)
    plugin.on_pre_build(config=config)
    text = '---\ntitle: Falls\n---\n\n# Falls\n\nDrop ![roll:2d](. "x").\n\nSee [!roll:1d6](.).\n'
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        page = render(config, plugin, docs, "falls.md", text)
    logged = [r.getMessage() for r in caplog.records if r.name == "mkdocs.plugins.rollbook"]
    assert logged == [
        "docs/falls.md:7: the dice notation '2d' does not parse: Expected the number of sides "
        "after 'd', but the notation ends.",
        "docs/falls.md:9: '[!roll:1d6]' is an ordinary link, not a roll: the '!' goes before the "
        "bracket, as in '![roll:1d6](...)'.",
    ]
    assert plugin.problem_count == 2
    assert "rb-inline-error" in (page.content or "")
    assert active_context() is None  # nothing leaks into the next page


def test_clean_page_logs_nothing_and_state_resets(site, caplog):
    config, plugin, docs = site
    plugin.on_config(config)
    plugin.on_pre_build(config=config)
    with caplog.at_level(logging.WARNING, logger="mkdocs"):
        page = render(config, plugin, docs, "ok.md", "# Ok\n\n![roll:1d6]()\n")
    assert [r for r in caplog.records if "rollbook" in r.name] == []
    assert 'data-roll="1d6"' in (page.content or "")
    plugin.problem_count = 5
    plugin.on_pre_build(config=config)
    assert plugin.problem_count == 0


def test_plugin_presets_reach_the_extension(site):
    config, plugin, docs = site
    plugin.on_config(config)
    page = render(config, plugin, docs, "p.md", "![roll:2d6](preset:quiet)\n")
    assert "data-rb-mean" not in (page.content or "")  # demo preset quiet: odds false


def test_extension_logs_by_itself_without_the_plugin(caplog):
    with caplog.at_level(logging.WARNING, logger="mkdocs.rollbook.markup"):
        markdown.markdown("x\n\n![roll:]()\n", extensions=["rollbook"])
    assert [r.getMessage() for r in caplog.records] == [
        "rollbook: line 3: the inline roll has no dice notation after 'roll:'."
    ]


def test_post_build_writes_manifest(site):
    config, plugin, _ = site
    Path(config.site_dir).mkdir()
    only(plugin).on_post_build(config=config)
    manifest = Path(config.site_dir) / "assets" / "rollbook" / "manifest.json"
    assert manifest.is_file()


def test_post_build_without_pyodide_names_the_folder(site, tmp_path):
    config, plugin, _ = site
    Path(config.site_dir).mkdir()
    plugin.config.pyodide_path = str(tmp_path / "nowhere")
    with pytest.raises(PluginError, match=r"Pyodide was not found in .*nowhere \(the folder"):
        only(plugin).on_post_build(config=config)


def test_disabled_plugin_does_nothing(site):
    config, plugin, _ = site
    plugin.config.enabled = False
    before = list(config.extra_javascript)
    plugin.on_config(config)
    assert list(config.extra_javascript) == before
    Path(config.site_dir).mkdir()
    only(plugin).on_post_build(config=config)
    assert not (Path(config.site_dir) / "assets").exists()


@pytest.mark.parametrize(
    ("content", "body", "lines"),
    [
        ("# A\n", "# A\n", 0),
        ("---\na: 1\n---\n# A\n", "# A\n", 3),
        ("---\na: 1\n---\n\n\n# A\n", "# A\n", 5),
        ("---\r\na: 1\r\n---\r\n# A\r\n", "# A\n", 3),
    ],
)
def test_front_matter_lines(content, body, lines):
    assert front_matter_lines(content, body) == lines


def test_table_ids_are_known_to_mkdocs_anchor_validation(site):
    config, plugin, docs = site
    plugin.on_config(config)
    text = (
        "# Loot\n\n```roll-list\nresults: [a, b]\n```\n\n"
        "```roll-list\nid: coins\nresults: [c]\n```\n"
    )
    page = render(config, plugin, docs, "loot.md", text)
    # "loot" is the heading's own id; "coins" lives inside raw HTML mkdocs cannot parse.
    assert page.present_anchor_ids is not None
    assert {"loot", "coins"} <= page.present_anchor_ids


def test_search_indexes_the_page_as_it_did_and_our_widgets_come_back(site, monkeypatch):
    """Material's search reads the reduced page (markup.search_view) at page_context."""
    config, plugin, docs = site
    plugin.on_config(config)
    search = config.plugins["material/search"]
    text = (
        '# Camp\n\nRoll d6 at dusk and ![roll:2d6*10](. "2d6 x 10 feet") away.\n\n'
        "## Night (d6)\n\n| d6 | Visitor |\n|---|---|\n| 1-3 | Wolves, 1d4 of them |\n"
        '| 4-6 | Nothing |\n\n<p data-search-boost="2">Boosted.</p>\n'
    )
    page = render(config, plugin, docs, "camp.md", text)
    full = page.content or ""
    assert full.count('class="rb-inline') == 3 and "data-search-exclude" in full
    reduced = []
    real = plugin_module.for_search
    monkeypatch.setattr(
        plugin_module, "for_search", lambda html: reduced.append(real(html)) or reduced[-1]
    )

    def index(reduce: bool) -> tuple[list[dict[str, object]], str]:
        search.on_config(config)  # a fresh index
        plugin._search_parses = reduce
        page.content = full
        config.plugins.on_page_context({}, page=page, config=config, nav=None)
        return search.search_index.entries, page.content or ""

    assert index(True) == index(False)
    assert len(reduced) == 1 and len(reduced[0].widgets) >= 3 + 4  # rolls, data, bar, chances
    entries, written = index(True)
    assert written == re.sub(r'\s?data-search-\w+="[^"]+"', "", full)  # as search leaves it
    assert any("Wolves" in str(entry["text"]) for entry in entries)
