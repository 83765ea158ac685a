"""Dice letters of other languages (`rollbook.engine.dice.letters`): German ``W``, Polish
and Czech ``k``, Russian and Ukrainian ``к`` read as ``d`` where a die starts, nowhere
else; the bridge and the CLI take the page's (or ``--language``'s) letters."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from rollbook.engine import dice
from rollbook.engine.bridge import handle
from rollbook.engine.dice.letters import letters_for, to_d


@pytest.mark.parametrize(
    ("written", "language", "reads"),
    [
        ("1W20", "de", "1d20"),
        ("W6", "de", "d6"),
        ("3w6+2", "de", "3d6+2"),
        ("4W6kh3", "de", "4d6kh3"),
        ("W%", "de", "d%"),
        ("4WF", "de", "4dF"),
        ("1k6", "pl", "1d6"),
        ("4d6k3", "pl", "4d6k3"),  # keep stays keep
        ("4k6k3", "pl", "4d6k3"),
        ("2K6+1k4", "pl", "2d6+1d4"),
        ("{1k6,1k8}k1", "pl", "{1d6,1d8}k1"),
        ("4k6!k3", "pl", "4d6!k3"),  # explode, then keep
        ("{{ n }}k6", "pl", "{{ n }}d6"),
        ("1k6", "cs", "1d6"),
        ("1к6", "ru", "1d6"),
        ("2К6+к4", "uk", "2d6+d4"),
        ("1к6", "ru-RU", "1d6"),
        ("1W20", "en", "1W20"),  # English has no other letter: the engine says what is wrong
        ("1k6", "de", "1k6"),
        ("max(1k6, 2)", "pl", "max(1d6, 2)"),
    ],
)
def test_the_languages_letter_becomes_d_only_where_a_die_starts(
    written: str, language: str, reads: str
) -> None:
    assert to_d(written, language) == reads
    assert len(to_d(written, language)) == len(written)  # every caret stays in place


@pytest.mark.parametrize(
    ("written", "language", "same_as"),
    [("1W20", "de", "1d20"), ("1k6", "pl", "1d6"), ("4d6k3", "pl", "4d6k3"), ("1к6", "ru", "1d6")],
)
def test_a_letter_of_the_language_rolls_and_has_the_exact_odds_of_d(
    written: str, language: str, same_as: str
) -> None:
    reply = handle({"op": "odds", "expr": written, "language": language})
    assert reply == handle({"op": "odds", "expr": same_as})
    rolled = handle({"op": "roll", "expr": written, "language": language, "seed": 7})
    assert rolled["total"] == dice.roll(same_as, random.Random(7)).total


def test_ambiguous_input_gets_the_engines_caret_under_what_was_written() -> None:
    reply = handle({"op": "roll", "expr": "2d6 k3", "language": "pl"})
    assert reply["kind"] == "DiceSyntaxError"
    assert "'k'" in reply["error"]
    assert reply["caret"] == "2d6 k3\n    ^"
    english = handle({"op": "roll", "expr": "1W20"})
    assert english["caret"] == "1W20\n ^"


def test_letters_are_known_per_base_language() -> None:
    assert letters_for("de-CH") == "Ww"
    assert letters_for("pt-BR") == ""
    assert letters_for(None) == ""


def test_hostile_text_keeps_its_length_and_never_raises() -> None:
    rng = random.Random(3)
    alphabet = "0123456789dkKWwкК%F{}()+-*/,! \t"
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        for language in ("pl", "de", "ru"):
            assert len(to_d(text, language)) == len(text)


@pytest.mark.parametrize(("expr", "language"), [("1W20", "de"), ("1k6", "pl"), ("1к6", "ru")])
def test_the_cli_reads_the_letter_with_language(expr: str, language: str) -> None:
    run = [sys.executable, "-m", "rollbook.cli", "roll", expr, "--language", language, "--json"]
    done = subprocess.run([*run, "--seed", "5"], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout)["notation"].startswith("1d")
    odds = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "odds", expr, "--language", language, "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(odds.stdout)["min"] == 1
    refused = subprocess.run(
        [sys.executable, "-m", "rollbook.cli", "roll", expr], capture_output=True, text=True
    )
    assert refused.returncode == 2 and "^" in refused.stderr
