"""Everything a built site needs from rollbook, in order: one step for every generator.

The MkDocs plugin runs it after MkDocs wrote the pages (``on_post_build``); ``rollbook
assets SITE`` runs it after any other generator (Zensical, plain Python-Markdown), and
``rollbook build`` after its Zensical build. In order:

1. the engine and icepool wheels, Pyodide, our browser assets and the manifest;
2. the start-up snapshot (when asked for and one can be had);
0. for Zensical, which keeps unchanged pages as rendered before, the copies of other pages'
   tables brought up to date (:mod:`rollbook.sitewide.refs_refresh`);
3. the GM screen page, for generators that did not make it (the plugin makes it as a page);
4. last, the offline service worker, which lists (and hashes) every file written before it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rollbook.language import Catalogue
from rollbook.offline.service_worker import write_offline
from rollbook.site_runtime import runtime
from rollbook.site_runtime.build import SitewideError, build_site_assets
from rollbook.site_runtime.snapshot import SnapshotError, SnapshotUnavailable, add_snapshot
from rollbook.sitewide.gm_page import write_gm_page
from rollbook.sitewide.page_languages import with_page_languages
from rollbook.sitewide.refs_refresh import refresh_refs

__all__ = ["FinishOptions", "finish_site"]

MANIFEST = Path("assets", "rollbook", "manifest.json")


@dataclass(frozen=True)
class FinishOptions:
    """The site-wide settings (the plugin's options of the same names).

    Attributes:
        pyodide_path: A folder holding Pyodide (relative to the project), or None.
        pyodide_required: Without Pyodide, fail (True) or build a site without live dice.
        icepool: Serve icepool (exact odds in the browser).
        snapshot: Add the start-up snapshot.
        snapshot_cache: Where snapshots are kept by input hash (relative to the project).
        gm_screen: Where to write the GM screen page; None: the host made it (or no page).
        offline: Write the offline service worker (False: the one that removes itself).
        snapshot_off: How the host's author turns the snapshot off, for the hint.
        refs_docs: For hosts that keep pages rendered from an older build (Zensical): the
            docs folder as references name it (``docs``); the copies of referenced tables
            in the built pages are then written again from their own pages.
        directory_urls: The site's ``use_directory_urls`` (where a page's file is).
        worker: Write the offline worker at the end (False: the host calls
            ``write_offline`` itself once other tools are done with the site).
        catalogues: The reader's text in each language of the site, the default first
            (`rollbook.language`; none: English): ``strings.js`` and the GM page.
        page_languages: Add the catalogue of every other language a page marks for its
            scripts (hosts without the MkDocs plugin, whose pages may set ``language:``;
            `rollbook.sitewide.page_languages`), with the author's ``strings``.
        strings: The author's ``strings`` overrides, for those catalogues.
    """

    pyodide_path: str | None = None
    pyodide_required: bool = True
    icepool: bool = True
    snapshot: bool = True
    snapshot_cache: str = ".cache/rollbook/snapshots"
    gm_screen: str | None = None
    offline: bool = True
    snapshot_off: str = "`snapshot: false`"
    refs_docs: str | None = None
    directory_urls: bool = True
    worker: bool = True
    catalogues: Sequence[Catalogue] = ()
    page_languages: bool = False
    strings: Mapping[str, Any] | None = None


def finish_site(
    site_dir: str | Path,
    project_dir: Path,
    options: FinishOptions,
    *,
    info: Callable[[str], None],
    warn: Callable[[str], None],
) -> dict[str, Any]:
    """Do rollbook's site-wide work on a built site; return the manifest written.

    ``info`` hears sentences worth a line in the log (a step skipped, and why); ``warn``
    problems the author should fix that still leave a working site.

    Raises:
        SitewideError: something the site needs is missing (the message says what to do).
    """
    site = Path(site_dir)
    catalogues = list(options.catalogues)
    if options.page_languages:
        catalogues = with_page_languages(site, catalogues, options.strings)
    if options.refs_docs is not None:
        refresh_refs(site, options.refs_docs, directory_urls=options.directory_urls)
    pyodide: Path | None = None
    try:
        pyodide = runtime.find_pyodide(options.pyodide_path, project_dir=project_dir)
    except SitewideError as err:
        if options.pyodide_required:
            raise
        info(f"{err} (pyodide_required: false, so the site has no live dice)")
    cache = project_dir / options.snapshot_cache
    manifest = build_site_assets(
        site,
        pyodide,
        icepool=options.icepool,
        cache_dir=cache.parent / "pyodide",
        report=lambda sentence: info(f"{sentence}."),
        catalogues=catalogues,
    )
    if options.snapshot and pyodide is not None:
        try:
            manifest["snapshot"] = add_snapshot(
                site / MANIFEST, cache_dir=cache, bundled_dir=runtime.BUNDLED_SNAPSHOTS
            )
        except SnapshotUnavailable as err:  # no node: the site only starts slower
            info(f"{err} {options.snapshot_off} skips this step.")
        except SnapshotError as err:
            warn(str(err))
    if options.gm_screen is not None:
        try:
            write_gm_page(site, options.gm_screen, *catalogues[:1])
        except ValueError as err:
            raise SitewideError(str(err)) from None
    if options.worker:
        write_offline(site, enabled=options.offline)
    return manifest
