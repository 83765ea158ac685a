"""``rollbook build`` / ``rollbook serve`` for Zensical, through its public Python API.

Zensical (Material's successor) runs Python-Markdown extensions but no MkDocs plugin. These
commands give an author the same site the plugin gives on MkDocs, with one command:

1. :func:`rollbook.hosts.derived_config.derive` writes the config with rollbook added;
2. ``zensical.build`` / ``zensical.serve`` (the module's public functions) build it, while
   the author problems our extension reports (``docs/page.md:LINE: message``) are counted;
3. :func:`rollbook.sitewide.finish.finish_site` adds the engine, Pyodide, the GM screen and
   the offline worker; ``serve`` does it again after each rebuild, which empties the folder.

With ``strict`` the build fails (exit 1) when the pages had author problems: Zensical's own
``--strict`` counts only its own.
"""

from __future__ import annotations

import contextlib
import json
import logging
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rollbook.hosts.derived_config import Derived, derive
from rollbook.markup.problems import LOG
from rollbook.sitewide.finish import FinishOptions, finish_site
from rollbook.sitewide.refs_refresh import refresh_refs

__all__ = ["ZensicalMissing", "build", "serve", "zensical_module"]

MANIFEST = Path("assets", "rollbook", "manifest.json")


class ZensicalMissing(RuntimeError):
    """Zensical is not installed; the message says how to install it."""


def zensical_module() -> Any:
    """The installed ``zensical`` module.

    Raises:
        ZensicalMissing: it is not installed.
    """
    try:
        import zensical
    except ImportError:
        raise ZensicalMissing(
            "`rollbook build` and `rollbook serve` run Zensical, which is not installed: "
            "`pip install zensical` (for MkDocs sites, run `mkdocs build` as before)."
        ) from None
    return zensical


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextlib.contextmanager
def _author_problems() -> Iterator[list[str]]:
    """The warnings the extension logs while the block runs (it logs them, Zensical prints)."""
    handler = _Collect()
    LOG.addHandler(handler)
    try:
        yield handler.messages
    finally:
        LOG.removeHandler(handler)


def _options(derived: Derived, *, serving: bool) -> FinishOptions:
    from rollbook.language import catalogue

    o = derived.options
    return FinishOptions(
        pyodide_path=o["pyodide_path"],
        pyodide_required=o["pyodide_required"],
        icepool=o["wheels_icepool"],
        snapshot=o["snapshot"],
        snapshot_cache=o["snapshot_cache"],
        gm_screen=o["gm_screen"],
        offline=o["offline"] and not serving,
        refs_docs=derived.docs_prefix,
        directory_urls=derived.directory_urls,
        catalogues=[catalogue(derived.language, derived.strings)],
        page_languages=True,
        strings=derived.strings,
    )


def build(
    config_file: Path,
    *,
    strict: bool,
    info: Callable[[str], None],
    warn: Callable[[str], None],
) -> list[str]:
    """Build the site with Zensical and finish it; return the author problems found.

    Raises:
        ZensicalMissing: Zensical is not installed.
        rollbook.hosts.derived_config.ConfigProblem: the config cannot be read.
        rollbook.site_runtime.SitewideError: the site-wide step is missing something.
    """
    zensical = zensical_module()
    derived = derive(config_file)
    try:
        with _author_problems() as problems:
            zensical.build(str(derived.path.resolve()), {"clean": True, "strict": strict})
    finally:
        derived.path.unlink(missing_ok=True)
    if derived.options["enabled"]:
        finish_site(
            derived.site_dir,
            config_file.resolve().parent,
            _options(derived, serving=False),
            info=info,
            warn=warn,
        )
    return list(problems)


def _newest_page(site: Path) -> int:
    return max((p.stat().st_mtime_ns for p in site.rglob("*.html") if p.is_file()), default=0)


def _watch(derived: Derived, project: Path, stop: threading.Event, say: Callable[[str], None]):
    """After each rebuild, finish the site again (polls once a second).

    A rebuild that emptied the folder gets the whole step; one that rewrote pages gets the
    copies of referenced tables brought up to date (the pages Zensical kept may hold old
    ones).
    """
    options = _options(derived, serving=True)
    site = derived.site_dir
    seen = -1
    while not stop.wait(1.0):
        if not (site / "index.html").is_file():
            continue  # mid-build
        try:
            newest = _newest_page(site)
            if not (site / MANIFEST).is_file():
                finish_site(site, project, options, info=say, warn=say)
            elif newest != seen and options.refs_docs is not None:
                refresh_refs(site, options.refs_docs, directory_urls=options.directory_urls)
            else:
                continue
            seen = _newest_page(site)  # our own writes are not a rebuild
        except Exception as err:  # a half-written folder: the next pass tries again
            say(f"could not finish the site yet ({type(err).__name__}: {err})")


#: The child that serves: Zensical ends its own process on Ctrl-C, so it runs apart and
#: this process stays to stop the finishing thread and remove the derived config.
_SERVE_CHILD = "import json, sys, zensical; zensical.serve(sys.argv[1], json.loads(sys.argv[2]))"


def serve(config_file: Path, *, dev_addr: str | None, say: Callable[[str], None]) -> int:
    """Serve the site with Zensical, finishing it after every rebuild; its exit status.

    Raises:
        ZensicalMissing: Zensical is not installed.
        rollbook.hosts.derived_config.ConfigProblem: the config cannot be read.
    """
    zensical_module()
    derived = derive(config_file)
    stop = threading.Event()
    watcher = threading.Thread(
        target=_watch,
        args=(derived, config_file.resolve().parent, stop, say),
        name="rollbook-finish",
        daemon=True,
    )
    options: dict[str, Any] = {"open": False, "strict": False}
    if dev_addr:
        options["dev_addr"] = dev_addr
    child = subprocess.Popen(
        [sys.executable, "-c", _SERVE_CHILD, str(derived.path.resolve()), json.dumps(options)]
    )
    previous = signal.signal(signal.SIGTERM, _interrupt)
    watcher.start()
    try:
        return child.wait()
    except KeyboardInterrupt:  # Ctrl-C reached the child too; SIGTERM is passed on
        child.terminate()
        return child.wait()
    finally:
        signal.signal(signal.SIGTERM, previous)
        stop.set()
        derived.path.unlink(missing_ok=True)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt
