"""The pdf extra stays optional: declared as ranges, pinned for tests, never needed to import."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

from pypdf import PdfReader

from tests.pdf.conftest import ROOT, SITE, _env


def test_the_extra_is_declared_with_ranges_and_pinned_for_development():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extra = project["optional-dependencies"]["pdf"]
    assert sorted(dep.split(">")[0] for dep in extra) == ["segno", "typst"]
    assert not [dep for dep in extra if "==" in dep]
    dev = project["optional-dependencies"]["dev"]
    for pin in ("typst==", "segno==", "pypdf=="):
        assert any(dep.startswith(pin) for dep in dev), pin
    constraints = (ROOT / "constraints.txt").read_text(encoding="utf-8").split()
    for pin in ("typst==0.15.2", "segno==1.6.6", "pypdf==7.1.1"):
        assert pin in constraints


def test_the_plugin_and_the_book_api_import_without_the_extra():
    code = (
        "import sys; sys.modules['typst'] = None; sys.modules['segno'] = None\n"
        "import rollbook.mkdocs_plugin.plugin, rollbook.pdf, rollbook.pdf.book\n"
        "print(rollbook.pdf.available())"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_without_site_url_one_line_says_so_and_nothing_links_out(tmp_path):
    site = tmp_path / "site"
    shutil.copytree(SITE, site)
    config = site / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    config.write_text(
        "\n".join(x for x in text.splitlines() if not x.startswith("site_url")), encoding="utf-8"
    )
    out = tmp_path / "book.pdf"
    done = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "pdf", "-o", str(out), "--qr"],
        cwd=site, env=_env(), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [line for line in done.stderr.splitlines() if "site_url" in line] == [
        "rollbook: no `site_url` in mkdocs.yml, so the PDF has no links to the live tables."
    ]
    uris = [
        a.get_object()["/A"]["/URI"]
        for page in PdfReader(out).pages
        for a in page.get("/Annots") or []
        if "/URI" in a.get_object().get("/A", {})
    ]
    assert uris == []
    assert "Roll it live" not in "".join(p.extract_text() for p in PdfReader(out).pages)
    assert Path(out).stat().st_size > 10_000
