"""The GM screen page, for any generator: its text, and its HTML written into a built site.

The MkDocs plugin adds the page as a generated Markdown page (``gm_screen.gm_page``), so the theme
draws it like any other. Other generators (Zensical, plain Python-Markdown) never see that
page: ``rollbook assets`` writes ``SITE/gm/index.html`` itself, taking the built home page as
the shell, so the screen has the site's own look, header, navigation and scripts.
"""

from __future__ import annotations

import json
import re
from html import escape
from pathlib import Path

from rollbook.language import Catalogue, catalogue
from rollbook.sitewide.site_path import site_path_problem

__all__ = [
    "gm_body_html",
    "gm_page_html",
    "gm_src_uri",
    "normalise_gm_path",
    "write_gm_page",
]


def gm_body_html(text: Catalogue) -> str:
    """The page's content as HTML, in the catalogue's language.

    The MkDocs plugin writes the same words as Markdown
    (`rollbook.mkdocs_plugin.gm_screen.gm_page`).
    """
    return (
        f"<h1>{escape(text('gm.title'))}</h1>\n<p>{escape(text('gm.intro'))}</p>\n"
        f'<div class="rb-gm" data-rb-gm><p class="rb-gm-empty">{escape(text("gm.empty"))}</p>'
        "</div>\n"
    )


def normalise_gm_path(path: str) -> str | None:
    """``"gm/"`` -> ``"gm"``; None for ``""`` (no screen); ValueError outside the site.

    Raises:
        ValueError: the path is not one inside the site (``site_path_problem``).
    """
    problem = site_path_problem(path, allow_empty=True)
    if problem:
        raise ValueError(f"the GM screen path {problem}")
    return path.strip().strip("/") or None


def gm_src_uri(path: str, folder: str = "") -> str | None:
    """``gm/`` -> ``gm/index.md``; None when the screen is turned off (empty path).

    Args:
        path: The site path of the screen (the plugin's ``gm_screen`` option).
        folder: A folder of the docs the page goes in (a language folder, ``en``).
    """
    screen = normalise_gm_path(path)
    if not screen:
        return None
    return f"{folder.strip('/')}/{screen}/index.md" if folder.strip("/") else f"{screen}/index.md"


_ARTICLE = re.compile(
    r'(<article\b[^>]*class="[^"]*\bmd-content__inner\b[^"]*"[^>]*>)(.*?)(</article>)', re.S
)
_MAIN = re.compile(r"(<main\b[^>]*>)(.*?)(</main>)", re.S)
_BODY = re.compile(r"(<body\b[^>]*>)(.*?)(</body>)", re.S)
_URL_ATTR = re.compile(r'\b(href|src|action|poster)="([^"]*)"')
_ABSOLUTE = re.compile(r"^(?:[A-Za-z][\w+.-]*:|/|#|\?)")
_TITLE = re.compile(r"<title>(.*?)</title>", re.S)
_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S)


def _deeper(url: str, prefix: str) -> str:
    """A URL of the home page as the page ``prefix`` below it writes it ("" is home)."""
    if not url:
        return prefix
    if _ABSOLUTE.match(url):
        return url
    return prefix + (url[2:] if url.startswith("./") else url)


def _retitle(title: str, home_title: str | None, name: str) -> str:
    """``Home - Site`` -> ``GM screen - Site`` (the theme's pattern); else just the title."""
    if home_title and " - " in home_title:
        return f"{name} - {home_title.split(' - ', 1)[1]}"
    return f"{name} - {home_title}" if home_title else name


def _material_config(text: str, prefix: str) -> str:
    """Material/Zensical keep ``base`` and the search worker's URL in a JSON block."""
    try:
        data = json.loads(text)
    except ValueError:
        return text
    if not isinstance(data, dict):
        return text
    if isinstance(data.get("base"), str):
        base = data["base"]
        data["base"] = prefix.rstrip("/") if base in (".", "./") else _deeper(base, prefix)
    if isinstance(data.get("search"), str):
        data["search"] = _deeper(data["search"], prefix)
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def gm_page_html(home: str, depth: int, text: Catalogue | None = None) -> str:
    """The GM screen page made from the home page's HTML, ``depth`` folders below it.

    In ``text``'s language (English when not given).
    """
    text = text or catalogue()
    prefix = "../" * depth
    body = gm_body_html(text)
    for pattern in (_ARTICLE, _MAIN, _BODY):
        if pattern.search(home):
            page = pattern.sub(lambda m: f"{m[1]}\n{body}{m[3]}", home, count=1)
            break
    else:
        page = f"<!doctype html>\n<html><head></head><body>\n{body}</body></html>\n"
    page = _URL_ATTR.sub(lambda m: f'{m[1]}="{_deeper(m[2], prefix)}"', page)
    title = _TITLE.search(page)
    page = _TITLE.sub(
        lambda m: (
            f"<title>{escape(_retitle(m[1], title[1] if title else None, text('gm.title')))}"
            "</title>"
        ),
        page,
        count=1,
    )
    return _CONFIG.sub(lambda m: f"{m[1]}{_material_config(m[2], prefix)}{m[3]}", page, count=1)


def write_gm_page(site_dir: str | Path, path: str, text: Catalogue | None = None) -> Path | None:
    """Write ``SITE/<path>/index.html`` from the home page; None if off or already there.

    Its words are in ``text``'s language.

    A page the site already has at that address (one the author wrote, or the MkDocs
    plugin's) is left as it is.

    Raises:
        ValueError: ``path`` leaves the site.
    """
    folder = normalise_gm_path(path)
    if folder is None:
        return None
    site = Path(site_dir)
    target = site / folder / "index.html"
    if target.exists() or target.is_symlink():
        return None
    try:
        home = (site / "index.html").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        home = ""
    parts = folder.split("/")
    for depth in range(1, len(parts) + 1):  # never write through a link planted in the site
        step = site.joinpath(*parts[:depth])
        if step.is_symlink():
            raise ValueError(f"{step} is a symbolic link; rollbook writes no page through it.")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(gm_page_html(home, len(folder.split("/")), text), encoding="utf-8")
    return target
