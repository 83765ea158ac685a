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
import logging
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from rollbook.hosts.derived_config import Derived, derive
from rollbook.markup.problems import LOG
from rollbook.sitewide.finish import FinishOptions, finish_site

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
    o = derived.options
    return FinishOptions(
        pyodide_path=o["pyodide_path"],
        pyodide_required=o["pyodide_required"],
        icepool=o["wheels_icepool"],
        snapshot=o["snapshot"],
        snapshot_cache=o["snapshot_cache"],
        gm_screen=o["gm_screen"],
        offline=o["offline"] and not serving,
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
        rollbook.sitewide.SitewideError: the site-wide step is missing something.
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


def _watch(derived: Derived, project: Path, stop: threading.Event, say: Callable[[str], None]):
    """Finish the site again whenever a rebuild took our files away (polls, 0.5 s)."""
    options = _options(derived, serving=True)
    gm = derived.site_dir / str(options.gm_screen or "").strip("/") / "index.html"
    while not stop.wait(0.5):
        manifest = derived.site_dir / MANIFEST
        if not (derived.site_dir / "index.html").is_file():
            continue  # mid-build
        if manifest.is_file() and (options.gm_screen is None or gm.is_file()):
            continue
        try:
            finish_site(derived.site_dir, project, options, info=say, warn=say)
        except Exception as err:  # a half-written folder: the next rebuild tries again
            say(f"could not finish the site yet ({type(err).__name__}: {err})")


def serve(config_file: Path, *, dev_addr: str | None, say: Callable[[str], None]) -> None:
    """Serve the site with Zensical, finishing it after every rebuild (until interrupted).

    Raises:
        ZensicalMissing: Zensical is not installed.
        rollbook.hosts.derived_config.ConfigProblem: the config cannot be read.
    """
    zensical = zensical_module()
    derived = derive(config_file)
    stop = threading.Event()
    watcher = threading.Thread(
        target=_watch,
        args=(derived, config_file.resolve().parent, stop, say),
        name="rollbook-finish",
        daemon=True,
    )
    watcher.start()
    try:
        options: dict[str, Any] = {"open": False, "strict": False}
        if dev_addr:
            options["dev_addr"] = dev_addr
        zensical.serve(str(derived.path.resolve()), options)
    finally:
        stop.set()
        derived.path.unlink(missing_ok=True)
