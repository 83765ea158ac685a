"""``rollbook new``: the files of a ready rules site, planned in memory, then written.

The templates are package data (``rollbook/scaffold/templates``); ``$name`` fields are filled
with ``string.Template``. Everything is computed before the first file is written, and the
output depends only on the arguments, so the same command writes the same bytes.
"""

from __future__ import annotations

import json
import string
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from rollbook import __version__
from rollbook.scaffold.guide import ORDER, PRESETS, guide_pages

__all__ = ["SYSTEM_NAMES", "ScaffoldError", "plan_site", "site_files", "write_files"]


def _system_names() -> dict[str, str]:
    """System id -> name, as the systems' packages declare them."""
    from rollbook.engine.systems import get, ids

    return {system_id: get(system_id).name for system_id in ids()}


SYSTEM_NAMES = _system_names()

WORKFLOW = ".github/workflows/publish.yml"


class ScaffoldError(ValueError):
    """Arguments that cannot make a site; the message is one sentence."""


def _template(name: str) -> str:
    return (resources.files("rollbook.scaffold") / "templates" / name).read_text("utf-8")


def _fill(name: str, **fields: str) -> str:
    return string.Template(_template(name)).substitute(fields)


def _nav(entries: list[Any]) -> str:
    text = yaml.safe_dump(
        entries,
        sort_keys=False, allow_unicode=True, default_flow_style=False, width=1000,
    )  # fmt: skip
    return "".join(f"  {line}\n" for line in text.splitlines())


def _guide_title(name: str, page: bytes) -> str:
    for line in page.decode("utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return Path(name).stem.replace("-", " ").capitalize()


SITE_URL_HINT = """\
# When the site has its address, put it here (a path is fine, e.g. a GitHub project page):
# site_url: https://example.github.io/my-rules/"""


def site_files(
    title: str,
    nav: list[Any],
    *,
    command: str = "new",
    site_url: str | None = None,
    plugin: str = "  - rollbook\n",
    extensions: str = "",
) -> dict[str, bytes]:
    """mkdocs.yml, .gitignore, requirements.txt and the publishing workflow of a site."""
    url = f"site_url: {json.dumps(site_url)}" if site_url else SITE_URL_HINT
    config = _fill(
        "mkdocs.yml",
        command=command,
        site_name=json.dumps(title, ensure_ascii=False),
        site_url=url,
        nav=_nav(nav),
        plugin=plugin,
        extensions=extensions,
    )
    requirements = _fill("requirements.txt", requirement=f"rollbook[material]=={__version__}")
    return {
        "mkdocs.yml": config.encode("utf-8"),
        ".gitignore": _template("gitignore.txt").encode("utf-8"),
        "requirements.txt": requirements.encode("utf-8"),
        WORKFLOW: _fill("publish.yml").encode("utf-8"),
    }


def printable(text: str) -> bool:
    """Whether ``text`` is printable Unicode, which YAML and MkDocs read.

    No control, surrogate (bytes that were not UTF-8), private, unassigned or
    line-separating character.
    """
    import unicodedata

    return all(unicodedata.category(c) not in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp") for c in text)


def plan_site(title: str, system: str | None = None, guide: bool = False) -> dict[str, bytes]:
    """Relative path -> content of every file of a new site."""
    title = title.strip()
    if not title or not printable(title):
        raise ScaffoldError(
            "the title must be one line of printable text (no control characters, and valid UTF-8)."
        )
    if system is not None and system not in SYSTEM_NAMES:
        known = ", ".join(SYSTEM_NAMES)
        raise ScaffoldError(f"unknown system {system!r}; choose one of: {known}.")
    pages: dict[str, str] = {}
    nav: list[tuple[str, object]] = [
        ("Home", "index.md"), ("Inline rolls", "rolls.md"),
        ("Roll tables", "tables.md"), ("Roll lists", "lists.md"),
    ]  # fmt: skip
    more = ""
    if system is not None:
        name = SYSTEM_NAMES[system]
        pages[f"{system}.md"] = _template(f"systems/{system}.md")
        nav.append((f"An encounter ({name})", f"{system}.md"))
        more += f"- [An encounter]({system}.md): {name} stat blocks and a fight to play out.\n"
    guide_files: dict[str, bytes] = {}
    if guide:
        guide_files = guide_pages()
        if not guide_files:
            raise ScaffoldError("this installation of rollbook has no copy of the guide.")
        nav.append(("Authoring guide", [{_guide_title(n, b): n} for n, b in guide_files.items()]))
        more += f"- [The authoring guide]({ORDER[0]}): every markup, with live examples.\n"
    pages["index.md"] = _fill("index.md", title=title, more=more + ("\n" if more else ""))
    for name in ("rolls.md", "tables.md", "lists.md"):
        pages[name] = _template(name)
    plugin = "  - rollbook\n"
    if guide:
        presets = yaml.safe_dump({"presets": PRESETS}, sort_keys=True, default_flow_style=False)
        plugin = "  - rollbook:\n" + "".join(f"      {line}\n" for line in presets.splitlines())
    nav_entries = [{name: target} for name, target in nav]
    files = site_files(title, nav_entries, plugin=plugin)
    for name, text in pages.items():
        files[f"docs/{name}"] = text.encode("utf-8")
    for name, data in guide_files.items():
        files[f"docs/{name}"] = data
    return dict(sorted(files.items()))


def write_files(dest: Path, files: dict[str, bytes]) -> None:
    """Write ``files`` under ``dest`` (created if missing), and nowhere else.

    Every name must be a plain relative path (no ``..``, ``.`` or empty part, not
    absolute), and no file or folder is written through a symbolic link: a new file is
    created exclusively, so an existing link (or file) in its place stops the write.

    Raises:
        ScaffoldError: a name that would leave ``dest``, or a link in the way.
    """
    import os

    root = dest.resolve()
    for name in files:
        parts = name.split("/")
        if name.startswith("/") or "\\" in name or any(p in ("", ".", "..") for p in parts):
            raise ScaffoldError(f"refused to write {name!r}, which is not a path inside {dest}.")
    for name, data in files.items():
        path = dest / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.parent.resolve().is_relative_to(root):
            raise ScaffoldError(
                f"{path.parent} leads outside {dest} (a symbolic link); nothing more was written."
            )
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            fd = os.open(path, flags, 0o666)
        except FileExistsError:
            raise ScaffoldError(f"{path} exists already; nothing more was written.") from None
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
