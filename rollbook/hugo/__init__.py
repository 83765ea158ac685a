"""``rollbook import``: a Hugo site (Platen or any theme) turned into a rollbook site.

``plan_import`` reads and checks everything and returns every output file in memory;
``write_import`` writes them. Nothing is written when the input has a problem that stops
the import (``HugoError``), and the source is only ever read. The output depends only on
the input, so importing the same site twice gives byte-identical files.

Pages keep their bytes: a YAML front matter block and the whole body are copied as they
are, so every roll, table and fence survives unchanged; TOML and JSON front matter become
YAML of the same length (``frontmatter``). What rollbook cannot read (shortcodes, unknown
fences) stays in place and is reported with the source page and line (``scan``), together
with what the build itself would report for the page (rollbook's own checks).
"""

from __future__ import annotations

import math
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from rollbook.engine.located import Problem
from rollbook.hugo.frontmatter import FrontMatterError, read, to_yaml_lines
from rollbook.hugo.nav import NavPage, build_nav
from rollbook.hugo.platen import rewrite
from rollbook.hugo.scan import scan
from rollbook.hugo.source import HugoError, HugoSource, locate

__all__ = ["HugoError", "ImportPlan", "plan_import", "write_import"]

PAGE_SUFFIXES = (".md", ".markdown")
# Content formats Hugo renders as pages that rollbook does not read.
OTHER_FORMATS = (".html", ".htm", ".org", ".adoc", ".asciidoc", ".rst", ".pandoc", ".pdc")
DATA_SUFFIXES = (".yaml", ".yml", ".toml", ".json")
# What Hugo's Markdown (Goldmark) does by default beyond the template's extensions:
# footnotes, definition lists, ~~strikethrough~~, task lists and the typographer (smarty:
# `--` an en dash, curly quotes); then what Platen's fences become (hugo/platen.py):
# collapsible admonitions, content tabs, grids.
GOLDMARK_EXTENSIONS = """\
  - footnotes
  - def_list
  - pymdownx.tilde:
      subscript: false
  - pymdownx.tasklist
  - smarty
  - md_in_html
  - pymdownx.details
  - pymdownx.tabbed:
      alternate_style: true
"""


@dataclass
class ImportPlan:
    """Every output file (path under DEST -> bytes) and what to tell the author."""

    source: HugoSource
    files: dict[str, bytes] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    drafts: list[str] = field(default_factory=list)
    pages: int = 0
    data: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def report(self) -> list[str]:
        """``SRC/page.md:LINE: message`` lines, then the drafts left out."""
        found = sorted(self.problems, key=lambda p: (p.page, p.line, p.message))
        lines = [f"{p.page}:{p.line}: {p.message}" for p in found]
        lines += [f"left out (draft): {path}" for path in self.drafts]
        return lines + self.notes

    def summary(self, dest: Path) -> str:
        """The report's last line: pages imported, problems, drafts left out."""
        count = len(self.problems)
        text = (
            f"imported {self.pages} page(s) from {self.source.shown} into {dest}"
            f" ({len(self.files)} files); {count} problem(s) to look at"
        )
        if self.drafts:
            text += f", {len(self.drafts)} draft(s) left out"
        return text + "."


def _decode(data: bytes, shown: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        byte = data[err.start]
        raise HugoError(
            f"{shown}:{line}: this page is not UTF-8 text (byte 0x{byte:02X}); "
            "save it as UTF-8 and run again."
        ) from None


def _is_draft(meta: dict[str, Any]) -> bool:
    draft = meta.get("draft")
    return draft is True or (isinstance(draft, str) and draft.strip().lower() == "true")


def _weight(meta: dict[str, Any], page: _Page, shown: str) -> int:
    """The page's ``weight`` (0 if absent or not a number); not finite stops the import."""
    weight = meta.get("weight")
    if isinstance(weight, bool) or weight is None:
        return 0
    if isinstance(weight, int):
        return weight
    if not isinstance(weight, float | str):
        return 0
    try:
        number = float(weight)
    except ValueError:
        return 0
    if math.isfinite(number):
        return int(number)
    head = page.text.split("\n")[: page.body_first - 1 + page.shift]
    line = next(
        (i for i, text in enumerate(head, 1) if re.match(r"\s*[\"']?weight[\"']?\s*[:=]", text)),
        1,
    )
    raise HugoError(
        f"{shown}:{line}: weight must be a finite number, not {weight!r}; fix it and run again."
    )


def _title(meta: dict[str, Any], key: str) -> str | None:
    value = meta.get(key)
    return " ".join(str(value).split()) or None if value not in (None, "") else None


def _out_path(relative: Path) -> str:
    parts = list(relative.parts)
    name = parts[-1]
    stem, suffix = name.rsplit(".", 1) if "." in name else (name, "")
    if suffix.lower() in ("md", "markdown"):
        name = "index.md" if stem == "_index" else f"{stem}.md"
    return "/".join([*parts[:-1], name])


def _check_markup(text: str, name: str) -> list[Problem]:
    """What the build reports for this page: rollbook's checks, in memory."""
    import markdown

    from rollbook.markup.pages import DEFAULT_EXTENSIONS, split_front_matter
    from rollbook.markup.problems import page_context
    from rollbook.markup.superfences import CUSTOM_FENCES

    body, offset = split_front_matter(text)
    md = markdown.Markdown(
        extensions=list(DEFAULT_EXTENSIONS),
        extension_configs={"pymdownx.superfences": {"custom_fences": CUSTOM_FENCES}},
    )
    with page_context(name, offset, presets={}) as ctx:
        md.convert(body)
    return sorted(ctx.problems)


@dataclass
class _Page:
    source: Path
    out: str
    text: str  # the output page, "\n" line ends
    newline: str
    meta: dict[str, Any]
    body_first: int  # first body line, in the source page
    shift: int  # output lines - source lines above the body (0 unless unavoidable)


def _read_page(path: Path, source: HugoSource, out: str) -> _Page:
    shown = source.display(path)
    text = _decode(source.read(path, page=True), shown).removeprefix("\ufeff")
    newline = "\r\n" if "\r\n" in text else "\n"
    text = text.replace("\r\n", "\n")
    try:
        front = read(text)
    except FrontMatterError as err:
        raise HugoError(f"{shown}:{err.line}: {err.message}; fix it and run again.") from None
    lines = text.split("\n")
    body = lines[front.lines :]
    head = lines[: front.lines]
    if front.kind in ("toml", "json"):
        head = to_yaml_lines(front.meta, front.lines)
    written = "\n".join([*head, *body])
    return _Page(path, out, written, newline, front.meta, front.lines + 1, len(head) - front.lines)


def _data_files(source: HugoSource) -> dict[Path, set[str]]:
    """Each data file, with the names a page may use for it (``rules/encounters`` ...)."""
    if source.data is None:
        return {}
    names: dict[Path, set[str]] = {}
    for path in source.walk(source.data):
        if path.suffix.lower() not in DATA_SUFFIXES:
            continue
        relative = path.relative_to(source.data)
        stem = relative.with_suffix("").as_posix()
        names[path] = {relative.as_posix(), stem, stem.replace("/", ".")}
    return names


def _mentions(text: str, names: set[str]) -> bool:
    return any(re.search(rf"(?<![\w./-]){re.escape(n)}(?![\w/-])", text) for n in names)


def _site_url(config: dict[str, Any]) -> str | None:
    base = config.get("baseURL") or config.get("baseurl")
    if not isinstance(base, str):
        return None
    parts = urlsplit(base)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return None
    if parts.hostname in ("example.org", "example.com", "localhost"):
        return None
    return base if base.endswith("/") else base + "/"


def _home_page(title: str, nav: list[Any]) -> str:
    """A home page linking to the top of the navigation (Hugo makes a list page instead)."""
    lines = [f"# {title}", ""]
    for entry in nav:
        if not isinstance(entry, dict):
            continue
        ((name, target),) = entry.items()
        if isinstance(target, list):
            target = next((t for t in target if isinstance(t, str)), None)
        if isinstance(target, str) and target != "index.md":
            lines.append(f"- [{name}]({target})")
    return "\n".join(lines) + "\n"


def _resolve_ref(by_source: dict[str, str], page_out: str, target: str) -> str | None:
    """The output page a Hugo ``ref``/``relref`` target names, as Hugo finds it."""
    target = target.strip()
    here = posixpath.dirname(page_out)
    bases = [target.lstrip("/")] if target.startswith("/") else [
        posixpath.normpath(posixpath.join(here, target)), target
    ]  # fmt: skip
    outs = set(by_source.values())
    for base in bases:
        base = base.rstrip("/")
        for candidate in (base, f"{base}.md", f"{base}/_index.md", f"{base}/index.md"):
            if candidate in by_source:
                return by_source[candidate]
            if candidate in outs:
                return candidate
    name = posixpath.basename(target.rstrip("/"))
    found = [s for s in by_source if posixpath.basename(s) in (name, f"{name}.md")]
    return by_source[found[0]] if len(found) == 1 else None


def _section_pages(page: _Page, pages: list[_Page]) -> list[tuple[str, str]]:
    """``(title, link)`` of the pages right under a section page's folder."""
    if posixpath.basename(page.out) != "index.md":
        return []
    folder = posixpath.dirname(page.out)
    found = []
    for other in pages:
        if other is page or _is_draft(other.meta):
            continue
        parent = posixpath.dirname(other.out)
        child = parent == folder and posixpath.basename(other.out) != "index.md"
        sub = posixpath.basename(other.out) == "index.md" and posixpath.dirname(parent) == folder
        if child or sub:
            title = _title(other.meta, "linkTitle") or _title(other.meta, "title") or other.out
            link = posixpath.relpath(other.out, folder or ".")
            found.append((_weight(other.meta, other, other.out), title.casefold(), title, link))
    return [(title, link) for _, _, title, link in sorted(found)]


def _rewrites_note(done: dict[str, int]) -> str:
    names = {
        "details": "Platen details block(s) as collapsible admonitions",
        "tabs": "Platen tabs block(s) as content tabs",
        "columns": "Platen columns block(s) as grids",
        "section": "Platen section list(s) as links",
        "ref": "ref/relref shortcode(s) as relative links",
        "escaped": "escaped shortcode(s) unescaped",
    }
    parts = [f"{count} {names[name]}" for name, count in done.items() if count]
    return "rewrote " + ", ".join(parts) + " (line numbers kept)"


def plan_import(src: Path, shown: str | None = None) -> ImportPlan:
    """Read the Hugo site at ``src``; raise ``HugoError`` (one sentence) if it cannot be."""
    source = locate(src, shown if shown is not None else str(src))
    plan = ImportPlan(source)
    pages: list[_Page] = []
    leaf_folders: set[Path] = set()
    sources_of: dict[str, Path] = {}
    content_files = source.walk(source.content)
    if not any(p.suffix.lower() in PAGE_SUFFIXES for p in content_files):
        raise HugoError(f"{source.display(source.content)} holds no Markdown pages to import.")
    for path in content_files:
        if path.name == "index.md" or path.name == "index.markdown":
            leaf_folders.add(path.parent)
    for path in content_files:
        relative = path.relative_to(source.content)
        out = _out_path(relative)
        if out in sources_of:
            first = source.display(sources_of[out])
            raise HugoError(
                f"{source.display(path)} and {first} would both become docs/{out}; "
                "keep only one of them and run again."
            )
        sources_of[out] = path
        suffix = path.suffix.lower()
        if suffix in PAGE_SUFFIXES:
            pages.append(_read_page(path, source, out))
            continue
        if suffix in OTHER_FORMATS:
            plan.problems.append(
                Problem(
                    1,
                    "only Markdown pages are imported; copied as a file",
                    page=source.display(path),
                )
            )
        plan.files[f"docs/{out}"] = source.read(path)

    data_names = _data_files(source)
    used_data: set[Path] = set()
    nav_pages: list[NavPage] = []
    by_source = {p.source.relative_to(source.content).as_posix(): p.out for p in pages}
    done: dict[str, int] = {}
    for page in pages:
        shown_page = source.display(page.source)
        if _is_draft(page.meta):
            plan.drafts.append(shown_page)
            continue
        plan.pages += 1
        lines = page.text.split("\n")
        head = page.body_first - 1 + page.shift
        rewritten = rewrite(
            lines[head:],
            page.out,
            lambda at, target: _resolve_ref(by_source, at, target),
            _section_pages(page, pages),
        )
        for name, count in rewritten.counts.items():
            done[name] = done.get(name, 0) + count
        page.text = "\n".join([*lines[:head], *rewritten.lines])
        body = "\n".join(rewritten.lines)
        for finding in scan(body, page.body_first):
            message = finding.message
            for data_path, names in data_names.items():
                if finding.shortcode and _mentions(finding.shortcode, names):
                    used_data.add(data_path)
                    used = data_path.relative_to(source.src).as_posix()
                    message += f" (it reads {used}, copied to the same path)"
            plan.problems.append(Problem(finding.line, message, page=shown_page))
        for problem in _check_markup(page.text, shown_page):
            line = max(1, problem.line - page.shift)
            plan.problems.append(Problem(line, problem.message, page=shown_page))
        plan.files[f"docs/{page.out}"] = page.text.replace("\n", page.newline).encode("utf-8")
        section = page.source.name.startswith("_index.")
        leaf_resource = not section and page.source.parent in leaf_folders
        if leaf_resource and page.source.stem != "index":
            continue  # a Markdown file inside a page bundle: a resource in Hugo, no nav entry
        title = _title(page.meta, "linkTitle") or _title(page.meta, "title")
        nav_pages.append(NavPage(page.out, title, _weight(page.meta, page, shown_page), section))

    if any(done.values()):
        plan.notes.append(_rewrites_note(done))
    for data_path in sorted(used_data):
        copied = data_path.relative_to(source.src).as_posix()
        plan.files[copied] = source.read(data_path)
        plan.data.append(copied)
    if source.static is not None:
        for path in source.walk(source.static):
            out = path.relative_to(source.static).as_posix()
            if f"docs/{out}" in plan.files:
                plan.problems.append(
                    Problem(1, f"docs/{out} exists already; not copied", page=source.display(path))
                )
                continue
            plan.files[f"docs/{out}"] = source.read(path)

    from rollbook.scaffold import site_files

    home = next((p for p in pages if p.out == "index.md" and not _is_draft(p.meta)), None)
    title = (
        _title(source.config, "title")
        or (_title(home.meta, "title") if home else None)
        or source.src.resolve().name
    )
    nav = build_nav(nav_pages)
    if home is None:
        nav.insert(0, {"Home": "index.md"})
        plan.files["docs/index.md"] = _home_page(title, nav).encode("utf-8")
        plan.notes.append(
            f"{source.display(source.content)} has no _index.md: wrote a home page, docs/index.md"
        )
    site = site_files(
        title,
        nav,
        command="import",
        site_url=_site_url(source.config),
        extensions=GOLDMARK_EXTENSIONS,
    )
    plan.files.update(site)
    plan.files = dict(sorted(plan.files.items()))
    plan.problems.extend(source.skipped)
    return plan


def write_import(dest: Path, plan: ImportPlan) -> None:
    """Write the planned files under ``dest``."""
    from rollbook.scaffold import write_files

    write_files(dest, plan.files)
