"""The trimmed standard library: every request the browser sends still works in Pyodide.

Pyodide runs under node with the site's wheels, once on the distribution's full
``python_stdlib.zip`` and once on the trimmed one; both must answer every kind of bridge
request exactly as CPython does, and every standard-library module the full run ended up
importing must be in the trimmed zip (so ``stdlib_trim.STARTUP`` and the static closure
still cover what Pyodide and the engine load).
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from rollbook.engine import bridge
from rollbook.site_runtime.sources import engine_wheel, icepool_wheel
from rollbook.site_runtime.stdlib_trim import LEFT_OUT, imports_of, trim_stdlib
from tests.build.bridge_requests import requests

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"
SCRIPT = Path(__file__).with_name("pyodide_bridge.mjs")


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("wheels")
    out = []
    for wheel in (engine_wheel(), icepool_wheel()):
        (folder / wheel.filename).write_bytes(wheel.data)
        out.append(folder / wheel.filename)
    return out


@pytest.fixture(scope="module")
def trimmed(wheels: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    data = trim_stdlib(
        (PYODIDE / "python_stdlib.zip").read_bytes(), [w.read_bytes() for w in wheels]
    )
    path = tmp_path_factory.mktemp("stdlib") / "python_stdlib.zip"
    path.write_bytes(data)
    return path


def _run(wheels: list[Path], stdlib: Path | None) -> dict:
    node = shutil.which("node")
    assert node, "node runs Pyodide for this test (make setup installs it)"
    command = [node, str(SCRIPT), "--pyodide", str(PYODIDE)]
    command += ["--stdlib", str(stdlib)] if stdlib else []
    for wheel in wheels:
        command += ["--wheel", str(wheel)]
    done = subprocess.run(
        command, input=json.dumps(requests()), capture_output=True, text=True, timeout=300,
        check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    result: dict = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _stdlib_modules(path: Path) -> set[str]:
    with zipfile.ZipFile(path) as archive:
        names = [n[:-3] for n in archive.namelist() if n.endswith(".py")]
    return {n.removesuffix("/__init__").replace("/", ".") for n in names}


def test_every_request_answers_as_in_cpython_on_the_trimmed_zip(
    wheels: list[Path], trimmed: Path
) -> None:
    expected = [bridge.handle(json.loads(json.dumps(r))) for r in requests()]
    expected = json.loads(json.dumps(expected))
    full = _run(wheels, None)
    cut = _run(wheels, trimmed)
    assert [json.loads(r) for r in full["replies"]] == expected
    assert [json.loads(r) for r in cut["replies"]] == expected
    assert not any("WorkerError" in r or "ModuleNotFoundError" in r for r in cut["replies"])
    # What the full run imported from the standard library, the trimmed zip holds.
    in_full_zip = _stdlib_modules(PYODIDE / "python_stdlib.zip")
    used = {m for m in full["modules"] if m in in_full_zip}
    left_out = {m for m in used if m.split(".")[0] in LEFT_OUT}
    assert left_out == {"bz2", "lzma", "compression", "compression.zstd"} | {
        m for m in left_out if m.startswith("compression.")
    }  # what shutil tries: the full zip has it, so the full run loads it
    assert used - left_out - _stdlib_modules(trimmed) == set()
    assert not {m for m in cut["modules"] if m.split(".")[0] in LEFT_OUT}


def test_the_trimmed_zip_is_byte_identical_and_a_third_of_the_size(
    wheels: list[Path], trimmed: Path
) -> None:
    again = trim_stdlib(
        (PYODIDE / "python_stdlib.zip").read_bytes(), [w.read_bytes() for w in wheels]
    )
    assert again == trimmed.read_bytes()
    assert len(again) < 0.45 * (PYODIDE / "python_stdlib.zip").stat().st_size
    with zipfile.ZipFile(io.BytesIO(again)) as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert {info.date_time for info in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
    assert "unittest/__init__.py" not in names and "email/__init__.py" not in names
    # Windows-only modules (asyncio's event loops, code pages): never imported on the web.
    assert {"asyncio/windows_events.py", "encodings/_win_cp_codecs.py"}.isdisjoint(names)
    assert "asyncio/unix_events.py" in names


def test_imports_of_reads_relative_lazy_and_guarded_imports() -> None:
    source = (
        "import os, json as j\n"
        "from . import sibling\n"
        "from ..up import thing\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import typed_only\n"
        "if __name__ == '__main__':\n    import doctest\n"
        "if sys.platform == 'win32':\n    import winreg\nelse:\n    import posix\n"
        "if os.name == 'nt' and fast:\n    import nt_only\n"
        # Tests that may be true here: their blocks run.
        "if IN_PYODIDE or TYPE_CHECKING:\n    import either\n"
        "if modname != '__main__':\n    import not_main\n"
        "if not typing.TYPE_CHECKING:\n    import untyped\n"
        "def later():\n    import csv\n"
        "class K:\n    import html\n"
    )
    everything = imports_of(source, "pkg.sub.mod")
    assert {
        "os",
        "json",
        "pkg.sub",
        "pkg.sub.sibling",
        "pkg.up",
        "pkg.up.thing",
        "csv",
    } <= everything
    assert {"typed_only", "doctest"} <= everything  # anywhere: they are import statements
    top = imports_of(source, "pkg.sub.mod", top_level=True)
    assert {"os", "json", "pkg.sub.sibling", "html", "typing"} <= top
    assert not {"csv", "typed_only", "doctest", "winreg", "nt_only"} & top
    assert {"posix", "either", "not_main", "untyped"} <= top
    # A package's own relative import resolves inside the package.
    assert imports_of("from . import x", "pkg", is_package=True) == {"pkg", "pkg.x"}
    # Source of a newer Python than this one is read line by line.
    newer = "import re\nt = t'{x}'\nfrom .helpers import (a, b)\ndef f():\n    import csv\n"
    assert imports_of(newer, "m.n", top_level=True) == {
        "re",
        "m.helpers",
        "m.helpers.a",
        "m.helpers.b",
    }
