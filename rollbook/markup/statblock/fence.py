"""The ``statblock`` fence: a creature or character card that ``combat`` blocks can use.

Body (YAML): ``system``, ``name``, optional ``id`` and ``notes`` (inline Markdown), and the
system's stat-block fields (`System.combatant_fields`). The card is a definition list of the
fields the author gave (`rollbook.markup.statblock.render`). The card's anchor is its ``id``,
else the slug of its name.

Every statblock of a page is read once, from the line pre-scan, the first time any
statblock or combat fence of that page is formatted, so a ``combat`` block may name a
statblock written further down the page.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Mapping
from typing import Any, override

from markdown.extensions.toc import slugify

from rollbook.markup.fence_runner import Fence, Parsed, accept, formatter_for
from rollbook.markup.page_state import PageState
from rollbook.markup.prescan import NAME_OF
from rollbook.markup.problems import Problem
from rollbook.markup.statblock.model import Problems, StatBlock
from rollbook.markup.statblock.render import card_html, inline_roll_html
from rollbook.markup.yamlpos import load_mapping

__all__ = [
    "StatBlock",
    "StatblockFence",
    "check_fields",
    "formatter",
    "inline_roll_html",
    "page_statblocks",
    "validator",
]

FENCE = NAME_OF["statblock"]
RESERVED = ("system", "name", "id", "notes")


def _type_name(kind: type) -> str:
    return {int: "a whole number", bool: "true or false", str: "text"}.get(kind, kind.__name__)


def check_fields(
    system: Any,
    data: Mapping[Any, Any],
    positions: Mapping[tuple[Any, ...], int],
    prefix: tuple[Any, ...],
    line: int,
    reserved: tuple[str, ...],
) -> tuple[dict[str, Any], Problems]:
    """Check stat-block fields against ``system.combatant_fields``.

    Args:
        system: The `System`.
        data: The block as YAML gave it (reserved keys are skipped).
        positions: Key paths to page lines (from `load_with_positions`).
        prefix: The block's own key path inside the fence body.
        line: The block's line, for problems without a key of their own (missing fields).
        reserved: Keys that are not stat-block fields (``name``, ``count`` ...).

    Returns:
        The fields (ints, bools and text as typed; a number given for a text field becomes
        text) and the problems.
    """
    from rollbook.engine.systems.base import RulesError

    params = {p.name: p for p in system.combatant_fields}
    out: dict[str, Any] = {}
    problems: Problems = []
    for key, value in data.items():
        if key in reserved:
            continue
        at = positions.get((*prefix, key), line)
        param = params.get(str(key))
        if param is None:
            known = ", ".join(params)
            problems.append(
                Problem(at, f"unknown field {key!r} for {system.id}; its fields are: {known}.")
            )
            continue
        if param.kind is bool and not isinstance(value, bool):
            ok = False
        elif param.kind is int:
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif param.kind is str:
            ok = isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))
            value = str(value) if ok else value
        else:
            ok = True
        if not ok:
            problems.append(
                Problem(at, f"field {key!r} must be {_type_name(param.kind)}, not {value!r}.")
            )
            continue
        try:
            param.coerce(value)
        except RulesError as err:
            said = str(err)
            said = said[len(param.name) + 1 :] if said.startswith(f"{param.name} ") else said
            problems.append(Problem(at, f"field {key!r} {said}"))
            continue
        out[str(key)] = value
    for name, param in params.items():
        if param.default is None and name not in data:
            problems.append(Problem(line, f"missing field {name!r} ({param.help or name})."))
    return out, problems


# -- the page's statblocks -----------------------------------------------------------------

_PAGES: weakref.WeakKeyDictionary[PageState, tuple[object, dict[int, StatBlock]]] = (
    weakref.WeakKeyDictionary()
)


def page_statblocks(state: PageState) -> dict[int, StatBlock]:
    """Every statblock of the page being converted, by fence line (read once per page)."""
    cached = _PAGES.get(state)
    if cached is not None and cached[0] is state.scan:
        return cached[1]
    blocks = {
        site.line: read_statblock(site.body, site.line)
        for site in state.scan.fences
        if site.kind == FENCE
    }
    _PAGES[state] = (state.scan, blocks)
    return blocks


def by_key(state: PageState) -> dict[str, StatBlock]:
    """The page's statblocks by the name ``combat`` blocks use (the first of a repeat)."""
    out: dict[str, StatBlock] = {}
    for block in page_statblocks(state).values():
        out.setdefault(block.key, block)
    return out


def read_statblock(body: str, line: int) -> StatBlock:
    """Parse and check one statblock body whose fence opens on page line ``line``."""
    from rollbook.engine.systems import get
    from rollbook.engine.systems.base import RulesError

    block = StatBlock(key=FENCE, line=line, name="")
    needs = "'system', 'name' and the stat-block fields"
    loaded = load_mapping(body, line, needs, block.problems)
    if loaded is None:
        return block
    data, positions = loaded
    name = data.get("name")
    if isinstance(name, str | int) and not isinstance(name, bool) and str(name).strip():
        block.name = str(name).strip()
    else:
        block.problems.append(
            Problem(positions.get(("name",), line), "needs a 'name' (the text shown on the card).")
        )
    raw_id = data.get("id")
    if raw_id is not None:
        if isinstance(raw_id, str) and raw_id.strip():
            block.explicit_id = raw_id.strip()
        else:
            block.problems.append(Problem(positions.get(("id",), line), "'id' must be text."))
    block.key = block.explicit_id or slugify(block.name, "-") or FENCE
    notes = data.get("notes")
    if notes is not None:
        if isinstance(notes, str):
            block.notes = notes
        else:
            block.problems.append(Problem(positions.get(("notes",), line), "'notes' must be text."))
    system_id = data.get("system")
    if system_id is None:
        block.problems.append(
            Problem(line, f"needs 'system' (one of: {', '.join(_system_ids())}).")
        )
        return block
    try:
        block.system = get(str(system_id))
    except RulesError as err:
        block.problems.append(Problem(positions.get(("system",), line), str(err)))
        return block
    block.fields, problems = check_fields(block.system, data, positions, (), line, RESERVED)
    block.problems.extend(problems)
    if not block.problems:
        try:
            combatant = block.system.make_combatant("card", {"name": block.name, **block.fields})
        except RulesError as err:
            block.problems.append(
                Problem(_line_of(str(err), block.fields, positions, line), str(err))
            )
        else:
            block.stats = combatant.stats
    return block


def _line_of(
    message: str, fields: Mapping[str, Any], positions: Mapping[Any, int], line: int
) -> int:
    """The line of the field a system's own complaint names (``"Wolf's damage must..."``)."""
    for key in fields:
        if re.search(rf"\b{re.escape(key)}\b", message):
            return positions.get((key,), line)
    return line


def _system_ids() -> list[str]:
    from rollbook.engine.systems import ids

    return ids()


# -- the fence ----------------------------------------------------------------------------


class StatblockFence(Fence):
    """``statblock``: a card; every statblock of the page is read before the first is drawn."""

    NAME = FENCE
    KIND = FENCE
    ERROR_TITLE = "This stat block has errors"
    NOUN = "card"
    HEADING_ANCHOR = False  # a card's anchor is its id or its name's slug, never a heading

    @classmethod
    @override
    def prepare(cls, state: PageState) -> None:
        page_statblocks(state)  # read them all before this fence's site is claimed

    @override
    def parse(self) -> Parsed:
        site = self.site
        if site is not None:
            block = page_statblocks(self.state).get(site.line) or read_statblock(
                site.body, site.line
            )
        else:  # no pre-scan (fence used without the extension): lines count from the body
            block = read_statblock(self.src, 0)
        return Parsed(block, block.key, block.problems)

    @override
    def render(self, parsed: Parsed, anchor: str, own_id: bool, errors: list[str]) -> str:
        return card_html(self.state, self.state.md, parsed.value, anchor, own_id)


# -- the names superfences' custom_fences configuration uses --------------------------------

validator = accept

formatter = formatter_for(StatblockFence)
