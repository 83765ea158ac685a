"""Comments and docstrings leave the shipped engine sources; code and positions stay."""

from __future__ import annotations

import ast
import io
import tokenize
import zipfile
from pathlib import Path

import pytest

from rollbook.site_runtime.pysource import for_browser, without_comments, without_docstrings
from rollbook.site_runtime.sources import engine_wheel

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
    assert shipped == for_browser(source)
    assert b'"""' in source and b'"""' not in shipped  # its docstrings went too
    assert engine_wheel().data == wheel.data  # deterministic


def _docstrings_emptied(tree: ast.Module) -> ast.Module:
    """`tree` as it reads once every docstring is ``""`` written where it began (a block that
    ends with its docstring ends there too)."""
    moved: dict[tuple[int, int], tuple[int, int]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            value = first.value if isinstance(first, ast.Expr) else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                value.value = ""
                old = (value.end_lineno or 0, value.end_col_offset or 0)
                moved[old] = (value.lineno, value.col_offset + 2)
    for node in ast.walk(tree):
        end = (getattr(node, "end_lineno", None), getattr(node, "end_col_offset", None))
        if end in moved:
            node.end_lineno, node.end_col_offset = moved[end]  # type: ignore[attr-defined]
    return tree


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ENGINE).as_posix())
def test_the_browser_gets_each_module_with_empty_docstrings_and_nothing_else_changed(
    path: Path,
) -> None:
    source = path.read_bytes()
    shipped = for_browser(source)
    expected = _docstrings_emptied(ast.parse(source))
    tree = ast.parse(shipped)
    assert ast.dump(tree, include_attributes=True) == ast.dump(expected, include_attributes=True)
    assert shipped.count(b"\n") == source.count(b"\n")  # tracebacks name the same lines
    assert b"__doc__" not in source  # nothing in the engine reads a docstring


DOCS = b'''"""Module.

More."""

from __future__ import annotations


def f() -> None:
    \'\'\'Only a docstring
    on two lines.\'\'\'


class C:
    "Doc."

    x = "not a docstring"


def g() -> int:
    "kept"; return 1
'''

EMPTIED = b"""""



from __future__ import annotations


def f() -> None:
    ""



class C:
    ""

    x = "not a docstring"


def g() -> int:
    "kept"; return 1
"""


def test_docstrings_become_empty_where_python_needs_a_statement() -> None:
    shipped = without_docstrings(DOCS)
    assert shipped == EMPTIED
    namespace: dict[str, object] = {}
    exec(compile(shipped, "m.py", "exec"), namespace)
    f, g = namespace["f"], namespace["g"]
    assert callable(f) and f() is None
    assert callable(g) and g() == 1
