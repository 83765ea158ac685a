"""Tokenizing and parsing: notation text -> parsed tree (``nodes``).

A hand-written recursive-descent parser over characters. Recursion happens only where the
notation nests (parentheses, groups, function calls) and an explicit depth counter stops it
at the ``notation_depth`` limit, so no input can reach Python's recursion limit. Operator chains,
signs and powers are parsed with loops.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction

from rollbook.engine.limits import value as limit

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
            raise PlaceholderError(
                f"No value was given for the placeholder '{name}'.", match.start(), text
            )
        value = values[name]
        if isinstance(value, bool) or not isinstance(value, int):
            raise PlaceholderError(
                f"The placeholder '{name}' needs a whole number, not {value!r}.",
                match.start(),
                text,
            )
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
    def fail(self, message: str, pos: int | None = None) -> DiceSyntaxError:
        return DiceSyntaxError(message, self.i if pos is None else pos, self.text)

    def limit(self, message: str, pos: int) -> DiceLimitError:
        return DiceLimitError(message, pos, self.text)

    def found(self) -> str:
        if self.i >= self.n:
            return "the notation ends"
        return f"found '{self.text[self.i]}'"

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
            raise self.limit(
                f"The notation nests more than {limit('notation_depth')} levels deep.", pos
            )

    # --- grammar --------------------------------------------------------------------------
    def parse(self) -> Node:
        self.ws()
        start = self.i
        if start >= self.n:
            raise self.fail("The notation is empty.", 0)
        items = [self.described()]
        self.ws()
        while self.peek(","):
            self.i += 1
            self.ws()
            items.append(self.described())
            self.ws()
        if self.i < self.n:
            raise self.fail(self.unexpected())
        if len(items) == 1:
            return items[0]
        return Multi(tuple(items), start)

    def unexpected(self) -> str:
        c = self.text[self.i]
        if c == ")":
            return "There is a ')' without a matching '('."
        if c == "}":
            return "There is a '}' without a matching '{'."
        if "a" <= c <= "z" or "A" <= c <= "Z":
            return f"Unexpected '{c}': modifiers must follow their dice with no space."
        return f"Unexpected '{c}': expected an operator (+ - * / % **) or the end."

    def described(self) -> Node:
        """An expression with an optional description after it (`2d6+1 # fire`).

        rpg-dice-roller allows one for a whole roll; here also for each item of a comma
        roll, a group or brackets, so a roll can be composed around its description.
        """
        node = self.expr()
        self.label()
        return node

    def expr(self) -> Node:
        left = self.term()
        while True:
            save = self.i
            self.ws()
            c = self.text[self.i] if self.i < self.n else ""
            if c in ("+", "-") and c:
                pos = self.i
                self.i += 1
                self.ws()
                left = BinOp(c, left, self.term(), pos)
            else:
                self.i = save
                return left

    def term(self) -> Node:
        left = self.unary()
        while True:
            save = self.i
            self.ws()
            c = self.text[self.i] if self.i < self.n else ""
            if c == "*" and not self.peek("**"):
                op = "*"
            elif c == "/" and not (self.peek("//") or self.peek("/*")):
                op = "/"
            elif c == "%":
                op = "%"
            else:
                self.i = save
                return left
            pos = self.i
            self.i += 1
            self.ws()
            left = BinOp(op, left, self.unary(), pos)

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
                raise self.limit(f"More than {limit('notation_depth')} signs in a row.", self.i)
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
            raise self.fail("The notation ends too early: expected a number, dice, '(' or '{'.")
        c = text[i]
        if c == "(":
            self.enter(i)
            self.i += 1
            self.ws()
            inner = self.described()
            self.ws()
            if not self.peek(")"):
                raise self.fail(
                    f"Expected ')' to close the '(' at column {i + 1}, but {self.found()}."
                )
            self.i += 1
            self.depth -= 1
            return inner
        if text.startswith("{{", i):
            match = PLACEHOLDER_RE.match(text, i)
            if match:
                raise PlaceholderError(
                    f"The placeholder '{match.group(1)}' has no value; fill it before rolling.",
                    i,
                    text,
                )
        if c == "{":
            return self.group()
        if c == "d":
            return self.dice(1, i)
        if "0" <= c <= "9":
            return self.number_or_dice()
        if "a" <= c <= "z" or "A" <= c <= "Z":
            return self.call()
        raise self.fail(f"Expected a number, dice, '(' or '{{', but {self.found()}.")

    def number_or_dice(self) -> Node:
        start = self.i
        m = re.compile(r"[0-9]+(\.[0-9]+)?").match(self.text, start)
        assert m is not None
        self.i = m.end()
        if self.peek("d") and not m.group(1):
            digits = m.group(0)
            if digits[0] == "0":
                raise self.fail("The number of dice must be 1 or more.", start)
            qty = int(digits)
            if qty > limit("dice_per_term"):
                raise self.limit(
                    f"{qty} dice in one roll is more than the limit of {limit('dice_per_term')}.",
                    start,
                )
            return self.dice(qty, start)
        if self.peek("."):
            raise self.fail("A decimal point must be followed by digits.")
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
                raise self.fail(f"Expected the number of sides after 'd', but {self.found()}.")
            if int(m.group(0)) == 0 or m.group(0)[0] == "0":
                raise self.fail("A die needs 1 or more sides (written without a leading 0).")
            count = int(m.group(0))
            if count > limit("die_sides"):
                raise self.limit(
                    f"A die with {count} sides is more than the limit of {limit('die_sides')}.", i
                )
            sides, faces, low = m.group(0), tuple(range(1, count + 1)), 1
            self.i = m.end()
        self.total_dice += qty
        if self.total_dice > limit("dice_per_notation"):
            raise self.limit(
                f"The notation rolls more than {limit('dice_per_notation')} dice in all.", start
            )
        modifiers = self.modifiers(faces, qty, group=False)
        explodes = any(isinstance(m, Explode) for m in modifiers)
        self.rolled_dice += qty * (1 + limit("explosions")) if explodes else qty
        if self.rolled_dice > limit("rolled_dice"):
            raise self.limit(
                f"The notation could roll more than {limit('rolled_dice')} dice in all, "
                f"counting up to {limit('explosions')} explosions per exploding die.",
                start,
            )
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
            raise self.fail(
                f"Expected ',' or '}}' to close the group at column {start + 1}, "
                f"but {self.found()}."
            )
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
                f"Unknown word '{shown}': expected dice such as 2d6, a number or a function "
                f"({', '.join(sorted(FUNCTIONS))}).",
                start,
            )
        self.i = m.end() if m else start
        if not self.peek("("):
            raise self.fail(f"Expected '(' after the function name '{name}'.")
        self.enter(start)
        self.i += 1
        args = self.expr_list()
        if not self.peek(")"):
            raise self.fail(f"Expected ')' to close '{name}(', but {self.found()}.")
        self.i += 1
        self.depth -= 1
        if len(args) != FUNCTIONS[name]:
            want = FUNCTIONS[name]
            raise self.fail(
                f"The function '{name}' takes {want} argument{'s' if want > 1 else ''}, "
                f"not {len(args)}.",
                start,
            )
        return Call(name, tuple(args), start)

    # --- modifiers ------------------------------------------------------------------------
    def compare(self, required: bool, what: str) -> Compare | None:
        for op in _COMPARE_OPS:
            if self.peek(op):
                self.i += len(op)
                m = re.compile(r"-?[0-9]+(\.[0-9]+)?").match(self.text, self.i)
                if not m:
                    raise self.fail(f"Expected a number after '{op}' in {what}.")
                self.i = m.end()
                return Compare("!=" if op == "<>" else op, _clean(Fraction(m.group(0))))
        if required:
            raise self.fail(f"Expected a compare point (such as >=5) in {what}.")
        return None

    def count(self, what: str) -> int:
        m = re.compile(r"[0-9]+").match(self.text, self.i)
        if not m or m.group(0)[0] == "0":
            raise self.fail(f"Expected a count of 1 or more after '{what}'.")
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
                raise self.fail(
                    "Only keep/drop, success counting and sorting apply to a roll group.", pos
                )
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
            cp = self.compare(False, "an explosion") or Compare("=", max(faces or (0,)))
            return "explode", Explode(cp, compound, penetrate, pos)
        if text.startswith(("min", "max"), i):
            kind = text[i : i + 3]
            self.i += 3
            m = re.compile(r"-?[0-9]+(\.[0-9]+)?").match(text, self.i)
            if not m:
                raise self.fail(f"Expected a number after '{kind}'.")
            self.i = m.end()
            return kind, Clamp(kind, _clean(Fraction(m.group(0))), pos)
        if c == "k":
            self.i += 1
            high = not self.peek("l")
            if self.peek("h") or self.peek("l"):
                self.i += 1
            qty = self.count("k")
            return ("keep-h" if high else "keep-l"), Keep(False, high, qty, pos)
        if c == "d":
            self.i += 1
            high = self.peek("h")
            if self.peek("h") or self.peek("l"):
                self.i += 1
            qty = self.count("d")
            return ("drop-h" if high else "drop-l"), Keep(True, high, qty, pos)
        if c == "r":
            self.i += 1
            once = self.peek("o")
            if once:
                self.i += 1
            cp = self.compare(False, "a re-roll") or Compare("=", min(faces or (0,)))
            return "reroll", Reroll(cp, once, pos)
        if c == "u":
            self.i += 1
            once = self.peek("o")
            if once:
                self.i += 1
            return "unique", Unique(self.compare(False, "a unique modifier"), once, pos)
        if text.startswith(("cs", "cf"), i):
            self.i += 2
            success = text[i + 1] == "s"
            default = Compare("=", max(faces or (0,)) if success else min(faces or (0,)))
            cp = self.compare(False, "a critical modifier") or default
            return ("crit-s" if success else "crit-f"), Critical(success, cp, pos)
        if c == "s":
            self.i += 1
            desc = self.peek("d")
            if desc or self.peek("a"):
                self.i += 1
            return "sort", Sort(desc, pos)
        if c in "<>=":
            hit = self.compare(True, "success counting")
            assert hit is not None
            miss = None
            if self.peek("f"):
                self.i += 1
                miss = self.compare(True, "failure counting")
            return "target", Target(hit, miss, pos)
        if c == "f":
            raise self.fail("Failure counting (f<3) must follow a success compare point (>=8).")
        return "", None

    def check_dice_modifiers(self, faces: tuple[int, ...], qty: int, mods: list[Modifier]) -> None:
        distinct = sorted(set(faces))
        explode = next((m for m in mods if isinstance(m, Explode)), None)
        for mod in mods:
            if isinstance(mod, Explode | Reroll | Unique) and len(distinct) < 2:
                raise self.fail(
                    "A die with a single possible value cannot explode or be re-rolled.", mod.pos
                )
            if isinstance(mod, Explode) and all(mod.compare(f) for f in distinct):
                raise self.fail(
                    f"Every face matches '{mod.compare}', so the dice would explode forever.",
                    mod.pos,
                )
            if isinstance(mod, Reroll) and all(mod.compare(f) for f in distinct):
                raise self.fail(
                    f"Every face matches '{mod.compare}', so the dice would be re-rolled forever.",
                    mod.pos,
                )
            if isinstance(mod, Unique):
                cp = mod.compare
                if explode is not None and not explode.compound:
                    raise self.fail(
                        "Unique dice cannot also explode into extra dice (use '!!').", mod.pos
                    )
                if (cp is None or all(cp(f) for f in distinct)) and qty > len(distinct):
                    raise self.fail(
                        f"{qty} unique dice need at least {qty} different faces, but the die "
                        f"has {len(distinct)}.",
                        mod.pos,
                    )

    def label(self) -> str | None:
        save = self.i
        self.ws()
        text, i = self.text, self.i
        if text.startswith("[", i):
            close = text.find("]", i + 1)
            if close < 0:
                raise self.fail("The label starting with '[' has no closing ']'.", i)
            self.i = close + 1
            return text[i + 1 : close].strip()
        if text.startswith(("#", "//"), i):
            start = i + (1 if text[i] == "#" else 2)
            close = text.find("\n", start)
            self.i = self.n if close < 0 else close
            return text[start : self.i].strip()
        if text.startswith("/*", i):
            close = text.find("*/", i + 2)
            if close < 0:
                raise self.fail("The comment starting with '/*' has no closing '*/'.", i)
            self.i = close + 2
            return text[i + 2 : close].strip()
        self.i = save
        return None


def parse_tree(text: str) -> Node:
    """Parse ``text`` into a tree, checking the length and nesting limits first.

    Raises:
        DiceError: a subclass saying what is wrong and where.
    """
    if not isinstance(text, str):
        raise DiceSyntaxError(f"Dice notation must be text, not {type(text).__name__}.")
    if len(text.strip()) > limit("notation_length"):
        raise DiceLimitError(
            f"The notation is longer than {limit('notation_length')} characters.",
            limit("notation_length"),
            text,
        )
    return _Parser(text).parse()
