"""``RollbookExtension``: registers the pre-scan, the inline roll and the problem hand-off.

The fences (``roll-table``, ``roll-list``, ``statblock``, ``combat``) are pymdownx.superfences
custom fences (:mod:`rollbook.markup.fence_runner`); they find this extension's per-page state
(:mod:`rollbook.markup.page_state`) on the Markdown instance (``md.rollbook``), so line
numbers, anchors and problems are shared.

Usage without MkDocs::

    markdown.markdown(text, extensions=["toc", "tables", "pymdownx.superfences", "rollbook"],
                      extension_configs={"pymdownx.superfences": {"custom_fences": FENCES}})
"""

from __future__ import annotations

from typing import Any, override

from markdown import Extension, Markdown
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor

from rollbook.language import StringsError, check_overrides
from rollbook.markup.inline import PRIORITY as INLINE_PRIORITY
from rollbook.markup.inline import RollInlineProcessor
from rollbook.markup.page_state import FEATURES, PageState
from rollbook.markup.plain import block as plain_block
from rollbook.markup.plain import obsidian, prose
from rollbook.markup.presets import presets_problem
from rollbook.markup.refs import RefsHere

__all__ = ["PLUGIN_OPTIONS", "SHARED_OPTIONS", "PageState", "RollbookExtension", "makeExtension"]

# Before every other preprocessor (normalize_whitespace is 30, superfences' fences 25 and
# 31.05): it must see the lines exactly as the author wrote them.
PRESCAN_PRIORITY = 40
# Last of all postprocessors: by then every block of the page has reported its problems.
FLUSH_PRIORITY = -1000


class _Prescan(Preprocessor):
    def __init__(self, state: PageState) -> None:
        super().__init__(state.md)
        self.state = state

    def run(self, lines: list[str]) -> list[str]:
        self.state.start(lines)
        for at in self.state.scan.hidden:  # block ids and `{: .no-roll }` under tables
            lines[at] = ""
        return lines


class _Flush(Postprocessor):
    rollbook_skip = True  # cells.render_inline must not hand problems over mid-page

    def __init__(self, state: PageState) -> None:
        super().__init__(state.md)
        self.state = state

    def run(self, text: str) -> str:
        self.state.flush()
        return text + self.state.language_mark()


class RollbookExtension(Extension):
    """Inline rolls, the line pre-scan and problem reporting for the roll markup."""

    def __init__(self, **kwargs: Any) -> None:
        self.config = {
            "presets": [{}, "Named display options: {name: {option: value}}."],
            "language": ["", "The reader's language (en, fr, de, ...); default English."],
            "strings": [{}, "Overrides of the reader's text: {key: text}."],
            "plain_tables": [True, "Ordinary Markdown dice tables roll."],
            "prose_dice": [True, "Dice written in prose roll."],
            "obsidian": [True, "Obsidian Dice Roller `dice:` code spans roll."],
        }
        # Kept, not raised: MkDocs would show Markdown's bare KeyError with its traceback.
        # The plugin turns them into a configuration error, other hosts get a warning.
        self.unknown_options = sorted(set(kwargs) - set(self.config))
        super().__init__(**{k: v for k, v in kwargs.items() if k in self.config})

    @override
    def extendMarkdown(self, md: Markdown) -> None:
        presets = self.getConfig("presets") or {}
        problem = presets_problem(presets)
        if problem:
            raise ValueError(f"rollbook extension, presets: {problem}")
        strings = self.getConfig("strings") or {}
        try:
            check_overrides(strings)
        except StringsError as error:
            raise ValueError(f"rollbook extension, {error}") from None
        features = {name: bool(self.getConfig(name)) for name in FEATURES}
        state = PageState(
            md, presets, features, language=self.getConfig("language") or None, strings=strings
        )
        md.rollbook = state  # type: ignore[attr-defined]
        md.registerExtension(self)
        self.md = md
        state.option_problem = unknown_options_problem(self.unknown_options)
        md.preprocessors.register(_Prescan(state), "rollbook_prescan", PRESCAN_PRIORITY)
        md.inlinePatterns.register(RollInlineProcessor(state), "rollbook_roll", INLINE_PRIORITY)
        md.inlinePatterns.register(
            obsidian.DiceRollerProcessor(state), "rollbook_dice_roller", obsidian.PRIORITY
        )
        md.inlinePatterns.register(
            prose.ProseDiceProcessor(state), "rollbook_prose", prose.PRIORITY
        )
        md.parser.blockprocessors.register(
            plain_block.PlainTableProcessor(state), "rollbook_plain_table", plain_block.PRIORITY
        )
        md.postprocessors.register(_Flush(state), "rollbook_flush", FLUSH_PRIORITY)
        md.postprocessors.register(RefsHere(state), "rollbook_refs", FLUSH_PRIORITY + 1)

    def reset(self) -> None:
        """Reset the page state between documents (Python-Markdown's ``Markdown.reset``)."""
        state = getattr(self.md, "rollbook", None)
        if isinstance(state, PageState):
            state.reset()


def unknown_options_problem(names: list[str]) -> str | None:
    """The sentence for options given to the extension that it does not have, if any."""
    if not names:
        return None
    listed = ", ".join(f"`{name}`" for name in names)
    plugin = [name for name in names if name in PLUGIN_OPTIONS]
    if plugin and len(plugin) == len(names):
        return (
            f"{listed} {'is an option' if len(names) == 1 else 'are options'} of the rollbook "
            "MkDocs plugin, not of the Markdown extension: move "
            f"{'it' if len(names) == 1 else 'them'} under `plugins: - rollbook:` in mkdocs.yml."
        )
    return (
        f"the rollbook Markdown extension has no option {listed}: its options are "
        "`presets`, `plain_tables`, `prose_dice`, `obsidian`, `language` and `strings` (the "
        "MkDocs plugin's options go under `plugins: - rollbook:`)."
    )


#: Options both the extension and the MkDocs plugin take (the plugin's win for its pages).
SHARED_OPTIONS = frozenset({"presets", "language", "strings"})

#: The MkDocs plugin's other options (``rollbook.mkdocs_plugin.config``), named here so the
#: extension can say where one put under it belongs without importing MkDocs.
PLUGIN_OPTIONS = frozenset(
    {
        "enabled", "configure_markdown", "pyodide_path", "pyodide_required", "wheels_icepool",
        "snapshot", "snapshot_cache", "reproducible_date", "assets_javascript",
        "assets_stylesheet", "gm_screen", "offline", "pdf", "pdf_paper", "pdf_chances",
        "pdf_qr", "pdf_black_white", "pdf_style", "pdf_roll_details",
    }
)  # fmt: skip


def makeExtension(**kwargs: Any) -> RollbookExtension:
    """Entry point for ``markdown.Markdown(extensions=["rollbook.markup.extension"])``."""
    return RollbookExtension(**kwargs)
