"""Paths inside a built site that an author names (``gm_screen``, the asset paths).

One rule for the MkDocs plugin's options and for ``rollbook assets``/``build``: a page or
file rollbook writes there stays inside the site folder, and its address under the site's
base.
"""

from __future__ import annotations

__all__ = ["site_path_problem"]


def site_path_problem(text: str, *, allow_empty: bool = False) -> str | None:
    """Why ``text`` is not a path inside the site, in one sentence; None if it is one."""
    stripped = text.strip()
    if not stripped:
        return None if allow_empty else "a path inside the site is required, got an empty one."
    parts = stripped.strip("/").split("/")
    bad = (
        stripped.startswith("/")
        or any(part in ("", ".", "..") for part in parts)
        or any(ch in stripped for ch in "\\?#:%")
        or any(ord(ch) < 32 or ord(ch) == 127 for ch in stripped)
    )
    if bad:
        return (
            f"must be a path inside the site such as 'gm/' (relative, no '..' or '.' parts, "
            f"no backslash, no URL or %-escape), not {text!r}."
        )
    return None
