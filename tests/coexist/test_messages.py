"""Author mistakes beside other plugins: one warning each, at the page and line written.

mkdocs-macros' Jinja above a table adds lines before rollbook converts the page; the blog
converts each post again for every view that shows its excerpt. Neither moves or repeats
the warning.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.coexist.sites import INDEX, Case, write_site

ROOT = Path(__file__).resolve().parents[2]

MACROS_PAGE = """\
# Other

{% for place in ["bridge", "ford", "pass", "gate"] %}
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
  1--2: "They stop: ![roll:#nowhere]()"
  3--5: Nobody
```
"""

POST = """\
---
date: 2026-03-01
---

# Field notes

```roll-table
roll: 1d2
id: notes
results:
  1: "Tracks: ![roll:../../index.md#missing]()"
  2: Smoke
```

<!-- more -->
"""


def test_warnings_name_the_page_and_line_once(tmp_path: Path) -> None:
    case = Case(
        "mistakes",
        "- blog\n- macros:\n    on_undefined: strict\n",
        pages={"index.md": INDEX, "other.md": MACROS_PAGE},
        files={"docs/blog/index.md": "# Blog\n", "docs/blog/posts/notes.md": POST},
        rollbook_last=True,
    )
    config = write_site(case, tmp_path / "project")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "-f",
            str(config),
            "-d",
            str(tmp_path / "out"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", "DISABLE_MKDOCS_2_WARNING": "true"},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    output = (result.stdout + result.stderr).splitlines()
    warnings = [line for line in output if line.startswith("WARNING")]
    ours = [line for line in warnings if "roll" in line]
    assert len([w for w in ours if "docs/other.md:15:" in w and "'#nowhere'" in w]) == 1, output
    post = [w for w in ours if "'../../index.md#missing'" in w]
    assert len(post) == 1 and "docs/blog/posts/notes.md:11:" in post[0], ours
    assert len(ours) == 2, ours
