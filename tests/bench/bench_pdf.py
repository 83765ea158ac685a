"""The PDF book (``rollbook pdf``): the demo's, and a generated 500-page site's, each against
the plain site build of the same pages in the same run (``mkdocs build`` with rollbook)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from tests.bench.bench_build import CACHE, _build, generate_pages, write_config
from tests.bench.harness import REPO, Row

__all__ = ["main"]

BOOK_PAGES = int(os.environ.get("BENCH_PDF_PAGES", "500"))
DEMO_TARGET_S = 10.0  # "a few seconds"
SITE_TARGET_S = 60.0


def _pdf(config: Path, out: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``rollbook pdf`` run (its own process, as an author runs it;
    CPU counts Typst's threads, and not other jobs on a shared machine)."""
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1767225600", "NO_MKDOCS_2_WARNING": "1"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "pdf", "--config", str(config), "-o", str(out)],
        cwd=config.parent, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError((done.stderr.strip().splitlines() or ["no output"])[-1])
    return elapsed, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> list[Row]:
    """Two rows: the demo's book and the generated site's book, each with its site build."""
    try:
        from rollbook.pdf import available
    except ImportError as error:
        return [Row("PDF book", na=f"rollbook.pdf is not there ({error})")]
    if not available():
        return [Row("PDF book", na='the pdf extra is not installed (pip install "rollbook[pdf]")')]
    work = CACHE / "pdf"
    work.mkdir(parents=True, exist_ok=True)
    rows = []
    try:
        demo_pdf, demo_pdf_cpu = _pdf(REPO / "mkdocs.yml", work / "demo.pdf")
        demo_site, demo_site_cpu = _build(REPO / "mkdocs.yml", work / "demo-site")
    except RuntimeError as error:
        return [Row("PDF: demo book", na=str(error))]
    rows.append(Row(
        "PDF: demo book (rollbook pdf)", value=demo_pdf, baseline=demo_site, unit="s",
        target=f"<= {DEMO_TARGET_S:.0f} s", ok=demo_pdf <= DEMO_TARGET_S,
        baseline_label="mkdocs build of the demo",
        note=f"{(work / 'demo.pdf').stat().st_size // 1024} KB; CPU {demo_pdf_cpu:.1f} s "
        f"against {demo_site_cpu:.1f} s",
    ))  # fmt: skip
    docs = work / "docs"
    generate_pages(docs, BOOK_PAGES)
    config = work / "with.yml"
    write_config(config, docs, rollbook=True)
    try:
        book, book_cpu = _pdf(config, work / "generated.pdf")
        site, site_cpu = _build(config, work / "generated-site")
    except RuntimeError as error:
        return [*rows, Row(f"PDF: {BOOK_PAGES}-page site", na=str(error))]
    rows.append(Row(
        f"PDF: {BOOK_PAGES}-page site (rollbook pdf)", value=book, baseline=site, unit="s",
        target=f"<= {SITE_TARGET_S:.0f} s", ok=book <= SITE_TARGET_S,
        baseline_label=f"mkdocs build of the same {BOOK_PAGES} pages",
        note=f"{(work / 'generated.pdf').stat().st_size // 1024} KB; CPU {book_cpu:.1f} s "
        f"against {site_cpu:.1f} s",
    ))  # fmt: skip
    return rows


if __name__ == "__main__":
    for row in main():
        print(row)
