"""Game systems behind one small interface (`rollbook.engine.systems.base`), and their registry.

Each system lives in its own module; the registry imports a module only when asked for it,
so a plain dice roll never pays for any system.
"""

from __future__ import annotations

import importlib
from typing import Any

from rollbook.engine.systems.base import RulesError, System

__all__ = ["MODULES", "PACKAGES", "field_help", "get", "ids"]

#: The systems' packages under rollbook.engine.systems, in the order lists show them. Each
#: defines ``SYSTEM``, whose ``id`` is the package name written with dashes (a test checks);
#: everything else about a system (names, fields, procedures, odds) lives in its package.
PACKAGES = ("scars", "grit_flesh", "stamina_wounds", "dark_dungeons", "roll_under_atk")

#: system id -> package
MODULES: dict[str, str] = {package.replace("_", "-"): package for package in PACKAGES}


def ids() -> list[str]:
    """The system ids, in registry order (`MODULES`)."""
    return list(MODULES)


def get(system_id: str) -> System[Any, Any]:
    """The system with this id; `RulesError` with the known ids otherwise."""
    try:
        module = MODULES[system_id]
    except KeyError:
        raise RulesError(
            f"unknown system {system_id!r}; known systems: {', '.join(MODULES)}."
        ) from None
    try:
        loaded = importlib.import_module(f"{__name__}.{module}")
    except ModuleNotFoundError as err:
        if err.name != f"{__name__}.{module}":
            raise
        raise RulesError(f"system {system_id!r} is not available in this build yet.") from None
    system: System[Any, Any] = loaded.SYSTEM
    return system


def field_help() -> dict[str, str]:
    """Every system's stat-block field help in English, by catalogue key.

    ``stat.help.<system>.<field>``: a statblock's tooltips; their one home is ``Param.help``.
    """
    return {
        f"stat.help.{system_id}.{param.name}": param.help
        for system_id in ids()
        for param in get(system_id).combatant_fields
    }
