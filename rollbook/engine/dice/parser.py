"""Tokenizing and parsing: notation text -> parsed tree (``nodes``).

A hand-written recursive-descent parser over characters. Recursion happens only where the
notation nests (parentheses, groups, function calls) and an explicit depth counter stops it
at the ``notation_depth`` limit, so no input can reach Python's recursion limit. Operator chains,
signs and powers are parsed with loops.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from rollbook.engine.limits import value as limit
from rollbook.engine.messages import Message

from .errors import DiceLimitError, DiceSyntaxError, PlaceholderError
from .nodes import (
    FUNCTIONS,
    BinOp,
    Call,
    Clamp,
    Compare,
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

__all__ = ["PLACEHOLDER_RE", "fill", "find_placeholders", "parse_tree"]

#: ``{{ name }}`` with any spacing inside the braces.
PLACEHOLDER_RE = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_-]*)\s*\}\}")
_WS = " \t\r\n"
_COMPARE_OPS = ("<=", ">=", "!=", "<>", "=", "<", ">")
_GROUP_MODIFIERS = (Keep, Target, Sort)


def find_placeholders(text: str) -> frozenset[str]:
    """Return the names of the ``{{ name }}`` placeholders in ``text``."""
    return frozenset(PLACEHOLDER_RE.findall(text))


def fill(text: str, values: Mapping[str, int]) -> str:
    """Substitute every ``{{ name }}`` placeholder (any spacing) with its whole-number value.

    Raises:
        PlaceholderError: a placeholder has no value, or a value is not a whole number.
    """

    def sub(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            said = Message("error.dice.placeholder_missing", {"name": name})
            raise PlaceholderError(said, match.start(), text)
        value = values[name]
        if isinstance(value, bool) or not isinstance(value, int):
            said = Message("error.dice.placeholder_not_whole", {"name": name, "value": repr(value)})
            raise PlaceholderError(said, match.start(), text)
        return str(value) if value >= 0 else f"({value})"

    return PLACEHOLDER_RE.sub(sub, text)


def _clean(value: Fraction) -> Value:
    return value.numerator if value.denominator == 1 else value


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.n = len(text)
        self.i = 0
        self.depth = 0
        self.total_dice = 0
        self.rolled_dice = 0  # worst case, each exploding die counted with all its explosions

    # --- helpers --------------------------------------------------------------------------
    def fail(self, key: str, pos: int | None = None, **args: Any) -> DiceSyntaxError:
        """The syntax error `key` (an ``error.dice.*`` message) at ``pos`` (here if None)."""
        said = Message(key, args)
        return DiceSyntaxError(said, self.i if pos is None else pos, self.text)

    def limit(self, message: str | Message, pos: int) -> DiceLimitError:
        return DiceLimitError(message, pos, self.text)

    def found(self) -> Message:
        if self.i >= self.n:
            return Message("error.dice.found_end")
        return Message("error.dice.found", {"char": self.text[self.i]})

    def ws(self) -> None:
        text, n, i = self.text, self.n, self.i
        while i < n and text[i] in _WS:
            i += 1
        self.i = i

    def peek(self, s: str) -> bool:
        return self.text.startswith(s, self.i)

    def enter(self, pos: int) -> None:
        self.depth += 1
        if self.depth > limit("notation_depth"):
            said = Message("error.dice.too_deep", {"limit": limit("notation_depth")})
            raise self.limit(said, pos)

    # --- grammar --------------------------------------------------------------------------
    def parse(self) -> Node:
        self.ws()
        start = self.i
        if start >= self.n:
            raise self.fail("error.dice.empty", 0)
        items = self.expr_list()
        if self.i < self.n:
            raise DiceSyntaxError(self.unexpected(), self.i, self.text)
        if len(items) == 1:
            return items[0]
        return Multi(tuple(items), start)

    def unexpected(self) -> Message:
        c = self.text[self.i]
        if c == ")":
            return Message("error.dice.unmatched_paren")
        if c == "}":
            return Message("error.dice.unmatched_brace")
        if "a" <= c <= "z" or "A" <= c <= "Z":
            return Message("error.dice.modifier_space", {"char": c})
        return Message("error.dice.unexpected", {"char": c})

    def described(self) -> Node:
        """An expression with an optional description after it (`2d6+1 # fire`).

        rpg-dice-roller allows one for a whole roll; here also for each item of a comma
        roll, a group or brackets, so a roll can be composed around its description.
        """
        node = self.expr()
        self.label()
        return node

    def expr(self) -> Node:
        return self.chain(self.term, self.additive)

    def term(self) -> Node:
        return self.chain(self.unary, self.multiplicative)

    def chain(self, operand: Callable[[], Node], operator: Callable[[], str]) -> Node:
        """Operands joined by one precedence level's operators, left to right.

        ``operator()`` names the one-character operator at the cursor, or ``""`` when
        the chain ends there (the cursor goes back to the end of the last operand).
        """
        left = operand()
        while True:
            save = self.i
            self.ws()
            op = operator()
            if not op:
                self.i = save
                return left
            pos = self.i
            self.i += 1
            self.ws()
            left = BinOp(op, left, operand(), pos)

    def additive(self) -> str:
        """``+`` or ``-`` at the cursor, else ``""``."""
        c = self.text[self.i] if self.i < self.n else ""
        return c if c in ("+", "-") else ""

    def multiplicative(self) -> str:
        """``*``, ``/`` or ``%`` at the cursor (not ``**``, ``//`` or ``/*``), else ``""``."""
        c = self.text[self.i] if self.i < self.n else ""
        if c == "*":
            return "" if self.peek("**") else c
        if c == "/":
            return "" if self.peek("//") or self.peek("/*") else c
        return c if c == "%" else ""

    def power(self) -> Node:
        # Right-associative, and a sign binds looser than the power after it (-2**2 is -4,
        # 2**-1 is 1/2), as mathjs does. Loops, not recursion, so long chains are safe.
        operands = [self.primary()]
        signs: list[list[int]] = [[]]
        ops: list[int] = []
        while True:
            save = self.i
            self.ws()
            if self.peek("**"):
                width = 2
            elif self.peek("^"):
                width = 1
            else:
                self.i = save
                break
            ops.append(self.i)
            self.i += width
            self.ws()
            signs.append(self.signs())
            operands.append(self.primary())
        node = self.apply_signs(signs[-1], operands[-1])
        for k in range(len(ops) - 1, -1, -1):
            node = BinOp("**", operands[k], node, ops[k])
            if k:
                node = self.apply_signs(signs[k], node)
        return node

    def signs(self) -> list[int]:
        """Consume leading signs; return the positions of the minus signs."""
        minus: list[int] = []
        count = 0
        while self.i < self.n and self.text[self.i] in "+-":
            if self.text[self.i] == "-":
                minus.append(self.i)
            self.i += 1
            count += 1
            self.ws()
            if count > limit("notation_depth"):
                said = Message("error.dice.signs", {"limit": limit("notation_depth")})
                raise self.limit(said, self.i)
        return minus

    @staticmethod
    def apply_signs(minus: list[int], node: Node) -> Node:
        for pos in reversed(minus):
            node = Negate(node, pos)
        return node

    def unary(self) -> Node:
        minus = self.signs()
        return self.apply_signs(minus, self.power())

    def primary(self) -> Node:
        text, i = self.text, self.i
        if i >= self.n:
            raise self.fail("error.dice.ends_early")
        c = text[i]
        if c == "(":
            self.enter(i)
            self.i += 1
            self.ws()
            inner = self.described()
            self.ws()
            if not self.peek(")"):
                raise self.fail("error.dice.close_paren", column=i + 1, found=self.found())
            self.i += 1
            self.depth -= 1
            return inner
        if text.startswith("{{", i):
            match = PLACEHOLDER_RE.match(text, i)
            if match:
                said = Message("error.dice.placeholder_unfilled", {"name": match.group(1)})
                raise PlaceholderError(said, i, text)
        if c == "{":
            return self.group()
        if c == "d":
            return self.dice(1, i)
        if "0" <= c <= "9":
            return self.number_or_dice()
        if "a" <= c <= "z" or "A" <= c <= "Z":
            return self.call()
        raise self.fail("error.dice.expected_term", found=self.found())

    def number_or_dice(self) -> Node:
        start = self.i
        m = re.compile(r"[0-9]+(\.[0-9]+)?").match(self.text, start)
        assert m is not None
        self.i = m.end()
        if self.peek("d") and not m.group(1):
            digits = m.group(0)
            if digits[0] == "0":
                raise self.fail("error.dice.no_dice", start)
            qty = int(digits)
            if qty > limit("dice_per_term"):
                said = Message(
                    "error.dice.too_many_dice", {"qty": qty, "limit": limit("dice_per_term")}
                )
                raise self.limit(said, start)
            return self.dice(qty, start)
        if self.peek("."):
            raise self.fail("error.dice.decimal")
        return Number(_clean(Fraction(m.group(0))), start)

    def dice(self, qty: int, start: int) -> Dice:
        self.i += 1  # the "d"
        text, i = self.text, self.i
        if text.startswith("%", i):
            sides, faces, low = "%", tuple(range(1, 101)), 1
            self.i += 1
        elif text.startswith("F", i):
            self.i += 1
            if text.startswith(".1", self.i):
                sides, faces, low = "F.1", (-1, 0, 0, 0, 0, 1), None
                self.i += 2
            elif text.startswith(".2", self.i):
                sides, faces, low = "F.2", (-1, 0, 1), -1
                self.i += 2
            else:
                sides, faces, low = "F", (-1, 0, 1), -1
        else:
            m = re.compile(r"[0-9]+").match(text, i)
            if not m:
                raise self.fail("error.dice.sides_expected", found=self.found())
            if int(m.group(0)) == 0 or m.group(0)[0] == "0":
                raise self.fail("error.dice.no_sides")
            count = int(m.group(0))
            if count > limit("die_sides"):
                said = Message(
                    "error.dice.too_many_sides", {"sides": count, "limit": limit("die_sides")}
                )
                raise self.limit(said, i)
            sides, faces, low = m.group(0), tuple(range(1, count + 1)), 1
            self.i = m.end()
        self.total_dice += qty
        if self.total_dice > limit("dice_per_notation"):
            said = Message("error.dice.total_dice", {"limit": limit("dice_per_notation")})
            raise self.limit(said, start)
        modifiers = self.modifiers(faces, qty, group=False)
        explodes = any(isinstance(m, Explode) for m in modifiers)
        self.rolled_dice += qty * (1 + limit("explosions")) if explodes else qty
        if self.rolled_dice > limit("rolled_dice"):
            said = Message(
                "error.dice.rolled_dice",
                {"limit": limit("rolled_dice"), "explosions": limit("explosions")},
            )
            raise self.limit(said, start)
        end = self.i
        label = self.label()
        return Dice(qty, sides, faces, low, modifiers, label, start, end)

    def expr_list(self) -> list[Node]:
        """One or more comma-separated expressions (group items, function arguments)."""
        self.ws()
        items = [self.described()]
        self.ws()
        while self.peek(","):
            self.i += 1
            self.ws()
            items.append(self.described())
            self.ws()
        return items

    def group(self) -> Group:
        start = self.i
        self.enter(start)
        self.i += 1
        items = self.expr_list()
        if not self.peek("}"):
            raise self.fail("error.dice.close_group", column=start + 1, found=self.found())
        self.i += 1
        self.depth -= 1
        modifiers = self.modifiers((), len(items), group=True)
        end = self.i
        return Group(tuple(items), modifiers, self.label(), start, end)

    def call(self) -> Call:
        start = self.i
        m = re.compile(r"[a-z]+").match(self.text, start)
        name = m.group(0) if m else ""
        if name not in FUNCTIONS:
            word = re.compile(r"[A-Za-z_]\w*").match(self.text, start)
            shown = word.group(0) if word else self.text[start]
            raise self.fail(
                "error.dice.unknown_word", start, word=shown, functions=", ".join(sorted(FUNCTIONS))
            )
        self.i = m.end() if m else start
        if not self.peek("("):
            raise self.fail("error.dice.function_paren", name=name)
        self.enter(start)
        self.i += 1
        args = self.expr_list()
        if not self.peek(")"):
            raise self.fail("error.dice.function_close", name=name, found=self.found())
        self.i += 1
        self.depth -= 1
        if len(args) != FUNCTIONS[name]:
            want = FUNCTIONS[name]
            takes = Message("error.dice.arguments", {"count": want})
            raise self.fail(
                "error.dice.function_args", start, name=name, want=takes, given=len(args)
            )
        return Call(name, tuple(args), start)

    # --- modifiers ------------------------------------------------------------------------
    def compare(self, required: bool, what: str) -> Compare | None:
        """A compare point (``>=5``); ``what`` is the ``error.dice.what_*`` key of its use."""
        for op in _COMPARE_OPS:
            if self.peek(op):
                self.i += len(op)
                m = re.compile(r"-?[0-9]+(\.[0-9]+)?").match(self.text, self.i)
                if not m:
                    raise self.fail("error.dice.compare_number", op=op, what=Message(what))
                self.i = m.end()
                return Compare("!=" if op == "<>" else op, _clean(Fraction(m.group(0))))
        if required:
            raise self.fail("error.dice.compare_needed", what=Message(what))
        return None

    def count(self, what: str) -> int:
        m = re.compile(r"[0-9]+").match(self.text, self.i)
        if not m or m.group(0)[0] == "0":
            raise self.fail("error.dice.count_needed", what=what)
        self.i = m.end()
        return int(m.group(0))

    def modifiers(self, faces: tuple[int, ...], qty: int, group: bool) -> tuple[Modifier, ...]:
        found: dict[str, Modifier] = {}
        while self.i < self.n:
            pos = self.i
            name, mod = self.modifier(faces, pos)
            if mod is None:
                break
            if group and not isinstance(mod, _GROUP_MODIFIERS):
                raise self.fail("error.dice.group_modifier", pos)
            found[name] = mod  # a repeated modifier replaces the earlier one
        mods = sorted(found.values(), key=lambda m: m.order)
        if not group:
            self.check_dice_modifiers(faces, qty, mods)
        return tuple(mods)

    def modifier(self, faces: tuple[int, ...], pos: int) -> tuple[str, Modifier | None]:
        text, i = self.text, self.i
        c = text[i]
        if c == "!":
            compound = text.startswith("!!", i)
            self.i += 2 if compound else 1
            penetrate = self.peek("p")
            if penetrate:
                self.i += 1
            cp = self.compare(False, "error.dice.what_explosion") or Compare(
                "=", max(faces or (0,))
            )
            return "explode", Explode(cp, compound, penetrate, pos)
        if text.startswith(("min", "max"), i):
            kind = text[i : i + 3]
            self.i += 3
            m = re.compile(r"-?[0-9]+(\.[0-9]+)?").match(text, self.i)
            if not m:
                raise self.fail("error.dice.clamp_number", kind=kind)
            self.i = m.end()
            return kind, Clamp(kind, _clean(Fraction(m.group(0))), pos)
        if c in ("k", "d"):  # keep (kh, kl; k keeps the highest) or drop (dh, dl; d the lowest)
            drop = c == "d"
            self.i += 1
            high = self.peek("h") if drop else not self.peek("l")
            if self.peek("h") or self.peek("l"):
                self.i += 1
            qty = self.count(c)
            name = f"{'drop' if drop else 'keep'}-{'h' if high else 'l'}"
            return name, Keep(drop, high, qty, pos)
        if c == "r":
            self.i += 1
            once = self.peek("o")
            if once:
                self.i += 1
            cp = self.compare(False, "error.dice.what_reroll") or Compare("=", min(faces or (0,)))
            return "reroll", Reroll(cp, once, pos)
        if c == "u":
            self.i += 1
            once = self.peek("o")
            if once:
                self.i += 1
            return "unique", Unique(self.compare(False, "error.dice.what_unique"), once, pos)
        if text.startswith(("cs", "cf"), i):
            self.i += 2
            success = text[i + 1] == "s"
            default = Compare("=", max(faces or (0,)) if success else min(faces or (0,)))
            cp = self.compare(False, "error.dice.what_critical") or default
            return ("crit-s" if success else "crit-f"), Critical(success, cp, pos)
        if c == "s":
            self.i += 1
            desc = self.peek("d")
            if desc or self.peek("a"):
                self.i += 1
            return "sort", Sort(desc, pos)
        if c in "<>=":
            hit = self.compare(True, "error.dice.what_success")
            assert hit is not None
            miss = None
            if self.peek("f"):
                self.i += 1
                miss = self.compare(True, "error.dice.what_failure")
            return "target", Target(hit, miss, pos)
        if c == "f":
            raise self.fail("error.dice.failure_order")
        return "", None

    def check_dice_modifiers(self, faces: tuple[int, ...], qty: int, mods: list[Modifier]) -> None:
        distinct = sorted(set(faces))
        explode = next((m for m in mods if isinstance(m, Explode)), None)
        for mod in mods:
            if isinstance(mod, Explode | Reroll | Unique) and len(distinct) < 2:
                raise self.fail("error.dice.single_face", mod.pos)
            if isinstance(mod, Explode) and all(mod.compare(f) for f in distinct):
                raise self.fail("error.dice.explode_forever", mod.pos, compare=str(mod.compare))
            if isinstance(mod, Reroll) and all(mod.compare(f) for f in distinct):
                raise self.fail("error.dice.reroll_forever", mod.pos, compare=str(mod.compare))
            if isinstance(mod, Unique):
                cp = mod.compare
                if explode is not None and not explode.compound:
                    raise self.fail("error.dice.unique_explode", mod.pos)
                if (cp is None or all(cp(f) for f in distinct)) and qty > len(distinct):
                    raise self.fail(
                        "error.dice.unique_faces", mod.pos, qty=qty, faces=len(distinct)
                    )

    def label(self) -> str | None:
        save = self.i
        self.ws()
        text, i = self.text, self.i
        if text.startswith("[", i):
            return self.enclosed(i, "[", "]", "error.dice.label_open")
        if text.startswith(("#", "//"), i):
            start = i + (1 if text[i] == "#" else 2)
            close = text.find("\n", start)
            self.i = self.n if close < 0 else close
            return text[start : self.i].strip()
        if text.startswith("/*", i):
            return self.enclosed(i, "/*", "*/", "error.dice.comment_open")
        self.i = save
        return None

    def enclosed(self, i: int, opening: str, closing: str, unclosed: str) -> str:
        """The text from ``opening`` at ``i`` to ``closing``, stripped; the cursor after it.

        ``unclosed`` is the error's message key when ``closing`` never comes.
        """
        start = i + len(opening)
        close = self.text.find(closing, start)
        if close < 0:
            raise self.fail(unclosed, i)
        self.i = close + len(closing)
        return self.text[start:close].strip()


def parse_tree(text: str) -> Node:
    """Parse ``text`` into a tree, checking the length and nesting limits first.

    Raises:
        DiceError: a subclass saying what is wrong and where.
    """
    if not isinstance(text, str):
        raise DiceSyntaxError(Message("error.dice.not_text", {"type": type(text).__name__}))
    if len(text.strip()) > limit("notation_length"):
        said = Message("error.dice.too_long", {"limit": limit("notation_length")})
        raise DiceLimitError(said, limit("notation_length"), text)
    return _Parser(text).parse()
