"""Every size an author or a user controls is bounded before the work, with one sentence.

Each case was minutes of CPU or gigabytes of memory before its limit existed. They run as
child processes under an address-space limit; the timeout only guards against a hang.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rollbook.engine.bridge import handle
from rollbook.engine.limits import value
from rollbook.engine.systems.base import RulesError
from rollbook.engine.systems.dice import SmallDice
from rollbook.engine.systems.montecarlo import simulate
from rollbook.engine.systems.oddswork import check_odds_work, odds_work
from tests.hardening.bounded import assert_one_sentence, rollbook

COMBATANTS = value("fight_combatants")


def block(name: str, **fields: object) -> dict[str, object]:
    return {"name": name, "health": 3, **fields}


def test_prompt_combinations_are_bounded_by_the_values_they_add_up_to(tmp_path: Path) -> None:
    rows = "\n".join(f'  "{i}-{i}": row {i}' for i in range(1, 11))
    (tmp_path / "cov.md").write_text(
        "# Cov\n\n```roll-table\n"
        'roll: "d400,d{{n}}"\nprompts:\n  - name: n\n    min: 1\n    max: 499\n'
        f"results:\n{rows}\n```\n",
        encoding="utf-8",
    )
    done = rollbook(tmp_path, "check", "cov.md")
    assert_one_sentence(done)  # was minutes and gigabytes: a MemoryError under the limit
    assert done.stdout == (
        "cov.md:5: roll-table: coverage not checked: the 499 prompt combinations give more "
        f"than {value('coverage_values')} possible totals in all (the coverage_values limit)\n"
    )


@pytest.mark.parametrize(
    "side",
    [
        "\n".join(f"    - {{name: W{i}, health: 3}}" for i in range(1000)),  # inline blocks
        "\n".join(["    - {ref: wolf, count: 50}"] * 200),  # 200 entries of 50
    ],
    ids=["1000-inline-blocks", "200-entries-of-50"],
)
def test_combat_blocks_are_bounded_by_all_their_combatants(tmp_path: Path, side: str) -> None:
    (tmp_path / "fight.md").write_text(
        "# Fight\n\n```statblock\nid: wolf\nsystem: scars\nname: Wolf\nhealth: 3\n```\n\n"
        f"```combat\nsystem: scars\nsides:\n  a:\n{side}\n  b: [wolf]\n```\n",
        encoding="utf-8",
    )
    done = rollbook(tmp_path, "check", "fight.md")
    assert_one_sentence(done)
    assert done.returncode == 1
    assert f"fight.md:10: combat: a fight may have at most {COMBATANTS} combatants" in done.stdout


def test_a_fight_at_the_combatant_limit_still_runs() -> None:
    half = COMBATANTS // 2
    sides = {"a": [block("A")] * half, "b": [block("B")] * (COMBATANTS - half)}
    reply = handle({"op": "fight", "system": "scars", "sides": sides, "seed": 1})
    assert len(reply["combatants"]) == COMBATANTS and reply["result"]
    sides["b"] = sides["b"] + [block("one too many")]
    reply = handle({"op": "fight", "system": "scars", "sides": sides, "seed": 1})
    assert "fight_combatants limit" in reply["error"]


def test_fight_runs_are_capped_with_a_clear_refusal(tmp_path: Path) -> None:
    (tmp_path / "f.yaml").write_text(
        "system: scars\nsides:\n  a: [{name: A, health: 3}]\n  b: [{name: B, health: 3}]\n"
    )
    done = rollbook(tmp_path, "fight", "f.yaml", "--runs", "1000000", "--seed", "1")
    assert_one_sentence(done)
    assert done.returncode == 2
    assert done.stderr == (
        f"rollbook: f.yaml: runs must be between 1 and {value('simulate_runs')} "
        "(the simulate_runs limit), not 1000000.\n"
    )


def test_fights_that_never_end_stop_at_the_round_budget(tmp_path: Path) -> None:
    wall = "{name: W, kind: pc, health: 1000, attack: 0, ac: 40}"
    (tmp_path / "stale.yaml").write_text(
        f"system: scars\nsides:\n  a: [{wall}, {wall}]\n  b: [{wall}, {wall}]\n"
    )
    done = rollbook(tmp_path, "fight", "stale.yaml", "--runs", "20000", "--seed", "1")
    assert_one_sentence(done)
    assert done.returncode == 2
    assert "these fights last 200 rounds on average" in done.stderr
    assert "(the simulate_rounds limit); use about 2500 runs or fewer." in done.stderr


def test_runs_times_combatants_is_bounded_before_any_fight() -> None:
    sides = {"a": [block("A")] * 50, "b": [block("B")] * 50}
    runs = value("simulate_work") // 100 + 1
    with pytest.raises(RulesError, match="simulate_work limit"):
        simulate("scars", sides, runs, 1)


def test_procedure_odds_are_bounded_before_the_work(tmp_path: Path) -> None:
    done = rollbook(
        tmp_path, "rules", "dark-dungeons", "damage",
        "--set", "damage=100d1000", "--set", "target_hp=10", "--odds",
    )  # fmt: skip
    assert_one_sentence(done)
    assert done.returncode == 2
    assert done.stderr == (
        "rollbook: the exact odds of 100d1000 would take more than "
        f"{value('procedure_odds_work'):,} steps (the procedure_odds_work limit); "
        "use fewer or smaller dice.\n"
    )
    for system, target in (("scars", "health=5"), ("grit-flesh", "flesh=5")):
        more = rollbook(tmp_path, "rules", system, "damage", "--set", "weapon=100d1000",
                        "--set", target, "--odds")  # fmt: skip
        assert_one_sentence(more)
        assert more.returncode == 2
        assert "procedure_odds_work limit" in more.stderr, more.stderr


def test_odds_work_counts_the_steps_of_adding_dice_up() -> None:
    # 2d6: the first die meets 1 total (6 steps), the second 6 totals (36 steps)
    assert odds_work(SmallDice.parse("2d6")) == 42
    assert odds_work(SmallDice.parse("3d4"), every_combination=True) == 64
    check_odds_work(SmallDice.parse("2d1000"))
    with pytest.raises(RulesError):
        check_odds_work(SmallDice.parse("3d1000"))


def test_pages_over_the_size_limit_are_not_converted(tmp_path: Path) -> None:
    limit = value("page_bytes")
    (tmp_path / "huge.md").write_text("# Huge\n\n" + "word " * (limit // 5), encoding="utf-8")
    (tmp_path / "fine.md").write_text("# Fine\n\n![roll:1d6]()\n", encoding="utf-8")
    done = rollbook(tmp_path, "check", ".")
    assert_one_sentence(done)
    assert done.stdout == (
        f"huge.md:1: the page is larger than the page_bytes limit of {limit} bytes; split it.\n"
    )
    assert "2 page(s) checked, 1 problem(s)." in done.stderr


def test_exact_value_caches_hold_a_bounded_number_of_values() -> None:
    from rollbook.engine.tables import dicework
    from rollbook.engine.tables.sizedcache import SizedCache

    cache: SizedCache[str, tuple[int, ...]] = SizedCache(10)
    for size in (4, 4, 4, 11):
        cache(f"n{size}-{len(cache)}", lambda key, n=size: tuple(range(n)))
    assert cache.held == 8 and len(cache) == 2  # the oldest went; the 11 was never kept
    for n in range(90, 96):  # six supports of 40,000 to 40,000+ values each
        dicework.possible_values(f"d400,d{n}")
    assert dicework._SUPPORTS.held <= value("coverage_values")
