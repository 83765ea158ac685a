"""Find a Hugo site's parts: its config, content folder, data folder and static files."""

from __future__ import annotations

import json
import os
import stat
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from rollbook.engine.located import Problem

__all__ = ["HugoError", "HugoSource", "locate", "shown_name"]

CONFIG_NAMES = tuple(
    f"{stem}.{ext}" for stem in ("hugo", "config") for ext in ("toml", "yaml", "yml", "json")
)


class HugoError(ValueError):
    """Input that cannot be imported; the message is one sentence."""


def shown_name(text: str) -> str:
    r"""A file name for a message: bytes that are not UTF-8 shown as ``\\xNN``."""
    return os.fsencode(text).decode("utf-8", "backslashreplace")


@dataclass
class HugoSource:
    """Where things are: ``shown`` is SRC as the user typed it (for messages).

    Every file is found by :meth:`walk` and read by :meth:`read`: symbolic links are
    reported and never followed, only regular files are read, and the import's limits
    (``import_files``, ``import_file_bytes``, ``import_bytes``, ``page_bytes``) are
    checked from the file's size before it is read.
    """

    src: Path
    shown: str
    content: Path
    config: dict[str, Any] = field(default_factory=dict)
    data: Path | None = None
    static: Path | None = None
    skipped: list[Problem] = field(default_factory=list)
    files_read: int = 0
    bytes_read: int = 0

    def display(self, path: Path) -> str:
        """``path`` as SRC/relative/path, the way messages name it."""
        relative = path.relative_to(self.src).as_posix()
        text = f"{self.shown.rstrip('/')}/{relative}" if relative != "." else self.shown
        return shown_name(text)

    def walk(self, folder: Path) -> list[Path]:
        """The regular files under ``folder`` (hidden ones left out), sorted.

        Links and other special files are reported in :attr:`skipped`, never followed or read.
        """
        from rollbook.engine.limits import value

        found: list[Path] = []
        for top, dirs, files in os.walk(folder, followlinks=False):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            here = Path(top)
            for name in [*sorted(files), *dirs]:
                path = here / name
                _check_name(self, path)
                info = path.lstat()
                if stat.S_ISLNK(info.st_mode):
                    self.skipped.append(
                        Problem(
                            1, "a symbolic link; not followed, not copied", page=self.display(path)
                        )
                    )
                    if name in dirs:
                        dirs.remove(name)
                elif name in files and not name.startswith("."):
                    if not stat.S_ISREG(info.st_mode):
                        self.skipped.append(
                            Problem(
                                1,
                                "not a regular file; not read, not copied",
                                page=self.display(path),
                            )
                        )
                        continue
                    found.append(path)
                    if len(found) > value("import_files"):
                        raise HugoError(
                            f"{self.shown} holds more than {value('import_files'):,} files "
                            "(the import_files limit); import a smaller site."
                        )
        return sorted(found)

    def read(self, path: Path, *, page: bool = False) -> bytes:
        """The bytes of a regular file found by :meth:`walk`, within the import's limits."""
        from rollbook.engine.limits import value

        name, cap = ("page_bytes", value("page_bytes")) if page else (
            "import_file_bytes", value("import_file_bytes"))  # fmt: skip
        fd = os.open(
            path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
        )
        with os.fdopen(fd, "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise HugoError(
                    f"{self.display(path)} is not a regular file; remove it and run again."
                )
            if info.st_size > cap:
                raise HugoError(
                    f"{self.display(path)} has {info.st_size:,} bytes, more than the {name} "
                    f"limit of {cap:,}; make it smaller or remove it and run again."
                )
            self.bytes_read += info.st_size
            if self.bytes_read > value("import_bytes"):
                raise HugoError(
                    f"{self.shown} holds more than {value('import_bytes'):,} bytes to import "
                    "(the import_bytes limit); import a smaller site."
                )
            data = handle.read(cap + 1)
        if len(data) > cap:  # grew while being read
            raise HugoError(f"{self.display(path)} is larger than the {name} limit of {cap:,}.")
        return data


def _check_name(source: HugoSource, path: Path) -> None:
    try:
        path.name.encode("utf-8")
    except UnicodeEncodeError:
        raise HugoError(
            f"{source.display(path)}: the file name is not UTF-8 text, which the site build "
            "cannot serve; rename it and run again."
        ) from None


def _inside(source_dir: Path, raw: object, key: str, shown: str) -> Path:
    """``raw`` (a contentDir/dataDir setting) as a folder inside ``source_dir``."""
    text = raw if isinstance(raw, str) else None
    parts = Path(text).parts if text else ()
    if (
        not text
        or not text.strip()
        or Path(text).is_absolute()
        or text.startswith(("/", "\\"))
        or any(part in ("..",) for part in parts)
        or "\\" in text
        or any(ord(c) < 32 for c in text)
    ):
        raise HugoError(
            f"{shown}: {key} must name a folder inside the site (a relative path without "
            f"'..'), not {raw!r}; fix it and run again."
        )
    folder = source_dir / text
    here = source_dir
    for part in Path(text).parts:
        here = here / part
        if here.is_symlink():
            raise HugoError(
                f"{shown}: {key} leads through {shown_name(str(here))}, a symbolic link, "
                "which import does not follow; give the folder itself and run again."
            )
    return folder


def _config_file(folder: Path, shown: str) -> Path | None:
    for place in (Path(), Path("config", "_default")):
        for name in CONFIG_NAMES:
            candidate = folder / place / name
            links = [p for p in (folder / "config", folder / place, candidate) if p.is_symlink()]
            if links and (candidate.is_file() or candidate.is_symlink()):
                raise HugoError(
                    f"{shown}/{(place / name).as_posix()} is reached through a symbolic link, "
                    "which import does not follow; replace the link by the file and run again."
                )
            if candidate.is_file():
                return candidate
    return None


def _read_config(path: Path, shown: str) -> dict[str, Any]:
    from rollbook.engine.limits import value as limit
    from rollbook.markup.yamlsize import YamlSizeError, check_size

    if path.stat().st_size > limit("page_bytes"):
        raise HugoError(f"{shown} is larger than the page_bytes limit of {limit('page_bytes'):,}.")
    try:
        text = path.read_text(encoding="utf-8-sig")
        if path.suffix not in (".toml", ".json"):
            check_size(text)
        if path.suffix == ".toml":
            value: object = tomllib.loads(text)
        elif path.suffix == ".json":
            value = json.loads(text)
        else:
            value = yaml.safe_load(text)
    except UnicodeDecodeError:
        raise HugoError(f"{shown} is not UTF-8 text; save it as UTF-8 and run again.") from None
    except YamlSizeError as err:
        raise HugoError(f"{shown}:{err.line}: {err.message}") from None
    except (tomllib.TOMLDecodeError, yaml.YAMLError, ValueError, RecursionError) as err:
        reason = " ".join(str(err).split())
        raise HugoError(f"{shown} cannot be read ({reason}); fix it and run again.") from None
    return value if isinstance(value, dict) else {}


def locate(src: Path, shown: str) -> HugoSource:
    """The Hugo site at ``src`` (a site folder, or its content folder on its own)."""
    if not src.exists():
        raise HugoError(f"{shown} does not exist.")
    if not src.is_dir():
        raise HugoError(f"{shown} is a file; give a Hugo site's folder or its content folder.")
    config_file = _config_file(src, shown)
    config_shown = f"{shown}/{config_file.relative_to(src)}" if config_file else shown
    config = _read_config(config_file, config_shown) if config_file else {}
    content_key = (
        "contentdir" if "contentdir" in config and "contentDir" not in config else "contentDir"
    )
    content_path = _inside(src, config.get(content_key) or "content", content_key, config_shown)
    content_name = content_path.relative_to(src).as_posix()
    if content_path.is_dir():
        root = src
        content = content_path
    elif (src / "_index.md").is_file() and not (src / "_index.md").is_symlink():
        root, content = src, src  # a content folder given on its own: no data or static
    else:
        raise HugoError(
            f"{shown} is not a Hugo site: it has neither a {content_name}/ folder nor an _index.md."
        )
    found = HugoSource(src=src, shown=shown, content=content, config=config)
    if root is not content:
        data_key = "datadir" if "datadir" in config and "dataDir" not in config else "dataDir"
        if config.get(data_key) is None and (root / "data").is_symlink():
            found.skipped.append(
                Problem(
                    1,
                    "a symbolic link; not followed, not copied",
                    page=found.display(root / "data"),
                )
            )
        else:
            data = _inside(root, config.get(data_key) or "data", data_key, config_shown)
            found.data = data if data.is_dir() else None
        static = root / "static"
        if static.is_symlink():
            found.skipped.append(
                Problem(1, "a symbolic link; not followed, not copied", page=found.display(static))
            )
        else:
            found.static = static if static.is_dir() else None
    return found
