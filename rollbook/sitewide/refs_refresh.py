"""Tables that roll other pages' tables, brought up to date from the built site itself.

A page's payload carries a copy of every table its rows can reach (``"refs"``). MkDocs
rebuilds every page, so the plugin's copies are always current. Zensical keeps each page's
rendering while the page's own text is unchanged, so after another page's table changed
(``rollbook serve``, or a build that reuses its cache) the referring page would roll the old
rows. This step runs after every build instead: it reads every table payload the built
pages hold, by the key references use (``docs/page.md#anchor``), and writes each copy again
from the page that owns it. A copy whose page or table no longer exists is left as it was
(the build has said so already).
"""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath
from typing import Any

__all__ = ["built_page_of", "refresh_refs"]

_PAYLOAD = re.compile(
    r'(<div class="rb-table[^"]*"[^>]*\bdata-rb-anchor="([^"]*)"[^>]*>.*?'
    r'<template class="rb-data"[^>]*>)(.*?)(</template>)',
    re.S,
)


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


def _payload_text(data: Any) -> str:
    from rollbook.markup.html import payload_json

    return payload_json(data)


def _tables_of(html: str) -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for match in _PAYLOAD.finditer(html):
        try:
            data = json.loads(match[3])
        except ValueError:
            continue
        if isinstance(data, dict):
            found.setdefault(match[2], data)
    return found


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
    owners = {p.relative_to(site).as_posix(): _tables_of(text) for p, text in pages.items()}

    def current(key: str) -> dict[str, Any] | None:
        src, _, anchor = key.rpartition("#")
        built = built_page_of(src, docs_prefix, directory_urls)
        table = owners.get(built or "", {}).get(anchor)
        if table is None:
            return None
        return {k: v for k, v in table.items() if k != "refs"}

    changed = 0
    for path, html in pages.items():
        if '"refs"' not in html:
            continue

        def rewrite(match: re.Match[str]) -> str:
            try:
                data = json.loads(match[3])
            except ValueError:
                return match[0]
            refs = data.get("refs") if isinstance(data, dict) else None
            if not isinstance(refs, dict):
                return match[0]
            todo = [*refs, *_keys_in(data)]  # a table may roll tables it did not before
            while todo:
                key = todo.pop()
                fresh = current(key)
                if fresh is not None and refs.get(key) != fresh:
                    refs[key] = fresh
                    todo.extend(k for k in _keys_in(fresh) if k not in refs)
            return f"{match[1]}{_payload_text(data)}{match[4]}"

        new = _PAYLOAD.sub(rewrite, html)
        if new != html:
            path.write_text(new, encoding="utf-8")
            changed += 1
    return changed
