"""`scars`: a roll-under d20 game with Agility/Brawn/Cunning, armour that cracks, and Scars.

Rules as implemented (numbers from seed 000; wording ours):

- A check is one d20 against a number; rolling that number exactly is a special success.
- Attack: hit when AC < roll <= attack number. Roll == attack number: a hit that stuns the
  target (it loses its next action) and grants another attack at once. Roll == AC: no damage,
  the target's AC drops by 1 for the encounter; at 0 the armour is broken.
- Scars: any roll in combat may be moved by +X or -X (X = Scars) after seeing the die; the
  ``shift`` parameter says how (``best`` picks the most useful result).
- 0 health: gain a Scar, then 2d6; at most the Scars total -> death, else back at 1 health
  after (Scars)d6 rounds.
- Initiative: d20 vs Agility once per combat: at or under acts before enemies, over after,
  exactly -> also a quick action before combat starts.
- Enemy morale: d20 vs 10 + HD: under stands, exactly rallies (extra attack next round, no
  more tests), over flees. Hireling morale: d20 between the hireling's HD and the employer's
  Cunning; exactly HD wavers (HD x 15 sp keeps them), exactly Cunning inspires heroics.
- Reaction 2d6 table; encounter distance 2d6 x 10 (feet in a dungeon, yards outside).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rollbook.engine.systems.base import (
    Combatant,
    Outcome,
    Param,
    Procedure,
    System,
    product_faces,
    tally,
)
from rollbook.engine.systems.dice import SmallDice, roll_die

if TYPE_CHECKING:
    from rollbook.engine.systems.encounter import Fight

__all__ = [
    "SYSTEM",
    "ScarsSystem",
    "attack_result",
    "damage_result",
    "dying_result",
    "hireling_result",
    "initiative_result",
    "morale_result",
    "reaction_result",
]

SHIFTS = ("best", "none", "up", "down")

# -- shared parameters ---------------------------------------------------------------------


def _score(name: str, help_text: str, default: int | None = None, low: int = 0) -> Param:
    return Param(name, int, default, help_text, minimum=low, maximum=40)


SCARS = Param(
    "scars", int, 0, "Scars the roller has (each roll may move by that much)", minimum=0, maximum=20
)
SHIFT = Param(
    "shift",
    str,
    "best",
    "how the roller uses Scars: best, none, up (+X), down (-X)",
    choices=SHIFTS,
)


def _shifted(raw: int, scars: int, shift: str, rank: Callable[[int], int]) -> int:
    """The result after the roller applies (or not) the Scars modifier to a raw die."""
    if scars == 0 or shift == "none":
        return raw
    if shift == "up":
        return raw + scars
    if shift == "down":
        return raw - scars
    # best: unmodified wins ties, then up, then down (so the choice is reproducible)
    return max((raw, raw + scars, raw - scars), key=rank)


def _shift_note(raw: int, used: int) -> str:
    return f"{raw}" if raw == used else f"{raw} moved to {used} by Scars"


# -- attack --------------------------------------------------------------------------------

ATTACK_OUTCOMES = ("stun", "hit", "armour_dent", "armour_broken", "miss")
_ATTACK_RANK = {"stun": 4, "hit": 3, "armour_broken": 2, "armour_dent": 1, "miss": 0}


def attack_result(value: int, attack: int, ac: int) -> str:
    """Classify a (possibly shifted) attack roll against an attack number and an AC."""
    if ac >= 1 and value == ac:
        return "armour_broken" if ac == 1 else "armour_dent"
    if ac < value <= attack:
        return "stun" if value == attack else "hit"
    return "miss"


def roll_attack(
    rng: random.Random, attack: int, ac: int, scars: int, shift: str
) -> tuple[int, int, str]:
    """Roll one attack: ``(raw die, used result, outcome)``."""
    raw = roll_die(rng, 20)
    used = _shifted(raw, scars, shift, lambda v: _ATTACK_RANK[attack_result(v, attack, ac)])
    return raw, used, attack_result(used, attack, ac)


def _attack(p: dict[str, Any], rng: random.Random) -> Outcome:
    raw, used, name = roll_attack(rng, p["attribute"], p["ac"], p["scars"], p["shift"])
    ac = p["ac"]
    said = {
        "stun": "a clean hit that staggers the foe and earns another attack at once",
        "hit": "a hit: roll the weapon's damage",
        "armour_dent": f"no damage, but the armour cracks: AC {ac} becomes {ac - 1}",
        "armour_broken": "no damage, and the armour gives way: AC drops to 0",
        "miss": "a miss",
    }[name]
    return Outcome(
        name,
        f"d20 rolled {_shift_note(raw, used)} against attack {p['attribute']} and AC {ac}: {said}.",
        {
            "roll": raw,
            "result": used,
            "new_ac": ac - 1 if name.startswith("armour") else ac,
            "extra_attack": name == "stun",
        },
    )


def _attack_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    a, ac, x, s = p["attribute"], p["ac"], p["scars"], p["shift"]
    rank: Callable[[int], int] = lambda v: _ATTACK_RANK[attack_result(v, a, ac)]  # noqa: E731
    return tally(
        ATTACK_OUTCOMES, ((attack_result(_shifted(r, x, s, rank), a, ac), 1) for r in range(1, 21))
    )


# -- damage --------------------------------------------------------------------------------

DAMAGE_OUTCOMES = ("wounded", "bloodied", "down")


def _damage_shift(scars: int, shift: str) -> int:
    return {"best": scars, "up": scars, "down": -scars}.get(shift, 0)


def damage_result(after: int, max_health: int) -> str:
    """Where a blow leaves the target: ``wounded``, ``bloodied`` (half or less) or ``down``."""
    if after <= 0:
        return "down"
    return "bloodied" if 2 * after <= max_health else "wounded"


def _damage(p: dict[str, Any], rng: random.Random) -> Outcome:
    dice = SmallDice.parse(p["weapon"], "weapon")
    raw = dice.roll(rng)
    dealt = max(0, raw + _damage_shift(p["scars"], p["shift"]))
    max_health = p["max_health"] or p["health"]
    after = max(0, p["health"] - dealt)
    name = damage_result(after, max_health)
    tail = {
        "wounded": "still in good shape",
        "bloodied": "at half health or worse",
        "down": "dropped to 0 health",
    }[name]
    return Outcome(
        name,
        f"{dice} rolled {raw}, dealing {dealt}: health {p['health']} -> {after}, {tail}.",
        {"roll": raw, "damage": dealt, "health": after},
    )


def _sum_pmf(dice: SmallDice) -> dict[int, int]:
    pmf = {dice.bonus: 1}
    for _ in range(dice.count):
        step: dict[int, int] = {}
        for total, ways in pmf.items():
            for face in range(1, dice.sides + 1):
                step[total + face] = step.get(total + face, 0) + ways
        pmf = step
    return pmf


def _damage_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    dice = SmallDice.parse(p["weapon"], "weapon")
    bump = _damage_shift(p["scars"], p["shift"])
    max_health = p["max_health"] or p["health"]
    return tally(
        DAMAGE_OUTCOMES,
        (
            (damage_result(max(0, p["health"] - max(0, total + bump)), max_health), ways)
            for total, ways in _sum_pmf(dice).items()
        ),
    )


# -- dying ---------------------------------------------------------------------------------


def dying_result(two_d6: int, scars_now: int) -> str:
    """At 0 health: 2d6 at or under the Scars total (the new one included) is death."""
    return "dies" if two_d6 <= scars_now else "wakes"


def roll_dying(rng: random.Random, scars_before: int) -> tuple[int, int, str, int]:
    """``(new scars, 2d6, outcome, rounds out)``; rounds is 0 on death."""
    scars = scars_before + 1
    total = roll_die(rng, 6) + roll_die(rng, 6)
    name = dying_result(total, scars)
    rounds = sum(roll_die(rng, 6) for _ in range(scars)) if name == "wakes" else 0
    return scars, total, name, rounds


def _dying(p: dict[str, Any], rng: random.Random) -> Outcome:
    scars, total, name, rounds = roll_dying(rng, p["scars"])
    if name == "dies":
        text = f"new Scar (now {scars}); 2d6 rolled {total}, not above {scars}: the wounds win."
    else:
        text = (
            f"new Scar (now {scars}); 2d6 rolled {total}, above {scars}: back on their feet "
            f"with 1 health after {rounds} rounds ({scars}d6)."
        )
    return Outcome(name, text, {"roll": total, "scars": scars, "rounds": rounds})


def _dying_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    scars = p["scars"] + 1
    return tally(
        ("dies", "wakes"), ((dying_result(a + b, scars), 1) for a, b in product_faces(6, 6))
    )


# -- initiative ----------------------------------------------------------------------------

INITIATIVE_OUTCOMES = ("quick_action", "before", "after")
_INIT_RANK = {"quick_action": 2, "before": 1, "after": 0}


def initiative_result(value: int, agility: int) -> str:
    """d20 against Agility: exactly is a quick action (and first), under first, over after."""
    if value == agility:
        return "quick_action"
    return "before" if value < agility else "after"


def roll_initiative(
    rng: random.Random, agility: int, scars: int, shift: str
) -> tuple[int, int, str]:
    raw = roll_die(rng, 20)
    used = _shifted(raw, scars, shift, lambda v: _INIT_RANK[initiative_result(v, agility)])
    return raw, used, initiative_result(used, agility)


def _initiative(p: dict[str, Any], rng: random.Random) -> Outcome:
    raw, used, name = roll_initiative(rng, p["agility"], p["scars"], p["shift"])
    said = {
        "quick_action": "acts before the enemies and gets a quick action before the fight",
        "before": "acts before the enemies",
        "after": "acts after the enemies",
    }[name]
    return Outcome(
        name,
        f"d20 rolled {_shift_note(raw, used)} against Agility {p['agility']}: {said}.",
        {"roll": raw, "result": used},
    )


def _initiative_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    ag, x, s = p["agility"], p["scars"], p["shift"]
    rank: Callable[[int], int] = lambda v: _INIT_RANK[initiative_result(v, ag)]  # noqa: E731
    return tally(
        INITIATIVE_OUTCOMES,
        ((initiative_result(_shifted(r, x, s, rank), ag), 1) for r in range(1, 21)),
    )


# -- enemy morale --------------------------------------------------------------------------

MORALE_OUTCOMES = ("rallies", "stands", "flees")


def morale_result(roll: int, hd: int) -> str:
    """d20 against 10 + HD: under stands, exactly rallies, over flees."""
    target = 10 + hd
    if roll == target:
        return "rallies"
    return "stands" if roll < target else "flees"


def _morale(p: dict[str, Any], rng: random.Random) -> Outcome:
    roll = roll_die(rng, 20)
    name = morale_result(roll, p["hd"])
    said = {
        "rallies": "they rally: an extra attack next round and no more morale tests",
        "stands": "they keep fighting",
        "flees": "they break and flee or give up",
    }[name]
    return Outcome(
        name,
        f"d20 rolled {roll} against {10 + p['hd']} (10 + HD): {said}.",
        {"roll": roll, "target": 10 + p["hd"]},
    )


def _morale_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(MORALE_OUTCOMES, ((morale_result(r, p["hd"]), 1) for r in range(1, 21)))


# -- hireling morale -----------------------------------------------------------------------

HIRELING_OUTCOMES = ("heroic", "holds", "wavers", "flees")
_HIRELING_RANK = {"heroic": 3, "holds": 2, "wavers": 1, "flees": 0}


def hireling_result(value: int, cunning: int, hd: int) -> str:
    """d20 between the hireling's HD and the employer's Cunning (exact values are special)."""
    if value == cunning:
        return "heroic"
    if value == hd:
        return "wavers"
    return "holds" if hd < value < cunning else "flees"


def roll_hireling(
    rng: random.Random, cunning: int, hd: int, scars: int, shift: str
) -> tuple[int, int, str]:
    raw = roll_die(rng, 20)
    used = _shifted(raw, scars, shift, lambda v: _HIRELING_RANK[hireling_result(v, cunning, hd)])
    return raw, used, hireling_result(used, cunning, hd)


def _hireling(p: dict[str, Any], rng: random.Random) -> Outcome:
    raw, used, name = roll_hireling(rng, p["cunning"], p["hd"], p["scars"], p["shift"])
    pay = 15 * p["hd"]
    said = {
        "heroic": "inspired: an extra attack next round and unbreakable for this fight",
        "holds": "their nerve holds",
        "wavers": f"they waver; {pay} sp more keeps them in the fight",
        "flees": "they run and will never sign on again",
    }[name]
    return Outcome(
        name,
        f"d20 rolled {_shift_note(raw, used)} between HD {p['hd']} and "
        f"Cunning {p['cunning']}: {said}.",
        {"roll": raw, "result": used, "pay_sp": pay if name == "wavers" else 0},
    )


def _hireling_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    c, hd, x, s = p["cunning"], p["hd"], p["scars"], p["shift"]
    rank: Callable[[int], int] = lambda v: _HIRELING_RANK[hireling_result(v, c, hd)]  # noqa: E731
    return tally(
        HIRELING_OUTCOMES,
        ((hireling_result(_shifted(r, x, s, rank), c, hd), 1) for r in range(1, 21)),
    )


# -- pack search and rituals -----------------------------------------------------------------

PACK_OUTCOMES = ("ready_now", "found", "lost")
_PACK_RANK = {"ready_now": 2, "found": 1, "lost": 0}


def pack_result(value: int, cunning: int) -> str:
    """d20 against Cunning when digging in the pack mid-fight."""
    if value == cunning:
        return "ready_now"
    return "found" if value < cunning else "lost"


def _pack(p: dict[str, Any], rng: random.Random) -> Outcome:
    c = p["cunning"]
    raw = roll_die(rng, 20)
    used = _shifted(raw, p["scars"], p["shift"], lambda v: _PACK_RANK[pack_result(v, c)])
    name = pack_result(used, c)
    rounds = roll_die(rng, 3) if name == "lost" else 0
    said = {
        "ready_now": "in hand and usable this same round",
        "found": "found; it takes this action and can be used next round",
        "lost": f"not found: give up on it or rummage for {rounds} rounds (1d3), "
        "doing nothing else",
    }[name]
    return Outcome(
        name,
        f"d20 rolled {_shift_note(raw, used)} against Cunning {c}: {said}.",
        {"roll": raw, "result": used, "search_rounds": rounds},
    )


def _pack_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    c, x, s = p["cunning"], p["scars"], p["shift"]
    rank: Callable[[int], int] = lambda v: _PACK_RANK[pack_result(v, c)]  # noqa: E731
    return tally(
        PACK_OUTCOMES, ((pack_result(_shifted(r, x, s, rank), c), 1) for r in range(1, 21))
    )


def ritual_result(value: int, cunning: int, hurt: int) -> str:
    """A ritual works when the roll beats the damage taken and is at most Cunning."""
    return "casts" if hurt < value <= cunning else "mishap"


def _ritual(p: dict[str, Any], rng: random.Random) -> Outcome:
    c, hurt = p["cunning"], p["damage_taken"]
    raw = roll_die(rng, 20)
    used = _shifted(
        raw, p["scars"], p["shift"], lambda v: 1 if ritual_result(v, c, hurt) == "casts" else 0
    )
    name = ritual_result(used, c, hurt)
    need = f"above {hurt} and at most {c}" if hurt else f"at most {c}"
    said = "the ritual works" if name == "casts" else "it goes wrong: roll a Mishap"
    return Outcome(
        name,
        f"d20 rolled {_shift_note(raw, used)}, needing {need}: {said}.",
        {"roll": raw, "result": used},
    )


def _ritual_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    c, hurt, x, s = p["cunning"], p["damage_taken"], p["scars"], p["shift"]

    def rank(v: int) -> int:
        return 1 if ritual_result(v, c, hurt) == "casts" else 0

    return tally(
        ("casts", "mishap"),
        ((ritual_result(_shifted(r, x, s, rank), c, hurt), 1) for r in range(1, 21)),
    )


# -- reaction, distance, wandering encounters -------------------------------------------------

REACTION_OUTCOMES = ("friendly", "helpful", "uninterested", "hostile", "murderous")


def reaction_result(total: int) -> str:
    """The attitude band of a 2d6 reaction total."""
    if total <= 3:
        return "friendly"
    if total <= 6:
        return "helpful"
    if total == 7:
        return "uninterested"
    return "hostile" if total <= 10 else "murderous"


def _reaction(p: dict[str, Any], rng: random.Random) -> Outcome:
    total = roll_die(rng, 6) + roll_die(rng, 6)
    name = reaction_result(total)
    return Outcome(name, f"2d6 rolled {total}: they seem {name}.", {"roll": total})


def _reaction_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(REACTION_OUTCOMES, ((reaction_result(a + b), 1) for a, b in product_faces(6, 6)))


DISTANCES = tuple(str(10 * n) for n in range(2, 13))


def _distance(p: dict[str, Any], rng: random.Random) -> Outcome:
    total = roll_die(rng, 6) + roll_die(rng, 6)
    unit = "feet" if p["where"] == "dungeon" else "yards"
    return Outcome(
        str(10 * total),
        f"2d6 rolled {total}: the encounter starts {10 * total} {unit} away.",
        {"roll": total, "distance": 10 * total, "unit": unit},
    )


def _distance_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(DISTANCES, ((str(10 * (a + b)), 1) for a, b in product_faces(6, 6)))


def _wandering(p: dict[str, Any], rng: random.Random) -> Outcome:
    roll = roll_die(rng, 6)
    name = "encounter" if roll == 1 else "quiet"
    said = "something is coming" if roll == 1 else "nothing turns up"
    return Outcome(name, f"d6 rolled {roll}: {said}.", {"roll": roll})


def _wandering_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return {"encounter": Fraction(1, 6), "quiet": Fraction(5, 6)}


PROCEDURES: dict[str, Procedure] = {
    proc.name: proc
    for proc in (
        Procedure(
            "initiative",
            "Initiative (d20 vs Agility, once per combat)",
            (_score("agility", "the character's Agility"), SCARS, SHIFT),
            INITIATIVE_OUTCOMES,
            _initiative,
            _initiative_odds,
        ),
        Procedure(
            "attack",
            "Attack (d20 at or under the attribute, above the AC)",
            (
                _score("attribute", "attribute used to attack (or the enemy's Attack)"),
                _score("ac", "the target's current Armour Class"),
                SCARS,
                SHIFT,
            ),
            ATTACK_OUTCOMES,
            _attack,
            _attack_odds,
        ),
        Procedure(
            "damage",
            "Damage (weapon dice, Scars may add)",
            (
                Param("weapon", str, "1d6", "weapon damage dice, e.g. 1d6 or 2d4+1"),
                Param(
                    "health", int, None, "target's health before the blow", minimum=1, maximum=1000
                ),
                Param(
                    "max_health",
                    int,
                    0,
                    "target's full health (0: same as health)",
                    minimum=0,
                    maximum=1000,
                ),
                SCARS,
                SHIFT,
            ),
            DAMAGE_OUTCOMES,
            _damage,
            _damage_odds,
        ),
        Procedure(
            "dying",
            "Dropping to 0 health (new Scar, 2d6 vs Scars)",
            (Param("scars", int, 0, "Scars before this one", minimum=0, maximum=20),),
            ("dies", "wakes"),
            _dying,
            _dying_odds,
        ),
        Procedure(
            "morale",
            "Enemy morale (d20 vs 10 + HD)",
            (Param("hd", int, 1, "the enemy's Hit Dice", minimum=0, maximum=30),),
            MORALE_OUTCOMES,
            _morale,
            _morale_odds,
        ),
        Procedure(
            "hireling_morale",
            "Hireling morale (d20 between HD and the employer's Cunning)",
            (
                _score("cunning", "the employer's Cunning"),
                Param("hd", int, 1, "the hireling's Hit Dice", minimum=0, maximum=30),
                SCARS,
                SHIFT,
            ),
            HIRELING_OUTCOMES,
            _hireling,
            _hireling_odds,
        ),
        Procedure(
            "pack_search",
            "Digging in the pack mid-fight (d20 vs Cunning)",
            (_score("cunning", "the character's Cunning"), SCARS, SHIFT),
            PACK_OUTCOMES,
            _pack,
            _pack_odds,
        ),
        Procedure(
            "ritual",
            "Ritual under fire (d20 at or under Cunning, above damage taken)",
            (
                _score("cunning", "the caster's Cunning"),
                Param(
                    "damage_taken",
                    int,
                    0,
                    "damage taken this round before acting",
                    minimum=0,
                    maximum=100,
                ),
                SCARS,
                SHIFT,
            ),
            ("casts", "mishap"),
            _ritual,
            _ritual_odds,
        ),
        Procedure("reaction", "Reaction (2d6)", (), REACTION_OUTCOMES, _reaction, _reaction_odds),
        Procedure(
            "encounter_distance",
            "Encounter distance (2d6 x 10)",
            (
                Param(
                    "where",
                    str,
                    "dungeon",
                    "dungeon (feet) or outside (yards)",
                    choices=("dungeon", "outside"),
                ),
            ),
            DISTANCES,
            _distance,
            _distance_odds,
        ),
        Procedure(
            "wandering",
            "Wandering encounter check (d6, 1 = encounter)",
            (),
            ("encounter", "quiet"),
            _wandering,
            _wandering_odds,
        ),
    )
}


# -- the fight -------------------------------------------------------------------------------

KINDS = ("pc", "hireling", "enemy")
MAX_CHAIN = 20  # stun chains are rare; the cap only guards against an endless loop


class ScarsSystem(System):
    """Hooks for the encounter resolver (see the module docstring for the rules)."""

    id = "scars"
    title = "Scars (roll-under d20, Agility/Brawn/Cunning)"
    procedures = PROCEDURES
    combatant_fields = (
        Param("kind", str, "enemy", "pc, hireling or enemy", choices=KINDS),
        Param("health", int, None, "health (hit points)", minimum=1, maximum=1000),
        _score(
            "attack", "number to roll at or under to hit (Brawn, Agility or Attack)", default=10
        ),
        _score("ac", "Armour Class", default=0),
        Param("damage", str, "1d6", "weapon damage dice"),
        Param("hd", int, 1, "Hit Dice (enemy and hireling morale)", minimum=0, maximum=30),
        _score("agility", "Agility (initiative of pcs and hirelings)", default=10),
        _score("cunning", "Cunning (a pc's hireling morale checks)", default=10),
        Param("scars", int, 0, "Scars", minimum=0, maximum=20),
        Param("leader", bool, False, "an enemy leader: the group's morale follows them"),
        Param("surprised", bool, False, "caught unaware: no action in round 1"),
    )

    def make_combatant(self, side: str, data: Any) -> Combatant:
        c = super().make_combatant(side, data)
        s = c.stats
        s["dice"] = SmallDice.parse(s["damage"], f"{c.name}'s damage")
        # the running state every fight starts from (Monte Carlo copies it thousands of times)
        s["start"] = {
            "ac": s["ac"],
            "scars": s["scars"],
            "extra": 0,
            "steady": False,
            "hurt": False,
            "halved": False,
        }
        return c

    def starting_hp(self, stats: dict[str, Any]) -> int:
        return int(stats["health"])

    def status(self, combatant: Combatant) -> dict[str, Any]:
        st = combatant.state
        return {
            "health": combatant.hp,
            "ac": st.get("ac", combatant.stats["ac"]),
            "scars": st.get("scars", combatant.stats["scars"]),
        }

    # -- set-up -----------------------------------------------------------------------------
    def begin(self, fight: Fight, rng: random.Random) -> None:
        fast: list[Combatant] = []
        slow: list[Combatant] = []
        enemies: list[Combatant] = []
        enemy_count = dict.fromkeys(fight.sides, 0)
        for c in fight.everyone():
            s = c.stats
            c.state.update(s["start"])
            if s["surprised"]:
                fight.log(f"{c.name} is caught unaware and loses round 1.")
            if s["kind"] == "enemy":
                enemies.append(c)
                enemy_count[c.side] += 1
                continue
            if s["scars"]:
                raw, used, name = roll_initiative(rng, s["agility"], s["scars"], "best")
            else:  # nothing to move the die by: roll_initiative without building its ranking
                raw = used = roll_die(rng, 20)
                name = initiative_result(raw, s["agility"])
            (slow if name == "after" else fast).append(c)
            if fight.quiet:
                continue
            said = {
                "quick_action": "goes first, with a quick action before blows fall",
                "before": "goes before the enemies",
                "after": "goes after the enemies",
            }[name]
            fight.log(f"{c.name} rolls {_shift_note(raw, used)} vs Agility {s['agility']}: {said}.")
        fight.state["order"] = fast + enemies + slow
        fight.state["lone"] = {side: count == 1 for side, count in enemy_count.items()}
        fight.state["group_steady"] = dict.fromkeys(fight.sides, False)

    # -- one round --------------------------------------------------------------------------
    def play_round(self, fight: Fight, rng: random.Random) -> None:
        died: dict[str, int] = dict.fromkeys(fight.sides, 0)
        order: list[Combatant] = fight.state["order"]  # everyone, in acting order
        for c in order:
            c.state["hurt"] = False
        for c in order:
            if c.out is not None:
                continue
            if fight.round == 1 and c.stats["surprised"]:
                continue
            if c.state.pop("stunned", False):
                if not fight.quiet:
                    fight.log(f"{c.name} is still reeling and loses this action.")
                continue
            swings, c.state["extra"] = 1 + c.state["extra"], 0
            chain = 0
            fell = False
            while swings and chain < MAX_CHAIN:
                swings -= 1
                chain += 1
                again, fell = self._swing(fight, rng, c, died)
                # only a fall can end the fight mid-round, so decided() is asked after one
                if fell and fight.decided():
                    break
                if again:
                    swings += 1
            if fell and fight.decided():
                break
        self._wake(fight, rng)
        if not fight.decided():
            self._morale(fight, rng, died)

    def _swing(
        self, fight: Fight, rng: random.Random, c: Combatant, died: dict[str, int]
    ) -> tuple[bool, bool]:
        """One attack by ``c``: whether it earned another at once, and whether its foe fell."""
        foe = fight.target_for(c)
        if foe is None:
            return False, False
        s = c.stats
        ac = foe.state["ac"]
        scars = c.state["scars"]
        if scars:
            raw, used, name = roll_attack(rng, s["attack"], ac, scars, "best")
        else:  # nothing to move the die by: roll_attack without building its ranking
            raw = used = roll_die(rng, 20)
            name = attack_result(raw, s["attack"], ac)
        loud = not fight.quiet  # Monte Carlo runs skip building log text
        roll = _shift_note(raw, used) if loud else ""
        if name in ("armour_dent", "armour_broken"):
            foe.state["ac"] = ac - 1
            if loud:
                fight.log(
                    f"{c.name} rolls {roll} vs {foe.name}'s AC {ac} exactly: "
                    + (
                        "the armour is wrecked (AC 0)."
                        if name == "armour_broken"
                        else f"no damage, armour dented to AC {ac - 1}."
                    )
                )
            return False, False
        if name == "miss":
            if loud:
                fight.log(
                    f"{c.name} rolls {roll} (needs {ac + 1}-{s['attack']}) and misses {foe.name}."
                )
            return False, False
        dealt = max(0, s["dice"].roll(rng) + c.state["scars"])
        foe.hp = max(0, foe.hp - dealt)
        foe.state["hurt"] = foe.state["hurt"] or dealt > 0
        if name == "stun":
            foe.state["stunned"] = True
        if loud:
            extra = (
                (f"; exactly {s['attack']}: {foe.name} is stunned and {c.name} strikes again")
                if name == "stun"
                else ""
            )
            fight.log(
                f"{c.name} rolls {roll} and hits {foe.name} for {dealt} "
                f"({foe.hp}/{foe.max_hp} left){extra}."
            )
        if foe.hp == 0:
            self._drop(fight, rng, foe, died)
        return name == "stun", foe.out is not None

    def _drop(self, fight: Fight, rng: random.Random, c: Combatant, died: dict[str, int]) -> None:
        if c.stats["kind"] != "pc":
            c.out = "dead"
            died[c.side] += 1
            if not fight.quiet:
                fight.log(f"{c.name} falls dead.")
            return
        scars, total, name, rounds = roll_dying(rng, c.state["scars"])
        c.state["scars"] = scars
        if name == "dies":
            c.out = "dead"
            died[c.side] += 1
            fight.log(f"{c.name} drops, gains Scar {scars}, rolls {total} on 2d6 and dies.")
        else:
            c.out = "down"
            c.state["waking"] = rounds
            c.state["fell"] = fight.round  # the count starts with the next round
            fight.log(
                f"{c.name} drops, gains Scar {scars}, rolls {total} on 2d6: out for "
                f"{rounds} rounds."
            )

    def _wake(self, fight: Fight, rng: random.Random) -> None:
        for c in fight.everyone():
            if c.out == "down" and "waking" in c.state and c.state["fell"] != fight.round:
                c.state["waking"] -= 1
                if c.state["waking"] <= 0:
                    del c.state["waking"]
                    c.out, c.hp = None, 1
                    fight.log(f"{c.name} comes round with 1 health.")

    # -- morale -----------------------------------------------------------------------------
    def _morale(self, fight: Fight, rng: random.Random, died: dict[str, int]) -> None:
        for side, members in fight.sides.items():
            enemies = [c for c in members if c.out is None and c.stats["kind"] == "enemy"]
            leader = next((c for c in enemies if c.stats["leader"]), None)
            if enemies and fight.state["lone"][side]:
                self._lone_morale(fight, rng, enemies[0])
            elif fight.state["group_steady"][side]:
                pass
            elif leader is not None:
                self._leader_morale(fight, rng, side, leader, enemies, died[side])
            elif enemies and died[side]:
                # the toughest survivor speaks for the group
                self._group_morale(
                    fight, rng, side, enemies, max(c.stats["hd"] for c in enemies), side
                )
            allies_died = died[side] > 0
            for h in members:
                if (
                    h.out is None
                    and h.stats["kind"] == "hireling"
                    and not h.state["steady"]
                    and "tested" not in h.state
                    and (h.state["hurt"] or allies_died)
                ):
                    h.state["tested"] = True
                    self._hireling_morale(fight, rng, h)

    def _lone_morale(self, fight: Fight, rng: random.Random, c: Combatant) -> None:
        if c.state["steady"] or 2 * c.hp > c.max_hp:
            return
        if c.state["halved"] and not c.state["hurt"]:
            return
        c.state["halved"] = True
        roll = roll_die(rng, 20)
        name = morale_result(roll, c.stats["hd"])
        fight.log(
            f"Morale for {c.name}: {roll} vs {10 + c.stats['hd']}: " + self._morale_words(name)
        )
        if name == "rallies":
            c.state["steady"] = True
            c.state["extra"] = 1
        elif name == "flees":
            c.out = "fled"

    def _leader_morale(
        self,
        fight: Fight,
        rng: random.Random,
        side: str,
        leader: Combatant,
        enemies: list[Combatant],
        deaths: int,
    ) -> None:
        """A led group tests on its leader's wounds (as a lone foe) and on its losses."""
        due = False
        if 2 * leader.hp <= leader.max_hp and (not leader.state["halved"] or leader.state["hurt"]):
            leader.state["halved"] = due = True
        members = fight.sides[side]
        slain = sum(c.out == "dead" for c in members)
        if deaths and 2 * slain >= len(members):
            due = True  # the round half of them fell, and every later round with a death
        if due:
            self._group_morale(
                fight, rng, side, enemies, leader.stats["hd"], f"{side} (led by {leader.name})"
            )

    def _group_morale(
        self,
        fight: Fight,
        rng: random.Random,
        side: str,
        enemies: list[Combatant],
        hd: int,
        label: str,
    ) -> None:
        roll = roll_die(rng, 20)
        name = morale_result(roll, hd)
        fight.log(f"Morale for {label}: {roll} vs {10 + hd}: " + self._morale_words(name))
        if name == "rallies":
            fight.state["group_steady"][side] = True
            for c in enemies:
                c.state["extra"] = 1
        elif name == "flees":
            for c in enemies:
                c.out = "fled"

    @staticmethod
    def _morale_words(name: str) -> str:
        return {
            "rallies": "they rally (extra attack next round, no more tests).",
            "stands": "they hold.",
            "flees": "they break and run.",
        }[name]

    def _hireling_morale(self, fight: Fight, rng: random.Random, h: Combatant) -> None:
        boss = next((c for c in fight.sides[h.side] if c.stats["kind"] == "pc" and c.active), None)
        cunning = boss.stats["cunning"] if boss else 10
        scars = boss.state["scars"] if boss else 0
        raw, used, name = roll_hireling(rng, cunning, h.stats["hd"], scars, "best")
        who = boss.name if boss else "the party"
        head = f"{who} tests {h.name}'s nerve: {_shift_note(raw, used)}"
        if name == "heroic":
            h.state.update(steady=True, extra=1)
            fight.log(f"{head}, inspired to heroics.")
        elif name == "holds":
            fight.log(f"{head}, holds.")
        elif name == "wavers":
            fight.log(f"{head}, wavers; {15 * h.stats['hd']} sp more keeps them fighting.")
        else:
            h.out = "fled"
            fight.log(f"{head}, and {h.name} runs for it.")


SYSTEM = ScarsSystem()
