"""``rollbook rules`` (systems, procedures, one roll or exact odds) and ``rollbook fight``."""

from __future__ import annotations

import argparse
import json
import pathlib
import random
from typing import Any

import yaml

from rollbook.cli import CliError, Subcommands, command, plainly
from rollbook.engine.numbers import fraction_text
from rollbook.engine.systems import get, ids
from rollbook.engine.systems.base import RulesError, System
from rollbook.engine.systems.encounter import Fight
from rollbook.engine.systems.montecarlo import simulate
from rollbook.markup.yamlsize import YamlSizeError, check_size

__all__ = ["register"]

FIGHT_KEYS = ("system", "sides", "title", "notes")


def register(sub: Subcommands) -> None:
    """Add ``rules`` and ``fight`` to the ``rollbook`` parser."""
    rules = command(sub, "rules", run_rules)
    rules.add_argument("system", nargs="?", help="system id, e.g. scars")
    rules.add_argument("procedure", nargs="?", help="procedure name, e.g. attack")
    rules.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a parameter value (repeat for each parameter)",
    )
    how = rules.add_mutually_exclusive_group()
    how.add_argument("--odds", action="store_true", help="exact chance of each outcome")
    how.add_argument("--seed", type=int, help="seed for a reproducible roll")
    rules.add_argument("--json", action="store_true", help="machine-readable output")

    fight = command(sub, "fight", run_fight)
    fight.add_argument("file", help="fight file (YAML)")
    fight.add_argument("--runs", type=int, help="simulate this many fights and report rates")
    fight.add_argument("--seed", type=int, help="seed for reproducible results")
    fight.add_argument("--json", action="store_true", help="machine-readable output")


def _system(system_id: str) -> System:
    with plainly(RulesError):
        return get(system_id)


def _print_json(data: Any) -> None:
    print(json.dumps(data, indent=2, sort_keys=False))


# -- rules ---------------------------------------------------------------------------------


def run_rules(args: argparse.Namespace) -> int:
    if args.system is None:
        if args.sets or args.odds or args.seed is not None:
            raise CliError("name a system and a procedure before --set, --odds or --seed.")
        return _list_systems(args.json)
    system = _system(args.system)
    if args.procedure is None:
        if args.sets or args.odds or args.seed is not None:
            raise CliError(f"name a procedure of {system.id} before --set, --odds or --seed.")
        return _describe(system, args.json)
    with plainly(RulesError):
        procedure = system.procedure(args.procedure)
        given = _parse_sets(args.sets)
        if args.odds:
            odds = procedure.odds(given)
            if odds is None:
                raise CliError(
                    f"{procedure.name} has no exact odds: its outcome depends on "
                    "more than the dice."
                )
            return _show_odds(odds, args.json)
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
        outcome = procedure.resolve(given, random.Random(seed))
    if args.json:
        _print_json(
            {"system": system.id, "procedure": procedure.name, "seed": seed, **outcome.to_dict()}
        )
    else:
        print(f"{outcome.name}: {outcome.log}")
        if args.seed is None:
            print(f"(seed {seed})")
    return 0


def _parse_sets(sets: list[str]) -> dict[str, str]:
    given: dict[str, str] = {}
    for item in sets:
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise CliError(f"--set needs NAME=VALUE, not {item!r}.")
        given[name.strip()] = value.strip()
    return given


def _list_systems(as_json: bool) -> int:
    rows: list[dict[str, Any]] = []
    for system_id in ids():
        try:
            rows.append({"id": system_id, "title": get(system_id).title, "available": True})
        except RulesError:
            rows.append({"id": system_id, "title": "(not available yet)", "available": False})
    if as_json:
        _print_json({"systems": rows})
    else:
        width = max(len(r["id"]) for r in rows)
        for r in rows:
            print(f"{r['id']:<{width}}  {r['title']}")
    return 0


def _param_line(p: dict[str, Any]) -> str:
    bits = [p["type"]]
    if "choices" in p:
        bits.append("one of " + "|".join(p["choices"]))
    if "minimum" in p or "maximum" in p:
        bits.append(f"{p.get('minimum', '')}..{p.get('maximum', '')}")
    bits.append("required" if p.get("required") else f"default {p['default']}")
    return f"{p['name']} ({', '.join(bits)}): {p['help']}"


def _describe(system: System, as_json: bool) -> int:
    info = system.describe()
    if as_json:
        _print_json(info)
        return 0
    print(f"{info['id']}: {info['title']}")
    print("\nProcedures:")
    for proc in info["procedures"]:
        print(f"  {proc['name']}: {proc['title']}")
        for p in proc["params"]:
            print(f"      {_param_line(p)}")
        print(
            f"      -> {', '.join(proc['outcomes'])}"
            + ("" if proc["has_odds"] else " (no exact odds)")
        )
    print("\nStat-block fields for `rollbook fight`:")
    for p in info["combatant_fields"]:
        print(f"  {_param_line(p)}")
    return 0


def _show_odds(odds: dict[str, Any], as_json: bool) -> int:
    if as_json:
        _print_json({"outcomes": {name: fraction_text(p) for name, p in odds.items()}})
        return 0
    width = max(len(name) for name in odds)
    for name, p in odds.items():
        print(f"{name:<{width}}  {fraction_text(p):>9}  {float(p) * 100:6.2f} %")
    return 0


# -- fight ---------------------------------------------------------------------------------


def load_fight_file(path: str) -> dict[str, Any]:
    """Read and check a fight file; plain-sentence `CliError` on any problem."""
    from rollbook.markup.pagefile import PageReadError, read_regular

    file = pathlib.Path(path)
    try:
        text = read_regular(file, "fight_file_bytes").decode("utf-8")
    except FileNotFoundError:
        raise CliError(f"{path}: no such file.") from None
    except PageReadError as err:
        raise CliError(f"{path}: {err.message}") from None
    except (OSError, UnicodeDecodeError) as err:
        raise CliError(f"{path}: cannot read it ({err.__class__.__name__}).") from None
    try:
        check_size(text)
        data = yaml.safe_load(text)
    except YamlSizeError as err:
        raise CliError(f"{path}:{err.line}: {err.message}") from None
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark
        where = f":{mark.line + 1}" if mark is not None else ""
        raise CliError(f"{path}{where}: not valid YAML ({err.problem}).") from None
    except yaml.YAMLError as err:
        raise CliError(f"{path}: not valid YAML ({err}).") from None
    if not isinstance(data, dict):
        raise CliError(f"{path}: expected a mapping with `system` and `sides`.")
    unknown = sorted(str(k) for k in data if k not in FIGHT_KEYS)
    if unknown:
        raise CliError(
            f"{path}: unknown key {unknown[0]!r}; a fight file may have {', '.join(FIGHT_KEYS)}."
        )
    for key in ("system", "sides"):
        if key not in data:
            raise CliError(f"{path}: missing `{key}`.")
    if not isinstance(data["sides"], dict):
        raise CliError(f"{path}: `sides` must map each side's name to its stat blocks.")
    return data


def run_fight(args: argparse.Namespace) -> int:
    data = load_fight_file(args.file)
    system = _system(str(data["system"]))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    try:
        if args.runs is not None:
            report = simulate(system.id, data["sides"], args.runs, seed)
            return _show_simulation(report, args.json)
        fight = Fight.start(system, data["sides"], random.Random(seed))
        fight.run()
    except RulesError as err:
        raise CliError(f"{args.file}: {err}") from None
    if args.json:
        _print_json({"seed": seed, **fight.to_dict()})
        return 0
    title = f"{data['title']} - " if data.get("title") else ""
    print(f"{title}{system.title}; seed {seed}")
    for line in fight.lines:
        print(line)
    return 0


def _show_simulation(report: dict[str, Any], as_json: bool) -> int:
    if as_json:
        _print_json(report)
        return 0
    print(
        f"{report['runs']} fights of {report['system']} (seed {report['seed']}), "
        f"{report['avg_rounds']:.2f} rounds on average"
    )
    for side, wins in report["wins"].items():
        lo, hi = report["ci95"][side]
        print(
            f"  {side}: wins {wins} ({report['rates'][side] * 100:.1f} %, 95 % interval "
            f"{lo * 100:.1f}-{hi * 100:.1f} %); lost by fleeing or giving up "
            f"{report['fled'][side]}"
        )
    print(f"  no winner: {report['stalemate']}")
    return 0
