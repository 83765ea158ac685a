"""Packaging metadata lives in pyproject.toml; this file adds one build step.

The wheel carries the demo site's authoring guide (``docs/authoring``, the dice grammar) as
``rollbook/guide/``, for ``rollbook new --guide``: the pages have one copy in the repository,
the demo's, and are copied here at build time. Which pages: ``rollbook/scaffold/guide.py``.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _guide_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("_guide", HERE / "rollbook/scaffold/guide.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithGuide(build_py):
    """``build_py``, then the guide's pages into ``rollbook/guide/`` of the build."""

    def run(self) -> None:
        """Build, then copy the guide's pages into the wheel."""
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the pages from the checkout
        guide = _guide_module()
        target = Path(self.build_lib) / "rollbook" / "guide"
        for name in guide.source_files(HERE / "docs"):
            dest = target / name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(HERE / "docs" / name, dest)


setup(cmdclass={"build_py": BuildPyWithGuide})
