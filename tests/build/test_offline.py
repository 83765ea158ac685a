"""The offline service worker the build writes: its file list, its version, the off switch."""

from __future__ import annotations

import json
import re
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

from rollbook.offline.service_worker import WORKER_NAME
from tests.browser.offline_site import write_site


def built(folder: Path, *, serving: bool = False, **options: object) -> Path:
    """Build the offline fixture site in-process; `serving` plays `mkdocs serve`."""
    config = load_config(str(write_site(folder / "src", **options)), site_dir=str(folder / "site"))
    plugin = config.plugins["rollbook"]
    plugin.on_startup(command="serve" if serving else "build", dirty=False)
    build(config)
    return folder / "site"


def listing(site: Path) -> dict:
    text = (site / WORKER_NAME).read_text(encoding="utf-8")
    match = re.search(r"^const BUILD = (\{.*\});$", text, re.M)
    assert match, "the worker carries no file list"
    data: dict = json.loads(match.group(1))
    return data


def manifest(site: Path) -> dict:
    data: dict = json.loads((site / "assets/rollbook/manifest.json").read_text(encoding="utf-8"))
    return data


def test_worker_lists_every_file_with_its_kind_and_is_byte_identical(tmp_path):
    first = built(tmp_path / "a")
    second = built(tmp_path / "b")
    assert (first / WORKER_NAME).read_bytes() == (second / WORKER_NAME).read_bytes()
    data = listing(first)
    files = data["files"]
    on_disk = {p.relative_to(first).as_posix() for p in first.rglob("*") if p.is_file()}
    assert set(files) == on_disk - {WORKER_NAME}
    kinds = {path: entry["kind"] for path, entry in files.items()}
    assert kinds["index.html"] == kinds["lore/index.html"] == "page"
    assert kinds["search/search_index.json"] == kinds["sitemap.xml"] == kinds["404.html"] == "shell"
    assert kinds["assets/images/favicon.png"] == "shell"
    assert (
        kinds["assets/rollbook/rollbook.js"] == kinds["assets/rollbook/manifest.json"] == "engine"
    )
    # The Pyodide files as the site serves them (the big ones packed) are engine files, and
    # so is the decoder that unpacks them.
    folder = "assets/" + manifest(first)["pyodide"].removeprefix("../")
    for name in (
        "pyodide.asm.wasm.br",
        "pyodide.asm.mjs.br",
        "python_stdlib.zip.br",
        "pyodide.mjs",
    ):
        assert kinds[folder + name] == "engine", name
    for name in ("brotli_dec_wasm.js", "brotli_dec_wasm_bg.wasm.gz"):
        assert kinds["assets/rollbook/" + name] == "engine", name
    # The lock file is not read when the manifest carries its info; the snapshot is optional.
    assert kinds[folder + "pyodide-lock.json"] == "later"
    assert kinds["assets/rollbook/" + manifest(first)["snapshot"]] == "snapshot"
    assert kinds["sitemap.xml.gz"] == "later"
    size = (first / "index.html").stat().st_size
    assert files["index.html"]["size"] == size
    assert manifest(first)["offline"] == {"worker": f"../../{WORKER_NAME}"}


def test_a_changed_page_changes_the_version_and_only_its_own_hash(tmp_path):
    before = listing(built(tmp_path / "a"))
    after = listing(built(tmp_path / "b", home_text="Rewritten."))
    assert before["version"] != after["version"]
    changed = {
        p for p in before["files"] if before["files"][p]["hash"] != after["files"][p]["hash"]
    }
    # The page itself, and the search index and sitemap that hold its text.
    assert "index.html" in changed
    assert changed <= {"index.html", "search/search_index.json", "sitemap.xml", "sitemap.xml.gz"}


def test_offline_false_and_mkdocs_serve_write_the_worker_that_removes_itself(tmp_path):
    for site in (built(tmp_path / "off", offline=False), built(tmp_path / "serve", serving=True)):
        worker = (site / WORKER_NAME).read_text(encoding="utf-8")
        assert "BUILD" not in worker
        assert "unregister()" in worker and "caches.delete" in worker
        assert "fetch" not in worker  # no fetch handler: every request goes to the network
        assert manifest(site)["offline"] is False


def test_the_page_list_names_the_pages_with_rolls_and_nothing_else(tmp_path):
    site = built(tmp_path / "a")
    pages = json.loads((site / "assets/rollbook/pages.json").read_text(encoding="utf-8"))["pages"]
    assert pages == ["fights/index.html", "index.html", "lore/index.html", "tables/index.html"]
    # Listed by the worker like every asset of ours: cached when it installs.
    assert listing(site)["files"]["assets/rollbook/pages.json"]["kind"] == "engine"
