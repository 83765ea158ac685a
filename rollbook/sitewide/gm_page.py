"""The GM screen page: its Markdown and where it lives, without MkDocs.

The MkDocs plugin adds it to a site (``rollbook.mkdocs_plugin.gm_screen``); any other host
can write :data:`GM_MARKDOWN` to ``gm_src_uri(path)`` itself. The page holds one placeholder
that ``assets/rollbook/gm.js`` fills from what the reader pinned on other pages.
"""

from __future__ import annotations

__all__ = ["GM_MARKDOWN", "GM_TITLE", "gm_src_uri"]

GM_TITLE = "GM screen"

GM_MARKDOWN = f"""\
---
title: {GM_TITLE}
search:
  exclude: true
---

# {GM_TITLE}

Everything you pin gathers here: inline rolls, tables, lists and encounters from any page,
each rolling in place with its prompts. Move items up and down, remove them, or share the
screen with another device. The screen is kept in this browser only.

<div class="rb-gm" data-rb-gm><p class="rb-gm-empty">Nothing pinned yet.
Every roll, table, list and encounter has a pin control; what you pin appears here.</p></div>
"""


def gm_src_uri(path: str, folder: str = "") -> str | None:
    """``gm/`` -> ``gm/index.md``; None when the screen is turned off (empty path).

    Args:
        path: The site path of the screen (the plugin's ``gm_screen`` option).
        folder: A folder of the docs the page goes in (a language folder, ``en``).
    """
    path = path.strip().strip("/")
    if not path:
        return None
    return f"{folder.strip('/')}/{path}/index.md" if folder.strip("/") else f"{path}/index.md"
