"""One chance, one text: the Python formatters (engine/numbers.py) and their JS twins
(assets/page/numbers.js) agree on a corpus of fractions, with every option.

The build writes a table's chances with the Python ones; the page rewrites them with the JS
ones when a prompt changes, so a reader who sets a prompt back sees the same text again.
"""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rollbook.engine.dice import odds
from rollbook.engine.numbers import fraction_text, percent_text

NUMBERS_JS = Path(__file__).resolve().parents[2] / "rollbook" / "assets" / "page" / "numbers.js"

# Chances a rules site shows (whole distributions), the edges of rounding (exact halves,
# just below the smallest shown value, exactly at it), and fractions past 2**53.
CORPUS: list[Fraction] = sorted(
    {
        *(
            p
            for notation in ("2d6", "3d6", "d20", "4d6kh3", "d100", "2d20kl1", "8d6")
            for p in odds(notation).pmf.values()
        ),
        Fraction(0),
        Fraction(1),
        Fraction(1, 2),
        Fraction(1, 3),
        Fraction(2, 3),
        Fraction(1, 8),
        Fraction(1, 16),  # 6.25%
        Fraction(9, 16),  # 56.25%
        Fraction(1, 400),  # 0.25%: a half at one decimal
        Fraction(49, 400),  # 12.25%
        Fraction(7, 16),  # 43.75%
        Fraction(3, 2000),  # 0.15%: a half that is no binary fraction
        Fraction(1, 2000),
        Fraction(1, 1000),  # exactly 0.1%
        Fraction(999, 1_000_000),
        Fraction(1, 1001),
        Fraction(99_999, 100_000),
        Fraction(1, 6**30),
        Fraction(6**30 - 1, 6**30),
        Fraction(5**40, 6**40),
        Fraction(3, 1),
        Fraction(-1, 8),
    }
)

PERCENT_OPTIONS = [
    {"digits": d, "trim": t, "floor": f}
    for d, t, f in itertools.product((0, 1, 2, 3), (True, False), (True, False))
]

SCRIPT = """
import { fractionText, percentText } from "./numbers.js";
const { fractions, options } = JSON.parse(process.argv[1]);
const out = fractions.map((pq) => ({
  fraction: fractionText(pq),
  whole: fractionText(pq, { whole: true }),
  percents: options.map((how) => percentText(pq, how)),
}));
process.stdout.write(JSON.stringify(out));
"""


def _js(fractions: list[str]) -> list[dict[str, Any]]:
    node = shutil.which("node")
    assert node, "node is needed to run the browser formatters (it runs in CI)"
    proc = subprocess.run(
        [
            node,
            "--input-type=module",
            "-e",
            SCRIPT,
            json.dumps({"fractions": fractions, "options": PERCENT_OPTIONS}),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=NUMBERS_JS.parent,
        timeout=60,
    )
    return list(json.loads(proc.stdout))


@pytest.fixture(scope="module")
def browser() -> dict[str, dict[str, Any]]:
    texts = [f"{f.numerator}/{f.denominator}" for f in CORPUS]
    return dict(zip(texts, _js(texts), strict=True))


def test_corpus_reaches_every_rounding_edge() -> None:
    assert len(CORPUS) > 80
    assert percent_text(Fraction(1, 400)) == "0.2%"  # a half goes to the even digit
    assert percent_text(Fraction(1, 16)) == "6.2%"
    assert percent_text(Fraction(7, 16)) == "43.8%"
    assert percent_text(Fraction(3, 2000)) == "0.2%"  # from the exact value, not the float's
    assert percent_text(Fraction(1, 2000)) == "<0.1%"
    assert percent_text(Fraction(1, 1000)) == "0.1%"
    assert percent_text(Fraction(1, 2), trim=False, floor=False) == "50.0%"
    assert percent_text(Fraction(1, 6**30), digits=3, floor=False) == "0%"
    assert fraction_text(Fraction(7)) == "7/1"
    assert fraction_text(Fraction(7), whole=True) == "7"


@pytest.mark.parametrize("share", CORPUS, ids=str)
def test_python_and_js_write_the_same_text(
    share: Fraction, browser: dict[str, dict[str, Any]]
) -> None:
    js = browser[f"{share.numerator}/{share.denominator}"]
    assert js["fraction"] == fraction_text(share)
    assert js["whole"] == fraction_text(share, whole=True)
    assert js["percents"] == [percent_text(share, **how) for how in PERCENT_OPTIONS]


def test_js_reduces_and_refuses_like_python() -> None:
    # Hand-written data-rb-p values: not in lowest terms, or no fraction at all.
    fraction, whole, garbage, zero = _js(["2/4", "14/2", "two/3", "1/0"])
    assert fraction["fraction"] == fraction_text(Fraction(2, 4)) == "1/2"
    assert whole["whole"] == fraction_text(Fraction(14, 2), whole=True) == "7"
    assert garbage["fraction"] == "two/3" and garbage["percents"][0] == ""
    assert zero["fraction"] == "1/0" and zero["percents"][0] == ""


# -- every shipped language: the build (Babel) and the page (numbers.js + the catalogue's
# -- signs, Intl.PluralRules) write the same text -------------------------------------

LANGUAGE_SCRIPT = """
import { numberText, pluralCategory } from "./i18n.js";
import { formatTotal, percentText } from "./numbers.js";
const { languages, fractions, options, numbers, counts } = JSON.parse(process.argv[1]);
const out = {};
for (const lang of languages) {
  globalThis.document = { documentElement: { lang }, querySelector: () => null };
  out[lang] = {
    percents: fractions.map((pq) => options.map((how) => percentText(pq, how))),
    numbers: numbers.map((n) => numberText(n)),
    totals: [formatTotal(3.5), formatTotal(12345), formatTotal([3, 5])],
    plurals: counts.map((n) => pluralCategory(n)),
  };
}
process.stdout.write(JSON.stringify(out));
"""
LANGUAGE_OPTIONS = [{}, {"trim": False, "floor": False}, {"digits": 2, "floor": False}]
NUMBERS = [
    "0",
    "7",
    "-3",
    "10.5",
    "-0.25",
    "999",
    "1000",
    "1234.5",
    "12345",
    "-12345.50",
    "1000000",
]
COUNTS = [*range(0, 130), 1000, 1001, 1_000_000, 2_000_000]


@pytest.fixture(scope="module")
def languages_js(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    from rollbook.language import LANGUAGES, catalogue
    from rollbook.site_runtime.strings import write_strings

    folder = tmp_path_factory.mktemp("i18n-js")
    for name in ("i18n.js", "numbers.js"):
        shutil.copy(NUMBERS_JS.parent / name, folder / name)
    write_strings(folder, [catalogue(language) for language in LANGUAGES])
    fractions = [f"{f.numerator}/{f.denominator}" for f in CORPUS]
    data = {
        "languages": list(LANGUAGES),
        "fractions": fractions,
        "options": LANGUAGE_OPTIONS,
        "numbers": NUMBERS,
        "counts": COUNTS,
    }
    node = shutil.which("node")
    assert node
    proc = subprocess.run(
        [node, "--input-type=module", "-e", LANGUAGE_SCRIPT, json.dumps(data)],
        capture_output=True,
        text=True,
        check=True,
        cwd=folder,
        timeout=120,
    )
    result: dict[str, Any] = json.loads(proc.stdout)
    return result


def _languages() -> tuple[str, ...]:
    from rollbook.language import LANGUAGES

    return LANGUAGES


@pytest.mark.parametrize("language", _languages())
def test_each_language_writes_chances_alike_in_python_and_js(
    language: str, languages_js: dict[str, Any]
) -> None:
    from rollbook.language import catalogue

    text = catalogue(language)
    js = languages_js[language]
    python = [[text.percent(percent_text(f, **how)) for how in LANGUAGE_OPTIONS] for f in CORPUS]
    assert js["percents"] == python
    assert js["numbers"] == [text.number(n) for n in NUMBERS]
    assert js["totals"] == [text.number("3.5"), text.number("12345"), "3, 5"]


@pytest.mark.parametrize("language", _languages())
def test_each_language_picks_the_same_plural_form_in_python_and_js(
    language: str, languages_js: dict[str, Any]
) -> None:
    from rollbook.language.numbers import plural_category

    assert languages_js[language]["plurals"] == [plural_category(language, n) for n in COUNTS]


def test_the_languages_write_numbers_their_own_way(languages_js: dict[str, Any]) -> None:
    half = CORPUS.index(Fraction(1, 2))
    assert languages_js["en"]["percents"][half][1] == "50.0%"
    assert languages_js["fr"]["percents"][half][1] == "50,0\u00a0%"
    assert languages_js["de"]["numbers"][NUMBERS.index("1234.5")] == "1.234,5"
    assert languages_js["ru"]["numbers"][NUMBERS.index("-12345.50")] == "-12\u00a0345,50"
    assert languages_js["pl"]["plurals"][COUNTS.index(22)] == "few"
    assert languages_js["he"]["plurals"][COUNTS.index(2)] == "two"
