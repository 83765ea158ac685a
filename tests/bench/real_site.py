"""A small real rollbook site for the browser rows: built with the plugin, and without it.

Three generated pages (5 inline rolls and one table each, as in row 1), Material theme,
built once per benchmark run into ``.cache/bench/real/``. The "without" build is the same
pages with neither the plugin nor our extensions: the baseline for long tasks.
``BENCH_SNAPSHOT=0`` measures a site without the start-up snapshot.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.bench.bench_build import generate_pages, write_config
from tests.bench.harness import CACHE, REPO

__all__ = ["PAGE", "RealSite", "build_real_site"]

PAGE = "area-00/page-0000/"


class RealSite:
    """Paths of the two builds and what the manifest says.

    Attributes:
        with_rollbook: Site folder built with rollbook.
        without_rollbook: The same pages without it.
        manifest: The parsed ``assets/rollbook/manifest.json`` of ``with_rollbook``.
    """

    def __init__(self, with_rollbook: Path, without_rollbook: Path) -> None:
        self.with_rollbook = with_rollbook
        self.without_rollbook = without_rollbook
        manifest = with_rollbook / "assets" / "rollbook" / "manifest.json"
        self.manifest_path = manifest
        self.manifest = json.loads(manifest.read_text(encoding="utf-8"))
        self.note = ""

    def engine_wheel(self) -> Path:
        """The engine wheel the site ships."""
        return self.manifest_path.parent / self.manifest["engine"]["path"]

    def pyodide_dir(self) -> Path:
        """The Pyodide folder the site ships."""
        return (self.manifest_path.parent / self.manifest["pyodide"]).resolve()


def _build(config: Path, site: Path) -> None:
    shutil.rmtree(site, ignore_errors=True)
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config), "-d", str(site)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RuntimeError(f"mkdocs build failed: {tail}")


@functools.cache
def build_real_site(pages: int = 3) -> RealSite:
    """Build (once per process) the small site with and without rollbook.

    Raises:
        RuntimeError: a build failed or produced no manifest (the message says which).
    """
    work = CACHE / "real"
    docs = work / "docs"
    generate_pages(docs, pages)
    sites = {}
    for ours in (True, False):
        config = work / ("with.yml" if ours else "without.yml")
        write_config(config, docs, rollbook=ours)
        sites[ours] = work / ("site-with" if ours else "site-without")
        _build(config, sites[ours])
    manifest = sites[True] / "assets" / "rollbook" / "manifest.json"
    if not manifest.is_file():
        raise RuntimeError("the plugin wrote no assets/rollbook/manifest.json")
    note = ""
    # The default is a site with a snapshot; until the plugin makes it, the bench does,
    # with the same function the plugin is to call.
    wanted = os.environ.get("BENCH_SNAPSHOT", "1") != "0"
    if wanted and "snapshot" not in json.loads(manifest.read_text(encoding="utf-8")):
        from rollbook.site_runtime.snapshot import add_snapshot

        add_snapshot(manifest, cache_dir=CACHE / "snapshots")
        note = "snapshot added by the bench"
    site = RealSite(sites[True], sites[False])
    site.note = note
    return site
