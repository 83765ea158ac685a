"""Small sites that put rollbook beside one other plugin each (and one with all of them).

Each site has the same two pages: ``index.md`` with the table ``reaction`` and
``other.md`` whose table ``meeting`` rolls ``index.md#reaction`` in every row (a reference
to another page's table, written as links are). A site adds what its plugin needs to show
its own feature. Everything is written in our own words.
"""

from __future__ import annotations

import os
import subprocess
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"
SNAPSHOTS = ROOT / ".cache" / "rollbook" / "snapshots"
#: The fixed date of the fixture's one commit (git-revision-date-localized reads it).
COMMIT_DATE = "2026-03-14T12:00:00+00:00"

INDEX = """\
# Home

Roll ![roll:1d20]() to keep your footing.

```roll-table
roll: 1d6
id: reaction
results:
  1--3: Wary
  4--6: Friendly
```
"""

OTHER = """\
# Other

Strangers on the road:

```roll-table
roll: 1d2
id: meeting
results:
  1: "They stop and stare: ![roll:index.md#reaction]()"
  2: "They wave from afar: ![roll:index.md#reaction]()"
```
"""


# The GM screen translated by the author (the English one stays generated).
GM_FR = """\
# Écran du MJ

Ce que vous épinglez apparaît ici.

<div class="rb-gm" data-rb-gm><p class="rb-gm-empty">Rien d'épinglé.</p></div>
"""


def _fr(text: str) -> str:
    return text.replace("# Home", "# Accueil").replace("# Other", "# Autre")


@dataclass(frozen=True)
class Case:
    """One fixture site.

    Attributes:
        name: The plugin it shows (a test id).
        plugins: The ``plugins:`` entries after ``search`` and rollbook (YAML lines).
        files: Extra files under the project folder (path -> text).
        visit: The page (site-relative) the browser opens and rolls ``meeting`` on.
        extra: Extra top-level mkdocs.yml lines.
        rollbook_last: List rollbook after the other plugins (order must not matter).
        git: Make the project a git repository (one commit at ``COMMIT_DATE``).
        pages: Replace the two default pages (path -> text, under docs/).
        options: rollbook's own options (YAML lines under its entry).
    """

    name: str
    plugins: str
    files: dict[str, str] = field(default_factory=dict)
    visit: str = "other/"
    extra: str = ""
    rollbook_last: bool = False
    git: bool = False
    pages: dict[str, str] | None = None
    options: str = ""


I18N = """\
- i18n:
    docs_structure: {layout}
    languages:
      - locale: en
        default: true
        name: English
      - locale: fr
        name: Français
"""

BLOG_POST = """\
---
date: 2026-03-01
---

# Field notes

A table from the rules, rolled in a post:

```roll-table
roll: 1d2
id: notes
results:
  1: "Tracks in the mud: ![roll:../../index.md#reaction]()"
  2: "Smoke on the hill: ![roll:../../index.md#reaction]()"
```

<!-- more -->

The rest of the post.
"""

MACROS_PAGE = """\
# Other

{% for place in ["bridge", "ford", "pass"] %}
- The {{ place }}
{% endfor %}

```roll-table
roll: 1d2 + {{ bonus }}
id: meeting
prompts:
  - name: bonus
    min: 0
    max: 3
results:
  1--2: "They stop and stare: ![roll:index.md#reaction]()"
  3--5: "They wave from afar: ![roll:index.md#reaction]()"
```
"""

PRINT_SITE = "- print-site:\n    add_cover_page: false\n    add_table_of_contents: false\n"
MINIFY = """\
- minify:
    minify_html: true
    minify_js: true
    minify_css: true
    js_files:
      - assets/rollbook/rollbook.js
      - assets/rollbook/table.js
    css_files:
      - assets/rollbook/rollbook.css
"""
AWESOME_NAV = {"docs/.nav.yml": "nav:\n  - index.md\n  - other.md\n"}

#: The social cards' font: a system font put in the plugin's cache, as if downloaded once
#: (the plugin fetches fonts from Google Fonts, and tests have no network).
CARD_FONT = "Liberation Sans"
_CARD_FONT_FILES = {
    "Regular.ttf": "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "Bold.ttf": "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
}


CASES = [
    Case(
        "i18n-suffix",
        I18N.format(layout="suffix"),
        visit="fr/other/",
        pages={
            "index.md": INDEX,
            "index.fr.md": _fr(INDEX),
            "other.md": OTHER,
            "other.fr.md": _fr(OTHER),
            "only-en.md": OTHER.replace("meeting", "lone"),
            "gm/index.fr.md": GM_FR,
        },
    ),
    Case(
        "i18n-folder",
        I18N.format(layout="folder"),
        visit="fr/other/",
        pages={"en/index.md": INDEX, "en/other.md": OTHER, "fr/other.md": _fr(OTHER)},
    ),
    Case(
        "blog",
        "- blog\n",
        visit="blog/",
        files={"docs/blog/index.md": "# Blog\n", "docs/blog/posts/notes.md": BLOG_POST},
    ),
    Case("tags", "- tags\n", files={"docs/tags.md": "# Tags\n\n<!-- material/tags -->\n"}),
    Case("social", f"- social:\n    cards_layout_options:\n      font_family: {CARD_FONT}\n"),
    # Material's bundle names an optional script on a CDN; no network here to fetch it.
    Case("privacy", "- privacy:\n    assets_exclude:\n      - unpkg.com/*\n"),
    Case("offline", "- offline\n", visit="other.html", extra="use_directory_urls: false\n"),
    Case("minify", MINIFY, rollbook_last=True),
    Case("awesome-nav", "- awesome-nav\n", files=AWESOME_NAV),
    Case("glightbox", "- glightbox\n"),
    Case("redirects", "- redirects:\n    redirect_maps:\n      old.md: other.md\n"),
    Case(
        "exclude",
        "- exclude:\n    glob:\n      - drafts/*\n",
        files={"docs/drafts/wip.md": "# Not ready\n"},
    ),
    Case("print-site", PRINT_SITE, visit="print_page/"),
    Case(
        "macros",
        "- macros:\n    on_undefined: strict\n",
        rollbook_last=True,
        pages={"index.md": INDEX, "other.md": MACROS_PAGE},
    ),
    Case(
        "git-revision-date",
        "- git-revision-date-localized:\n    enable_creation_date: true\n",
        git=True,
    ),
]

#: No GM screen: no page, and no pin control anywhere.
CASES.append(Case("no-gm-screen", "", visit="", options='gm_screen: ""\n'))

#: Every plugin above in one site (print-site last, as it must be).
ALL = Case(
    "all",
    "".join(
        [
            I18N.format(layout="suffix"),
            "- blog:\n    archive: false\n    categories: false\n- tags\n",
            f"- social:\n    cards_layout_options:\n      font_family: {CARD_FONT}\n",
            "- privacy:\n    assets_exclude:\n      - unpkg.com/*\n",
            "- offline\n",
            MINIFY,
            "- awesome-nav\n- glightbox\n",
            "- redirects:\n    redirect_maps:\n      old.md: other.md\n",
            "- exclude:\n    glob:\n      - drafts/*\n",
            "- macros\n",
            "- git-revision-date-localized\n",
            PRINT_SITE,
        ]
    ),
    visit="fr/other.html",
    extra="use_directory_urls: false\n",
    git=True,
    pages={
        "index.md": INDEX,
        "index.fr.md": _fr(INDEX),
        "other.md": OTHER,
        "other.fr.md": _fr(OTHER),
    },
    files={
        "docs/blog/index.md": "# Blog\n",
        "docs/blog/posts/notes.md": BLOG_POST,
        "docs/tags.md": "# Tags\n\n<!-- material/tags -->\n",
        "docs/drafts/wip.md": "# Not ready\n",
    },
)
CASES.append(ALL)


def write_site(case: Case, folder: Path) -> Path:
    """Write the project of ``case`` into ``folder``; return its mkdocs.yml."""
    pages = case.pages or {"index.md": INDEX, "other.md": OTHER}
    for rel, text in {**{f"docs/{k}": v for k, v in pages.items()}, **case.files}.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    rollbook = f"- rollbook:\n    pyodide_path: {PYODIDE}\n    snapshot_cache: {SNAPSHOTS}\n"
    rollbook += textwrap.indent(case.options, "    ")
    others = textwrap.dedent(case.plugins)
    listed = (
        ["- search\n", others, rollbook] if case.rollbook_last else ["- search\n", rollbook, others]
    )
    if case.name == "print-site" or "print-site" in others:  # print-site insists on last
        listed = ["- search\n", rollbook, others]
    plugins = "".join(textwrap.indent(part, "  ") for part in listed)
    yml = (
        f"site_name: rollbook beside {case.name}\n"
        "site_url: https://rollbook.invalid/\n"
        f"{case.extra}"
        "theme:\n  name: material\n  font: false\n"
        f"plugins:\n{plugins}"
    )
    config = folder / "mkdocs.yml"
    config.write_text(yml, encoding="utf-8")
    if "social" in others:
        fonts = folder / ".cache" / "plugin" / "social" / "fonts" / CARD_FONT
        fonts.mkdir(parents=True)
        for name, source in _CARD_FONT_FILES.items():
            (fonts / name).write_bytes(Path(source).read_bytes())
    if case.git:
        _commit(folder)
    return config


def _commit(folder: Path) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "fixture",
        "GIT_AUTHOR_EMAIL": "fixture@rollbook.invalid",
        "GIT_COMMITTER_NAME": "fixture",
        "GIT_COMMITTER_EMAIL": "fixture@rollbook.invalid",
        "GIT_AUTHOR_DATE": COMMIT_DATE,
        "GIT_COMMITTER_DATE": COMMIT_DATE,
    }
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "fixture"]):
        subprocess.run(["git", *args], cwd=folder, env=env, check=True, capture_output=True)
