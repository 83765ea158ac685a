"""The one JSON-in/JSON-out entry the browser worker calls (and the tests).

`handle` takes a request dict and always returns a dict: the answer, or
``{"error": "plain sentence", "kind": "ErrorClass"}``, with ``"message"`` (the sentence
as a catalogue key and arguments, `rollbook.engine.messages`) where the page can say it in
the reader's language. A reader never sees a traceback, whatever the page or the URL sent.
Engine modules are imported inside each operation so a plain roll never pays for tables,
odds (icepool) or game systems.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from rollbook.engine.limits import value
from rollbook.engine.messages import Message
from rollbook.engine.numbers import fraction_text

__all__ = [
    "MAX_SEED",
    "MAX_SIMULATE_RUNS",
    "BridgeError",
    "handle",
    "handle_json",
    "parse_seed",
]

# Seeds come from page URLs; anything beyond 2**53 could not round-trip through JavaScript.
MAX_SEED = 2**53 - 1


class BridgeError(ValueError):
    """A request the bridge cannot answer: missing or ill-typed fields, unknown op."""


SEED_RULE = f"a whole number from 0 to {MAX_SEED}"
_SEED_TEXT = re.compile(r"[0-9]{1,16}")


def parse_seed(text: str) -> int:
    """A seed written as text (``rollbook table --seed``), read as the browser reads one.

    The browser's rule for a link's ``seed=``: ASCII digits only (no sign, no spaces), at
    most `MAX_SEED`.
    """
    if not _SEED_TEXT.fullmatch(text) or int(text) > MAX_SEED:
        raise BridgeError(f"the seed must be {SEED_RULE}, not {text[:40]!r}")
    return int(text)


def _rng(request: Mapping[str, Any]) -> random.Random:
    seed = request.get("seed")
    if seed is None:
        return random.Random()
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise BridgeError(f"the seed must be {SEED_RULE}.")
    return random.Random(seed)


def _text(request: Mapping[str, Any], key: str) -> str:
    value = request.get(key)
    if not isinstance(value, str):
        raise BridgeError(f"the request needs {key!r} as text.")
    return value


def _mapping(request: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = request.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BridgeError(f"the request's {key!r} must be a mapping of names to values.")
    return value


def _jsonable(value: Any) -> Any:
    """Fractions as "p/q" and tuples as lists, so any outcome survives `json.dumps`."""
    if isinstance(value, Fraction):
        return fraction_text(value)
    if isinstance(value, dict):
        return {str(_key(k)): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def _key(value: Any) -> Any:
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return value


def _notation(request: Mapping[str, Any]) -> tuple[str, str]:
    """``expr`` as written and as the engine reads it.

    The page's ``language`` may write dice with its own letter: ``1W20``, ``1k6``, ``1к6``
    (`rollbook.engine.dice.letters`).
    """
    from rollbook.engine.dice import letters

    written = _text(request, "expr")
    language = request.get("language")
    return written, letters.to_d(written, language if isinstance(language, str) else None)


def _roll(request: Mapping[str, Any]) -> dict[str, Any]:
    from rollbook.engine import dice
    from rollbook.engine.dice import letters

    written, expr = _notation(request)
    try:
        result: dict[str, Any] = dice.roll(expr, _rng(request)).to_dict()
    except dice.DiceError as error:
        raise letters.written(error, written) from None
    return result


def _payload_table(request: Mapping[str, Any]) -> Any:
    """The request's ``table`` payload as the engine's table."""
    from rollbook.engine import tables

    data = request.get("table")
    if not isinstance(data, dict):
        raise BridgeError("the request needs 'table' as a table payload.")
    # A canonical payload of a roll-list comes back as a RollList through Table.from_dict.
    return tables.Table.from_dict(data)


def _table(request: Mapping[str, Any]) -> dict[str, Any]:

    table = _payload_table(request)
    rolled = table.roll(_rng(request), _mapping(request, "prompts"))
    reply: dict[str, Any] = _jsonable(rolled.to_dict())
    return reply


def _table_odds(request: Mapping[str, Any]) -> dict[str, Any]:
    """Each row's exact chance for the given prompt values (missing ones take defaults)."""
    table = _payload_table(request)
    prompts = table.prompt_values(_mapping(request, "prompts"))  # unknown/out of range: a sentence
    return {"chances": [fraction_text(p) for p in table.probabilities(prompts)], "prompts": prompts}


def _odds(request: Mapping[str, Any]) -> dict[str, Any]:
    from rollbook.engine import dice
    from rollbook.engine.dice import letters

    written, expr = _notation(request)
    try:
        dist = dice.odds(expr)
    except dice.DiceError as error:
        raise letters.written(error, written) from None
    return {
        "min": _jsonable(dist.min),
        "max": _jsonable(dist.max),
        "mean": fraction_text(Fraction(dist.mean)),
        "distribution": [[_jsonable(v), fraction_text(p)] for v, p in dist.pmf.items()],
    }


def _rules(request: Mapping[str, Any]) -> dict[str, Any]:
    from rollbook.engine import systems

    system = systems.get(_text(request, "system"))
    procedure = system.procedure(_text(request, "procedure"))
    outcome = procedure.resolve(_mapping(request, "params"), _rng(request))
    result: dict[str, Any] = _jsonable(outcome.to_dict())
    return result


def _sides(request: Mapping[str, Any]) -> dict[str, Any]:
    """The two sides, as a mapping or as ``[[name, members], ...]`` (keeps the order in JSON)."""
    sides = request.get("sides")
    if isinstance(sides, list) and all(
        isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) for pair in sides
    ):
        sides = {name: members for name, members in sides}
    if not isinstance(sides, dict):
        raise BridgeError("the request needs 'sides': two named lists of combatants.")
    return sides


def _fight(request: Mapping[str, Any]) -> dict[str, Any]:
    from rollbook.engine import systems
    from rollbook.engine.systems.encounter import MAX_ROUNDS, Fight

    # rounds 0: only the set-up before round 1 (surprise, once-per-fight initiative). The
    # encounter widget steps by asking again with one round more and the same seed.
    rounds = request.get("rounds", MAX_ROUNDS)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or not 0 <= rounds <= MAX_ROUNDS:
        raise BridgeError(f"the number of rounds must be a whole number from 0 to {MAX_ROUNDS}.")
    fight = Fight.start(systems.get(_text(request, "system")), _sides(request), _rng(request))
    while not fight.ended and fight.round < rounds:
        fight.step()
    result: dict[str, Any] = _jsonable(fight.to_dict())
    return result


# One request must finish well inside the page's 1 s watchdog; the widget sends batches.
MAX_SIMULATE_RUNS = value("browser_simulate_runs")


def _simulate(request: Mapping[str, Any]) -> dict[str, Any]:
    from rollbook.engine.systems.montecarlo import simulate

    runs = request.get("runs")
    if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_SIMULATE_RUNS:
        raise BridgeError(f"runs must be a whole number from 1 to {MAX_SIMULATE_RUNS}.")
    _rng(request)  # the same seed check as every op
    result: dict[str, Any] = _jsonable(
        simulate(_text(request, "system"), _sides(request), runs, request.get("seed"))
    )
    return result


_OPS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "roll": _roll,
    "table": _table,
    "table_odds": _table_odds,
    "odds": _odds,
    "rules": _rules,
    "fight": _fight,
    "simulate": _simulate,
}


def _sentence(error: BaseException) -> str:
    text = str(error.args[0]) if error.args else ""
    if not text:
        return "The engine could not answer that request."
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def handle(request: Any) -> dict[str, Any]:
    """Answer one browser request.

    Args:
        request: ``{"op": "roll" | "table" | "table_odds" | "odds" | "rules" | "fight" |
            "simulate", ...}`` as in ARCHITECTURE.md.

    Returns:
        The op's reply, or ``{"error": sentence, "kind": class name}``; never raises for bad
        input.
    """
    if not isinstance(request, dict):
        return {"error": "A request must be a JSON object.", "kind": "BridgeError"}
    op = request.get("op")
    action = _OPS.get(op) if isinstance(op, str) else None
    if action is None:
        known = ", ".join(_OPS)
        return {"error": f"Unknown operation {op!r}; known: {known}.", "kind": "BridgeError"}
    try:
        return action(request)
    except ValueError as error:
        # Engine errors (DiceError, TableError, RulesError) are ValueErrors with a sentence.
        reply: dict[str, Any] = {"error": _sentence(error), "kind": type(error).__name__}
        said = getattr(error, "said", None)
        if isinstance(said, Message):
            reply["message"] = said.to_dict()
        if getattr(error, "position", None) is not None and callable(getattr(error, "caret", None)):
            reply["caret"] = error.caret()  # type: ignore[attr-defined]  # a DiceError
        prompt = getattr(error, "prompt", None)
        if isinstance(prompt, str):
            reply["prompt"] = prompt  # the prompt whose value was refused (PromptError)
        return reply
    except RecursionError:
        return _said(Message("error.too_deep"), "RecursionError")
    except MemoryError:
        return _said(Message("error.memory"), "MemoryError")
    except Exception as error:  # an engine bug: still a sentence, never a traceback
        name = type(error).__name__
        return _said(Message("error.failed", {"name": name}), name)


def _said(said: Message, kind: str) -> dict[str, Any]:
    return {"error": said.english(), "kind": kind, "message": said.to_dict()}


def handle_json(text: str) -> str:
    """`handle` over JSON text, the form the worker passes across the thread boundary."""
    try:
        request = json.loads(text)
    except (ValueError, RecursionError):
        return json.dumps({"error": "The request was not valid JSON.", "kind": "BridgeError"})
    return json.dumps(handle(request), ensure_ascii=False)
