"""The engine imports without mkdocs/markdown/yaml, and rolling never imports icepool."""

from __future__ import annotations

import subprocess
import sys
import textwrap


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        check=False,
    )


BLOCKER = """
    import importlib.abc, sys

    class Block(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in {"mkdocs", "markdown", "yaml", "pymdownx"}:
                raise ImportError(f"blocked: {name}")
            return None

    sys.meta_path.insert(0, Block())
"""


def test_engine_imports_without_site_libraries() -> None:
    proc = _run(
        BLOCKER
        + """
    import pkgutil, importlib, random
    from rollbook import engine
    for mod in pkgutil.walk_packages(engine.__path__, "rollbook.engine."):
        importlib.import_module(mod.name)
    print(engine.roll("2d6", random.Random(1)).total, engine.odds("2d6").mean)
    assert not {"mkdocs", "markdown", "yaml"} & set(sys.modules)
    """
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[1] == "7"


def test_rolling_does_not_import_icepool() -> None:
    proc = _run(
        """
    import random, sys
    from rollbook import engine
    result = engine.roll("4d6kh3+2d6!", random.Random(3))
    result.to_dict(); result.text()
    engine.parse("{2d6,3d6}kh1").roll(random.Random(1))
    print("icepool" in sys.modules)
    engine.odds("4d6kh3")  # keep/drop odds go through icepool
    print("icepool" in sys.modules)
    """
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["False", "True"]


def test_only_the_adapter_imports_icepool() -> None:
    from pathlib import Path

    import rollbook.engine.dice

    root = Path(rollbook.engine.dice.__file__).parent
    users = sorted(p.name for p in root.glob("*.py") if "import icepool" in p.read_text())
    assert users == ["exact.py"]
