"""Find a Hugo site's parts: its config, content folder, data folder and static files."""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

__all__ = ["HugoError", "HugoSource", "locate"]

CONFIG_NAMES = tuple(
    f"{stem}.{ext}" for stem in ("hugo", "config") for ext in ("toml", "yaml", "yml", "json")
)


class HugoError(ValueError):
    """Input that cannot be imported; the message is one sentence."""


@dataclass
class HugoSource:
    """Where things are: ``shown`` is SRC as the user typed it (for messages)."""

    src: Path
    shown: str
    content: Path
    config: dict[str, Any] = field(default_factory=dict)
    data: Path | None = None
    static: Path | None = None

    def display(self, path: Path) -> str:
        """``path`` as SRC/relative/path, the way messages name it."""
        relative = path.relative_to(self.src).as_posix()
        return f"{self.shown.rstrip('/')}/{relative}" if relative != "." else self.shown


def _config_file(folder: Path) -> Path | None:
    for name in CONFIG_NAMES:
        if (folder / name).is_file():
            return folder / name
    for name in CONFIG_NAMES:
        if (folder / "config" / "_default" / name).is_file():
            return folder / "config" / "_default" / name
    return None


def _read_config(path: Path, shown: str) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8-sig")
        if path.suffix == ".toml":
            value: object = tomllib.loads(text)
        elif path.suffix == ".json":
            value = json.loads(text)
        else:
            value = yaml.safe_load(text)
    except UnicodeDecodeError:
        raise HugoError(f"{shown} is not UTF-8 text; save it as UTF-8 and run again.") from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError, yaml.YAMLError) as err:
        reason = " ".join(str(err).split())
        raise HugoError(f"{shown} cannot be read ({reason}); fix it and run again.") from None
    return value if isinstance(value, dict) else {}


def locate(src: Path, shown: str) -> HugoSource:
    """The Hugo site at ``src`` (a site folder, or its content folder on its own)."""
    if not src.exists():
        raise HugoError(f"{shown} does not exist.")
    if not src.is_dir():
        raise HugoError(f"{shown} is a file; give a Hugo site's folder or its content folder.")
    config_file = _config_file(src)
    config = (
        _read_config(config_file, f"{shown}/{config_file.relative_to(src)}") if config_file else {}
    )
    content_name = str(config.get("contentDir") or config.get("contentdir") or "content")
    if (src / content_name).is_dir():
        root = src
        content = src / content_name
    elif (src / "_index.md").is_file():
        root, content = src, src  # a content folder given on its own: no data or static
    else:
        raise HugoError(
            f"{shown} is not a Hugo site: it has neither a {content_name}/ folder nor an _index.md."
        )
    found = HugoSource(src=src, shown=shown, content=content, config=config)
    if root is not content:
        data = root / str(config.get("dataDir") or config.get("datadir") or "data")
        found.data = data if data.is_dir() else None
        static = root / "static"
        found.static = static if static.is_dir() else None
    return found
