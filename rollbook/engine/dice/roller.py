"""Rolling: parsed tree -> a compiled roller that builds the rolled result tree.

``compile_node`` turns each parsed node into a closure once (dispatching on node type through
``_COMPILERS``), so a pre-parsed expression rolls without re-inspecting its tree.

Dice are drawn with ``rng.getrandbits`` and rejection (an exact uniform choice that is the
same Mersenne Twister stream in CPython and Pyodide, independent of the Python version's
``randrange`` internals). A re-roll "until it misses the compare point" draws directly from
the faces that miss it: the same distribution as looping, in one draw.
"""

from __future__ import annotations

import random
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence

from rollbook.engine.limits import value as limit

from .arith import BINARY, FUNCTION_IMPL
from .chains import fold
from .nodes import (
    BinOp,
    Call,
    Clamp,
    Critical,
    Dice,
    Explode,
    Group,
    Keep,
    Modifier,
    Multi,
    Negate,
    Node,
    Number,
    Reroll,
    Sort,
    Target,
    Unique,
    Value,
)
from .results import (
    COMPOUNDED,
    CRIT_FAILURE,
    CRIT_SUCCESS,
    DROPPED,
    EXPLODED,
    FAILURE,
    MAX_CLAMPED,
    MIN_CLAMPED,
    PENETRATED,
    REROLLED,
    REROLLED_ONCE,
    SUCCESS,
    UNIQUE,
    UNIQUE_ONCE,
    BinOpResult,
    CallResult,
    DiceResult,
    Die,
    GroupResult,
    MultiResult,
    NegateResult,
    NumberResult,
    Result,
)

__all__ = ["Roller", "compile_node", "randbelow", "reevaluate"]

Roller = Callable[[random.Random], Result]
_Apply = Callable[[list[Die], random.Random], list[Die]]


def randbelow(rng: random.Random, n: int) -> int:
    """Return a uniform integer in ``[0, n)`` from ``rng.getrandbits`` by rejection."""
    if n <= 1:
        return 0
    k = (n - 1).bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


# --- dice modifiers ------------------------------------------------------------------------


def _face_drawer(faces: tuple[int, ...]) -> Callable[[random.Random], int]:
    n = len(faces)
    k = (n - 1).bit_length()
    if faces == tuple(range(faces[0], faces[0] + n)):
        low = faces[0]

        def draw_run(rng: random.Random) -> int:
            r = rng.getrandbits(k)
            while r >= n:
                r = rng.getrandbits(k)
            return low + r

        return draw_run

    def draw(rng: random.Random) -> int:
        return faces[randbelow(rng, n)]

    return draw


def _clamp(mod: Clamp, node: Dice) -> _Apply:
    v, is_min = mod.value, mod.kind == "min"

    def apply(rolls: list[Die], rng: random.Random) -> list[Die]:
        for d in rolls:
            if (d.value < v) if is_min else (d.value > v):
                d.value = v
                d.flags |= MIN_CLAMPED if is_min else MAX_CLAMPED
        return rolls

    return apply


def _explode(mod: Explode, node: Dice) -> _Apply:
    cp, draw, depth = mod.compare, _face_drawer(node.faces), limit("explosions")
    compound, penetrate = mod.compound, mod.penetrate
    mark = EXPLODED | (PENETRATED if penetrate else 0)

    def apply(rolls: list[Die], rng: random.Random) -> list[Die]:
        out: list[Die] = []
        for d in rolls:
            chain = [d]
            check = d.value
            i = 0
            while i < depth and cp(check):
                raw = draw(rng)
                check = raw
                chain[-1].flags |= mark
                chain.append(Die(raw - 1 if penetrate else raw))
                i += 1
            if compound and len(chain) > 1:
                d.previous = tuple(c.value for c in chain)
                d.value = sum(c.value for c in chain)
                d.flags = d.flags | mark | COMPOUNDED
                out.append(d)
            else:
                out.extend(chain)
        return out

    return apply


def _reroll(mod: Reroll, node: Dice) -> _Apply:
    cp, faces = mod.compare, node.faces
    keep = tuple(f for f in faces if not cp(f))  # the faces a re-roll loop can end on
    draw_any, draw_keep = _face_drawer(faces), _face_drawer(keep)
    once = mod.once
    flag = REROLLED_ONCE if once else REROLLED

    def apply(rolls: list[Die], rng: random.Random) -> list[Die]:
        for d in rolls:
            if cp(d.value):
                d.previous = (*d.previous, d.value)
                d.value = draw_any(rng) if once else draw_keep(rng)
                d.flags |= flag
        return rolls

    return apply


def _unique(mod: Unique, node: Dice) -> _Apply:
    cp, faces, once = mod.compare, node.faces, mod.once
    draw = _face_drawer(faces)
    flag = UNIQUE_ONCE if once else UNIQUE
    # Sorted faces (every die's are) let the allowed faces shrink by bisection instead of
    # being rebuilt per clash, which cost O(sides) each: 1000d10000u took over 100 ms.
    ordered = list(faces) == sorted(faces)

    def apply(rolls: list[Die], rng: random.Random) -> list[Die]:
        seen: set[Value] = set()
        ok: list[Value] | None = None  # faces a re-roll loop can end on, from the first clash
        for d in rolls:
            v = d.value
            if v in seen and (cp is None or cp(v)):
                d.previous = (*d.previous, v)
                if once:
                    d.value = draw(rng)
                else:
                    # Loop ends on the first face that is new or misses the compare point.
                    if ok is None or not ordered:
                        ok = [f for f in faces if f not in seen or (cp is not None and not cp(f))]
                    d.value = ok[randbelow(rng, len(ok))]
                d.flags |= flag
            new = d.value
            if ok is not None and ordered and new not in seen and (cp is None or cp(new)):
                del ok[bisect_left(ok, new) : bisect_right(ok, new)]
            seen.add(new)
        return rolls

    return apply


def keep_indexes(values: Sequence[Value], mod: Keep) -> list[int]:
    """Indexes to drop: ties go to the earlier die first, as rpg-dice-roller's stable sort."""
    m, qty = len(values), mod.qty
    order = sorted(range(m), key=values.__getitem__)
    if mod.drop:
        return order[max(0, m - qty) :] if mod.high else order[:qty]
    return order[: max(0, m - qty)] if mod.high else order[qty:]


def _keep(mod: Keep, node: Dice) -> _Apply:
    def apply(rolls: list[Die], rng: random.Random) -> list[Die]:
        for j in keep_indexes([d.value for d in rolls], mod):
            rolls[j].flags |= DROPPED
        return rolls

    return apply


def _target(mod: Target, node: Dice) -> _Apply:
    success, failure = mod.success, mod.failure

    def apply(rolls: list[Die], rng: random.Random) -> list[Die]:
        for d in rolls:
            if success(d.value):
                d.flags |= SUCCESS
            elif failure is not None and failure(d.value):
                d.flags |= FAILURE
        return rolls

    return apply


def _critical(mod: Critical, node: Dice) -> _Apply:
    cp, flag = mod.compare, CRIT_SUCCESS if mod.success else CRIT_FAILURE

    def apply(rolls: list[Die], rng: random.Random) -> list[Die]:
        for d in rolls:
            if cp(d.value):
                d.flags |= flag
        return rolls

    return apply


def _sort(mod: Sort, node: Dice) -> _Apply:
    desc = mod.descending

    def apply(rolls: list[Die], rng: random.Random) -> list[Die]:
        return sorted(rolls, key=lambda d: d.value, reverse=desc)

    return apply


_MODIFIERS: dict[type, Callable[[Modifier, Dice], _Apply]] = {
    Clamp: _clamp,  # type: ignore[dict-item]
    Explode: _explode,  # type: ignore[dict-item]
    Reroll: _reroll,  # type: ignore[dict-item]
    Unique: _unique,  # type: ignore[dict-item]
    Keep: _keep,  # type: ignore[dict-item]
    Target: _target,  # type: ignore[dict-item]
    Critical: _critical,  # type: ignore[dict-item]
    Sort: _sort,  # type: ignore[dict-item]
}


def dice_value(node: Dice, rolls: list[Die]) -> Value:
    """The total of a dice term: kept dice summed, or successes minus failures."""
    if any(isinstance(m, Target) for m in node.modifiers):
        return sum(
            (1 if d.flags & SUCCESS else -1 if d.flags & FAILURE else 0)
            for d in rolls
            if not d.flags & DROPPED
        )
    return sum(d.value for d in rolls if not d.flags & DROPPED)


# --- node compilers ------------------------------------------------------------------------


def _compile_number(node: Number) -> Roller:
    result = NumberResult(node, node.value)  # immutable in practice: shared between rolls
    return lambda rng: result


def _compile_dice(node: Dice) -> Roller:
    qty, faces = node.qty, node.faces
    n = len(faces)
    k = (n - 1).bit_length()
    appliers = [_MODIFIERS[type(m)](m, node) for m in node.modifiers]
    counts_successes = any(isinstance(m, Target) for m in node.modifiers)
    run = range(qty)
    if n == 1:
        only = faces[0]

        def roll_one_face(rng: random.Random) -> Result:
            rolls = [Die(only) for _ in run]
            for apply in appliers:
                rolls = apply(rolls, rng)
            return DiceResult(node, rolls, dice_value(node, rolls))

        return roll_one_face
    low = node.low if node.low is not None else 0
    table = None if node.low is not None else faces

    def draw(rng: random.Random) -> list[int]:
        """One face per die, in draw order (rejection sampling, as ``randbelow``)."""
        getrandbits = rng.getrandbits
        drawn = []
        for _ in run:
            r = getrandbits(k)
            while r >= n:
                r = getrandbits(k)
            drawn.append(r)
        return [low + r for r in drawn] if table is None else [table[r] for r in drawn]

    if not appliers:

        def roll_plain(rng: random.Random) -> Result:
            values = draw(rng)
            return DiceResult(node, [Die(v) for v in values], sum(values))

        return roll_plain

    single = node.modifiers[0] if len(node.modifiers) == 1 else None
    if isinstance(single, Keep) and table is None:
        # The most common modified roll (4d6kh3, 2d20kl1): one pass, no per-die flags loop.
        keep = single

        def roll_keep(rng: random.Random) -> Result:
            values = draw(rng)
            dropped = set(keep_indexes(values, keep))
            rolls = [Die(v, DROPPED if j in dropped else 0) for j, v in enumerate(values)]
            return DiceResult(node, rolls, sum(values) - sum(values[j] for j in dropped))

        return roll_keep

    def roll_modified(rng: random.Random) -> Result:
        rolls = [Die(v) for v in draw(rng)]
        for apply in appliers:
            rolls = apply(rolls, rng)
        if counts_successes:
            return DiceResult(node, rolls, dice_value(node, rolls))
        total: Value = 0
        for d in rolls:
            if not d.flags & DROPPED:
                total += d.value
        return DiceResult(node, rolls, total)

    return roll_modified


def _binop_parts(node: Node) -> tuple[Node, Node] | None:
    return (node.left, node.right) if isinstance(node, BinOp) else None


def _compile_binop(node: BinOp) -> Roller:
    """A chain of operators as one program, run on a value stack.

    Operand rollers and operators in post-order, so a long chain neither compiles nor rolls
    recursively.
    """
    program: list[Roller | BinOp] = []

    def leaf(n: Node) -> None:
        program.append(compile_node(n))

    def combine(n: BinOp, _a: None, _b: None) -> None:
        program.append(n)

    fold(node, _binop_parts, leaf, combine)  # type: ignore[arg-type]

    def roll_binop(rng: random.Random) -> Result:
        stack: list[Result] = []
        for step in program:
            if isinstance(step, BinOp):
                b = stack.pop()
                a = stack.pop()
                stack.append(BinOpResult(step, a, b, BINARY[step.op](a.value, b.value, step.pos)))
            else:
                stack.append(step(rng))
        return stack[0]

    return roll_binop


def _compile_negate(node: Negate) -> Roller:
    inner = compile_node(node.operand)

    def roll_negate(rng: random.Random) -> Result:
        a = inner(rng)
        return NegateResult(node, a, -a.value)

    return roll_negate


def _compile_call(node: Call) -> Roller:
    args = [compile_node(a) for a in node.args]
    fn, pos = FUNCTION_IMPL[node.name], node.pos

    def roll_call(rng: random.Random) -> Result:
        rs = [a(rng) for a in args]
        return CallResult(node, rs, fn(pos, *(r.value for r in rs)))

    return roll_call


def _group_dice(result: Result) -> list[DiceResult]:
    """The dice terms of one group item, not descending into nested groups."""
    out: list[DiceResult] = []
    stack: list[Result] = [result]
    while stack:
        r = stack.pop()
        if isinstance(r, DiceResult):
            out.append(r)
        elif isinstance(r, BinOpResult):
            stack.extend((r.right, r.left))
        elif isinstance(r, NegateResult):
            stack.append(r.operand)
        elif isinstance(r, CallResult):
            stack.extend(reversed(r.args))
    return out


def _result_parts(r: Result) -> tuple[Result, Result] | None:
    return (r.left, r.right) if isinstance(r, BinOpResult) else None


def _reevaluate_binop(r: BinOpResult, a: Value, b: Value) -> Value:
    r.value = BINARY[r.node.op](a, b, r.node.pos)
    return r.value


def reevaluate(result: Result) -> Value:
    """Recompute values bottom-up after dice inside a group item were dropped."""
    if isinstance(result, BinOpResult):
        return fold(result, _result_parts, reevaluate, _reevaluate_binop)  # type: ignore[arg-type]
    if isinstance(result, DiceResult):
        result.value = dice_value(result.node, result.rolls)
    elif isinstance(result, NegateResult):
        result.value = -reevaluate(result.operand)
    elif isinstance(result, CallResult):
        result.value = FUNCTION_IMPL[result.node.name](
            result.node.pos, *(reevaluate(a) for a in result.args)
        )
    return result.value


def _compile_group(node: Group) -> Roller:
    items = [compile_node(i) for i in node.items]
    mods = node.modifiers
    target = next((m for m in mods if isinstance(m, Target)), None)

    def roll_group(rng: random.Random) -> Result:
        results = [item(rng) for item in items]
        flags = [0] * len(results)
        for mod in mods:
            if isinstance(mod, Keep):
                if len(results) == 1:
                    dice = _group_dice(results[0])
                    rolls = [d for dr in dice for d in dr.rolls]
                    for j in keep_indexes([d.value for d in rolls], mod):
                        rolls[j].flags |= DROPPED
                    reevaluate(results[0])
                else:
                    for j in keep_indexes([r.value for r in results], mod):
                        flags[j] |= DROPPED
            elif isinstance(mod, Target):
                for j, r in enumerate(results):
                    if mod.success(r.value):
                        flags[j] |= SUCCESS
                    elif mod.failure is not None and mod.failure(r.value):
                        flags[j] |= FAILURE
            elif isinstance(mod, Sort):
                values = [r.value for r in results]
                order = sorted(range(len(results)), key=values.__getitem__, reverse=mod.descending)
                results = [results[j] for j in order]
                flags = [flags[j] for j in order]
                for r in results:
                    for dr in _group_dice(r):
                        dr.rolls.sort(key=lambda d: d.value, reverse=mod.descending)
        total: Value = 0
        for r, f in zip(results, flags, strict=True):
            if f & DROPPED:
                continue
            if target is not None:
                total += 1 if f & SUCCESS else -1 if f & FAILURE else 0
            else:
                total += r.value
        return GroupResult(node, results, flags, total)

    return roll_group


def _compile_multi(node: Multi) -> Roller:
    items = [compile_node(i) for i in node.items]

    def roll_multi(rng: random.Random) -> Result:
        rs = [item(rng) for item in items]
        return MultiResult(node, rs, tuple(r.value for r in rs))

    return roll_multi


_COMPILERS: dict[type, Callable[..., Roller]] = {
    Number: _compile_number,
    Dice: _compile_dice,
    BinOp: _compile_binop,
    Negate: _compile_negate,
    Call: _compile_call,
    Group: _compile_group,
    Multi: _compile_multi,
}


def compile_node(node: Node) -> Roller:
    """Return a function ``rng -> Result`` that rolls ``node``."""
    return _COMPILERS[type(node)](node)
