"""Properties every procedure and fight of every registered system must have.

- odds are exact, cover the outcome set and sum to 1 over a grid of parameters;
- sampled frequencies of ``resolve`` match ``odds`` (chi-square, fixed seeds);
- fights are deterministic per seed, always end, and Monte Carlo adds up.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rollbook.engine.systems import get, ids
from rollbook.engine.systems.base import Param, Procedure, RulesError, System, bind
from rollbook.engine.systems.encounter import Fight
from rollbook.engine.systems.montecarlo import simulate, wilson

SYSTEMS = tuple(ids())

# chi-square 99.9 % quantiles by degrees of freedom: a correct sampler fails 1 time in 1000
CHI2_999 = [10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88, 29.59, 31.26, 32.91]

INTS = (0, 1, 3, 7, 10, 12, 15, 20)
# Parameter combinations `grid` lists before sampling; beyond it, values are drawn one by one.
MAX_PRODUCT = 1_000_000


def candidates(p: Param) -> list[Any]:
    """A few valid values of one parameter (its bounds, its default, typical numbers)."""
    if p.kind is bool:
        return [False, True]
    if p.kind is str:
        return list(p.choices) if p.choices else ["d6", "d8", "d4"]
    low = p.minimum if p.minimum is not None else -5
    high = min(p.maximum if p.maximum is not None else 25, 25)
    values = {v for v in INTS if low <= v <= high} | {low, high}
    if p.default is not None:
        values.add(p.default)
    return sorted(values)


def grid(proc: Procedure, size: int, seed: int) -> list[dict[str, Any]]:
    """Up to ``size`` parameter sets drawn (reproducibly) from the candidates' product."""
    names = [p.name for p in proc.params]
    pools = [candidates(p) for p in proc.params]
    rng = random.Random(seed)
    if math.prod(map(len, pools)) > MAX_PRODUCT:  # too many to list: draw each value
        drawn = (
            dict(zip(names, (rng.choice(pool) for pool in pools), strict=True))
            for _ in range(50 * size)
        )
        return list(itertools.islice(filter(functools.partial(accepted, proc), drawn), size))
    combos = list(itertools.product(*pools))
    picked = combos if len(combos) <= size else rng.sample(combos, size)
    sets = [dict(zip(names, combo, strict=True)) for combo in picked]
    return [params for params in sets if accepted(proc, params)]


def accepted(proc: Procedure, params: dict[str, Any]) -> bool:
    """Whether the rules take this combination; one they refuse must say why in a sentence."""
    try:
        if proc.odds_fn is None:
            proc.resolve(params, random.Random(0))
        else:
            proc.odds(params)
    except RulesError as err:
        assert str(err).endswith("."), err
        return False
    return True


def procedures() -> list[tuple[str, str]]:
    return [(sid, name) for sid in SYSTEMS for name in get(sid).procedures]


@pytest.mark.parametrize(("system_id", "name"), procedures())
def test_odds_are_exact_and_sum_to_one(system_id: str, name: str) -> None:
    proc = get(system_id).procedure(name)
    checked = 0
    for params in grid(proc, 150, seed=7):
        odds = proc.odds(params)
        assert odds is not None
        assert list(odds) == list(proc.outcomes)
        assert all(isinstance(v, Fraction) and 0 <= v <= 1 for v in odds.values())
        assert sum(odds.values()) == 1, params
        checked += 1
    assert checked >= 1


@pytest.mark.parametrize(("system_id", "name"), procedures())
def test_resolve_gives_named_outcomes_with_a_log(system_id: str, name: str) -> None:
    proc = get(system_id).procedure(name)
    rng = random.Random(3)
    sets = grid(proc, 40, seed=11)
    assert sets
    for params in sets:
        outcome = proc.resolve(params, rng)
        assert outcome.name in proc.outcomes
        assert outcome.log and outcome.log.endswith(".")
        assert outcome.to_dict()["outcome"] == outcome.name


def chi_square(observed: Counter[str], odds: dict[str, Fraction], n: int) -> tuple[float, int]:
    """Chi-square statistic and degrees of freedom, pooling cells expected below 5."""
    cells: list[tuple[float, int]] = []
    pool_e, pool_o = 0.0, 0
    for name, p in odds.items():
        expected = float(p) * n
        if expected < 5:
            pool_e += expected
            pool_o += observed[name]
        else:
            cells.append((expected, observed[name]))
    if pool_e > 0:
        cells.append((pool_e, pool_o))
    stat = sum((o - e) ** 2 / e for e, o in cells)
    return stat, len(cells) - 1


@pytest.mark.parametrize(("system_id", "name"), procedures())
def test_sampled_frequencies_match_odds(system_id: str, name: str) -> None:
    proc = get(system_id).procedure(name)
    n = 3000
    sets = grid(proc, 3, seed=5)
    assert sets
    for index, params in enumerate(sets):
        odds = proc.odds(params)
        assert odds is not None
        bound = bind(proc.params, params)
        rng = random.Random(2000 + index)
        seen = Counter(proc.resolve_fn(bound, rng).name for _ in range(n))
        for outcome, p in odds.items():
            if p == 0:
                assert seen[outcome] == 0, (outcome, params)
        stat, df = chi_square(seen, odds, n)
        if df >= 1:
            assert stat < CHI2_999[df - 1], (params, seen, odds)


def test_chi_square_catches_a_wrong_sampler() -> None:
    """The check above must be able to fail: a biased coin against fair odds."""
    seen = Counter({"a": 1700, "b": 1300})
    stat, df = chi_square(seen, {"a": Fraction(1, 2), "b": Fraction(1, 2)}, 3000)
    assert df == 1 and stat > CHI2_999[0]


# -- fights --------------------------------------------------------------------------------

FILES = {
    "scars": "scars_4v4.yaml",
    "grit-flesh": "grit_flesh_4v4.yaml",
    "stamina-wounds": "stamina_wounds_4v4.yaml",
    "dark-dungeons": "dark_dungeons_2v3.yaml",
    "roll-under-atk": "roll_under_atk_2v3.yaml",
}


def load_sides(system_id: str) -> dict[str, Any]:
    import pathlib

    import yaml  # tests may use yaml; the engine may not

    path = pathlib.Path(__file__).parent / "fights" / FILES[system_id]
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert data["system"] == system_id
    sides: dict[str, Any] = data["sides"]
    return sides


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_fights_are_deterministic_and_end(system_id: str) -> None:
    system = get(system_id)
    sides = load_sides(system_id)
    for seed in range(25):
        a = Fight.start(system, sides, random.Random(seed))
        a.run()
        b = Fight.start(system, sides, random.Random(seed))
        b.run()
        assert a.to_dict() == b.to_dict()
        assert a.result is not None and a.result.reason in {
            "defeated",
            "fled",
            "surrendered",
            "stalemate",
        }
        assert a.lines[-1].startswith("Fight over after")
        if a.result.winner is not None:
            loser = a.other(a.result.winner)
            assert not a.active(loser)
            assert a.active(a.result.winner)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_step_by_step_equals_run(system_id: str) -> None:
    system = get(system_id)
    sides = load_sides(system_id)
    stepped = Fight.start(system, sides, random.Random(9))
    rounds = 0
    while not stepped.ended:
        stepped.step()
        rounds += 1
    whole = Fight.start(system, sides, random.Random(9))
    whole.run()
    assert stepped.to_dict() == whole.to_dict()
    assert stepped.result is not None and stepped.result.rounds == rounds
    data = whole.to_dict()
    assert set(data) >= {"system", "round", "log", "result", "combatants"}
    assert json.loads(json.dumps(data)) == data  # JSON-safe, for the browser bridge
    if type(system).status is not System.status:  # the systems that report running numbers
        assert all(c["status"] for c in data["combatants"])
    assert data["result"]["winner"] in (*sides, None)


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_quiet_fight_rolls_the_same_dice(system_id: str) -> None:
    """Monte Carlo skips the log; the dice (and so the result) must not change."""
    system = get(system_id)
    sides = load_sides(system_id)
    for seed in range(10):
        loud = Fight.start(system, sides, random.Random(seed))
        loud.run()
        from rollbook.engine.systems.encounter import build_sides

        quiet = Fight.from_combatants(
            system, build_sides(system, sides), random.Random(seed), quiet=True
        )
        quiet.run()
        assert quiet.lines == []
        assert quiet.to_dict()["result"] == loud.to_dict()["result"]


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_monte_carlo_adds_up_and_repeats(system_id: str) -> None:
    sides = load_sides(system_id)
    report = simulate(system_id, sides, 300, seed=4)
    assert report == simulate(system_id, sides, 300, seed=4)
    assert report["runs"] == 300
    assert sum(report["wins"].values()) + report["stalemate"] == 300
    for side in sides:
        lo, hi = report["ci95"][side]
        assert lo <= report["rates"][side] <= hi
        assert report["fled"][side] <= 300 - report["wins"][side]
    assert report["avg_rounds"] >= 1


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_simulate_rejects_bad_runs() -> None:
    with pytest.raises(RulesError, match="runs must be between"):
        simulate("scars", load_sides("scars"), 0, seed=1)


@st.composite
def fight_sides(draw: st.DrawFn, system_id: str) -> dict[str, list[dict[str, Any]]]:
    """Two sides of random but valid stat blocks for the system."""
    system = get(system_id)
    sides: dict[str, list[dict[str, Any]]] = {}
    for side in ("a", "b"):
        blocks = []
        for i in range(draw(st.integers(1, 4))):
            block: dict[str, Any] = {"name": f"{side}{i}"}
            for p in system.combatant_fields:
                if p.default is None or draw(st.booleans()):
                    pool = candidates(p)
                    if p.kind is int:
                        pool = [v for v in pool if v <= 20] or pool
                    block[p.name] = draw(st.sampled_from(pool))
            blocks.append(block)
        sides[side] = blocks
    return sides


@settings(max_examples=60, deadline=None)
@given(data=st.data(), system_id=st.sampled_from(SYSTEMS), seed=st.integers(0, 2**32 - 1))
def test_any_valid_fight_ends(data: st.DataObject, system_id: str, seed: int) -> None:
    system = get(system_id)
    sides = data.draw(fight_sides(system_id))
    try:
        fight = Fight.start(system, sides, random.Random(seed))
    except RulesError as err:  # e.g. a stat block that starts already dead
        assert str(err).endswith(".")
        return
    result = fight.run()
    assert result.rounds <= 200
    assert fight.ended and fight.lines[-1].startswith("Fight over")


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_bad_stat_blocks_are_plain_sentences(system_id: str) -> None:
    system = get(system_id)
    with pytest.raises(RulesError, match=r"side 'b', combatant 'X': missing parameter"):
        Fight.start(
            system,
            {"a": load_sides(system_id)[next(iter(load_sides(system_id)))], "b": [{"name": "X"}]},
            random.Random(1),
        )
    with pytest.raises(RulesError, match="exactly two sides"):
        Fight.start(system, {"a": [{"name": "X"}]}, random.Random(1))
    with pytest.raises(RulesError, match="list of one or more"):
        Fight.start(system, {"a": [], "b": []}, random.Random(1))


def test_registry_names_unknown_systems() -> None:
    with pytest.raises(RulesError, match="unknown system 'nope'; known systems: scars"):
        get("nope")
    with pytest.raises(RulesError, match="has no procedure 'fly'"):
        get("scars").procedure("fly")


def test_engine_systems_never_import_yaml() -> None:
    import pathlib

    import rollbook.engine.systems as systems

    root = pathlib.Path(systems.__file__).parent
    modules = sorted(root.rglob("*.py"))
    assert {p.stem for p in modules} >= {"base", "encounter", "montecarlo", "rules", "combat"}
    for module in modules:
        text = module.read_text(encoding="utf-8")
        assert "import yaml" not in text and "mkdocs" not in text, module


@pytest.mark.parametrize("system_id", SYSTEMS)
def test_card_keys_are_ignored_but_other_keys_are_not(system_id: str) -> None:
    system = get(system_id)
    sides = load_sides(system_id)
    first, second = sides
    with_notes = {
        first: [{**b, "id": f"c{i}", "notes": "a card note"} for i, b in enumerate(sides[first])],
        second: sides[second],
    }
    a = Fight.start(system, with_notes, random.Random(5))
    b = Fight.start(system, sides, random.Random(5))
    assert a.run() == b.run()
    with pytest.raises(RulesError, match="unknown parameter 'colour'"):
        Fight.start(
            system,
            {first: [{**sides[first][0], "colour": "red"}], second: sides[second]},
            random.Random(5),
        )
