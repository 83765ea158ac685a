"""Read a site's mkdocs.yml the way ``mkdocs build`` does, for the CLI's page commands."""

from __future__ import annotations

from pathlib import Path

from rollbook.markup.pages import MarkdownSetup
from rollbook.mkdocs_plugin.markdown_setup import add_rollbook_markdown

__all__ = ["find_config", "markdown_setup"]


def find_config(start: Path) -> Path | None:
    """The nearest mkdocs.yml in ``start`` or its parents."""
    for folder in [start, *start.parents]:
        candidate = folder / "mkdocs.yml"
        if candidate.is_file():
            return candidate
    return None


def markdown_setup(config_file: Path) -> MarkdownSetup:
    """Extensions, their configs and the rollbook presets from ``config_file``."""
    from mkdocs.config import load_config

    config = load_config(str(config_file))
    plugin = config.plugins.get("rollbook")
    options = getattr(plugin, "config", {}) if plugin else {}
    presets = dict(options.get("presets") or {})
    if plugin and options.get("enabled", True) and options.get("configure_markdown", True):
        add_rollbook_markdown(config.markdown_extensions, config.mdx_configs)
    return MarkdownSetup(
        extensions=list(config.markdown_extensions),
        configs=dict(config.mdx_configs),
        presets=presets,
    )
