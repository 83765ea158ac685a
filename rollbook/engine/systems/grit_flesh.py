"""`grit-flesh`: d20 + attribute Tests, Grit then Flesh, damage tags, Notches, Morale 0-20.

Rules as implemented (numbers from seed 001; wording ours):

- A Test is d20 + attribute against a difficulty (an attack: Violence against Defense).
  The seed gives no difficulty for Savvy or MIG Tests and Saves; we use 10 unless told.
  A Boon rolls two d20 and keeps the higher, a Bane the lower; one of each cancels.
- Attack: natural 20 is a critical hit (damage skips Grit, straight to Flesh); natural 1 is a
  critical miss (a melee weapon takes a Notch, a ranged one runs out of ammunition).
- Damage comes off Grit first, then Flesh; Flesh 0 takes the target out of the fight. On
  maximum damage the attacker may Notch their weapon to either Notch the target's armour or
  apply their damage tag's effect: crushing dazes (a Bane on everything), slashing bleeds
  (1d4 damage each round), piercing pins (cannot move, so cannot run). Each lasts until the
  target makes a MIG Save.
- Initiative each round: characters Test Savvy; success acts before the enemies.
- Surprise: a Save vs Savvy (a Bane against stealthy foes); failure loses round 1.
- Morale Test: the chance is 5 % per point plus 5 % (Morale 0: 5 %, 10: 55 %, 19+: 100 %).
- Gambit: a Test of the relevant attribute; failure gives the opponent a free action.
- Reaction: 2d6 luck roll, five bands.
"""

from __future__ import annotations

import random
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
from rollbook.engine.systems.dice import EDGES, SmallDice, edge_faces, roll_die, roll_edge

if TYPE_CHECKING:
    from rollbook.engine.systems.encounter import Fight

__all__ = [
    "MORALE_NAMES",
    "SYSTEM",
    "GritFleshSystem",
    "apply_damage",
    "attack_result",
    "combine",
    "morale_chance",
    "reaction_result",
]

EDGE = Param(
    "edge", str, "none", "none, boon (best of 2d20) or bane (worst of 2d20)", choices=EDGES
)
DIFFICULTY = Param(
    "difficulty", int, 10, "number the d20 + attribute must reach", minimum=-20, maximum=60
)
TAGS = ("crushing", "slashing", "piercing")
EFFECTS = {"crushing": "dazed", "slashing": "bleeding", "piercing": "pinned"}


def _attr(name: str, help_text: str, default: int | None = 0) -> Param:
    return Param(name, int, default, help_text, minimum=-20, maximum=40)


def combine(*edges: str) -> str:
    """Boons and Banes cancel one for one; what is left decides the roll."""
    score = 0
    for edge in edges:  # a plain loop: every character's initiative asks this every round
        if edge == "boon":
            score += 1
        elif edge == "bane":
            score -= 1
    return "boon" if score > 0 else "bane" if score < 0 else "none"


def _edge_note(edge: str) -> str:
    return "" if edge == "none" else f" with a {edge.capitalize()}"


# -- tests (initiative, surprise, gambits, MIG saves) ----------------------------------------


def _test_factory(
    name: str,
    title: str,
    attr: Param,
    good: str,
    bad: str,
    said: dict[str, str],
    extra: tuple[Param, ...] = (),
) -> Procedure:
    """A plain Test: d20 (+ edge) + attribute >= difficulty -> ``good`` or ``bad``."""

    def edge_of(p: dict[str, Any]) -> str:
        return combine(p["edge"], "bane" if p.get("stealthy") else "none")

    def resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
        edge = edge_of(p)
        die = roll_edge(rng, 20, edge)
        total = die + p[attr.name]
        outcome = good if total >= p["difficulty"] else bad
        return Outcome(
            outcome,
            f"d20{_edge_note(edge)} rolled {die}, +{attr.name} "
            f"{p[attr.name]} = {total} vs {p['difficulty']}: {said[outcome]}.",
            {"roll": die, "total": total},
        )

    def odds(p: dict[str, Any]) -> dict[str, Fraction]:
        return tally(
            (good, bad),
            (
                (good if face + p[attr.name] >= p["difficulty"] else bad, w)
                for face, w in edge_faces(20, edge_of(p))
            ),
        )

    return Procedure(name, title, (attr, DIFFICULTY, EDGE, *extra), (good, bad), resolve, odds)


# -- attack ----------------------------------------------------------------------------------

ATTACK_OUTCOMES = ("critical_hit", "hit", "miss", "critical_miss")


def attack_result(die: int, violence: int, defense: int) -> str:
    """A kept d20 plus Violence against Defense; natural 20 and 1 decide on their own."""
    if die == 20:
        return "critical_hit"
    if die == 1:
        return "critical_miss"
    return "hit" if die + violence >= defense else "miss"


def _attack(p: dict[str, Any], rng: random.Random) -> Outcome:
    die = roll_edge(rng, 20, p["edge"])
    name = attack_result(die, p["violence"], p["defense"])
    said = {
        "critical_hit": "a critical hit: the damage goes straight to Flesh",
        "hit": "a hit",
        "miss": "a miss",
        "critical_miss": "a critical miss: a melee weapon takes a Notch, a ranged one is "
        "out of ammunition",
    }[name]
    return Outcome(
        name,
        f"d20{_edge_note(p['edge'])} rolled {die}, + Violence "
        f"{p['violence']} = {die + p['violence']} vs Defense {p['defense']}: "
        f"{said}.",
        {"roll": die, "total": die + p["violence"]},
    )


def _attack_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(
        ATTACK_OUTCOMES,
        ((attack_result(f, p["violence"], p["defense"]), w) for f, w in edge_faces(20, p["edge"])),
    )


# -- damage ----------------------------------------------------------------------------------

DAMAGE_OUTCOMES = ("grit_only", "flesh", "down")


def apply_damage(amount: int, grit: int, flesh: int, critical: bool) -> tuple[int, int, str]:
    """Take ``amount`` off Grit then Flesh (criticals skip Grit): new grit, flesh, outcome."""
    if not critical:
        soak = min(grit, amount)
        grit, amount = grit - soak, amount - soak
    flesh = max(0, flesh - amount)
    name = "down" if flesh == 0 else "flesh" if amount > 0 else "grit_only"
    return grit, flesh, name


def _damage(p: dict[str, Any], rng: random.Random) -> Outcome:
    dice = SmallDice.parse(p["weapon"], "weapon")
    rolled = dice.roll(rng)
    amount = max(0, rolled)
    grit, flesh, name = apply_damage(amount, p["grit"], p["flesh"], p["critical"])
    top = rolled == dice.maximum and dice.count > 0
    special = "none"
    if top and p["on_max"] != "none":
        special = "armour notched" if p["on_max"] == "armour" else EFFECTS[p["tag"]]
    said = {
        "grit_only": "Grit soaks it all",
        "flesh": "it cuts into Flesh",
        "down": "Flesh is gone: the target is out",
    }[name]
    tail = (
        f"; maximum damage: the weapon takes a Notch and the target is {special}"
        if special not in ("none", "armour notched")
        else "; maximum damage: the weapon and the target's armour each take a Notch"
        if special == "armour notched"
        else ""
    )
    return Outcome(
        name,
        f"{dice} rolled {rolled}{' (critical)' if p['critical'] else ''}: "
        f"Grit {p['grit']} -> {grit}, Flesh {p['flesh']} -> {flesh}; {said}{tail}.",
        {"roll": rolled, "grit": grit, "flesh": flesh, "max_damage": top, "special": special},
    )


def _damage_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    dice = SmallDice.parse(p["weapon"], "weapon")
    return tally(
        DAMAGE_OUTCOMES,
        (
            (
                apply_damage(max(0, sum(faces) + dice.bonus), p["grit"], p["flesh"], p["critical"])[
                    2
                ],
                1,
            )
            for faces in product_faces(*([dice.sides] * dice.count))
        ),
    )


# -- morale ----------------------------------------------------------------------------------

MORALE_NAMES = {0: "craven", 4: "cowardly", 10: "impulsive", 14: "brave", 20: "suicidal"}


def morale_chance(morale: int) -> Fraction:
    """Chance to pass a Morale Test: 5 % per point plus 5 %, at most 100 %."""
    return Fraction(min(morale + 1, 20), 20)


def _morale(p: dict[str, Any], rng: random.Random) -> Outcome:
    m = p["morale"]
    die = roll_die(rng, 20)
    name = "stands" if die <= m + 1 else "flees"
    label = MORALE_NAMES.get(m)
    chance = morale_chance(m)
    said = "they keep fighting" if name == "stands" else "they try to run or give up"
    return Outcome(
        name,
        f"Morale {m}{f' ({label})' if label else ''}, {chance * 100}% to "
        f"hold: d20 rolled {die} (holds on {m + 1} or less): {said}.",
        {"roll": die, "percent": float(chance * 100)},
    )


def _morale_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    chance = morale_chance(p["morale"])
    return {"stands": chance, "flees": 1 - chance}


# -- reaction --------------------------------------------------------------------------------

REACTION_OUTCOMES = ("bloodthirsty", "hostile", "wary", "cooperative", "friendly")


def reaction_result(total: int) -> str:
    """The disposition band of a 2d6 luck roll."""
    if total <= 2:
        return "bloodthirsty"
    if total <= 5:
        return "hostile"
    if total <= 8:
        return "wary"
    return "cooperative" if total <= 11 else "friendly"


def _reaction(p: dict[str, Any], rng: random.Random) -> Outcome:
    total = roll_die(rng, 6) + roll_die(rng, 6)
    name = reaction_result(total)
    said = {
        "bloodthirsty": "out for blood, attacking at once",
        "hostile": "hostile: threats, extortion, maybe violence",
        "wary": "unsure and watchful, waiting to learn more",
        "cooperative": "willing to deal or trade",
        "friendly": "warm and helpful, even ready to join",
    }[name]
    return Outcome(name, f"2d6 rolled {total}: {said}.", {"roll": total})


def _reaction_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    return tally(REACTION_OUTCOMES, ((reaction_result(a + b), 1) for a, b in product_faces(6, 6)))


PROCEDURES: dict[str, Procedure] = {
    proc.name: proc
    for proc in (
        _test_factory(
            "initiative",
            "Initiative (Test Savvy each round)",
            _attr("savvy", "the character's Savvy"),
            "first",
            "after",
            {"first": "acts before the enemies", "after": "acts after the enemies"},
        ),
        _test_factory(
            "surprise",
            "Surprise (Save vs Savvy)",
            _attr("savvy", "the character's Savvy"),
            "alert",
            "surprised",
            {"alert": "ready for them", "surprised": "caught out: no action this round"},
            (Param("stealthy", bool, False, "the foes are stealthy (a Bane)"),),
        ),
        Procedure(
            "attack",
            "Attack (d20 + Violence vs Defense)",
            (
                _attr("violence", "the attacker's Violence"),
                _attr("defense", "the target's Defense", None),
                EDGE,
            ),
            ATTACK_OUTCOMES,
            _attack,
            _attack_odds,
        ),
        Procedure(
            "damage",
            "Damage (Grit, then Flesh; tag effect on maximum)",
            (
                Param("weapon", str, "1d6", "weapon damage dice"),
                Param("grit", int, 0, "the target's Grit", minimum=0, maximum=1000),
                Param("flesh", int, None, "the target's Flesh", minimum=1, maximum=1000),
                Param("critical", bool, False, "a critical hit (skips Grit)"),
                Param("tag", str, "slashing", "the weapon's damage tag", choices=TAGS),
                Param(
                    "on_max",
                    str,
                    "effect",
                    "on maximum damage: effect, armour or none",
                    choices=("effect", "armour", "none"),
                ),
            ),
            DAMAGE_OUTCOMES,
            _damage,
            _damage_odds,
        ),
        _test_factory(
            "effect_save",
            "Shaking off a tag effect (MIG Save)",
            _attr("might", "the target's MIG"),
            "recovers",
            "still_affected",
            {"recovers": "the effect ends", "still_affected": "the effect holds"},
        ),
        _test_factory(
            "gambit",
            "Gambit (Test the fitting attribute)",
            _attr("attribute", "the attribute the gambit tests"),
            "succeeds",
            "backfires",
            {"succeeds": "it works", "backfires": "it backfires: the opponent gets a free action"},
        ),
        Procedure(
            "morale",
            "Morale Test (Morale 0-20)",
            (Param("morale", int, 10, "Morale score", minimum=0, maximum=20),),
            ("stands", "flees"),
            _morale,
            _morale_odds,
        ),
        Procedure(
            "reaction", "Reaction (2d6 luck roll)", (), REACTION_OUTCOMES, _reaction, _reaction_odds
        ),
    )
}


# -- the fight -------------------------------------------------------------------------------

KINDS = ("pc", "hireling", "enemy")


class GritFleshSystem(System):
    """Hooks for the encounter resolver (see the module docstring for the rules)."""

    id = "grit-flesh"
    title = "Grit & Flesh (d20 + attribute, damage tags, Morale 0-20)"
    procedures = PROCEDURES
    combatant_fields = (
        Param("kind", str, "enemy", "pc, hireling or enemy", choices=KINDS),
        Param("grit", int, 0, "Grit (lost first)", minimum=0, maximum=1000),
        Param("flesh", int, None, "Flesh (0 takes them out)", minimum=1, maximum=1000),
        _attr("defense", "Defense", 10),
        _attr("violence", "Violence"),
        _attr("savvy", "Savvy (initiative, surprise)"),
        _attr("might", "MIG (saves against tag effects)"),
        Param("damage", str, "1d6", "weapon damage dice"),
        Param("tag", str, "slashing", "damage tag", choices=TAGS),
        Param("ranged", bool, False, "fights with a ranged weapon"),
        Param("morale", int, 10, "Morale 0-20 (enemies)", minimum=0, maximum=20),
        Param(
            "loyalty", int, 10, "Loyalty (hirelings under 10 test morale)", minimum=0, maximum=20
        ),
        Param(
            "armor",
            int,
            0,
            "how much of Defense is armour (each armour Notch takes 1)",
            minimum=0,
            maximum=40,
        ),
        Param("leader", bool, False, "the enemies' leader"),
        Param(
            "wits",
            str,
            "normal",
            "normal, quick or slow: quick foes give characters a "
            "Bane on initiative, slow ones a Boon",
            choices=("normal", "quick", "slow"),
        ),
        Param("surprised", bool, False, "caught unaware by the fiction: no action in round 1"),
        Param("surprise_save", bool, False, "a pc who Saves vs Savvy against surprise"),
        Param("stealthy", bool, False, "stealthy: foes' surprise saves take a Bane"),
    )

    def make_combatant(self, side: str, data: Any) -> Combatant:
        c = super().make_combatant(side, data)
        s = c.stats
        s["dice"] = SmallDice.parse(s["damage"], f"{c.name}'s damage")
        # the running state every fight starts from (Monte Carlo copies it thousands of times);
        # begin gives each fight its own set of effects
        s["start"] = {
            "grit": s["grit"],
            "flesh": s["flesh"],
            "defense": s["defense"],
            "effects": None,
            "notches": 0,
            "armour_notches": 0,
            "reload": False,
        }
        return c

    def starting_hp(self, stats: dict[str, Any]) -> int:
        return int(stats["grit"]) + int(stats["flesh"])

    def status(self, combatant: Combatant) -> dict[str, Any]:
        st, stats = combatant.state, combatant.stats
        return {
            "grit": st.get("grit", stats["grit"]),
            "flesh": st.get("flesh", stats["flesh"]),
            "defense": st.get("defense", stats["defense"]),
            "effects": sorted(st.get("effects", ())),
            "notches": st.get("notches", 0),
        }

    # -- set-up -----------------------------------------------------------------------------
    def begin(self, fight: Fight, rng: random.Random) -> None:
        for c in fight.everyone():
            c.state.update(c.stats["start"])
            c.state["effects"] = set()
        fight.state["first_out"] = None
        fight.state["halved"] = dict.fromkeys(fight.sides, False)
        fight.state["solo_bled"] = dict.fromkeys(fight.sides, False)
        fight.state["solo"] = {
            side: sum(c.stats["kind"] == "enemy" for c in m) == 1 for side, m in fight.sides.items()
        }
        for c in fight.everyone():
            s = c.stats
            if s["surprised"]:
                c.state["surprised"] = True
                fight.log(f"{c.name} is caught unaware and loses round 1.")
            elif s["surprise_save"]:
                foes = fight.sides[fight.other(c.side)]
                edge = "bane" if any(f.stats["stealthy"] for f in foes) else "none"
                die = roll_edge(rng, 20, edge)
                ok = die + s["savvy"] >= 10
                c.state["surprised"] = not ok
                fight.log(
                    f"{c.name} saves vs Savvy{_edge_note(edge)}: {die} + {s['savvy']}"
                    f" -> {'alert' if ok else 'surprised, loses round 1'}."
                )

    # -- one round --------------------------------------------------------------------------
    def play_round(self, fight: Fight, rng: random.Random) -> None:
        triggers: dict[str, list[str]] = {side: [] for side in fight.sides}
        fight.state["triggers"] = triggers
        first: list[Combatant] = []
        last: list[Combatant] = []
        paces = self._paces(fight)
        roster: tuple[list[Combatant], list[Combatant]] | None = fight.state.get("roster")
        if roster is None:  # who rolls initiative and who does not is the same all fight
            everyone = fight.everyone()
            roster = (
                [c for c in everyone if c.stats["kind"] != "enemy"],
                [c for c in everyone if c.stats["kind"] == "enemy"],
            )
            fight.state["roster"] = roster
        enemies = [c for c in roster[1] if c.out is None]
        for c in roster[0]:
            if c.out is not None:
                continue
            pace = paces[c.side]
            dazed = "dazed" in c.state["effects"]  # see _dazed
            edge = combine("bane", pace) if dazed else pace
            # roll_edge, one call fewer for the usual plain roll
            die = roll_die(rng, 20) if edge == "none" else roll_edge(rng, 20, edge)
            (first if die + c.stats["savvy"] >= 10 else last).append(c)
        if (first or last) and not fight.quiet:
            fight.log(
                "Initiative: "
                + ", ".join(f"{c.name} first" for c in first)
                + ("; " if first and last else "")
                + ", ".join(f"{c.name} after" for c in last)
                + "."
            )
        for c in first + enemies + last:
            if c.out is not None:
                continue
            if fight.round == 1 and c.state.get("surprised"):
                continue
            # only a fall can end the fight mid-round, so decided() is asked after one
            if self._act(fight, rng, c) and fight.decided():
                break
        self._end_of_round(fight, rng)

    @staticmethod
    def _paces(fight: Fight) -> dict[str, str]:
        """Each side's initiative edge from its foes' wits: side -> none, bane or boon."""
        paces = fight.state.get("paces")  # set when nobody's wits matter: the same all fight
        if paces is not None:
            return paces
        plain = fight.state.get("plain_wits")
        if plain is None:  # sides whose members are all of normal wits never rush anyone
            plain = {
                side
                for side, members in fight.sides.items()
                if all(f.stats["wits"] == "normal" for f in members)
            }
            fight.state["plain_wits"] = plain
        paces = {}
        for side in fight.sides:
            if side in plain:
                paces[fight.other(side)] = "none"
                continue
            wits = {f.stats["wits"] for f in fight.active(side)}
            # one quick foe is enough to rush you; the foes must all be slow to give a Boon
            paces[fight.other(side)] = (
                "bane" if "quick" in wits else "boon" if wits == {"slow"} else "none"
            )
        if len(plain) == len(fight.sides):
            fight.state["paces"] = paces
        return paces

    @staticmethod
    def _dazed(c: Combatant) -> str:
        return "bane" if "dazed" in c.state["effects"] else "none"

    def _act(self, fight: Fight, rng: random.Random, c: Combatant) -> bool:
        """One action by ``c``; True when it took its foe out of the fight."""
        if c.state["reload"]:
            c.state["reload"] = False
            fight.log(f"{c.name} spends the action fetching more ammunition.")
            return False
        foe = fight.target_for(c)
        if foe is None:
            return False
        s = c.stats
        if "dazed" in c.state["effects"]:  # see _dazed
            edge = "bane"
            die = roll_edge(rng, 20, edge)
        else:  # roll_edge, one call fewer for the usual plain roll
            edge = "none"
            die = roll_die(rng, 20)
        defense = foe.state["defense"]
        name = attack_result(die, s["violence"], defense)
        head = (
            ""
            if fight.quiet
            # Monte Carlo runs never read it
            else (
                f"{c.name} rolls {die}{_edge_note(edge)} + {s['violence']} vs {foe.name}'s "
                f"Defense {defense}"
            )
        )
        if name == "miss":
            if head:
                fight.log(f"{head}: miss.")
            return False
        if name == "critical_miss":
            if s["ranged"]:
                c.state["reload"] = True
                fight.log(f"{head}: natural 1, out of ammunition.")
            else:
                c.state["notches"] += 1
                fight.log(
                    f"{head}: natural 1, the weapon takes a Notch ({c.state['notches']} so far)."
                )
            return False
        self._hit(fight, rng, c, foe, name == "critical_hit", head)
        return foe.out is not None

    def _hit(
        self,
        fight: Fight,
        rng: random.Random,
        c: Combatant,
        foe: Combatant,
        critical: bool,
        head: str,
    ) -> None:
        dice: SmallDice = c.stats["dice"]
        rolled = max(0, dice.roll(rng))
        self._harm(fight, foe, rolled, critical)
        note = ""
        if rolled == dice.maximum and dice.count and foe.out is None:
            effect = EFFECTS[c.stats["tag"]]
            armour_left = foe.stats["armor"] - foe.state["armour_notches"]
            if effect not in foe.state["effects"]:
                foe.state["effects"].add(effect)
                c.state["notches"] += 1
                note = f"; top damage: weapon Notched, {foe.name} is {effect}"
            elif armour_left > 0:
                foe.state["armour_notches"] += 1
                foe.state["defense"] -= 1
                c.state["notches"] += 1
                note = (
                    f"; top damage: weapon and armour Notched (Defense now {foe.state['defense']})"
                )
        if fight.quiet:
            return
        crit = "natural 20, straight to Flesh, " if critical else "hit, "
        fight.log(
            f"{head}: {crit}{rolled} damage (Grit {foe.state['grit']}, Flesh "
            f"{foe.state['flesh']}){note}."
        )
        if foe.out is not None:
            fight.log(f"{foe.name} is taken out.")

    def _harm(self, fight: Fight, foe: Combatant, amount: int, critical: bool) -> None:
        st, state, side = foe.state, fight.state, foe.side
        before = st["flesh"]
        grit, flesh, name = apply_damage(amount, st["grit"], before, critical)
        st["grit"], st["flesh"] = grit, flesh
        foe.hp = grit + flesh
        triggers = state["triggers"][side]
        if (
            flesh < before
            and foe.stats["kind"] == "enemy"
            and state["solo"][side]
            and not state["solo_bled"][side]
        ):
            state["solo_bled"][side] = True
            triggers.append(f"{foe.name} bleeds for the first time")
        if name == "down":
            foe.out = "down"
            if state["first_out"] is None:
                state["first_out"] = foe
                triggers.append(f"{foe.name} is the first to fall")
            if foe.stats["leader"]:
                triggers.append(f"their leader {foe.name} falls")
            members = fight.sides[side]
            if not state["halved"][side] and 2 * sum(not m.active for m in members) >= len(members):
                state["halved"][side] = True
                triggers.append("half of them are down")

    def _end_of_round(self, fight: Fight, rng: random.Random) -> None:
        for c in fight.everyone():
            if c.out is not None or not c.state["effects"]:
                continue
            if "bleeding" in c.state["effects"]:
                bleed = roll_die(rng, 4)
                self._harm(fight, c, bleed, False)
                if not fight.quiet:
                    fight.log(
                        f"{c.name} bleeds for {bleed} (Grit {c.state['grit']}, Flesh "
                        f"{c.state['flesh']})."
                    )
                if c.out is not None:
                    fight.log(f"{c.name} is taken out.")
                    continue
            for effect in sorted(c.state["effects"]):
                die = roll_die(rng, 20)
                if die + c.stats["might"] >= 10:
                    c.state["effects"].discard(effect)
                    fight.log(
                        f"{c.name} shakes off being {effect} (MIG {die} + {c.stats['might']})."
                    )
        if fight.decided():
            return
        for side, reasons in fight.state["triggers"].items():
            if not reasons:
                continue
            for c in fight.sides[side]:
                kind = c.stats["kind"]
                if (
                    c.out is not None
                    or kind == "pc"
                    or (kind == "hireling" and c.stats["loyalty"] >= 10)
                ):
                    continue
                score = c.stats["morale"] if kind == "enemy" else c.stats["loyalty"]
                die = roll_die(rng, 20)
                holds = die <= score + 1
                pinned = "pinned" in c.state["effects"]
                if not holds:
                    c.out = "surrendered" if pinned else "fled"
                if fight.quiet:  # Monte Carlo runs skip building the log's words
                    continue
                fight.log(
                    f"{c.name} tests morale ({'; '.join(reasons)}): {die} vs "
                    f"{score + 1} or less, holds."
                    if holds
                    else f"{c.name} tests morale ({'; '.join(reasons)}): {die}, "
                    + ("pinned in place, gives up." if pinned else "breaks and runs.")
                )


SYSTEM = GritFleshSystem()
