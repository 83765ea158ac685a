"""Sites built by other hosts than MkDocs, once per test run, for the build and browser tests.

- ``zensical_site``: the demo built by ``rollbook build`` (Zensical) from a config that lists
  nothing of rollbook (the plugin entry and its options only, as an MkDocs author has it),
  plus two pages that roll each other's tables;
- ``markdown_site``: a few pages converted by plain Python-Markdown (a small script, as any
  other generator would), finished by ``rollbook assets --strict``;
- ``properdocs_site``: the demo built strictly by ProperDocs (the MkDocs 1.6 fork).

Each is built by the first xdist worker that asks (``tests.once``) and reused by the other.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import markdown
import pytest

from rollbook.hosts.derived_config import dump_data, load_data
from tests.once import once

__all__ = [
    "REFERRING_PAGE",
    "REPO",
    "build_markdown_site",
    "markdown_site",
    "properdocs_site",
    "run",
    "small_project",
    "strip_rollbook",
    "zensical_project",
    "zensical_site",
]

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
PYODIDE = REPO / "node_modules" / "pyodide"
SNAPSHOTS = REPO / ".cache" / "rollbook" / "snapshots"

#: A page whose table rolls a table of another page (written as links are written).
REFERRING_PAGE = """---
title: Road trouble
---

# Road trouble

Something happens on the road.

```roll-table
roll: 1d2
id: road
results:
  1: "Weather turns: ![roll:weather.md#sky]()"
  2: Nothing at all.
```
"""
WEATHER_PAGE = """# Weather

```roll-table
roll: 1d3
id: sky
results:
  1: Rain
  2: Wind
  3: Clear skies
```
"""


def run(command: list[str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run a command as an author would; with ``check``, fail with its output."""
    done = subprocess.run(
        command,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"},
    )
    if check:
        assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done


def strip_rollbook(config: dict) -> dict:
    """The demo config as an MkDocs author writes it: rollbook only under ``plugins``."""
    out = dict(config)
    out["extra_css"] = [c for c in out.get("extra_css", []) if "rollbook" not in str(c)]
    out["extra_javascript"] = [
        j for j in out.get("extra_javascript", []) if "rollbook" not in str(j)
    ]
    presets: dict = {}
    extensions = []
    for entry in out.get("markdown_extensions", []):
        name = next(iter(entry)) if isinstance(entry, dict) else entry
        if name == "rollbook":
            presets = (
                dict((entry[name] or {}).get("presets") or {}) if isinstance(entry, dict) else {}
            )
            continue
        if name == "pymdownx.superfences":
            continue  # only our fences there
        extensions.append(entry)
    out["markdown_extensions"] = extensions
    plugin = {"presets": presets, "pyodide_path": str(PYODIDE), "snapshot_cache": str(SNAPSHOTS)}
    out["plugins"] = ["search", {"rollbook": plugin}]
    return out


def zensical_project(folder: Path, extra_pages: dict[str, str] | None = None) -> Path:
    """The demo's pages and its config without rollbook entries, in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copytree(REPO / "docs", folder / "docs", dirs_exist_ok=True)
    pages = {"road.md": REFERRING_PAGE, "weather.md": WEATHER_PAGE, **(extra_pages or {})}
    for name, text in pages.items():
        (folder / "docs" / name).write_text(text, encoding="utf-8")
    config = strip_rollbook(load_data(REPO / "mkdocs.yml"))
    config["nav"] = [*config["nav"], {"Road trouble": "road.md"}, {"Weather": "weather.md"}]
    text = dump_data(config)
    assert "rollbook.markup" not in text and "rollbook.js" not in text
    (folder / "mkdocs.yml").write_text(text, encoding="utf-8")
    return folder


def small_project(folder: Path) -> Path:
    """Two pages whose tables roll each other's, and a config naming nothing of rollbook.

    Pyodide and the snapshot cache are this repository's, linked in where a project of
    this repository keeps them, as a site set up by ``make setup`` has them.
    """
    (folder / "docs").mkdir(parents=True, exist_ok=True)
    (folder / "docs" / "index.md").write_text("# Home\n\nRoll ![roll:1d6]().\n")
    (folder / "docs" / "road.md").write_text(REFERRING_PAGE, encoding="utf-8")
    (folder / "docs" / "weather.md").write_text(WEATHER_PAGE, encoding="utf-8")
    (folder / "mkdocs.yml").write_text(
        "site_name: Small\ntheme:\n  name: material\n  font: false\n", encoding="utf-8"
    )
    (folder / "node_modules").mkdir()
    (folder / "node_modules" / "pyodide").symlink_to(PYODIDE)
    (folder / ".cache").mkdir()
    (folder / ".cache" / "rollbook").symlink_to(SNAPSHOTS.parent)
    return folder


def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo built with ``rollbook build --strict`` on Zensical; its site folder."""
    with once(tmp_path_factory, "zensical-site") as (folder, done):
        if not done:
            project = zensical_project(folder / "project")
            run([str(BIN / "rollbook"), "build", "--strict"], cwd=project)
    return folder / "project" / "site"


#: Pages of the plain Python-Markdown site: the second is where the planted error goes.
MARKDOWN_PAGES = {
    "index": "# Camp\n\nRoll ![roll:1d20+2]() to stay awake.\n\n"
    "```roll-table\nroll: 1d4\nid: watch\nresults:\n  1: An owl\n  2: A fox\n"
    "  3: Rain\n  4: Nobody\n```\n",
    "road": "# Road\n\nThe cart moves ![roll:2d6*10]() feet.\n",
}
_SHELL = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<link rel="stylesheet" href="{up}assets/rollbook/rollbook.css">
<script type="module" src="{up}assets/rollbook/rollbook.js"></script>
</head><body><main>
{body}
</main></body></html>
"""


def build_markdown_site(site: Path, pages: dict[str, str]) -> Path:
    """Convert ``pages`` with Python-Markdown alone, as another generator would."""
    from rollbook.markup.superfences import CUSTOM_FENCES

    for name, text in pages.items():
        md = markdown.Markdown(
            extensions=["toc", "tables", "pymdownx.superfences", "rollbook"],
            extension_configs={"pymdownx.superfences": {"custom_fences": CUSTOM_FENCES}},
        )
        up = "" if name == "index" else "../"
        target = site / ("index.html" if name == "index" else f"{name}/index.html")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_SHELL.format(title=name, up=up, body=md.convert(text)), encoding="utf-8")
    return site


def markdown_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The plain Python-Markdown site, finished with ``rollbook assets --strict``."""
    with once(tmp_path_factory, "markdown-site") as (folder, done):
        site = folder / "site"
        if not done:
            build_markdown_site(site, MARKDOWN_PAGES)
            run(
                [str(BIN / "rollbook"), "assets", str(site), "--strict", "--pyodide",
                 str(PYODIDE), "--snapshot-cache", str(SNAPSHOTS)],
                cwd=folder,
            )  # fmt: skip
    return site


def properdocs_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo built by ``properdocs build --strict`` from this repository's mkdocs.yml."""
    with once(tmp_path_factory, "properdocs-site") as (folder, done):
        if not done:
            run(
                [str(BIN / "properdocs"), "build", "--strict", "-q", "-f", "mkdocs.yml",
                 "-d", str(folder / "site")],
                cwd=REPO,
            )  # fmt: skip
    return folder / "site"
