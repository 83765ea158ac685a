"""What the plugin does so that other MkDocs plugins beside it change nothing.

Each function answers one neighbour: mkdocs-static-i18n (a build per language),
print-site (must be the last plugin; its page is written at post_build), mkdocs-macros
(Jinja over the Markdown before rollbook reads it), Material's search (which parses every
page's HTML) and ``gm_screen: ""`` (no pin controls).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig

from rollbook.markup.prescan import FENCE_NAMES
from rollbook.markup.refs import MARKS_START, Site, holds_marks

__all__ = [
    "FILE_NOTICE",
    "GM_OFF_META",
    "building_more_languages",
    "check_plugin_order",
    "fill_written_pages",
    "material_search_parses",
    "protect_placeholders",
    "restore_minified_names",
]

log = logging.getLogger("mkdocs.plugins.rollbook")

#: The classic script (beside the entry module) that explains a page opened as a file.
FILE_NOTICE = "file-notice.js"

#: Put in every page's head when the site has no GM screen: the scripts offer no pins.
GM_OFF_META = '<meta name="rollbook-gm-screen" content="off">'

_FENCE_OPEN = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*\{?[ \t]*\.?(?P<name>[\w-]+)"
)


def building_more_languages(config: MkDocsConfig) -> bool:
    """Whether mkdocs-static-i18n is building another language inside this build.

    The outermost build writes the offline worker once all languages are in.
    """
    i18n = config.plugins.get("i18n")
    return bool(getattr(i18n, "building", False))


def check_plugin_order(config: MkDocsConfig) -> None:
    """Say in one sentence when the plugins' order needs changing (print-site last)."""
    names = list(config.plugins)
    if "print-site" in names and "rollbook" in names[names.index("print-site") :]:
        log.warning(
            "rollbook: list `rollbook` above `print-site` under `plugins` in mkdocs.yml: "
            "print-site must be the last plugin to print every page as rollbook renders it."
        )


def material_search_parses(config: MkDocsConfig) -> bool:
    """Whether Material's search plugin indexes this build's pages.

    It parses each page's HTML at ``page_context`` (priority 0); the plugin then hands it
    the page as ``rollbook.markup.search_view`` reduces it, and puts the widgets back after.
    """
    return any(
        type(plugin).__module__.startswith("material.plugins.search")
        and getattr(plugin.config, "enabled", True)
        for plugin in config.plugins.values()
    )


def fill_written_pages(
    site_dir: str, site: Site, untouched: Callable[[Path], bool] | None = None
) -> int:
    """Fill the table references of pages other plugins wrote themselves; return how many.

    print-site's page is made of every page's HTML before references were filled.
    ``untouched`` names the pages known to hold none (``written.WrittenPages``): they are
    not read.
    """
    count = 0
    start = MARKS_START.encode("ascii")
    for path in sorted(Path(site_dir).rglob("*.html")):
        if untouched is not None and untouched(path):
            continue
        try:
            data = path.read_bytes()
            if start not in data:
                continue
            text = data.decode("utf-8")
        except (OSError, ValueError):
            continue
        if not holds_marks(text):
            continue
        path.write_text(site.fill(text), encoding="utf-8")
        count += 1
    return count


_MINIFIED = re.compile(r"^(?P<stem>.+?)(?:\.[0-9a-f]{6,})?\.min\.(?P<ext>js|mjs|css)$")


def restore_minified_names(site_dir: str) -> list[str]:
    """Give our assets their names back where mkdocs-minify renamed them (``js_files``).

    Minify writes ``table.min.js`` (or ``table.HASH.min.js``) for ``table.js`` and points
    the pages at it, but our modules import each other by name: the minified file is put
    back under the name the imports use. Returns the names restored.
    """
    ours = Path(site_dir, "assets", "rollbook")
    try:
        listed = set(json.loads((ours / "manifest.json").read_text(encoding="utf-8"))["assets"])
    except (OSError, ValueError, KeyError, TypeError):
        return []
    restored = []
    for path in sorted(ours.iterdir()):
        found = _MINIFIED.match(path.name)
        if not found:
            continue
        name = f"{found['stem']}.{found['ext']}"
        if name in listed and not (ours / name).exists():
            (ours / name).write_bytes(path.read_bytes())
            restored.append(name)
    return restored


def _macros(config: MkDocsConfig) -> Any:
    plugin = config.plugins.get("macros")
    return plugin if getattr(plugin, "env", None) is not None else None


def _macros_renders(plugin: Any, page: Any) -> bool:
    meta = getattr(page, "meta", None) or {}
    if "render_macros" in meta:
        return bool(meta["render_macros"])
    by_default = bool(plugin.config.get("render_by_default", True))
    force = getattr(plugin, "force_page_rendering", None)
    if not by_default and callable(force):
        return bool(force(page.file.src_path))
    return by_default


def protect_placeholders(markdown: str, page: Any, config: MkDocsConfig) -> str:
    """Keep rollbook's ``{{ name }}`` placeholders away from mkdocs-macros' Jinja.

    Inside rollbook's fences, a ``{{ name }}`` that is not one of macros' variables is
    wrapped in Jinja's ``raw`` (same line, so no line moves), so ``on_undefined: strict``
    does not fail on it and the default keeps it as written; macros' own variables there
    are still rendered.
    """
    plugin = _macros(config)
    if plugin is None or not _macros_renders(plugin, page):
        return markdown
    env = plugin.env
    start, end = env.variable_start_string, env.variable_end_string
    raw_open = f"{env.block_start_string} raw {env.block_end_string}"
    raw_close = f"{env.block_start_string} endraw {env.block_end_string}"
    known = set(getattr(plugin, "variables", None) or {})
    placeholder = re.compile(re.escape(start) + r"\s*([A-Za-z_][\w.]*)\s*" + re.escape(end))

    def wrap(match: re.Match[str]) -> str:
        name = match[1]
        if name.split(".")[0] in known:
            return match[0]
        return f"{raw_open}{match[0]}{raw_close}"

    out: list[str] = []
    fence: str | None = None
    for line in markdown.split("\n"):
        if fence is None:
            opened = _FENCE_OPEN.match(line)
            if opened and opened["name"].lower() in FENCE_NAMES:
                fence = opened["fence"]
            out.append(line)
            continue
        if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
            fence = None
            out.append(line)
            continue
        out.append(placeholder.sub(wrap, line))
    return "\n".join(out)
