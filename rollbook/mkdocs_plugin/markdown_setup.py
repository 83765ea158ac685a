"""Zero-config: the Markdown extension and the four superfences fences the plugin adds itself.

``plugins: [search, rollbook]`` alone must render inline rolls and the ``roll-table``,
``roll-list``, ``statblock`` and ``combat`` fences. What the author already lists stays as it
is: an explicit ``rollbook`` extension keeps its options, a configured
``pymdownx.superfences`` keeps its own fences and gets only ours that it lacks (compared by
name, in any letter case), so nothing is ever registered twice.
"""

from __future__ import annotations

from typing import Any

__all__ = ["EXTENSION_NAMES", "SUPERFENCES", "add_rollbook_markdown", "has_extension"]

#: How mkdocs.yml may name the rollbook Markdown extension (entry point or module path).
EXTENSION_NAMES = frozenset(
    {"rollbook", "rollbook.markup.extension", "rollbook.markup.extension:RollbookExtension"}
)
SUPERFENCES = "pymdownx.superfences"


def has_extension(extensions: list[str]) -> bool:
    """Whether ``extensions`` (MkDocs' ``markdown_extensions``) holds the rollbook extension."""
    return any(name in EXTENSION_NAMES for name in extensions)


def add_rollbook_markdown(extensions: list[str], configs: dict[str, dict[str, Any]]) -> list[str]:
    """Add the rollbook extension and our custom fences where missing, in place.

    Args:
        extensions: MkDocs' ``markdown_extensions`` (names).
        configs: MkDocs' ``mdx_configs`` (name -> options).

    Returns:
        What was added, in words, for the build's debug log (empty: nothing was missing).
    """
    from rollbook.markup.superfences import CUSTOM_FENCES

    added: list[str] = []
    if not has_extension(extensions):
        extensions.append("rollbook")
        added.append("the rollbook Markdown extension")
    if SUPERFENCES not in extensions:
        extensions.append(SUPERFENCES)
        added.append(SUPERFENCES)
    options = configs.get(SUPERFENCES)
    options = dict(options) if isinstance(options, dict) else {}
    fences = list(options.get("custom_fences") or [])
    have = {str(f.get("name", "")).lower() for f in fences if isinstance(f, dict)}
    for fence in CUSTOM_FENCES:
        if fence["name"] not in have:
            fences.append(dict(fence))
            added.append(f"the {fence['name']} fence")
    options["custom_fences"] = fences
    configs[SUPERFENCES] = options
    return added
