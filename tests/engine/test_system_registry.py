"""One list of systems (``PACKAGES``); each package declares its id, names and blow odds."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rollbook.engine.systems import MODULES, PACKAGES, get, ids
from rollbook.engine.systems.blow import BlowOdds
from rollbook.markup.combat.odds import pair_odds
from rollbook.scaffold import SYSTEM_NAMES


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_s_system_has_the_package_s_id(package: str) -> None:
    system_id = package.replace("_", "-")
    assert MODULES[system_id] == package
    assert get(system_id).id == system_id


def test_every_list_of_systems_is_the_registry_s() -> None:
    assert ids() == [p.replace("_", "-") for p in PACKAGES]
    assert list(SYSTEM_NAMES) == ids()
    for system_id in ids():
        system = get(system_id)
        assert SYSTEM_NAMES[system_id] == system.name
        assert system.title.split(" (")[0] == system.name


@pytest.mark.parametrize("system_id", [p.replace("_", "-") for p in PACKAGES])
def test_each_system_declares_the_odds_of_an_ordinary_blow(system_id: str) -> None:
    system = get(system_id)
    a = system.make_combatant("A", {"name": "A", **_minimal(system)}).stats
    d = system.make_combatant("B", {"name": "B", **_minimal(system)}).stats
    blow = system.blow_odds(a, d)
    assert isinstance(blow, BlowOdds)
    assert blow.procedure in system.procedures
    odds = pair_odds(system, a, d)
    assert odds is not None and Fraction(0) <= odds.hit <= 1
    assert set(blow.landing) <= set(system.procedure(blow.procedure).outcomes)


def _minimal(system) -> dict[str, object]:  # type: ignore[no-untyped-def]
    """The fields without a default, each given its smallest allowed value."""
    given: dict[str, object] = {}
    for param in system.combatant_fields:
        if param.default is None:
            given[param.name] = param.minimum if param.minimum is not None else "1d6"
    return given
