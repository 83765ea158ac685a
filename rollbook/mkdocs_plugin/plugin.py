"""The ``rollbook`` MkDocs plugin: puts the run-time files into the site, reports author errors.

Markup -> HTML happens in the Markdown extensions (``rollbook.markup``); this plugin only
1. adds our ES module and stylesheet to every page, and the ``rollbook`` Markdown extension
   with our superfences fences when mkdocs.yml lacks them (``on_config``; zero-config);
   pages with dice start the engine from their head (``on_post_page``: ``early_start``),
2. tells the extensions which page they convert and where its front matter ended, then logs
   the problems they found as ``docs/page.md:LINE: message`` warnings (so ``--strict`` fails),
3. writes the engine and icepool wheels, Pyodide, our assets, the manifest and a Pyodide
   memory snapshot with the engine imported (``on_post_build``, shared with
   ``rollbook assets``), and last the offline worker;
4. with ``pdf:``, typesets the built pages into a PDF book in the site and links it from the
   home page (``rollbook.pdf.plugin_steps``);
5. keeps out of other plugins' way (``coexist.py``, ``gm_screen.py``): the GM page is an
   ordinary page to them, references resolve per language, pages other plugins write get
   their references too, and each step runs where the others expect it.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import Any

from mkdocs.config.config_options import ExtraScriptValue
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, CombinedEvent, event_priority
from mkdocs.structure.files import Files
from mkdocs.structure.nav import Navigation
from mkdocs.structure.pages import Page

from rollbook.language import Catalogue, catalogue, resolve
from rollbook.markup.extension import SHARED_OPTIONS, unknown_options_problem
from rollbook.markup.frontmatter import guard_front_matter
from rollbook.markup.line_map import LineMap
from rollbook.markup.page_state import FEATURES, lit_up, page_features
from rollbook.markup.pagefile import page_too_big
from rollbook.markup.problems import PageContext, set_context, set_host
from rollbook.markup.refs import Site, holds_marks
from rollbook.markup.search_view import SearchView, for_search
from rollbook.mkdocs_plugin.build_date import pin_build_date
from rollbook.mkdocs_plugin.coexist import (
    FILE_NOTICE,
    GM_OFF_META,
    building_more_languages,
    check_plugin_order,
    fill_written_pages,
    material_search_parses,
    protect_placeholders,
    restore_minified_names,
)
from rollbook.mkdocs_plugin.config import RollbookConfig
from rollbook.mkdocs_plugin.early_start import fill_early_wasm, with_early_start
from rollbook.mkdocs_plugin.gm_screen import (
    add_gm_page,
    date_gm_page,
    gm_page,
    is_gm_source,
    list_in_nav,
    nav_with_gm_page,
    restore_gm_content,
)
from rollbook.mkdocs_plugin.markdown_setup import (
    EXTENSION_NAMES,
    add_rollbook_markdown,
    has_extension,
)
from rollbook.mkdocs_plugin.site_language import (
    mark_page_language,
    page_language,
    site_language,
    site_strings,
)
from rollbook.mkdocs_plugin.written import WrittenPages
from rollbook.offline.service_worker import write_offline
from rollbook.pdf.errors import PdfError
from rollbook.pdf.plugin_steps import add_link, check_setup, write_book
from rollbook.site_runtime import SitewideError
from rollbook.site_runtime.build import early_wasm
from rollbook.site_runtime.strings import languages_written
from rollbook.sitewide.finish import FinishOptions, finish_site

__all__ = ["RollbookPlugin", "front_matter_lines"]

log = logging.getLogger("mkdocs.plugins.rollbook")


def front_matter_lines(content: str, markdown: str) -> int:
    """How many source lines MkDocs removed before ``markdown`` (its front matter)."""
    content = content.replace("\r\n", "\n")
    markdown = markdown.replace("\r\n", "\n")
    if markdown and content.endswith(markdown):
        return content[: len(content) - len(markdown)].count("\n")
    return 0


class RollbookPlugin(BasePlugin[RollbookConfig]):
    """Site-wide work for rollbook sites (see the module docstring)."""

    supports_multiple_instances = False

    def __init__(self) -> None:
        self.problem_count = 0
        self._page: PageContext | None = None
        self._docs_prefix = "docs"
        self._serving = False  # `mkdocs serve`: no offline caching, live reload stays live
        self._site = Site(complete=True)  # every page's tables, for tables that roll others
        self._sources: dict[str, str] = {}  # page -> its Markdown as rollbook first saw it
        self._lit: dict[str, int] = {}
        self._language = "en"  # the site's (rollbook.mkdocs_plugin.site_language)
        self._strings: dict[str, Any] = {}
        self._languages: set[str] = set()  # every page's, for the page's catalogues
        self._nav: Navigation | None = None  # the PDF book follows it
        self._written = WrittenPages()  # pages post_build need not read again
        self._marks = True  # whether written pages may hold references to fill (on_env)
        self._search_parses = False  # Material's search indexes the pages (on_config)
        self._search_view: SearchView | None = None  # the page search is reading now
        self._early: list[Path] = []  # pages whose head starts the engine (early_start)
        self._early_wasm: str | None = None  # where their WebAssembly is, once known

    # -- state ----------------------------------------------------------------------------
    def on_startup(self, *, command: str, dirty: bool) -> None:
        """MkDocs event: remember whether this is ``mkdocs serve``; start afresh."""
        self._serving = command == "serve"
        self._reset()

    def on_pre_build(self, *, config: MkDocsConfig) -> None:
        """MkDocs event: start each build afresh (``serve`` rebuilds reuse the plugin)."""
        self._reset()  # `mkdocs serve` rebuilds reuse this instance

    def _reset(self) -> None:
        self.problem_count = 0
        self._page = None
        self._site = Site(complete=True)
        self._sources = {}
        self._lit = {}  # what the pages lit up by default (lit_up)
        self._nav = None
        self._written = WrittenPages()
        self._marks = True
        self._early = []
        self._early_wasm = None
        set_context(None)
        set_host(None)

    # -- config ---------------------------------------------------------------------------
    def on_config(self, config: MkDocsConfig) -> MkDocsConfig | None:
        """MkDocs event: wire the extensions, script and stylesheet into the config."""
        if not self.config.enabled:
            return None
        docs = os.path.relpath(config.docs_dir, os.path.dirname(config.config_file_path or "."))
        if docs.startswith(".."):  # docs outside the project: its own name reads best
            docs = os.path.basename(os.path.normpath(config.docs_dir))
        self._docs_prefix = docs.replace(os.sep, "/")
        if self.config.reproducible_date:
            pin_build_date(config.docs_dir)
        pdf_problem = check_setup(dict(self.config))
        if pdf_problem:
            raise PluginError(f"rollbook: {pdf_problem}")
        self._configure_markdown(config)
        self._language = site_language(self.config.language, config)
        self._strings = site_strings(self.config.strings, config)
        self._languages = {self._language}
        script = self.config.assets_javascript
        if not any(str(s) == script for s in config.extra_javascript):
            entry = ExtraScriptValue(script)
            entry.type = "module"
            config.extra_javascript.append(entry)
        notice = self.config.assets_javascript.rsplit("/", 1)[0] + "/" + FILE_NOTICE
        if not any(str(s) == notice for s in config.extra_javascript):
            classic = ExtraScriptValue(notice)
            classic.defer = True
            config.extra_javascript.append(classic)
        if self.config.assets_stylesheet not in config.extra_css:
            config.extra_css.append(self.config.assets_stylesheet)
        list_in_nav(config.nav, self.config.gm_screen, self._text()("gm.title"))
        check_plugin_order(config)
        self._search_parses = material_search_parses(config)
        return config

    def _gm_source(self, page: Page, config: MkDocsConfig) -> str | None:
        """The GM screen's Markdown in the page's language, if ``page`` is that screen.

        The generated screen or a plugin's copy of it (one per language under
        mkdocs-static-i18n).
        """
        if not is_gm_source(page.file, config, self.config.gm_screen):
            return None
        return gm_page(self._text(page_language(page, self._site_language(config))))

    def _catalogues(self, config: MkDocsConfig) -> list[Catalogue]:
        """The page catalogues of every language built into this site, the default first.

        mkdocs-static-i18n builds each language in a pass of its own into the same folder,
        so earlier passes' languages are kept.
        """
        ours = Path(config.site_dir, "assets", "rollbook")
        names = self._languages | set(languages_written(ours))
        i18n = config.plugins.get("i18n")
        default = resolve(getattr(i18n, "default_language", None) or self._site_language(config))
        chosen = [default, *sorted({resolve(name) for name in names} - {default})]
        return [self._text(name) for name in chosen]

    def _site_language(self, config: MkDocsConfig) -> str:
        """The language of the pages being built now.

        mkdocs-static-i18n sets the theme's to each language in turn after `on_config`.
        """
        return site_language(self.config.language, config)

    def _text(self, language: str | None = None) -> Catalogue:
        return catalogue(language or self._language, self._strings)

    def _add_gm_page(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        """MkDocs event: add the GM screen page."""
        if self.config.enabled:
            add_gm_page(files, config, self.config.gm_screen, self._text())
            date_gm_page(files, config)
        return files

    # After plugins that rebuild the file list (mkdocs-static-i18n, priority -100).
    @event_priority(-110)
    def _restore_gm_page(self, files: Files, *, config: MkDocsConfig) -> Files | None:
        if self.config.enabled:
            restore_gm_content(files, config, self.config.gm_screen, self._text())
            date_gm_page(files, config)
        return files

    on_files = CombinedEvent(_add_gm_page, _restore_gm_page)

    # After plugins that build the navigation themselves (awesome-nav, priority 100).
    @event_priority(-50)
    def on_nav(self, nav: Navigation, *, config: MkDocsConfig, files: Files) -> Navigation | None:
        """MkDocs event: list the GM page where a plugin built the nav; keep the nav.

        The PDF book follows the navigation's order.
        """
        if self.config.enabled:
            nav_with_gm_page(nav, files, config, self._text()("gm.title"))
        self._nav = nav
        return nav

    def _configure_markdown(self, config: MkDocsConfig) -> None:
        for name in EXTENSION_NAMES:  # options put under the extension that it does not have
            options = config.mdx_configs.get(name) or {}
            problem = unknown_options_problem(
                sorted(set(options) - {"presets", *FEATURES} - SHARED_OPTIONS)
            )
            if problem:
                raise PluginError(f"rollbook: {problem}")
        if self.config.configure_markdown:
            added = add_rollbook_markdown(config.markdown_extensions, config.mdx_configs)
            if added:
                log.debug("rollbook: added %s", ", ".join(added))
        elif not has_extension(config.markdown_extensions):
            log.warning(
                "rollbook: the plugin's `configure_markdown: false` leaves out the `rollbook` "
                "Markdown extension, so rolls render as broken images: add `- rollbook` under "
                "`markdown_extensions`, or drop `configure_markdown: false`."
            )

    # -- pages ----------------------------------------------------------------------------
    # MkDocs parses front matter itself, right after this event: one over the YAML limits
    # is reported here and replaced by an empty one (same lines) before it is parsed.
    def on_page_read_source(self, *, page: Page, config: MkDocsConfig) -> str | None:
        """MkDocs event: read the page, with a page:line message for what cannot be read."""
        if not self.config.enabled:
            return None
        generated = self._gm_source(page, config)
        if generated is not None:
            return generated
        try:
            content = page.file.content_string
        except (OSError, ValueError):  # MkDocs reads it next and reports it its own way
            return None
        too_big = page_too_big(len(content.encode("utf-8")))
        if too_big:  # `rollbook check` refuses to convert it; the build says so as well
            self.problem_count += 1
            log.warning(f"{self._docs_prefix}/{page.file.src_uri}:1: {too_big}")
        found = guard_front_matter(content)
        if found is None:
            return None
        source, problem = found
        self.problem_count += 1
        log.warning(f"{self._docs_prefix}/{page.file.src_uri}:{problem.line}: {problem.message}")
        return source

    # First, before other plugins rewrite the Markdown: the line offset must be measured
    # against what the author wrote.
    @event_priority(100)
    def _first_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """MkDocs event: open the page's context (its path and front-matter offset)."""
        if not self.config.enabled:
            return None
        source = self._gm_source(page, config)
        offset = front_matter_lines(source or page.file.content_string, markdown)
        language = page_language(page, self._site_language(config))
        self._languages.add(language)
        self._page = PageContext(
            src_path=f"{self._docs_prefix}/{page.file.src_uri}",
            line_offset=offset,
            presets=dict(self.config.presets),
            language=language,
            strings=self._strings,
            features={
                **{n: bool(self.config[n]) for n in FEATURES if self.config[n] is not None},
                **page_features(page.meta),  # the page's own front matter wins
            },
        )
        set_context(self._page)
        markdown = protect_placeholders(markdown, page, config)
        self._sources[page.file.src_uri] = markdown
        return markdown

    # Last: plugins that rewrote the Markdown (mkdocs-macros) moved lines; problems are
    # reported at the author's lines all the same.
    @event_priority(-1000)
    def _last_markdown(
        self, markdown: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        source = self._sources.pop(page.file.src_uri, None)
        if self._page is not None and source is not None and source != markdown:
            self._page.line_map = LineMap(source, markdown)
        return None

    on_page_markdown = CombinedEvent(_first_markdown, _last_markdown)

    # First as well: report before any other plugin could fail on the same page.
    @event_priority(100)
    def on_page_content(
        self, html: str, *, page: Page, config: MkDocsConfig, files: Files
    ) -> str | None:
        """MkDocs event: close the page's context and keep its problems and tables."""
        ctx, self._page = self._page, None
        set_context(None)
        if ctx is None:
            return None
        for problem in sorted(ctx.problems):
            if problem.severity == "info":  # what was left alone and why: never --strict
                log.info(ctx.format(problem))
                continue
            self.problem_count += 1
            log.warning(ctx.format(problem))
        for name, count in ctx.counts.items():
            self._lit[name] = self._lit.get(name, 0) + count
        if page.present_anchor_ids is not None:  # so links to `page.md#table-id` validate
            page.present_anchor_ids |= ctx.anchor_ids
        self._site.add(
            ctx.src_path, ctx.line_offset, ctx.tables, ctx.dice_refs, line_map=ctx.line_map
        )
        # The page's language for its scripts, inside the content that Material's instant
        # navigation swaps in (it keeps the first page's <html lang>).
        html = f'{html}\n<div hidden data-rb-lang="{ctx.language or self._language}"></div>'
        if self.config.pdf and page.is_homepage and not self._serving:
            return add_link(html, self.config.pdf)
        return html

    # Every page is converted before any is written: tables that roll tables of other
    # pages get those tables' payloads now (rollbook.markup.refs).
    def on_env(self, env: Any, *, config: MkDocsConfig, files: Files) -> Any:
        """MkDocs event: report the site's problems (strict builds fail on them)."""
        if not self.config.enabled:
            return None
        for problem in self._site.problems():
            self.problem_count += 1
            log.warning(f"{problem.page}:{problem.line}: {problem.message}")
        log.info("rollbook: %s.", lit_up(self._lit))
        for file in files.documentation_pages():
            page = file.page
            if page is not None and page.content:
                page.content = self._site.fill(page.content)
        # No page rolls a table by reference (most sites): no written page, excerpts
        # included, holds a mark to fill, and post_page need not look for one in 300 KB.
        self._marks = self._site.rolls_references()
        # Pages converted again from now on (a blog's excerpts) were reported already; their
        # references are filled in the written page.
        set_host(self._docs_prefix)
        return None

    # Around Material's search (priority 0), which parses every page's HTML to index it:
    # it reads our widgets as the text it would index of them, a third of the time.
    @event_priority(1)
    def _page_for_search(
        self, context: Any, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> Any:
        if self._search_parses and page.content:  # set by on_config only when enabled
            self._search_view = for_search(page.content)
            page.content = self._search_view.html
        return None

    @event_priority(-1)
    def _widgets_back(
        self, context: Any, *, page: Page, config: MkDocsConfig, nav: Navigation
    ) -> Any:
        view, self._search_view = self._search_view, None
        if view is not None and page.content:
            page.content = view.back(page.content)
        return None

    on_page_context = CombinedEvent(_page_for_search, _widgets_back)

    # Before minify (which cannot parse our marks' JSON) and other writers of the page.
    @event_priority(100)
    def _finish_page(self, output: str, *, page: Page, config: MkDocsConfig) -> str | None:
        """MkDocs event: finish the written page.

        Fills references left in it (excerpts), says when the site has no GM screen, starts
        the engine from the head of a page with dice (``early_start``), and marks a page
        whose own language (front matter ``language:``) differs from the site's.
        """
        if not self.config.enabled:
            return None
        if self._marks and holds_marks(output):
            output = self._site.fill(output)
        if not self.config.gm_screen.strip("/ ") and "</head>" in output:
            output = output.replace("</head>", f"{GM_OFF_META}</head>", 1)
        started = with_early_start(
            output, page.url, self.config.assets_javascript, content=page.content
        )
        if started is not output:
            self._early.append(Path(page.file.abs_dest_path))
        output = started
        language = page_language(page, self._site_language(config))
        if language != self._site_language(config):  # else the theme already wrote it
            output = mark_page_language(output, language, self._text(language).rtl)
        return output

    # Last: the page as MkDocs writes it, after every other plugin's post_page.
    @event_priority(-1000)
    def _page_written(self, output: str, *, page: Page, config: MkDocsConfig) -> str | None:
        if self.config.enabled and self._marks:  # else no page holds a mark to fill
            self._written.finished(page.file.abs_dest_path, output, marked=holds_marks(output))
        return None

    on_post_page = CombinedEvent(_finish_page, _page_written)

    # -- site -----------------------------------------------------------------------------
    # First of all: MkDocs has written the last page; note its file before anyone changes it.
    @event_priority(100)
    def _pages_written(self, *, config: MkDocsConfig) -> None:
        self._written.settle()

    # Early: plugins that rework files at post_build (minify's `js_files`, priority 0) find
    # ours there, in every language's build under mkdocs-static-i18n too.
    @event_priority(50)
    def _write_assets(self, *, config: MkDocsConfig) -> None:
        """MkDocs event: write the site's run-time files and snapshot (and the PDF book)."""
        set_context(None)
        if not self.config.enabled:
            return
        if self.config.pdf:  # before the offline worker, which lists (and hashes) every file
            self._write_pdf(config)
        options = FinishOptions(
            pyodide_path=self.config.pyodide_path,
            pyodide_required=self.config.pyodide_required,
            icepool=self.config.wheels_icepool,
            snapshot=self.config.snapshot,
            snapshot_cache=self.config.snapshot_cache,
            gm_screen=None,  # a page of the site already (on_files)
            offline=self.config.offline and not self._serving,
            worker=False,  # written last (_write_worker)
            catalogues=self._catalogues(config),
        )
        try:
            manifest = finish_site(
                config.site_dir,
                Path(os.path.dirname(config.config_file_path or ".")),
                options,
                info=lambda sentence: log.info("rollbook: %s", sentence),
                warn=lambda sentence: log.warning("rollbook: %s", sentence),
            )
        except SitewideError as err:
            raise PluginError(f"rollbook: {err}") from None
        self._early_wasm = early_wasm(manifest)

    # After plugins that write pages of their own at post_build (print-site, priority 0),
    # before mkdocs-static-i18n builds the next language (-100).
    @event_priority(-90)
    def _fill_written(self, *, config: MkDocsConfig) -> None:
        if self.config.enabled:
            if self._marks:  # no page rolls a table by reference: no written page holds a mark
                fill_written_pages(config.site_dir, self._site, self._written.untouched)
            if self._early_wasm is not None:  # the heads' WebAssembly, now that it has a folder
                fill_early_wasm(self._early, self._early_wasm)
            restore_minified_names(config.site_dir)

    # Last of all, once per site: the offline worker lists (and hashes) every file written
    # before it, every language's pages and what other plugins rewrote (minify) included.
    @event_priority(-110)
    def _write_worker(self, *, config: MkDocsConfig) -> None:
        set_context(None)
        set_host(None)
        if not self.config.enabled or building_more_languages(config):
            return
        write_offline(config.site_dir, enabled=self.config.offline and not self._serving)

    on_post_build = CombinedEvent(_pages_written, _write_assets, _fill_written, _write_worker)

    def _write_pdf(self, config: MkDocsConfig) -> None:
        if self._serving:  # seconds per reload; `rollbook pdf` makes it on demand
            log.info("rollbook: the PDF book is not made under `mkdocs serve`; run `rollbook pdf`.")
            return
        if self._nav is None:
            return
        try:
            write_book(config, self._nav, dict(self.config), log)
        except PdfError as err:
            raise PluginError(f"rollbook: {err}") from None

    def on_build_error(self, *, error: Exception) -> None:
        """MkDocs event: drop the page context of a failed build."""
        set_context(None)
        set_host(None)
