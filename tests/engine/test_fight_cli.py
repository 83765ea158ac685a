"""`rollbook rules` and `rollbook fight`: output shapes, determinism, plain-sentence errors."""

from __future__ import annotations

import json
import pathlib

import pytest

from rollbook.cli import main

FIGHTS = pathlib.Path(__file__).parent / "fights"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_rules_lists_every_system(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    for system_id in ("scars", "grit-flesh", "stamina-wounds", "dark-dungeons", "roll-under-atk"):
        assert system_id in out
    code, out, _ = run(capsys, "rules", "--json")
    ids = [row["id"] for row in json.loads(out)["systems"]]
    assert ids[:3] == ["scars", "grit-flesh", "stamina-wounds"]


def test_rules_system_lists_procedures_and_parameters(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "scars")
    assert code == 0
    assert "  attack: " in out and "attribute (int, 0..40, required)" in out
    assert "-> stun, hit, armour_dent, armour_broken, miss" in out
    assert "Stat-block fields" in out
    code, out, _ = run(capsys, "rules", "grit-flesh", "--json")
    data = json.loads(out)
    morale = next(p for p in data["procedures"] if p["name"] == "morale")
    assert morale["params"][0]["name"] == "morale"
    assert {"stands", "flees"} <= set(morale["outcomes"])


def test_odds_json_is_exactly_outcomes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "rules", "grit-flesh", "morale", "--set", "morale=10", "--odds", "--json"
    )
    assert code == 0
    assert json.loads(out) == {"outcomes": {"stands": "11/20", "flees": "9/20"}}
    code, out, _ = run(
        capsys, "rules", "grit-flesh", "morale", "--set", "morale=20", "--odds", "--json"
    )
    assert json.loads(out) == {"outcomes": {"stands": "1/1", "flees": "0/1"}}


def test_odds_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "scars", "reaction", "--odds")
    assert code == 0
    assert out.splitlines()[0].split() == ["friendly", "1/12", "8.33", "%"]


def test_seeded_roll_repeats(capsys: pytest.CaptureFixture[str]) -> None:
    args = (
        "rules",
        "stamina-wounds",
        "attack",
        "--set",
        "weapon=d8",
        "--set",
        "slots=2",
        "--set",
        "max_wounds=10",
        "--seed",
        "17",
        "--json",
    )
    _, first, _ = run(capsys, *args)
    _, second, _ = run(capsys, *args)
    assert first == second
    data = json.loads(first)
    assert data["system"] == "stamina-wounds" and data["procedure"] == "attack"
    assert data["seed"] == 17 and data["outcome"] in (
        "no_damage",
        "stamina",
        "pain",
        "gear",
        "bleeding",
        "mortal",
        "dead",
    )
    assert isinstance(data["log"], str) and data["dice"]
    code, out, _ = run(
        capsys, "rules", "scars", "attack", "--set", "attribute=12", "--set", "ac=4", "--seed", "3"
    )
    assert code == 0 and out.split(":")[0] in ("stun", "hit", "armour_dent", "miss")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("rules", "nope"), "unknown system 'nope'"),
        (("rules", "scars", "fly"), "scars has no procedure 'fly'"),
        (("rules", "scars", "attack", "--set", "ac=3"), "missing parameter 'attribute'"),
        (
            (
                "rules",
                "scars",
                "attack",
                "--set",
                "attribute=12",
                "--set",
                "ac=3",
                "--set",
                "luck=1",
            ),
            "unknown parameter 'luck'",
        ),
        (
            ("rules", "scars", "attack", "--set", "attribute=twelve", "--set", "ac=3"),
            "attribute must be a whole number",
        ),
        (
            ("rules", "grit-flesh", "morale", "--set", "morale=21", "--odds"),
            "morale must be at most 20",
        ),
        (("rules", "scars", "attack", "--set", "attribute"), "--set needs NAME=VALUE"),
        (("rules", "scars", "--odds"), "name a procedure of scars"),
        (("rules", "--seed", "3"), "name a system and a procedure"),
        (
            (
                "rules",
                "stamina-wounds",
                "attack",
                "--set",
                "weapon=2d6",
                "--set",
                "max_wounds=3",
                "--odds",
            ),
            "rolls one die",
        ),
    ],
)
def test_bad_rules_input_is_one_sentence(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("rollbook: ") and message in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_odds_and_seed_do_not_mix(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["rules", "scars", "reaction", "--odds", "--seed", "1"])
    assert stop.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


# -- fight -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(p.name for p in FIGHTS.glob("*.yaml")))
def test_fight_file_runs_and_repeats(capsys: pytest.CaptureFixture[str], name: str) -> None:
    path = str(FIGHTS / name)
    code, first, _ = run(capsys, "fight", path, "--seed", "8", "--json")
    assert code == 0
    _, second, _ = run(capsys, "fight", path, "--seed", "8", "--json")
    assert first == second
    data = json.loads(first)
    assert set(data) == {"seed", "system", "round", "log", "events", "result", "combatants"}
    assert data["seed"] == 8 and data["result"]["reason"] in (
        "defeated",
        "fled",
        "surrendered",
        "stalemate",
    )
    assert data["log"][-1].startswith("Fight over after")
    code, text, _ = run(capsys, "fight", path, "--seed", "8")
    assert code == 0 and text.splitlines()[1:] == data["log"]


def test_fight_runs_gives_rates(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(FIGHTS / "scars_4v4.yaml")
    code, out, _ = run(capsys, "fight", path, "--runs", "200", "--seed", "2", "--json")
    assert code == 0
    data = json.loads(out)
    assert {"runs", "wins", "rates", "ci95", "fled", "stalemate", "avg_rounds"} <= set(data)
    assert data["runs"] == 200 and set(data["wins"]) == {"party", "brigands"}
    assert sum(data["wins"].values()) + data["stalemate"] == 200
    _, again, _ = run(capsys, "fight", path, "--runs", "200", "--seed", "2", "--json")
    assert again == out
    code, text, _ = run(capsys, "fight", path, "--runs", "50", "--seed", "2")
    assert code == 0 and "party: wins" in text and "95 % interval" in text


def write(tmp_path: pathlib.Path, body: str) -> str:
    path = tmp_path / "fight.yaml"
    path.write_text(body, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("system: scars\nsides:\n\t- x\n", ":3: not valid YAML"),
        ("- just a list\n", "expected a mapping with `system` and `sides`"),
        ("system: scars\n", "missing `sides`"),
        ("system: scars\nsides: {a: [], b: []}\nextra: 1\n", "unknown key 'extra'"),
        ("system: chess\nsides: {a: [], b: []}\n", "unknown system 'chess'"),
        ("system: scars\nsides: {a: [{name: X, health: 3}]}\n", "exactly two sides"),
        (
            "system: scars\nsides: {a: [{name: X, health: 3}], b: [{name: Y}]}\n",
            "side 'b', combatant 'Y': missing parameter 'health'",
        ),
        (
            "system: scars\nsides: {a: [{name: X, health: 3, damage: lots}], b: [{health: 2}]}\n",
            "X's damage must look like 1d6",
        ),
        (
            "system: scars\nsides: {a: [{health: 3}], b: [{health: -2}]}\n",
            "health must be at least 1",
        ),
    ],
)
def test_bad_fight_files_are_one_sentence(
    capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path, body: str, message: str
) -> None:
    code, out, err = run(capsys, "fight", write(tmp_path, body))
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_missing_fight_file(capsys: pytest.CaptureFixture[str], tmp_path: pathlib.Path) -> None:
    code, _, err = run(capsys, "fight", str(tmp_path / "none.yaml"))
    assert code == 2 and "no such file" in err


def test_bad_runs(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "fight", str(FIGHTS / "scars_crypt.yaml"), "--runs", "0")
    assert code == 2 and "runs must be between 1 and" in err
