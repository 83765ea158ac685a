"""Read a site's mkdocs.yml for the CLI's page commands, as ``mkdocs build`` would, safely.

Like ``mkdocs``, the commands read the config the user names (``--config``) or the one in
the current folder, never one found in a parent folder; and they read it without running
any YAML tag (`rollbook.mkdocs_plugin.safe_config`).
"""

from __future__ import annotations

from pathlib import Path

from rollbook.markup.pages import MarkdownSetup
from rollbook.mkdocs_plugin.markdown_setup import add_rollbook_markdown
from rollbook.mkdocs_plugin.site_language import site_language, site_strings

__all__ = ["CONFIG_NAMES", "find_config", "markdown_setup"]

#: The names ``mkdocs`` looks for, in its order.
CONFIG_NAMES = ("mkdocs.yml", "mkdocs.yaml")


def find_config(folder: Path) -> Path | None:
    """The mkdocs.yml (or mkdocs.yaml) in ``folder`` itself; parents are not searched."""
    for name in CONFIG_NAMES:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None


def markdown_setup(config_file: Path) -> MarkdownSetup:
    """Extensions, their configs and the rollbook presets from ``config_file``.

    Raises:
        rollbook.mkdocs_plugin.safe_config.ConfigRefused: a tag it will not run, a YAML
            error or an invalid setting, as one sentence naming the file.
    """
    from rollbook.mkdocs_plugin.safe_config import load_safely

    config = load_safely(config_file)
    plugin = config.plugins.get("rollbook")
    options = getattr(plugin, "config", {}) if plugin else {}
    presets = dict(options.get("presets") or {})
    if plugin and options.get("enabled", True) and options.get("configure_markdown", True):
        add_rollbook_markdown(config.markdown_extensions, config.mdx_configs)
    return MarkdownSetup(
        extensions=list(config.markdown_extensions),
        configs=dict(config.mdx_configs),
        presets=presets,
        language=site_language(options.get("language"), config),
        strings=site_strings(dict(options.get("strings") or {}), config),
    )
