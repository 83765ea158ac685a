"""Build a copy of the demo with Zensical, as a site built without the MkDocs plugin.

Zensical (Material's successor) builds mkdocs.yml sites and runs our Markdown extensions,
but no MkDocs plugin; the site-wide files then come from ``rollbook assets SITE_DIR``. It
refuses a docs folder outside the folder of its config, so the config and docs are copied.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["REPO", "add_assets", "zensical_build"]

REPO = Path(__file__).resolve().parents[1]
_BIN = Path(sys.executable).parent


def zensical_build(project: Path, extra_pages: dict[str, str] | None = None) -> tuple[Path, str]:
    """Copy the demo into ``project``, build it there; returns (site folder, build output).

    Raises:
        AssertionError: the build failed (its output is in the message).
    """
    project.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(REPO / "mkdocs.yml", project / "mkdocs.yml")
    shutil.copytree(REPO / "docs", project / "docs", dirs_exist_ok=True)
    for name, text in (extra_pages or {}).items():
        (project / "docs" / name).write_text(text, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO)}  # the config names rollbook.markup.*
    done = subprocess.run(
        [str(_BIN / "zensical"), "build", "--clean", "-f", "mkdocs.yml"],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, f"zensical build failed:\n{output}"
    return project / "site", output


def add_assets(site: Path) -> None:
    """``rollbook assets SITE`` on a built site, snapshots kept where the demo build keeps them."""
    done = subprocess.run(
        [
            str(_BIN / "rollbook"),
            "assets",
            str(site),
            "--pyodide",
            str(REPO / "node_modules" / "pyodide"),
            "--snapshot-cache",
            str(REPO / ".cache" / "rollbook" / "snapshots"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"rollbook assets failed:\n{done.stdout}{done.stderr}"
