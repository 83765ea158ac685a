"""Presets: named display options authors apply with ``preset: NAME`` (tables) or ``{preset}``.

Both hosts take them, with the same rules: the MkDocs plugin (``plugins: - rollbook:
{presets}``) and the ``rollbook`` Markdown extension (``markdown_extensions: - rollbook:
{presets}``), the only one Zensical sees.
"""

from __future__ import annotations

__all__ = ["INLINE_PRESET_OPTIONS", "TABLE_PRESET_OPTIONS", "presets_problem"]

#: What a preset may set. Inline rolls use ``class`` and ``odds``; fences use table keys.
INLINE_PRESET_OPTIONS = frozenset({"class", "odds"})
TABLE_PRESET_OPTIONS = frozenset({
    "roll_name", "headers", "result_text", "tabs", "prompts", "prompt_title", "class",
    "button", "column_count", "roll_dice_in_results",
})  # fmt: skip


def presets_problem(value: object) -> str:
    """Why ``value`` is not a valid ``{name: {option: value}}`` mapping; empty when it is."""
    if not isinstance(value, dict):
        return "expected a mapping of preset names to option mappings."
    known = INLINE_PRESET_OPTIONS | TABLE_PRESET_OPTIONS
    for name, options in value.items():
        if not isinstance(options, dict):
            return f"preset {name!r} must be a mapping of options."
        unknown = sorted(set(map(str, options)) - known)
        if unknown:
            return (
                f"preset {name!r} has unknown option(s) {', '.join(unknown)}; "
                f"known: {', '.join(sorted(known))}."
            )
    return ""
