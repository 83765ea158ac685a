"""What the browser worker imports, and when: the first roll's code first, the rest after.

A plain start (no memory snapshot) imports `FIRST` before the worker says it is ready:
the bridge and the dice, all a first inline roll needs. The tables' code, the rule
systems and icepool come right after (`later`), one module per task of the worker, once
the page has let it know it is idle; a request that arrives meanwhile waits for at most
the one module being imported. A request that needs a module not imported yet
(`pending`) has it imported before the worker tells the page it has begun the request:
the page's 1 s runaway watchdog counts from that moment, so it never fires for an import.
A restored snapshot holds every module already (``rollbook.site_runtime.snapshot`` imports
these same lists), and `later` is then empty.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

__all__ = ["FIRST", "ODDS", "imported", "later", "missing", "prepare", "step"]

#: Imported before ready: what a first inline roll needs.
FIRST: tuple[str, ...] = (
    "rollbook.engine.bridge",
    "rollbook.engine.dice",
    "rollbook.engine.dice.letters",  # every roll reads the page's dice letter
    __name__,
)
_TABLES = ("rollbook.engine.tables",)
_SYSTEMS = "rollbook.engine.systems"
_FIGHTS = (_SYSTEMS, "rollbook.engine.systems.encounter")
_SIMULATE = (*_FIGHTS, "rollbook.engine.systems.montecarlo")
#: Exact odds: icepool (the largest import by far) and the engine's code around it.
ODDS: tuple[str, ...] = ("icepool", "rollbook.engine.dice.dist", "rollbook.engine.dice.exact")
# What each op imports beyond FIRST (a system's own module is added once the registry is in).
_NEEDS: dict[str, tuple[str, ...]] = {
    "roll": (),
    "odds": ODDS,
    "table": _TABLES,
    "table_odds": (*_TABLES, *ODDS),
    "rules": (_SYSTEMS,),
    "fight": _FIGHTS,
    "simulate": _SIMULATE,
}
_failed: set[str] = set()  # modules whose import failed: not tried again before a request


def _systems() -> list[str]:
    """Every rule system's module (the registry is imported by then)."""
    from rollbook.engine.systems import MODULES

    return [f"{_SYSTEMS}.{module}" for module in MODULES.values()]


def later() -> list[str]:
    """Everything a plain start leaves for after ready, in the order `step` imports it.

    Tables (on most rules pages), the rule systems, then exact odds. The snapshot holds
    ``FIRST`` and all of these (``rollbook.site_runtime.snapshot``).
    """
    return [*_TABLES, *_SIMULATE, *_systems(), *ODDS]


def missing() -> list[str]:
    """What `later` names that is not imported yet, for the page's record.

    The systems' own modules are named once their registry is in (naming them takes
    importing it).
    """
    names = [*_TABLES, *_SIMULATE, *(_systems() if _SYSTEMS in sys.modules else ()), *ODDS]
    return [name for name in names if name not in sys.modules]


def _load(name: str) -> None:
    try:
        importlib.import_module(name)
    except Exception as error:  # a missing odds library, say: the request says so itself
        _failed.add(name)
        print(f"rollbook engine: {name} could not be imported: {error}", file=sys.stderr)


def _next(names: tuple[str, ...] | list[str]) -> str:
    return next((n for n in names if n not in sys.modules and n not in _failed), "")


def step() -> str:
    """Import the next module `later` names that is not imported yet.

    Returns:
        Its name, or "" when none is left. One module per call, so a request waits for one
        at most.
    """
    order = (*_TABLES, *_SIMULATE)
    name = _next(order) or (_next(_systems()) if _SYSTEMS in sys.modules else "")
    name = name or _next(ODDS)
    if name:
        _load(name)
    return name


def _needs(request: Any) -> list[str]:
    if not isinstance(request, dict) or not isinstance(request.get("op"), str):
        return []
    needs = list(_NEEDS.get(request["op"], ()))
    system = request.get("system")
    if needs[:1] == [_SYSTEMS] and isinstance(system, str) and _SYSTEMS in sys.modules:
        from rollbook.engine.systems import MODULES

        if system in MODULES:
            needs.append(f"{_SYSTEMS}.{MODULES[system]}")
    return needs


def prepare(text: str) -> list[str]:
    """Import what the request in ``text`` (the bridge's JSON) needs and is not imported yet.

    Returns:
        Those modules' names. Unreadable requests need nothing (the bridge answers them
        with a sentence), nor do modules that failed to import.
    """
    try:
        request: Any = json.loads(text)
    except (ValueError, RecursionError):
        return []
    done: list[str] = []
    while name := _next(_needs(request)):  # the system's module is known once its registry is in
        _load(name)
        done.append(name)
    return done


def imported() -> int:
    """How many modules are imported (the worker compares it around a request)."""
    return len(sys.modules)
