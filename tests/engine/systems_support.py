"""Shared pieces of the game-system tests: scripted dice, exact odds, chi-square checks."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any

from rollbook.engine.systems.base import Outcome, Param, Procedure, RulesError, System, bind

__all__ = [
    "ScriptedDice",
    "candidates",
    "check_procedure_on_random_grid",
    "chi_square_critical",
    "exact_odds",
    "pooled_chi_square",
    "random_grid",
    "resolve_scripted",
]


class ScriptedDice(random.Random):
    """A generator whose ``randint`` answers are the faces we list, in order.

    Systems route every die of a non-plain ``random.Random`` through ``randint``, so the
    test decides each die; asking for more dice than listed fails the test.
    """

    def __init__(self, *faces: int) -> None:
        super().__init__(0)
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        assert self.faces, "the rules asked for more dice than the test expected"
        face = self.faces.pop(0)
        assert a <= face <= b, f"scripted {face} is not a face of {a}..{b}"
        return face


def resolve_scripted(system: System, name: str, *faces: int, **params: Any) -> Outcome:
    """Resolve a procedure with the listed dice, checking every listed die was used."""
    rng = ScriptedDice(*faces)
    outcome = system.procedure(name).resolve(params, rng)
    assert rng.faces == [], "not every listed die was used"
    return outcome


def exact_odds(system: System, name: str, **params: Any) -> dict[str, Fraction]:
    """A procedure's exact odds, which must exist."""
    result = system.procedure(name).odds(params)
    assert result is not None
    return result


def chi_square_critical(df: int, z: float = 3.719) -> float:
    """Wilson-Hilferty approximation of the chi-square quantile (z=3.719: p = 0.0001)."""
    k = 2 / (9 * df)
    return df * (1 - k + z * math.sqrt(k)) ** 3


def candidates(p: Param) -> list[Any]:
    """A few valid values of one parameter: its bounds, its default and some typical numbers."""
    if p.kind is bool:
        return [False, True]
    if p.kind is str:
        return list(p.choices) if p.choices else ["1d6", "2d4+1", "3"]
    low = p.minimum if p.minimum is not None else -5
    high = min(p.maximum if p.maximum is not None else 25, 25)
    values = {v for v in (0, 1, 3, 7, 10, 12, 15, 20) if low <= v <= high} | {low, high}
    if p.default is not None:
        values.add(p.default)
    return sorted(values)


def random_grid(proc: Procedure, size: int, seed: int) -> list[dict[str, Any]]:
    """``size`` parameter sets, each value drawn from `candidates` (a full grid is too big)."""
    rng = random.Random(seed)
    return [{p.name: rng.choice(candidates(p)) for p in proc.params} for _ in range(size)]


def pooled_chi_square(seen: Counter[str], odds: dict[str, Fraction], n: int) -> tuple[float, int]:
    """Statistic and degrees of freedom, pooling the cells expected fewer than 5 times."""
    cells: list[tuple[float, int]] = []
    pool_e, pool_o = 0.0, 0
    for name, p in odds.items():
        expected = float(p) * n
        if expected < 5:
            pool_e, pool_o = pool_e + expected, pool_o + seen[name]
        else:
            cells.append((expected, seen[name]))
    if pool_e > 0:
        cells.append((pool_e, pool_o))
    return sum((o - e) ** 2 / e for e, o in cells), len(cells) - 1


def check_procedure_on_random_grid(system: System, name: str) -> None:
    """Odds are a distribution over the named outcomes, and sampling agrees with them.

    Impossible parameter combinations must be refused with a sentence; at least 10 of the
    120 drawn sets must be usable.
    """
    proc = system.procedure(name)
    usable = 0
    for params in random_grid(proc, 120, seed=7):
        try:
            odds = proc.odds(params)
        except RulesError as err:  # an impossible combination is refused in a sentence
            assert str(err).endswith(".")
            continue
        usable += 1
        assert odds is not None and list(odds) == list(proc.outcomes)
        assert sum(odds.values()) == 1 and all(0 <= v <= 1 for v in odds.values())
        outcome = proc.resolve(params, random.Random(usable))
        assert outcome.name in proc.outcomes and outcome.log.endswith(".")
        if usable <= 2:
            n = 2000
            rng = random.Random(900 + usable)
            bound = bind(proc.params, params)
            seen = Counter(proc.resolve_fn(bound, rng).name for _ in range(n))
            assert all(odds[k] > 0 for k in seen), (params, seen)
            stat, df = pooled_chi_square(seen, odds, n)
            if df >= 1:
                assert stat < chi_square_critical(df), (params, seen, odds)
    assert usable >= 10
