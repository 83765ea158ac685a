"""Every size an author, a reader or a command-line user controls, bounded in one table.

Each limit is checked before the work it bounds, and going over it gives one sentence that
names the limit's value. The build-checks page of the documentation lists every row of
:data:`TABLE` with its value (a test compares them), so this module is the one place to
change a limit. The dice notation's own limits live in `rollbook.engine.dice.LIMITS` and are
listed here too, under the same names.

The engine imports nothing outside the standard library, so the YAML limits (read by the
Markdown side and the command line) are plain numbers here as well.
"""

from __future__ import annotations

from dataclasses import dataclass

from rollbook.engine.dice.limits import LIMITS as DICE

__all__ = ["TABLE", "Limit", "value"]


@dataclass(frozen=True, slots=True)
class Limit:
    """One documented bound: its name (also in the docs), value, and what it bounds."""

    name: str
    value: int
    bounds: str


TABLE: tuple[Limit, ...] = (
    # -- dice notation (rollbook.engine.dice.LIMITS) --
    Limit("notation_length", DICE.max_length, "characters in one dice notation"),
    Limit("notation_depth", DICE.max_depth, "nesting of brackets, groups and signs in a notation"),
    Limit("dice_per_term", DICE.max_dice, "dice in one term (the N of NdX)"),
    Limit("die_sides", DICE.max_sides, "sides of one die"),
    Limit("dice_per_notation", DICE.max_total_dice, "dice named by a whole notation"),
    Limit("explosions", DICE.max_explosions, "extra rolls one exploding die may add"),
    Limit("rolled_dice", DICE.max_rolled_dice, "dice one roll may throw, explosions included"),
    Limit("exponent", DICE.max_exponent, "size of an exponent"),
    Limit("value_bits", DICE.max_value_bits, "bits of any value met while rolling"),
    Limit("odds_outcomes", DICE.max_odds_outcomes, "different totals in one set of exact odds"),
    Limit("odds_states", DICE.max_odds_states, "states explored for one set of exact odds"),
    # -- YAML bodies: fences, front matter, fight files, mkdocs.yml --
    Limit(
        "yaml_nodes",
        100_000,
        "values in one YAML body, counting each alias as a full copy of what it names",
    ),
    Limit("yaml_depth", 100, "nesting of lists and mappings in one YAML body"),
    # -- tables and lists --
    Limit("prompt_combinations", 1000, "prompt-value combinations a coverage check visits"),
    Limit(
        "coverage_values",
        500_000,
        "possible totals a coverage check adds up over all prompt combinations",
    ),
    # -- combat blocks and fights --
    Limit("combat_count", 50, "combatants one entry of a combat block stands for (count)"),
    Limit("fight_combatants", 100, "combatants in one fight, both sides together"),
    Limit("fight_rounds", 200, "rounds before a fight is called a stalemate"),
    Limit("combat_runs", 20_000, "simulated fights a combat block may offer (runs)"),
    Limit("simulate_runs", 100_000, "simulated fights one command or request may ask for"),
    Limit(
        "simulate_work",
        400_000,
        "simulated fights times combatants per fight, for one simulation",
    ),
    Limit(
        "simulate_rounds",
        2_000_000,
        "combatant-rounds one simulation may play (combatants times rounds, all fights)",
    ),
    Limit("browser_simulate_runs", 5000, "simulated fights in one request from a page"),
    # -- game-system procedures --
    Limit(
        "procedure_odds_work",
        2_000_000,
        "steps to work out the exact odds of a procedure's dice (rollbook rules --odds)",
    ),
)

_BY_NAME = {limit.name: limit for limit in TABLE}


def value(name: str) -> int:
    """The value of the limit called ``name`` (a ``KeyError`` names a typo at import)."""
    return _BY_NAME[name].value
