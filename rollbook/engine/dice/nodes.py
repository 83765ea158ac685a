"""The parsed tree: immutable nodes produced by the parser and read by roller and odds.

Every node records ``pos`` (its start in the original text) so that errors found later,
while rolling or computing odds, still point at the right place.
"""

from __future__ import annotations

from fractions import Fraction

from rollbook.engine.record import record

__all__ = [
    "FUNCTIONS",
    "BinOp",
    "Call",
    "Clamp",
    "Compare",
    "Critical",
    "Dice",
    "Explode",
    "Group",
    "Keep",
    "Modifier",
    "Multi",
    "Negate",
    "Node",
    "Number",
    "Reroll",
    "Sort",
    "Target",
    "Unique",
    "Value",
]

#: A number in an expression: exact, int when whole.
Value = int | Fraction

#: Function names and their argument counts.
FUNCTIONS: dict[str, int] = {
    "abs": 1,
    "ceil": 1,
    "floor": 1,
    "round": 1,
    "sqrt": 1,
    "sign": 1,
    "max": 2,
    "min": 2,
    "pow": 2,
}


@record
class Compare:
    """A compare point such as ``>=5``; ``op`` is one of ``= != < > <= >=``."""

    op: str
    value: Value

    def __call__(self, x: Value) -> bool:
        """Whether ``x`` meets the comparison."""
        op, v = self.op, self.value
        if op == "=":
            return x == v
        if op == ">=":
            return x >= v
        if op == "<=":
            return x <= v
        if op == ">":
            return x > v
        if op == "<":
            return x < v
        return x != v

    def __str__(self) -> str:
        return f"{self.op}{self.value}"


# --- modifiers (applied in the fixed order of ``Modifier.order``) --------------------------


@record
class Clamp:
    """``minN`` / ``maxN``: raise (``min``) or lower (``max``) each die's first roll."""

    kind: str  # "min" | "max"
    value: Value
    pos: int

    @property
    def order(self) -> int:
        """Where this modifier goes among a roll's modifiers (the notation's order)."""
        return 1 if self.kind == "min" else 2


@record
class Explode:
    """``!`` (extra dice), ``!!`` (compounding) and ``!p`` (penetrating) explosions."""

    compare: Compare
    compound: bool
    penetrate: bool
    pos: int
    order = 3


@record
class Reroll:
    """``r`` (until the compare point misses) and ``ro`` (once)."""

    compare: Compare
    once: bool
    pos: int
    order = 4


@record
class Unique:
    """``u`` / ``uo``: re-roll duplicates of earlier dice (only those matching ``compare``)."""

    compare: Compare | None
    once: bool
    pos: int
    order = 5


@record
class Keep:
    """``khN`` ``klN`` (keep) and ``dhN`` ``dlN`` (drop); ``drop`` tells which."""

    drop: bool
    high: bool
    qty: int
    pos: int

    @property
    def order(self) -> int:
        """Where this modifier goes among a roll's modifiers (the notation's order)."""
        return 7 if self.drop else 6


@record
class Target:
    """Success counting (``>=8``), optionally with failures (``f<3``) subtracted."""

    success: Compare
    failure: Compare | None
    pos: int
    order = 8


@record
class Critical:
    """``cs`` / ``cf``: mark critical successes or failures (display only)."""

    success: bool
    compare: Compare
    pos: int

    @property
    def order(self) -> int:
        """Where this modifier goes among a roll's modifiers (the notation's order)."""
        return 9 if self.success else 10


@record
class Sort:
    """``s`` / ``sa`` / ``sd``: order the dice for display."""

    descending: bool
    pos: int
    order = 11


Modifier = Clamp | Explode | Reroll | Unique | Keep | Target | Critical | Sort


# --- expression nodes ----------------------------------------------------------------------


@record
class Number:
    """A literal number (or a filled placeholder)."""

    value: Value
    pos: int


@record
class Dice:
    """``NdX`` with its modifiers (sorted by application order) and optional label.

    ``faces`` lists every face once per side, so ``dF.1`` is ``(-1, 0, 0, 0, 0, 1)``;
    ``low`` is set when the faces are the run ``low .. low+len(faces)-1`` (fast path).
    """

    qty: int
    sides: str  # as written: "6", "%", "F", "F.1"
    faces: tuple[int, ...]
    low: int | None
    modifiers: tuple[Modifier, ...]
    label: str | None
    pos: int
    end: int

    @property
    def notation(self) -> str:
        """The dice without modifiers, as written (``3d6``)."""
        return f"{self.qty}d{self.sides}"


@record
class Group:
    """A roll group ``{a, b, ...}`` with keep/drop, target and sort modifiers."""

    items: tuple[Node, ...]
    modifiers: tuple[Modifier, ...]
    label: str | None
    pos: int
    end: int


@record
class BinOp:
    """Arithmetic: ``+ - * / % **``."""

    op: str
    left: Node
    right: Node
    pos: int


@record
class Negate:
    """Unary minus."""

    operand: Node
    pos: int


@record
class Call:
    """A math function call such as ``floor(2d6/2)``."""

    name: str
    args: tuple[Node, ...]
    pos: int


@record
class Multi:
    """Top-level comma rolls ``d6,d6``: the total is a tuple."""

    items: tuple[Node, ...]
    pos: int


Node = Number | Dice | Group | BinOp | Negate | Call | Multi
