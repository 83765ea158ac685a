"""A small Material site with search and instant navigation, for the offline tests.

Written into a temporary folder so a test can change a page, or the ``offline`` option, and
build again into the same output folder (what a redeploy does to a reader's browser).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PAGES = {
    "index.md": """# Home

The home page. Roll ![roll:1d20](. "a d20") to begin.
""",
    "tables.md": """# Tables

A recovery table that asks for a bonus first.

```roll-table
id: recovery
roll: "1d6 + {{ bonus }}"
prompts:
  - name: bonus
    label: Bonus
    min: 0
    max: 3
result_text: "Recovery {{ roll }}: {{ result }}"
results:
  1--3: Still down.
  4--6: Back on your feet.
  ">=7": Fully rested.
```
""",
    "fights.md": """# Fights

```combat
system: dark-dungeons
id: ford
sides:
  Party:
    - name: Brand
      hp: 14
      ac: 4
      damage: 1d8
  Goblins:
    - name: Goblin
      hp: 4
      ac: 6
      damage: 1d6
      count: 2
```
""",
    "lore.md": """# Lore

The marsh wyrm sleeps under the ferry landing. Roll ![roll:2d6](. "2d6") to wake it.
""",
}

# No markdown_extensions: the plugin adds ours and the fences (zero-config), as for authors.
CONFIG = """site_name: rollbook offline fixtures
docs_dir: docs
strict: true
use_directory_urls: true
theme:
  name: material
  font: false
  features:
    - navigation.instant
nav:
  - index.md
  - tables.md
  - fights.md
  - lore.md
plugins:
  - search
  - rollbook:
      pyodide_path: {pyodide}
      snapshot_cache: {cache}
      offline: {offline}
"""


def write_site(folder: Path, *, offline: bool = True, home_text: str | None = None) -> Path:
    """Write (or rewrite) the site's sources into `folder`; returns its mkdocs.yml."""
    docs = folder / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    for name, text in PAGES.items():
        if name == "index.md" and home_text is not None:
            text = text.replace("The home page.", home_text)
        (docs / name).write_text(text, encoding="utf-8")
    config = folder / "mkdocs.yml"
    config.write_text(
        CONFIG.format(
            pyodide=ROOT / "node_modules" / "pyodide",
            cache=ROOT / ".cache" / "rollbook" / "snapshots",
            offline=str(offline).lower(),
        ),
        encoding="utf-8",
    )
    return config
