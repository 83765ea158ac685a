"""Every size an author, a reader or a command-line user controls, bounded in one table.

Each limit is checked before the work it bounds, and going over it gives one sentence that
names the limit's value. The build-checks page of the documentation lists every row of
:data:`TABLE` with its value (a test compares them), so this module is the one place to
change a limit. The dice notation's limits are rows here too: the parser, the roller and
exact odds read them by name like every other module (one name per limit, the documented one).

The engine imports nothing outside the standard library, so the YAML limits (read by the
Markdown side and the command line) are plain numbers here as well.
"""

from __future__ import annotations

from rollbook.engine.record import record

__all__ = ["TABLE", "Limit", "value"]


@record
class Limit:
    """One documented bound: its name (also in the docs), value, and what it bounds."""

    name: str
    value: int
    bounds: str


TABLE: tuple[Limit, ...] = (
    # -- dice notation: checked by the parser, the roller and exact odds --
    Limit("notation_length", 1000, "characters in one dice notation"),
    Limit("notation_depth", 40, "nesting of brackets, groups and signs in a notation"),
    Limit("dice_per_term", 1000, "dice in one term (the N of NdX)"),
    Limit("die_sides", 10_000, "sides of one die"),
    Limit("dice_per_notation", 2000, "dice named by a whole notation"),
    # rolling stops there and exact odds use the same depth: both describe the same process
    Limit("explosions", 10, "extra rolls one exploding die may add"),
    # each exploding die counts as 1 + explosions rolls: bounds the work of one roll
    Limit("rolled_dice", 5000, "dice one roll may throw, explosions included"),
    Limit("exponent", 100, "size of an exponent"),
    Limit("value_bits", 4096, "bits of any value met while rolling"),
    Limit("odds_outcomes", 200_000, "different totals in one set of exact odds"),
    Limit("odds_states", 300_000, "states explored for one set of exact odds"),
    # -- YAML bodies: fences, front matter, fight files, mkdocs.yml --
    Limit(
        "yaml_nodes",
        100_000,
        "values in one YAML body, counting each alias as a full copy of what it names",
    ),
    Limit("yaml_depth", 100, "nesting of lists and mappings in one YAML body"),
    Limit("yaml_number_digits", 1000, "digits of one whole number written in YAML"),
    Limit("page_bytes", 2_000_000, "bytes in one Markdown page"),
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
    # -- exact odds and nested tables --
    Limit(
        "odds_work",
        5_000_000,
        "work to build one set of exact odds: values combined, mapped and summed, all steps",
    ),
    Limit(
        "nested_rolls", 2000, "tables and dice one roll of a table may roll, nested ones included"
    ),
    Limit(
        "page_embed_bytes",
        5_000_000,
        "bytes of table data one page embeds for the tables its tables roll (each table once)",
    ),
    # -- rollbook import and fight files --
    Limit("import_files", 20_000, "files rollbook import reads from one Hugo site"),
    Limit("import_file_bytes", 100_000_000, "bytes of one file rollbook import copies"),
    Limit("import_bytes", 500_000_000, "bytes rollbook import reads from one Hugo site in all"),
    Limit("fight_file_bytes", 1_000_000, "bytes of one fight file (rollbook fight)"),
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
