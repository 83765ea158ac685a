"""Books shared by the PDF tests: the fixture site's (twice, by the CLI) and the demo's
(once per session, by the plugin inside a real `mkdocs build`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SITE = Path(__file__).resolve().parent / "site"
EPOCH = "1767225600"  # 2026-01-01
DEMO_URL = "https://rules.example.org/book/"


def _env() -> dict[str, str]:
    return {**os.environ, "NO_MKDOCS_2_WARNING": "1", "SOURCE_DATE_EPOCH": EPOCH}


def run_pdf(out: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """`rollbook pdf` in the fixture site's folder."""
    return subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "pdf", "-o", str(out), *flags],
        cwd=SITE, env=_env(), capture_output=True, text=True, check=False,
    )  # fmt: skip


@pytest.fixture(scope="session")
def fixture_books(tmp_path_factory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("pdf-fixture")
    paths = []
    for name in ("one.pdf", "two.pdf"):
        done = run_pdf(base / name, "--chances", "--qr")
        assert done.returncode == 0, done.stderr
        paths.append(base / name)
    return paths[0], paths[1]


@pytest.fixture(scope="session")
def demo_site(tmp_path_factory) -> Path:
    """The demo built with `pdf: rules.pdf`, `site_url` and QR codes."""
    base = tmp_path_factory.mktemp("pdf-demo")
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.replace("docs_dir: docs", f"docs_dir: {ROOT / 'docs'}\nsite_url: {DEMO_URL}", 1)
    plugin = (
        "  - rollbook:\n      pdf: rules.pdf\n      pdf_qr: true\n"
        f"      pyodide_path: {ROOT / 'node_modules' / 'pyodide'}\n"
        f"      snapshot_cache: {ROOT / '.cache' / 'rollbook' / 'snapshots'}\n"
    )
    lines = [plugin if line.startswith("  - rollbook  ") else line + "\n"
             for line in text.splitlines()]  # fmt: skip
    config = base / "mkdocs.yml"
    config.write_text("".join(lines), encoding="utf-8")
    site = base / "site"
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
        cwd=ROOT, env=_env(), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return site
