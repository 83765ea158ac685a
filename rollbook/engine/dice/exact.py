"""Exact odds: the distribution of an expression's total, through icepool.

This is the only module that imports icepool, and only inside functions, so ``import engine``
and rolling never load it.

Internally a distribution is ``Dist`` (`rollbook.engine.dice.dist`): integer weights per
value and their total. Dice terms are built per die (clamps, explosions to
the ``explosions`` limit, re-rolls) and then pooled with icepool for keep/drop and summing;
unique dice are enumerated exactly over the multiset of values so far. Arithmetic combines
independent parts by enumeration with size checks. Anything that cannot be computed exactly
raises ``OddsUnavailableError``; nothing is guessed.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rollbook.engine.limits import value as limit
from rollbook.engine.messages import Message

from .arith import BINARY, FUNCTION_IMPL, clean
from .chains import fold
from .dist import (
    FRACTION_WEIGHT,
    KRONECKER_BITS,
    Dist,
    charge,
    convolve,
    plus,
    sum_iid,
    work_budget,
)
from .errors import DiceError, DiceLimitError, OddsUnavailableError, PlaceholderError
from .nodes import (
    BinOp,
    Call,
    Clamp,
    Dice,
    Explode,
    Group,
    Keep,
    Multi,
    Negate,
    Node,
    Number,
    Reroll,
    Target,
    Unique,
    Value,
)
from .roller import keep_indexes

__all__ = ["Distribution", "odds", "support"]

OddsValue = Value | tuple[Value, ...]


@dataclass(frozen=True, slots=True)
class Distribution:
    """The exact distribution of an expression's total.

    Attributes:
        pmf: Each possible total (ascending) and its probability; tuples for comma rolls.
    """

    pmf: dict[Any, Fraction]

    @property
    def min(self) -> Any:
        """The lowest total (a tuple of per-part minimums for comma rolls)."""
        keys = list(self.pmf)
        if keys and isinstance(keys[0], tuple):
            return tuple(min(k[i] for k in keys) for i in range(len(keys[0])))
        return keys[0]

    @property
    def max(self) -> Any:
        """The highest total (a tuple of per-part maximums for comma rolls)."""
        keys = list(self.pmf)
        if keys and isinstance(keys[0], tuple):
            return tuple(max(k[i] for k in keys) for i in range(len(keys[0])))
        return keys[-1]

    @property
    def mean(self) -> Any:
        """The exact mean as a ``Fraction`` (a tuple of them for comma rolls)."""
        keys = list(self.pmf)
        if keys and isinstance(keys[0], tuple):
            return tuple(
                sum((k[i] * p for k, p in self.pmf.items()), Fraction(0))
                for i in range(len(keys[0]))
            )
        return sum((k * p for k, p in self.pmf.items()), Fraction(0))

    def at_least(self, threshold: Value) -> Fraction:
        """P(total >= threshold); for comma rolls, compares tuples element by element."""
        if isinstance(threshold, tuple):
            return sum(
                (
                    p
                    for k, p in self.pmf.items()
                    if all(a >= b for a, b in zip(k, threshold, strict=True))
                ),
                Fraction(0),
            )
        return sum((p for k, p in self.pmf.items() if k >= threshold), Fraction(0))

    def support(self) -> frozenset[Any]:
        """The possible totals."""
        return frozenset(self.pmf)


# --- internal distributions ----------------------------------------------------------------


def _to_die(d: Dist) -> Any:
    import icepool  # lazily: only odds pay for it

    return icepool.Die({k: q for k, q in d.w.items()})


def _from_die(die: Any) -> Dist:
    return Dist({clean(k) if not isinstance(k, int) else k: q for k, q in die.items()})


# --- dice terms ----------------------------------------------------------------------------


def _mods(node: Dice | Group) -> dict[type, list[Any]]:
    out: dict[type, list[Any]] = {}
    for m in node.modifiers:
        out.setdefault(type(m), []).append(m)
    return out


def _reroll_map(node: Dice, mod: Reroll | None) -> Callable[[Any], Dist]:
    """A roll's value -> distribution of its value after the re-roll modifier."""
    faces = node.faces
    if mod is None:
        return Dist.const
    cp = mod.compare
    target = faces if mod.once else tuple(f for f in faces if not cp(f))
    after = Dist.uniform(target)
    return lambda v: after if cp(v) else Dist.const(v)


def _split(
    weighted: list[tuple[Fraction, Any]],
    hit: Callable[[Any], bool],
    contrib: Callable[[Any], Dist],
) -> list[tuple[Fraction, Dist, bool]]:
    """Group ``(p, value)`` pairs by whether ``hit(value)``: ``[(P, mixture, hit?)]``."""
    out = []
    for want in (False, True):
        parts = [(p, v) for p, v in weighted if bool(hit(v)) is want]
        total = sum((p for p, _ in parts), Fraction(0))
        if total:
            out.append((total, Dist.mix([(p / total, contrib(v)) for p, v in parts]), want))
    return out


def _explosion_tail(node: Dice, explode: Explode, contrib: Callable[[Any], Dist]) -> Dist:
    """Summed contributions of the extra rolls of one die whose first roll exploded.

    Each extra roll is a raw face (minus 1 when penetrating) and explodes again on its raw
    face, up to the ``explosions`` limit extra rolls: exactly what the roller does.
    """
    faces, cp, pen = node.faces, explode.compare, 1 if explode.penetrate else 0
    n = len(faces)
    depth = limit("explosions")
    if (max(faces) - min(faces) + 1) * (depth + 1) * (depth + 1) * n.bit_length() > KRONECKER_BITS:
        raise DiceLimitError(Message("error.odds.exploding", {"sides": n}))
    weighted = [(Fraction(faces.count(f), n), f) for f in sorted(set(faces))]
    groups = _split(weighted, cp, lambda f: contrib(f - pen))
    tail = Dist.const(0)
    for _ in range(limit("explosions")):
        tail = Dist.mix([(p, convolve(d, tail) if again else d) for p, d, again in groups])
    return tail


def _with_explosions(
    first: Dist, explode: Explode, tail: Dist, contrib: Callable[[Any], Dist]
) -> Dist:
    """Per die: contribution of the first roll, plus the tail when the first roll explodes."""
    groups = _split([(p, v) for v, p in first.items_p()], explode.compare, contrib)
    return Dist.mix([(p, convolve(d, tail) if hit else d) for p, d, hit in groups])


def _clamp_value(v: Any, is_min: bool, x: Any) -> Any:
    return max(x, v) if is_min else min(x, v)


def _first_roll(node: Dice, mods: dict[type, list[Any]]) -> Dist:
    d = Dist.uniform(node.faces)
    for clamp in mods.get(Clamp, []):
        v, is_min = clamp.value, clamp.kind == "min"
        d = d.map(functools.partial(_clamp_value, v, is_min))
    return d


def _state(mods: dict[type, list[Any]]) -> Callable[[Any], Any] | None:
    targets = mods.get(Target)
    if not targets:
        return None
    t: Target = targets[0]
    return lambda v: 1 if t.success(v) else -1 if t.failure is not None and t.failure(v) else 0


#: Bounds on icepool's keep/drop evaluation, checked before any work. Its cost grows about
#: as dice^2 * outcomes^2 * kept (20d100kh10 takes about a second), and it recurses once per
#: outcome, so a pool of d2000 would hit Python's recursion limit (and Pyodide's stack).
_POOL_WORK = 30_000_000
_POOL_OUTCOMES = 400


def _check_pool(dice: int, outcomes: int, kept: tuple[int, ...]) -> tuple[int, ...]:
    """Refuse keep/drop odds that would take too long; returns ``kept`` unchanged."""
    if outcomes > _POOL_OUTCOMES or dice**2 * outcomes**2 * max(sum(kept), 1) > _POOL_WORK:
        raise OddsUnavailableError(Message("error.odds.keep_drop"))
    return kept


def _kept_positions(m: int, keeps: list[Keep]) -> tuple[int, ...]:
    """Per sorted position (ascending), 1 if kept after all keep/drop modifiers."""
    kept = [1] * m
    for k in keeps:
        for j in keep_indexes(list(range(m)), k):
            kept[j] = 0
    return tuple(kept)


def _dice_odds(node: Dice) -> Dist:
    mods = _mods(node)
    explode: Explode | None = (mods.get(Explode) or [None])[0]
    reroll: Reroll | None = (mods.get(Reroll) or [None])[0]
    unique: Unique | None = (mods.get(Unique) or [None])[0]
    keeps: list[Keep] = mods.get(Keep, [])
    state = _state(mods)
    after_reroll = _reroll_map(node, reroll)
    first = _first_roll(node, mods)

    if explode is not None and not explode.compound:
        # Each die becomes a chain of rolls; re-rolls and success states apply per roll.
        def contrib(v: Any) -> Dist:
            d = after_reroll(v)
            return d.map(state) if state is not None else d

        if keeps:
            if reroll is not None or mods.get(Clamp) or explode.penetrate or len(keeps) > 1:
                raise OddsUnavailableError(Message("error.odds.explode_keep"))
            return _exploding_pool(node, explode, keeps[0], state)
        tail = _explosion_tail(node, explode, contrib)
        return sum_iid(_with_explosions(first, explode, tail, contrib), node.qty)

    # One value per die.
    if explode is not None:  # compounding: the extra rolls add into the first
        tail = _explosion_tail(node, explode, Dist.const)
        first = _with_explosions(first, explode, tail, Dist.const)
    per_die = Dist.mix([(p, after_reroll(v)) for v, p in first.items_p()])

    if unique is not None:
        return _unique_odds(node, per_die, unique, keeps, state)
    if not keeps:
        return sum_iid(per_die.map(state) if state is not None else per_die, node.qty)

    kept = _check_pool(node.qty, len(per_die.w), _kept_positions(node.qty, keeps))
    pool = _to_die(per_die).pool(node.qty).keep(kept)
    return _from_die(pool.sum(map=state) if state is not None else pool.sum())


def _exploding_pool(node: Dice, explode: Explode, keep: Keep, state: Any) -> Dist:
    import icepool

    die = icepool.Die(list(node.faces))
    cp = explode.compare
    which = [f for f in set(node.faces) if cp(f)]
    outcomes = len(set(node.faces)) * (limit("explosions") + 1)
    _check_pool(node.qty, outcomes, (1,) * min(keep.qty, node.qty))
    pool = die.explode_to_pool(node.qty, which, depth=limit("explosions"))
    q = keep.qty
    if keep.drop:
        expr = pool[:-q] if keep.high else pool[q:]
    else:
        expr = pool[-q:] if keep.high else pool[:q]
    return _from_die(expr.sum(map=state) if state is not None else expr.sum())


def _unique_odds(node: Dice, per_die: Dist, unique: Unique, keeps: list[Keep], state: Any) -> Dist:
    faces, cp = node.faces, unique.compare
    raw = Dist.uniform(faces)
    distinct = set(faces)
    plain = (
        not unique.once
        and cp is None
        and len(distinct) == len(faces)
        and set(per_die.w) == distinct
        and len(set(per_die.w.values())) == 1
    )
    if plain and not keeps and state is None:
        return _unique_subset_sums(faces, node.qty)
    # Enumerate multisets of values seen so far; estimate the work first.
    width = len(distinct | set(per_die.w))
    work = sum(math.comb(width + i - 1, i) for i in range(node.qty)) * len(per_die.w) * width
    if work > _MAX_ENUMERATION:
        raise OddsUnavailableError(Message("error.odds.unique"))
    states: dict[tuple[Any, ...], Fraction] = {(): Fraction(1)}
    for _ in range(node.qty):
        nxt: dict[tuple[Any, ...], Fraction] = {}
        for seen_values, p in states.items():
            seen = set(seen_values)
            for v, pv in per_die.items_p():
                if v in seen and (cp is None or cp(v)):
                    if unique.once:
                        outcomes = raw.items_p()
                    else:
                        ok = [f for f in faces if f not in seen or (cp is not None and not cp(f))]
                        outcomes = [(f, Fraction(ok.count(f), len(ok))) for f in set(ok)]
                else:
                    outcomes = [(v, Fraction(1))]
                for f, pf in outcomes:
                    key = tuple(sorted((*seen_values, f)))
                    nxt[key] = nxt.get(key, Fraction(0)) + p * pv * pf
        states = nxt
        if len(states) > limit("odds_states"):
            raise OddsUnavailableError(Message("error.odds.unique_enumerate"))
    kept = _kept_positions(node.qty, keeps) if keeps else None
    out: dict[Any, Fraction] = {}
    for values, p in states.items():
        chosen = [v for v, k in zip(values, kept, strict=True) if k] if kept else list(values)
        total = sum(state(v) for v in chosen) if state is not None else sum(chosen)
        out[total] = out.get(total, Fraction(0)) + p
    return _from_fractions(out)


#: Steps an exact enumeration may take (a few seconds of Python at most).
_MAX_ENUMERATION = 3_000_000


def _unique_subset_sums(faces: tuple[int, ...], qty: int) -> Dist:
    """Plain ``u`` on distinct faces draws a uniform random subset: count subsets by sum."""
    span = max(faces) - min(faces) + 1
    if len(faces) * qty * qty * span > _MAX_ENUMERATION:
        raise OddsUnavailableError(Message("error.odds.unique"))
    counts: list[dict[int, int]] = [{0: 1}] + [{} for _ in range(qty)]
    for i, f in enumerate(faces):
        for k in range(min(i + 1, qty), 0, -1):
            row = counts[k]
            for total, c in counts[k - 1].items():
                row[total + f] = row.get(total + f, 0) + c
    return Dist(counts[qty], math.comb(len(faces), qty))


def _from_fractions(pmf: dict[Any, Fraction]) -> Dist:
    den = 1
    for p in pmf.values():
        den = math.lcm(den, p.denominator)
    return Dist({k: int(p * den) for k, p in pmf.items()}, den)


# --- groups --------------------------------------------------------------------------------


def _group_odds(node: Group) -> Dist:
    import icepool

    mods = _mods(node)
    keeps: list[Keep] = mods.get(Keep, [])
    state = _state(mods)
    if keeps and len(node.items) == 1:
        return _single_item_keep(node.items[0], keeps, state)
    items = [_node_odds(i) for i in node.items]
    if keeps:
        outcomes = len(set().union(*(d.w for d in items)))
        kept = _check_pool(len(items), outcomes, _kept_positions(len(items), keeps))
        pool = icepool.Pool([_to_die(d) for d in items]).keep(kept)
        return _from_die(pool.sum(map=state) if state is not None else pool.sum())
    total = Dist.const(0)
    for d in items:
        total = total.combine(d.map(state) if state is not None else d, plus)
    return total


def _single_item_keep(item: Node, keeps: list[Keep], state: Any) -> Dist:
    """``{4d6+2d8}k1``: keep/drop applies to the dice inside the one item."""
    import icepool

    terms: list[Node] = []
    stack = [item]
    while stack:
        n = stack.pop()
        if isinstance(n, BinOp) and n.op == "+":
            stack.extend((n.right, n.left))
        else:
            terms.append(n)
    dice: list[Any] = []
    constant: Dist = Dist.const(0)
    for t in terms:
        if isinstance(t, Number):
            constant = constant.map(functools.partial(plus, t.value))
        elif isinstance(t, Dice) and all(isinstance(m, Clamp | Reroll) for m in t.modifiers):
            plain = Dice(1, t.sides, t.faces, t.low, t.modifiers, None, t.pos, t.end)
            dice.extend([_to_die(_dice_odds(plain))] * t.qty)
        else:
            raise OddsUnavailableError(Message("error.odds.group_keep"))
    if not dice:
        return constant
    if state is not None:
        raise OddsUnavailableError(Message("error.odds.group_success"))
    outcomes = len(set().union(*(d.outcomes() for d in dice)))
    kept = _check_pool(len(dice), outcomes, _kept_positions(len(dice), keeps))
    pool = icepool.Pool(dice).keep(kept)
    return _from_die(pool.sum()).combine(constant, plus)


# --- expression nodes ----------------------------------------------------------------------


def _binop_parts(node: Node) -> tuple[Node, Node] | None:
    return (node.left, node.right) if isinstance(node, BinOp) else None


def _binop_combine(node: BinOp, left: Dist, right: Dist) -> Dist:
    fn, pos = BINARY[node.op], node.pos
    try:
        if node.op == "+":
            return convolve(left, right)
        if node.op == "-":
            return convolve(left, right.map(lambda v: -v))
        return left.combine(right, lambda a, b: fn(a, b, pos), fractions=node.op in ("/", "**"))
    except DiceError as err:
        if err.position is None:
            err.position = pos
        raise


def _binop_odds(node: BinOp) -> Dist:
    return fold(node, _binop_parts, _node_odds, _binop_combine)  # type: ignore[arg-type]


def _call_odds(node: Call) -> Dist:
    fn, pos = FUNCTION_IMPL[node.name], node.pos
    args = [_node_odds(a) for a in node.args]
    if len(args) == 1:
        return args[0].map(lambda x: fn(pos, x))
    return args[0].combine(args[1], lambda x, y: fn(pos, x, y))


def _multi_odds(node: Multi) -> Dist:
    out = Dist.const(())
    for item in node.items:
        part = _node_odds(item)
        if len(out.w) * len(part.w) > limit("odds_outcomes"):
            said = Message("error.odds.comma", {"limit": limit("odds_outcomes")})
            raise DiceLimitError(said, item.pos if hasattr(item, "pos") else None)
        out = out.combine(part, lambda a, b: (*a, b))
    return out


_ODDS: dict[type, Callable[[Any], Dist]] = {
    Number: lambda n: Dist.const(n.value),
    Dice: _dice_odds,
    Group: _group_odds,
    BinOp: _binop_odds,
    Negate: lambda n: _node_odds(n.operand).map(lambda v: -v),
    Call: _call_odds,
    Multi: _multi_odds,
}


def _node_odds(node: Node) -> Dist:
    try:
        return _ODDS[type(node)](node)
    except DiceError as err:
        if err.position is None:  # point at the innermost part that was too large
            err.position = getattr(node, "pos", None)
        raise


def odds(expr: Any) -> Distribution:
    """The exact distribution of an expression's total.

    Args:
        expr: Notation text or an ``Expression``.

    Raises:
        DiceError: the notation is invalid, over a limit, can divide by zero, or its odds
            cannot be computed exactly (``OddsUnavailableError``).
    """
    from .expression import Expression, parse

    e = expr if isinstance(expr, Expression) else parse(expr)
    if e.placeholders:
        names = ", ".join(sorted(e.placeholders))
        said = Message("error.dice.fill_before_odds", {"names": names})
        raise PlaceholderError(said, 0, e.text)
    try:
        with work_budget():
            d = _node_odds(e.tree)
            charge(len(d.w) * FRACTION_WEIGHT)  # the probabilities below are fractions
    except DiceError as err:
        if not err.text:
            err.text = e.text
        raise
    pmf = {k: Fraction(q, d.total) for k, q in sorted(d.w.items())}
    return Distribution(pmf)


def support(expr: Any) -> frozenset[Any]:
    """The possible totals of an expression (tuples for comma rolls)."""
    return odds(expr).support()
