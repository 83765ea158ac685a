"""Tables that roll other pages' tables, brought up to date from the built site itself.

A page's store (:mod:`rollbook.markup.refs_store`) carries a copy of every table of another
page its tables can reach, and each payload names the keys it rolls (``"refs"``). MkDocs
rebuilds every page, so the plugin's copies are always current. Zensical keeps each page's
rendering while the page's own text is unchanged, so after another page's table changed
(``rollbook serve``, or a build that reuses its cache) the referring page would roll the old
rows. This step runs after every build instead: it reads every table payload the built
pages hold, by the key references use (``docs/page.md#anchor``), writes each copy in a
store again from the page that owns it, and adds the tables a changed table now rolls to
the payloads that reach it. A copy whose page or table no longer exists is left as it was
(the build has said so already).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

from rollbook.markup.html import payload_json
from rollbook.markup.refs_store import put_store, read_store, store_html, widget_tables

__all__ = ["built_page_of", "refresh_refs"]

# Every payload (tables' and those of tables rolled from running text), its JSON group 2.
_PAYLOAD = re.compile(r'(<template class="rb-data"[^>]*>)(.*?)(</template>)', re.S)


def built_page_of(src: str, docs_prefix: str, directory_urls: bool) -> str | None:
    """The built file of the page ``src`` names (``docs/a/b.md`` -> ``a/b/index.html``)."""
    path = PurePosixPath(src)
    prefix = PurePosixPath(docs_prefix)
    if path.suffix != ".md" or not path.is_relative_to(prefix):
        return None
    rel = path.relative_to(prefix)
    if rel.stem in ("index", "README"):
        return (rel.parent / "index.html").as_posix()
    if directory_urls:
        return (rel.parent / rel.stem / "index.html").as_posix()
    return rel.with_suffix(".html").as_posix()


def _keys_in(data: Any) -> list[str]:
    """Keys of the tables a payload's rows roll (``{"ref": ..., "table": KEY}`` parts)."""
    found: list[str] = []
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            if isinstance(item.get("ref"), str) and isinstance(item.get("table"), str):
                found.append(item["table"])
            todo.extend(v for k, v in item.items() if k != "refs")
        elif isinstance(item, list):
            todo.extend(item)
    return found


def refresh_refs(site_dir: str | Path, docs_prefix: str, *, directory_urls: bool = True) -> int:
    """Rewrite stale copies of referenced tables in the built pages; return pages changed."""
    site = Path(site_dir)
    pages: dict[Path, str] = {}
    for path in sorted(site.rglob("*.html")):
        if path.is_file() and not path.is_symlink():
            try:
                pages[path] = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
    owners = {p.relative_to(site).as_posix(): widget_tables(text) for p, text in pages.items()}

    def built(key: str) -> str | None:
        return built_page_of(key.rpartition("#")[0], docs_prefix, directory_urls)

    def current(key: str) -> dict[str, Any] | None:
        return owners.get(built(key) or "", {}).get(key.rpartition("#")[2])

    changed = 0
    for path, html in pages.items():
        if '"refs"' not in html:
            continue
        new = _refreshed(html, path.relative_to(site).as_posix(), built, current)
        if new != html:
            path.write_text(new, encoding="utf-8")
            changed += 1
    return changed


def _refreshed(
    html: str,
    page: str,
    built: Callable[[str], str | None],
    current: Callable[[str], dict[str, Any] | None],
) -> str:
    """One built page with its store and its payloads' key lists brought up to date."""
    tables, here = read_store(html)
    fresh = {key: current(key) or table for key, table in tables.items()}
    named = dict(here)

    def stored(key: str) -> dict[str, Any] | None:
        """The table ``key`` as it is now, put in the store if it is new there."""
        table = current(key)
        if key in here or table is None:
            return table or fresh.get(key)
        if built(key) == page:  # a table of this page: its widget holds it
            here[key] = key.rpartition("#")[2]
            fresh.pop(key, None)
        else:
            fresh[key] = table
        return table

    def reach(keys: list[str]) -> list[str]:
        """``keys`` and every key their tables roll now."""
        out = dict.fromkeys(keys)
        todo = list(keys)
        while todo:
            for found in _keys_in(stored(todo.pop()) or {}):
                if found not in out:
                    out[found] = None
                    todo.append(found)
        return sorted(out)

    def rewrite(match: re.Match[str]) -> str:
        try:
            data = json.loads(match[2])
        except ValueError:
            return match[0]
        keys = data.get("refs") if isinstance(data, dict) else None
        if not isinstance(keys, list) or not keys:  # none, or none within the budget
            return match[0]
        now = reach([k for k in (*keys, *_keys_in(data)) if isinstance(k, str)])
        if now == keys:
            return match[0]
        data["refs"] = now
        return f"{match[1]}{payload_json(data)}{match[3]}"

    html = _PAYLOAD.sub(rewrite, html)
    if fresh == tables and here == named:
        return html
    return put_store(html, store_html(fresh, here))
