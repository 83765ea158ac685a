"""``rollbook roll`` and ``rollbook odds``: output formats and exit codes."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from rollbook.cli import main
from rollbook.engine.dice import roll


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_roll_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "4d6kh3", "--seed", "5")
    assert code == 0
    assert out.strip() == roll("4d6kh3", random.Random(5)).text()


def test_roll_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "roll", "2d6+1", "--seed", "9", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["total"] == roll("2d6+1", random.Random(9)).total
    assert len(data["parts"][0]["dice"]) == 2
    assert data["total"] == sum(d["value"] for d in data["parts"][0]["dice"]) + 1


def test_roll_json_comma(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "roll", "d6,d6", "--seed", "1", "--json")
    total = json.loads(out)["total"]
    assert isinstance(total, list) and len(total) == 2


def test_odds_json_exact_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "2d6", "--json")
    data = json.loads(out)
    assert code == 0
    assert list(data) == ["min", "max", "mean", "distribution"]
    assert (data["min"], data["max"], data["mean"]) == (2, 12, "7/1")
    assert data["distribution"]["2"] == "1/36"
    assert data["distribution"]["7"] == "1/6"
    assert list(data["distribution"]) == [str(v) for v in range(2, 13)]


def test_odds_json_comma_keys(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "odds", "d6,d6", "--json")
    data = json.loads(out)
    assert data["distribution"]["1,6"] == "1/36"
    assert len(data["distribution"]) == 36
    assert (data["min"], data["max"]) == ([1, 1], [6, 6])


def test_odds_json_fraction_values(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "odds", "1d2/2", "--json")
    data = json.loads(out)
    assert data == {
        "min": "1/2",
        "max": 1,
        "mean": "3/4",
        "distribution": {"1/2": "1/2", "1": "1/2"},
    }


def test_odds_text_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "2d6")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "2d6"
    row7 = next(line for line in lines if line.split()[:1] == ["7"])
    assert "16.667%" in row7 and row7.rstrip().endswith("#" * 40)
    assert lines[-1].startswith("min 2  max 12  mean 7")


@pytest.mark.parametrize(
    "argv",
    [["roll", "3d6+"], ["odds", "2d"], ["roll", "1/0"], ["odds", "1000d6"], ["roll", "{{ x }}d6"]],
)
def test_errors_exit_2_with_caret(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("rollbook: ")
    assert "Traceback" not in err


def test_console_script_error_output() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "roll", "3d6+"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr.splitlines()[-2:] == ["3d6+", "    ^"]
