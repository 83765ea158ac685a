"""``rollbook roll`` and ``rollbook odds``: the dice engine on the command line."""

from __future__ import annotations

import argparse
import json
import random
from fractions import Fraction
from typing import Any

from rollbook.cli import Subcommands, command
from rollbook.engine.dice import DiceError, letters, odds, parse
from rollbook.engine.numbers import fraction_text

from . import CliError

__all__ = ["odds_json", "register", "value_key"]

_BAR_WIDTH = 40


def value_key(value: Any) -> str:
    """A total as a JSON key: ``"7"``, ``"7/2"``, or ``"3,5"`` for comma rolls."""
    if isinstance(value, tuple):
        return ",".join(value_key(v) for v in value)
    if isinstance(value, Fraction):
        return fraction_text(value, whole=True)
    return str(value)


def _bound(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_bound(v) for v in value]
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else fraction_text(value)
    return value


def odds_json(text: str) -> dict[str, Any]:
    """The odds of ``text`` as ``{"min", "max", "mean", "distribution"}`` (exact strings)."""
    dist = odds(text)
    mean = dist.mean
    return {
        "min": _bound(dist.min),
        "max": _bound(dist.max),
        "mean": (
            [fraction_text(m) for m in mean] if isinstance(mean, tuple) else fraction_text(mean)
        ),
        "distribution": {value_key(v): fraction_text(p) for v, p in dist.pmf.items()},
    }


def _notation(args: argparse.Namespace) -> str:
    """The notation as the engine reads it: ``--language``'s dice letters become ``d``."""
    return letters.to_d(args.expr, args.language)


def _roll(args: argparse.Namespace) -> int:
    try:
        expr = parse(_notation(args))
        result = expr.roll(random.Random(args.seed))
    except DiceError as err:
        raise CliError(str(letters.written(err, args.expr))) from None
    if args.json:
        print(json.dumps(result.to_dict(), sort_keys=True))
    else:
        print(result.text())
    return 0


def _odds(args: argparse.Namespace) -> int:
    notation = _notation(args)
    try:
        data = odds_json(notation)
        dist = odds(notation)
    except DiceError as err:
        raise CliError(str(letters.written(err, args.expr))) from None
    if args.json:
        print(json.dumps(data, sort_keys=False))
        return 0
    top = max(dist.pmf.values())
    print(f"{parse(notation).notation}")
    width = max(len(value_key(v)) for v in dist.pmf)
    for value, p in dist.pmf.items():
        bar = "#" * max(1, round(_BAR_WIDTH * p / top)) if p else ""
        print(f"  {value_key(value):>{width}}  {float(p) * 100:7.3f}%  {bar}")
    mean = dist.mean
    means = mean if isinstance(mean, tuple) else (mean,)
    shown = ", ".join(f"{float(m):.4g}" for m in means)
    print(
        f"min {value_key(dist.min)}  max {value_key(dist.max)}  mean {shown} "
        f"({data['mean'] if isinstance(data['mean'], str) else ', '.join(data['mean'])})"
    )
    return 0


def _language_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--language",
        default=None,
        help="read the dice letter of this language as d: de 1W20, pl/cs 1k6, ru/uk 1\u043a6",
    )


def register(sub: Subcommands) -> None:
    """Add ``roll`` and ``odds`` to the ``rollbook`` parser."""
    p = command(sub, "roll", _roll)
    p.add_argument("expr", help="dice notation, e.g. '4d6kh3' or 'd6,d6'")
    p.add_argument("--seed", type=int, default=None, help="seed for a reproducible roll")
    p.add_argument("--json", action="store_true", help="print JSON (total, text, parts)")
    _language_option(p)

    o = command(sub, "odds", _odds)
    o.add_argument("expr", help="dice notation, e.g. '2d6+1'")
    o.add_argument(
        "--json",
        action="store_true",
        help='print {"min", "max", "mean", "distribution"} with exact "p/q" strings',
    )
    _language_option(o)
