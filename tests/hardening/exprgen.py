"""Seeded generators of dice notation for the hardening suite: valid, near-miss and garbage.

Valid expressions come with their bounds, computed while generating: every operand of an
operator is an independent roll that reaches both its bounds, so interval arithmetic over
``+ - *``, ``max``/``min`` and plain keep/drop gives the exact minimum and maximum. Parts whose
bounds are only safe (not reached, e.g. ``abs`` across zero, success counting) mark the
result ``exact=False``; the tests compare exact bounds with ``rollbook.engine.dice.odds`` on a
sample.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from rollbook.engine.limits import value as limit

__all__ = ["Gen", "garbage", "near_miss", "valid"]


@dataclass(frozen=True, slots=True)
class Gen:
    """A generated notation with its bounds (``lo``/``hi``) and whether they are exact."""

    text: str
    lo: int
    hi: int
    exact: bool = True
    atom: bool = True  # False for `a + b`: wrapped in parentheses when used as an operand

    @property
    def operand(self) -> str:
        return self.text if self.atom else f"({self.text})"


def _corners(a: Gen, b: Gen, op: str) -> tuple[int, int]:
    if op == "+":
        return a.lo + b.lo, a.hi + b.hi
    if op == "-":
        return a.lo - b.hi, a.hi - b.lo
    products = [x * y for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return min(products), max(products)


def _dice(rng: random.Random, small: bool) -> Gen:
    """One dice term: ``NdX`` with at most one keep/drop or re-roll modifier."""
    if small:
        qty = rng.choice([1, 1, 2, 2, 3, 4, 5, 6])
        kind = rng.choice(["n", "n", "n", "%", "F"])
        sides = rng.choice([2, 3, 4, 6, 8, 10, 12, 20])
    else:
        # Huge terms are slow to roll (a few ms): a few of them, not most.
        big = rng.random() < 0.03
        qty = rng.choice([100, 999, 1000] if big else [1, 2, 3, 4, 10, 20])
        kind = rng.choice(["n", "n", "n", "n", "%", "F"])
        sides = rng.choice([1, 2, 6, 20, 100, 999, 10_000])
    count = "" if qty == 1 and rng.random() < 0.3 else str(qty)
    if kind == "%":
        die, low, high = "%", 1, 100
    elif kind == "F":
        die, low, high = "F", -1, 1
    else:
        die, low, high = str(sides), 1, sides
    text = f"{count}d{die}"
    mod = rng.random()
    kept = qty
    if mod < 0.25:
        k = rng.randint(1, qty + 2)
        form = rng.choice(["k", "kh", "kl", "d", "dh", "dl"])
        text += f"{form}{k}"
        kept = min(k, qty) if form.startswith("k") else max(qty - k, 0)
    elif mod < 0.35 and high > low and kind == "n":
        # Re-roll the lowest face until it is gone: the minimum moves up by one per die.
        text += "r"
        low += 1
    elif mod < 0.42 and high > low and kind == "n":
        # Success counting: the total is a count of dice, 0..qty.
        text += f">={rng.randint(low, high)}"
        return Gen(text, 0, qty, exact=False)
    return Gen(text, kept * low, kept * high)


def valid(rng: random.Random, depth: int = 0, small: bool = False) -> Gen:
    """A random valid notation (bounded total dice: a few terms at most are large)."""
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        if rng.random() < 0.25:
            value = rng.choice([0, 1, 2, 3, 7, 10, 100, rng.randint(0, 10**6)])
            return Gen(str(value), value, value)
        return _dice(rng, small)
    if roll < 0.7:
        a, b = valid(rng, depth + 1, small), valid(rng, depth + 1, small)
        op = rng.choice("+-*" if not small else "+-")
        lo, hi = _corners(a, b, op)
        text = f"{a.operand}{rng.choice(['', ' '])}{op} {b.operand}"
        return Gen(text, lo, hi, a.exact and b.exact, atom=False)
    if roll < 0.8:
        a = valid(rng, depth + 1, small)
        return Gen(f"({a.text})", a.lo, a.hi, a.exact)
    if roll < 0.88:
        a = valid(rng, depth + 1, small)
        return Gen(f"-({a.text})", -a.hi, -a.lo, a.exact)
    if roll < 0.95:
        a, b = valid(rng, depth + 1, small), valid(rng, depth + 1, small)
        name = rng.choice(["max", "min"])
        pick = max if name == "max" else min
        return Gen(f"{name}({a.text}, {b.text})", pick(a.lo, b.lo), pick(a.hi, b.hi),
                   a.exact and b.exact)  # fmt: skip
    a = valid(rng, depth + 1, small)
    if a.lo >= 0:
        return Gen(f"abs({a.text})", a.lo, a.hi, a.exact)
    if a.hi <= 0:
        return Gen(f"abs({a.text})", -a.hi, -a.lo, a.exact)
    return Gen(f"abs({a.text})", 0, max(-a.lo, a.hi), exact=False)


_GRAMMAR = "0123456789d%F.+-*/^(){}[],!<>=khlrousfcmaxinpbqtgew #\n\t"
_UNICODE = [
    "²", "³", "½", "٣", "٦", "２", "𝟙", "Ⅻ", "\u0301", "\u200b", "\u202e", "\ufeff", "\x00",
    "\x7f", "\ud800", "🎲", "d̶", "ｄ", "е", "—", "−", "×", "÷", "≥", "≤", "≠", "\u2028", "\\",
    "'", '"', "<", ">", "&", "<script>", "{{ x }}", "{{", "}}", "`", "$", "%", "é", "ß",
]  # fmt: skip
_NASTY = [
    "1d1!", "d2!>=1", "dF!", "d6!>0", "d6!<7", "d6r<7", "d6r>0", "7d6u", "11d10u", "d6!!>=1",
    "d6!p>=1", "1d6!!p", "{d6,d6}!", "1000d10000", "1000d10000!", "1000d10000u",
    "1000d10000!!", "2000d6", "1001d6", "1d10001", "99999999999999999999d6", "d0", "0d6",
    "d06", "1d6kh0", "2**100**100", "9**9**9", "pow(10,100)*pow(10,100)*pow(10,100)",
    "1/0", "1%0", "0**-1", "sqrt(-1)", "(-8)**(1/3)", "1d6/(1d6-1d6)", "round(1/3)",
    "1d6min-100max100", "1d6[label", "1d6/*x", "1d6#x\n+1", "d6,d6,d6", "{1d6,}", "{,}", "()",
]  # fmt: skip


def _nested(rng: random.Random) -> str:
    depth = rng.choice(
        [10, limit("notation_depth") - 1, limit("notation_depth"), limit("notation_depth") + 1, 200]
    )
    core = rng.choice(["1", "d6", "2d6+1"])
    opener, closer = rng.choice([("(", ")"), ("{", "}"), ("abs(", ")"), ("-(", ")")])
    return opener * depth + core + closer * depth


def near_miss(rng: random.Random) -> str:
    """A valid notation with one or two small edits: deleted, doubled or foreign characters."""
    text = valid(rng).text
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(len(text) + 1)
        edit = rng.random()
        if edit < 0.3 and text:
            text = text[: max(i - 1, 0)] + text[i:]
        elif edit < 0.5 and i < len(text):
            text = text[:i] + text[i] + text[i:]
        elif edit < 0.8:
            text = text[:i] + rng.choice(_GRAMMAR) + text[i:]
        else:
            text = text[:i] + rng.choice(_UNICODE) + text[i:]
    return text


def garbage(rng: random.Random) -> str:
    """Random strings, unicode, huge numbers, deep nesting, explosion loops, very long input."""
    kind = rng.random()
    if kind < 0.3:
        return "".join(rng.choice(_GRAMMAR) for _ in range(rng.randint(0, 30)))
    if kind < 0.45:
        pool = _GRAMMAR + "".join(_UNICODE)
        return "".join(rng.choice(pool) for _ in range(rng.randint(1, 20)))
    if kind < 0.6:
        return rng.choice(_NASTY) + rng.choice(["", "+1", "*2", " ", "kh1", "!"])
    if kind < 0.7:
        return _nested(rng)
    if kind < 0.8:
        # Long input around the length limit: sums of small dice, or one long number.
        size = rng.choice(
            [
                limit("notation_length") - 5,
                limit("notation_length"),
                limit("notation_length") + 1,
                5000,
            ]
        )
        if rng.random() < 0.5:
            return ("d6+" * (size // 3 + 1))[:size].rstrip("+")
        return "9" * size
    if kind < 0.9:
        qty = rng.choice([1, 10, 500, 999, 1000, 1001, 2000, 10**6, 10**30])
        sides = rng.choice([1, 2, 6, 10_000, 10_001, 10**9])
        mods = rng.choice(["", "!", "!!", "!p", "!>1", "r<5", "u", "uo", "kh3", ">=5f<2", "sa"])
        return f"{qty}d{sides}{mods}" + rng.choice(["", f"+{qty}d{sides}{mods}"])
    ops = ["+", "*", "**", "^", "/", "%", "-"]
    parts = (f"{rng.randint(0, 10 ** rng.randint(0, 40))}{rng.choice(ops)}" for _ in range(8))
    return "".join(parts) + "1"
