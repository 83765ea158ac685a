"""Comments leave the shipped engine sources; code, docstrings and line numbers stay."""

from __future__ import annotations

import ast
import io
import tokenize
import zipfile
from pathlib import Path

import pytest

from rollbook.sitewide.pysource import without_comments
from rollbook.sitewide.sources import engine_wheel

ENGINE = Path(__file__).resolve().parents[2] / "rollbook" / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))


def _comments(source: bytes) -> list[str]:
    readline = io.StringIO(source.decode()).readline
    return [t.string for t in tokenize.generate_tokens(readline) if t.type == tokenize.COMMENT]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_every_engine_module_keeps_its_code_and_positions(path: Path) -> None:
    source = path.read_bytes()
    stripped = without_comments(source)
    # The same tree, positions included: tracebacks point at the same lines and columns.
    before = ast.dump(ast.parse(source), include_attributes=True)
    assert ast.dump(ast.parse(stripped), include_attributes=True) == before
    assert stripped.count(b"\n") == source.count(b"\n")
    assert not _comments(stripped)


def test_strings_that_look_like_comments_stay() -> None:
    source = b'x = "# not a comment"  # a comment\n    \n# alone\ny = 1\n'
    assert without_comments(source) == b'x = "# not a comment"\n    \n\ny = 1\n'


def test_source_that_does_not_tokenize_is_left_as_it_is() -> None:
    broken = b"def f(:\n    x = (\n"
    assert without_comments(broken) == broken


def test_the_engine_wheel_ships_the_stripped_sources() -> None:
    wheel = engine_wheel()
    with zipfile.ZipFile(io.BytesIO(wheel.data)) as archive:
        shipped = archive.read("rollbook/engine/dice/roller.py")
    source = (ENGINE / "dice" / "roller.py").read_bytes()
    assert _comments(source)  # the module has comments to lose
    assert shipped == without_comments(source)
    assert engine_wheel().data == wheel.data  # deterministic
