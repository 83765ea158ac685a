"""The page says the engine's "no row" in the reader's language inside nested table replies too.

said.js runs under node against a French catalogue: a table whose row rolled another table
that had no row for its total gets that sentence in French, at every depth.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

PAGE = Path(__file__).parents[2] / "rollbook" / "assets" / "page"
FRENCH = "Aucune ligne pour {value}."


def test_a_nested_no_row_is_said_in_the_readers_language(tmp_path: Path) -> None:
    for name in ("said.js", "i18n.js"):
        shutil.copy(PAGE / name, tmp_path / name)
    signs = {
        "decimal": ",",
        "group": "\u202f",
        "grouping": [3, 3],
        "minus": "-",
        "percent": "{n} %",
    }
    strings = {
        "default": "fr",
        "catalogues": {"fr": {"lang": "fr", "dir": "ltr", "numbers": signs, "strings": {}}},
    }
    engine = {"catalogues": {"fr": {"error.table.no_row": FRENCH}}}
    (tmp_path / "strings.js").write_text(f"export default {json.dumps(strings)};", encoding="utf-8")
    (tmp_path / "strings-engine.js").write_text(
        f"export default {json.dumps(engine)};", encoding="utf-8"
    )
    no_row = {"key": "error.table.no_row", "args": {"value": "13"}}
    deep = {"kind": "table", "ref": "b", "row": None, "text": "No row for 13.", "said": no_row}
    reply = {
        "row": 0,
        "text": "Rolled 2: a door",
        "nested": [
            {"kind": "dice", "roll": {"total": 4}},
            {"kind": "table", "ref": "a", "row": 1, "text": "x", "nested": [deep]},
            deep,
        ],
    }
    script = (
        f"import({json.dumps((tmp_path / 'said.js').as_uri())}).then((m) => "
        f"console.log(JSON.stringify(m.localised({json.dumps(reply)}))))"
    )
    node = shutil.which("node")
    assert node, "make setup installs node"
    out = json.loads(
        subprocess.run([node, "-e", script], capture_output=True, text=True, check=True).stdout
    )
    said = FRENCH.replace("{value}", "13")
    assert out["text"] == "Rolled 2: a door"  # a row's own sentence is the page's already
    assert out["nested"][0] == {"kind": "dice", "roll": {"total": 4}}
    assert out["nested"][1]["nested"][0]["text"] == said
    assert out["nested"][2]["text"] == said
