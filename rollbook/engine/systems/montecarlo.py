"""Monte Carlo: many seeded fights between the same two sides -> win rates with intervals."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from typing import Any

from rollbook.engine.limits import value
from rollbook.engine.systems import get
from rollbook.engine.systems.base import RulesError
from rollbook.engine.systems.encounter import Fight, build_sides, check_combatant_count

__all__ = ["MAX_RUNS", "simulate", "wilson"]

# Three bounds keep one simulation to a few seconds of CPU at most: runs, runs times
# combatants (both known before any fight), and the combatant-rounds actually played (how
# long fights last is only known while they are played; it stops there with a sentence).
MAX_RUNS = value("simulate_runs")
MAX_WORK = value("simulate_work")
MAX_COMBATANT_ROUNDS = value("simulate_rounds")


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95 % by default)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # the bounds are exactly 0 and 1 at the extremes; floating point would miss them
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def _too_long(runs: int, done: int, rounds: int, combatants: int) -> None:
    average = rounds / done
    fits = max(1, int(MAX_COMBATANT_ROUNDS / (average * combatants)))
    raise RulesError(
        f"these fights last {average:.0f} rounds on average, so {runs} of them would play "
        f"more than {MAX_COMBATANT_ROUNDS} combatant-rounds (the simulate_rounds limit); "
        f"use about {fits} runs or fewer."
    )


def simulate(
    system_id: str,
    sides: Mapping[str, Sequence[Mapping[str, Any]]],
    runs: int,
    seed: int | None = None,
) -> dict[str, Any]:
    """Fight ``runs`` times with one seeded generator and count how the fights ended.

    Returns ``{"runs", "wins": {side: n}, "rates": {side: p}, "ci95": {side: [lo, hi]},
    "fled": {side: n}, "stalemate": n, "avg_rounds": x}``. ``fled`` counts the fights a side
    lost by fleeing or surrendering; ``stalemate`` those nobody won (including mutual
    destruction). Rates and intervals are over all runs.
    """
    if not 1 <= runs <= MAX_RUNS:
        raise RulesError(
            f"runs must be between 1 and {MAX_RUNS} (the simulate_runs limit), not {runs}."
        )
    system = get(system_id)
    count = check_combatant_count(sides) if isinstance(sides, Mapping) else 0
    if runs * count > MAX_WORK:
        raise RulesError(
            f"{runs} fights of {count} combatants is more than the simulate_work limit of "
            f"{MAX_WORK} (fights times combatants); use {MAX_WORK // count} runs or fewer."
        )
    built = build_sides(system, sides)
    names = list(built)
    wins = dict.fromkeys(names, 0)
    fled = dict.fromkeys(names, 0)
    stalemate = 0
    rounds = 0
    rng = random.Random(seed)
    # one set of combatants for every run, reset in place before each (cheaper than copies)
    fresh = {side: [c.fresh() for c in members] for side, members in built.items()}
    everyone = [c for members in fresh.values() for c in members]
    for done in range(runs):
        for c in everyone:
            c.reset()
        result = Fight.from_combatants(system, fresh, rng, quiet=True).run()
        rounds += result.rounds
        if rounds * len(everyone) > MAX_COMBATANT_ROUNDS and done + 1 < runs:
            _too_long(runs, done + 1, rounds, len(everyone))
        if result.winner is None:
            stalemate += 1
            continue
        wins[result.winner] += 1
        if result.reason in ("fled", "surrendered"):
            fled[names[1] if result.winner == names[0] else names[0]] += 1
    return {
        "system": system.id,
        "runs": runs,
        "seed": seed,
        "wins": wins,
        "rates": {side: wins[side] / runs for side in names},
        "ci95": {side: list(wilson(wins[side], runs)) for side in names},
        "fled": fled,
        "stalemate": stalemate,
        "avg_rounds": rounds / runs,
    }
