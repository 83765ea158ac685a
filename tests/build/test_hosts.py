"""rollbook beyond MkDocs: the derived config, ``rollbook build`` on Zensical, ``rollbook
assets --strict`` after plain Python-Markdown, and ProperDocs running the plugin.

The sites come from ``tests.host_sites`` (built once per run, shared with the browser tests).
"""

from __future__ import annotations

import json
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
import yaml

from rollbook.hosts.derived_config import ConfigProblem, Tagged, derive, dump_data, load_data
from rollbook.markup.refs_store import resolved, store_html
from rollbook.sitewide.author_problems import find_problems
from rollbook.sitewide.gm_page import gm_page_html, normalise_gm_path, write_gm_page
from rollbook.sitewide.refs_refresh import built_page_of, refresh_refs
from tests import host_sites
from tests.markup.helpers import GAP_TABLE

CONFIG_WITH_TAGS = """\
site_name: Tagged
plugins:
  - search
  - rollbook:
      gm_screen: table/
      presets:
        loud: {odds: true}
markdown_extensions:
  - toc:
      slugify: !!python/object/apply:pymdownx.slugs.slugify {kwds: {case: lower}}
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:pymdownx.superfences.fence_code_format
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
extra:
  token: !ENV [SOME_TOKEN, none]
hooks:
  - hooks/boom.py
"""


def _fences(data: dict) -> dict:
    entry = next(e for e in data["markdown_extensions"] if "pymdownx.superfences" in e)
    return {f["name"]: f for f in entry["pymdownx.superfences"]["custom_fences"]}


def test_the_derived_config_adds_rollbook_once_and_keeps_every_tag(tmp_path: Path) -> None:
    (tmp_path / "hooks").mkdir()
    (tmp_path / "hooks" / "boom.py").write_text(f"open({str(tmp_path / 'ran')!r}, 'w')\n")
    (tmp_path / "mkdocs.yml").write_text(CONFIG_WITH_TAGS, encoding="utf-8")
    derived = derive(tmp_path / "mkdocs.yml")
    assert derived.path == tmp_path / ".rollbook-derived.yml"
    assert derived.site_dir == (tmp_path / "site").resolve()
    assert derived.options["gm_screen"] == "table/" and derived.options["offline"] is True
    assert not (tmp_path / "ran").exists()  # read as data: no hook, no tag ran
    text = derived.path.read_text(encoding="utf-8")
    # The author's tags come back exactly, ours are named functions.
    assert "!!python/object/apply:pymdownx.slugs.slugify" in text
    assert "!!python/name:material.extensions.emoji.twemoji" in text
    assert "!ENV" in text and "SOME_TOKEN" in text
    data = load_data(derived.path)
    fences = _fences(data)
    assert set(fences) == {"mermaid", "roll-table", "roll-list", "statblock", "combat"}
    assert fences["roll-table"]["format"] == Tagged(
        "tag:yaml.org,2002:python/name:rollbook.markup.roll_table.fence.formatter", ""
    )
    names = [next(iter(e)) if isinstance(e, dict) else e for e in data["markdown_extensions"]]
    assert names.count("rollbook") == 1 and names.count("pymdownx.superfences") == 1
    rollbook = next(
        e for e in data["markdown_extensions"] if isinstance(e, dict) and "rollbook" in e
    )
    assert rollbook["rollbook"] == {"presets": {"loud": {"odds": True}}}
    assert data["extra_javascript"] == [{"path": "assets/rollbook/rollbook.js", "type": "module"}]
    assert data["extra_css"] == ["assets/rollbook/rollbook.css"]
    # A second derivation of the derived file adds nothing more.
    again = load_data(derive(derived.path).path)
    assert again["markdown_extensions"] == data["markdown_extensions"]
    assert again["extra_javascript"] == data["extra_javascript"]


def test_the_derived_config_reads_zensical_toml(tmp_path: Path) -> None:
    (tmp_path / "zensical.toml").write_text(
        '[project]\nsite_name = "Toml"\nsite_dir = "out"\n'
        "[project.markdown_extensions.pymdownx.superfences]\n"
        'custom_fences = [{name = "mermaid", class = "mermaid", '
        'format = "pymdownx.superfences.fence_code_format"}]\n',
        encoding="utf-8",
    )
    derived = derive(tmp_path / "zensical.toml")
    assert derived.site_dir == (tmp_path / "out").resolve()
    data = yaml.safe_load(
        derived.path.read_text(encoding="utf-8").replace("!!python/name:", "name:")
    )
    assert data["site_name"] == "Toml"
    assert set(_fences(data)) == {"mermaid", "roll-table", "roll-list", "statblock", "combat"}


def test_the_derived_config_gives_the_pages_the_sites_language(tmp_path: Path) -> None:
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: Fr\ntheme:\n  name: material\n  language: fr\n"
        "plugins:\n  - rollbook:\n      strings: {table.roll: Tirage}\n",
        encoding="utf-8",
    )
    derived = derive(tmp_path / "mkdocs.yml")
    assert (derived.language, derived.strings) == ("fr", {"table.roll": "Tirage"})
    data = load_data(derived.path)
    rollbook = next(
        e for e in data["markdown_extensions"] if isinstance(e, dict) and "rollbook" in e
    )
    assert rollbook["rollbook"] == {"language": "fr", "strings": {"table.roll": "Tirage"}}
    # The plugin's own option wins over the theme's, as on MkDocs.
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: De\ntheme: {name: material, language: fr}\n"
        "plugins:\n  - rollbook: {language: de}\n",
        encoding="utf-8",
    )
    assert derive(tmp_path / "mkdocs.yml").language == "de"


def test_the_site_gets_the_catalogue_of_every_language_a_page_marks(tmp_path: Path) -> None:
    from rollbook.language import catalogue
    from rollbook.sitewide.page_languages import languages_marked, with_page_languages

    (tmp_path / "fr").mkdir()
    (tmp_path / "index.html").write_text("<p>English</p>", encoding="utf-8")
    mark = '<div hidden data-rb-lang="{}"></div>'
    (tmp_path / "fr" / "index.html").write_text(mark.format("fr_FR"), encoding="utf-8")
    (tmp_path / "he.html").write_text(mark.format("he"), encoding="utf-8")
    assert languages_marked(tmp_path) == ["fr_FR", "he"]
    chosen = with_page_languages(tmp_path, [catalogue("en")], {"table.roll": "Draw"})
    assert [c.language for c in chosen] == ["en", "fr", "he"]
    assert chosen[1]("table.roll") == "Draw"  # the author's words in every language
    assert [c.language for c in with_page_languages(tmp_path, [catalogue("fr")])] == ["fr", "he"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("- just a list\n", "must be a mapping of settings"),
        ("site_name: [unclosed\n", "not valid YAML"),
        ("plugins:\n  - rollbook:\n      offline: maybe\n", "'offline' must be bool"),
        ("INHERIT: nowhere.yml\n", "INHERIT names nowhere.yml"),
        (
            "a: &x [1]\n"
            + "".join(f"k{i}: &x{i} [*x, *x, *x, *x, *x, *x, *x, *x, *x, *x]\n" for i in range(1))
            + "b: ["
            + ", ".join(["*x0"] * 5000)
            + "]\n",
            "mkdocs.yml:",
        ),
    ],
)
def test_a_config_that_cannot_be_derived_says_so_in_one_sentence(
    tmp_path: Path, text: str, expected: str
) -> None:
    (tmp_path / "mkdocs.yml").write_text(text, encoding="utf-8")
    with pytest.raises(ConfigProblem) as caught:
        derive(tmp_path / "mkdocs.yml")
    assert expected in str(caught.value) and "\n" not in str(caught.value)
    assert not (tmp_path / ".rollbook-derived.yml").exists()


def test_dump_data_round_trips_unknown_tags() -> None:
    data = {"a": Tagged("!custom", "x"), "b": Tagged("!seq", [1, 2]), "c": Tagged("!map", {"k": 1})}
    assert yaml.load(dump_data(data), Loader=yaml.BaseLoader) is not None
    assert dump_data(data).count("!custom") == 1 and "!seq" in dump_data(data)


# -- the GM screen page, for generators that never saw it ---------------------------------

HOME = """<!doctype html><html><head><title>Home - Ashroad</title>
<link rel="stylesheet" href="assets/stylesheets/main.css">
<script id="__config" type="application/json">{"base":".","search":"./assets/search.js"}</script>
</head><body><a href="." class="home">Home</a><a href="" class="logo">Logo</a><a href="https://example.org/x">out</a>
<a href="#top">top</a><img src="./img/logo.png">
<article class="md-content__inner md-typeset"><h1>Welcome</h1><p>Rules here.</p></article>
<script type="module" src="assets/rollbook/rollbook.js"></script></body></html>"""


def test_the_gm_page_takes_the_home_page_as_its_shell() -> None:
    page = gm_page_html(HOME, depth=2)
    assert "<title>GM screen - Ashroad</title>" in page
    assert "Welcome" not in page and "data-rb-gm" in page and "<h1>GM screen</h1>" in page
    assert 'href="../../assets/stylesheets/main.css"' in page
    assert 'src="../../assets/rollbook/rollbook.js"' in page
    assert 'src="../../img/logo.png"' in page and 'href="../../."' in page
    assert '<a href="../../" class="logo">' in page  # "" is the home page itself
    assert 'href="https://example.org/x"' in page and 'href="#top"' in page
    config = json.loads(page.split('"application/json">')[1].split("</script>")[0])
    assert config == {"base": "../..", "search": "../../assets/search.js"}


@pytest.mark.parametrize(
    "path", ["../x", "/abs", "a/../../b", "c:\\x", "https://e.org/", "a\\b", "./a", "a/%2e%2e/"]
)
def test_gm_paths_outside_the_site_are_refused(tmp_path: Path, path: str) -> None:
    with pytest.raises(ValueError, match="must be a path inside the site"):
        write_gm_page(tmp_path, path)
    assert list(tmp_path.iterdir()) == []


def test_the_gm_page_never_overwrites_or_writes_through_a_link(tmp_path: Path) -> None:
    assert normalise_gm_path(" ") is None and normalise_gm_path("a/b/") == "a/b"
    (tmp_path / "index.html").write_text(HOME, encoding="utf-8")
    (tmp_path / "gm").mkdir()
    (tmp_path / "gm" / "index.html").write_text("the author's own", encoding="utf-8")
    assert write_gm_page(tmp_path, "gm/") is None
    assert (tmp_path / "gm" / "index.html").read_text(encoding="utf-8") == "the author's own"
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (tmp_path / "linked").symlink_to(outside)
    with pytest.raises(ValueError, match="symbolic link"):
        write_gm_page(tmp_path, "linked/gm/")
    assert list(outside.iterdir()) == []


# -- plain Python-Markdown, finished by `rollbook assets --strict` -------------------------


def test_rollbook_assets_finishes_a_plain_markdown_site(tmp_path_factory) -> None:
    site = host_sites.markdown_site(tmp_path_factory)
    manifest = json.loads((site / "assets/rollbook/manifest.json").read_text(encoding="utf-8"))
    assert manifest["offline"] == {"worker": "../../rollbook-sw.js"}
    worker = (site / "rollbook-sw.js").read_text(encoding="utf-8")
    assert '"gm/index.html"' in worker and '"road/index.html"' in worker
    gm = (site / "gm" / "index.html").read_text(encoding="utf-8")
    assert "data-rb-gm" in gm and 'src="../assets/rollbook/rollbook.js"' in gm


def test_rollbook_assets_strict_fails_on_the_pages_author_problems(tmp_path: Path) -> None:
    site = host_sites.build_markdown_site(
        tmp_path / "site", {"index": "# Fine\n", "broken": f"# Broken\n\n{GAP_TABLE}"}
    )
    found = find_problems(site)
    assert [p.page for p in found] == ["broken/index.html"]
    assert "no row covers 3 (1d6 gives 1–6)" in found[0].text
    done = host_sites.run(
        [str(host_sites.BIN / "rollbook"), "assets", str(site), "--strict", "--no-snapshot",
         "--pyodide", str(host_sites.PYODIDE)],
        cwd=tmp_path,
        check=False,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert "rollbook: broken/index.html: " in done.stderr and "no row covers 3" in done.stderr
    assert "1 author problem(s) in the built pages (--strict)." in done.stderr
    assert (site / "rollbook-sw.js").is_file()  # the site is complete all the same


# -- Zensical through `rollbook build` ----------------------------------------------------


def test_rollbook_build_makes_the_whole_site_from_a_config_without_rollbook(
    tmp_path_factory,
) -> None:
    site = host_sites.zensical_site(tmp_path_factory)
    tables = (site / "authoring" / "roll-tables" / "index.html").read_text(encoding="utf-8")
    assert tables.count('<div class="rb-table') >= 3 and "Roll for reaction" in tables
    assert 'assets/rollbook/rollbook.js" type="module"' in tables
    manifest = json.loads((site / "assets/rollbook/manifest.json").read_text(encoding="utf-8"))
    assert all((site / "assets/rollbook" / w).is_file() for w in manifest["wheels"])
    assert (site / "gm" / "index.html").is_file() and (site / "rollbook-sw.js").is_file()
    assert not (site.parent / ".rollbook-derived.yml").exists()
    assert find_problems(site) == []


def test_rollbook_build_strict_fails_with_page_and_line(tmp_path: Path) -> None:
    project = host_sites.zensical_project(
        tmp_path / "demo", {"broken.md": f"---\ntitle: Broken\n---\n\n# Gap\n\n{GAP_TABLE}"}
    )
    done = host_sites.run(
        [str(host_sites.BIN / "rollbook"), "build", "--strict"], cwd=project, check=False
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "docs/broken.md:9: roll-table: results: no row covers 3 (1d6 gives 1–6)" in done.stderr
    assert "rollbook: 1 author problem(s) in the pages." in done.stderr
    again = host_sites.run([str(host_sites.BIN / "rollbook"), "build"], cwd=project, check=False)
    assert again.returncode == 0  # not strict: said, and the site is built


def test_rollbook_build_without_a_config_says_so(tmp_path: Path) -> None:
    done = host_sites.run([str(host_sites.BIN / "rollbook"), "build"], cwd=tmp_path, check=False)
    assert done.returncode == 2
    assert done.stderr.startswith("rollbook: no mkdocs.yml, mkdocs.yaml, zensical.toml")


# -- ProperDocs (the MkDocs 1.6 fork) runs the plugin --------------------------------------


def test_properdocs_builds_the_demo_strictly_with_the_plugin(tmp_path_factory) -> None:
    site = host_sites.properdocs_site(tmp_path_factory)
    manifest = json.loads((site / "assets/rollbook/manifest.json").read_text(encoding="utf-8"))
    assert manifest["snapshot"] and (site / "gm" / "index.html").is_file()
    assert "data-rb-gm" in (site / "gm" / "index.html").read_text(encoding="utf-8")
    assert (site / "rollbook-sw.js").is_file()


def _get(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return str(reply.read().decode("utf-8"))
    except OSError:
        return None


def _wait_for(url: str, needle: str, seconds: float = 240) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        text = _get(url)
        if text is not None and needle in text:
            return text
        time.sleep(1)
    raise AssertionError(f"{url} never held {needle!r}: {(_get(url) or '')[:300]}")


def test_rollbook_serve_finishes_the_site_after_each_rebuild(tmp_path: Path) -> None:
    project = host_sites.small_project(tmp_path / "small")
    assert "rollbook" not in (project / "mkdocs.yml").read_text()  # nothing of ours listed
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}/"
    server = subprocess.Popen(
        [str(host_sites.BIN / "rollbook"), "serve", "-a", f"127.0.0.1:{port}"],
        cwd=project,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        _wait_for(f"{base}assets/rollbook/manifest.json", '"wheels"')
        _wait_for(f"{base}road/", '"Clear skies"')
        _wait_for(f"{base}gm/", "data-rb-gm")
        # Only the weather page changes: the road page, kept as it was rendered, rolls the
        # new rows all the same.
        weather = project / "docs" / "weather.md"
        weather.write_text(weather.read_text().replace("Clear skies", "A red moon"))
        _wait_for(f"{base}weather/", '"A red moon"')
        road = _wait_for(f"{base}road/", '"A red moon"')
        assert '"Clear skies"' not in road
    finally:
        server.terminate()
        server.wait(timeout=60)
    assert not (project / ".rollbook-derived.yml").exists()


def test_stale_copies_of_referenced_tables_are_written_again(tmp_path: Path) -> None:
    assert built_page_of("docs/a/b.md", "docs", True) == "a/b/index.html"
    assert built_page_of("docs/a/b.md", "docs", False) == "a/b.html"
    assert built_page_of("docs/a/index.md", "docs", True) == "a/index.html"
    assert built_page_of("other/a.md", "docs", True) is None
    old = {"id": "sky", "rows": [{"cells": ["Rain"], "key": "1"}]}
    new = {
        "id": "sky",
        "rows": [{"cells": ["Snow"], "key": "1"}],
        "extra": {"ref": "x", "table": "docs/c.md#deep"},
    }
    deep = {
        "id": "deep",
        "rows": [{"cells": ["Down"], "key": "1"}],
        "back": {"ref": "#camp", "table": "docs/road.md#camp"},
    }
    camp = {"id": "camp", "rows": [{"cells": ["Fire"], "key": "1"}]}

    def widget(anchor: str, data: dict) -> str:
        return (
            f'<div class="rb-table" data-rb-anchor="{anchor}">'
            f'<template class="rb-data">{json.dumps(data)}</template></div>'
        )

    (tmp_path / "road").mkdir()
    (tmp_path / "weather").mkdir()
    (tmp_path / "c").mkdir()
    # The road page as an older build left it: its store holds the old rows.
    road = {"id": "road", "rows": [], "refs": ["docs/gone.md#x", "docs/weather.md#sky"]}
    store = store_html({"docs/weather.md#sky": old, "docs/gone.md#x": old}, {})
    (tmp_path / "road" / "index.html").write_text(
        widget("road", road) + widget("camp", camp) + store
    )
    (tmp_path / "weather" / "index.html").write_text(widget("sky", new))
    (tmp_path / "c" / "index.html").write_text(widget("deep", deep))
    assert refresh_refs(tmp_path, "docs") == 1
    html = (tmp_path / "road" / "index.html").read_text()
    data = json.loads(html.split('"rb-data">')[1].split("</template>")[0])
    refs = resolved(data, html)
    assert refs["docs/weather.md#sky"] == new
    assert refs["docs/c.md#deep"] == deep  # reached through the new rows
    assert refs["docs/road.md#camp"] == camp  # on the page itself: named, not copied
    assert refs["docs/gone.md#x"] == old  # nothing to take it from: kept
    assert html.count('"Fire"') == 1 and html.count('"Snow"') == 1  # each table once
    assert refresh_refs(tmp_path, "docs") == 0  # up to date: nothing written
