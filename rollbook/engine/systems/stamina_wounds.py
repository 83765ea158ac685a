"""`stamina-wounds`: side initiative on a d6, damage minus Armor Value, exploding dice.

Rules as implemented (numbers from seed 002; wording ours):

- Initiative each round on a d6: 1-3 the player characters' side acts first, 4-6 the enemies.
  A side that catches the other unaware simply acts first.
- An attack always connects: roll the weapon's one damage die, subtract the target's AV
  (direct damage ignores AV). A die showing its maximum explodes: roll another of the same
  kind, which can explode too, at most once per slot the weapon fills (light 1, medium 2,
  heavy 3) per attack. A 1 on a damage die marks Usage on the weapon.
- Sneak attack: one more die of the weapon's kind, which can explode too (sharing the cap).
- Defend: attacks on the defender take a Bane. The seed does not say how a Bane works on a
  damage die; we roll two and keep the lower.
- Damage comes off Stamina first, the rest become Wounds. Wounds from one attack give an
  effect: 1-3 pain only, 4-6 damaged gear (d20 slot, 1d4 Usage), 7-9 bleeding out, 10+ a
  mortal wound (death in 1d4 rounds unless healed). Wounds reaching Max Wounds kill.
- Saves (maneuvers, morale): d20 + attribute against the opponent's Target. The seed gives no
  formula; we use "total at least the Target". Morale: the players' WIL against the enemy
  leader's Target at a breaking point; success sends the enemies running.
- Rests: a Turn restores 1d6 + END Stamina; a Watch all Stamina and 1d6 + END Wounds; a Week
  everything.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rollbook.engine.systems.base import (
    Combatant,
    Outcome,
    Param,
    Procedure,
    RulesError,
    System,
    tally,
)
from rollbook.engine.systems.dice import EDGES, SmallDice, edge_faces, roll_die, roll_edge

if TYPE_CHECKING:
    from rollbook.engine.systems.encounter import Fight

__all__ = [
    "SYSTEM",
    "StaminaWoundsSystem",
    "damage_pmf",
    "roll_damage",
    "take_damage",
    "wound_band",
]

DIE_SIZES = (4, 6, 8, 10, 12, 20)
EDGE = Param(
    "edge", str, "none", "none, boon or bane (two dice, keep the better/worse)", choices=EDGES
)


def _stat(name: str, help_text: str, default: int | None = 0) -> Param:
    return Param(name, int, default, help_text, minimum=-20, maximum=40)


# -- initiative ------------------------------------------------------------------------------


def _initiative(p: dict[str, Any], rng: random.Random) -> Outcome:
    if p["ambush"] != "none":
        name = f"{p['ambush']}_first"
        return Outcome(
            name, f"The {p['ambush']} caught the other side unaware and act first.", {"roll": None}
        )
    roll = roll_die(rng, 6)
    name = "players_first" if roll <= 3 else "enemies_first"
    said = "the player characters" if roll <= 3 else "the enemies"
    return Outcome(name, f"d6 rolled {roll}: {said} act first.", {"roll": roll})


def _initiative_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    if p["ambush"] != "none":
        first = f"{p['ambush']}_first"
        return {n: Fraction(n == first) for n in ("players_first", "enemies_first")}
    return {"players_first": Fraction(1, 2), "enemies_first": Fraction(1, 2)}


# -- damage ----------------------------------------------------------------------------------


def roll_damage(
    rng: random.Random, sides: int, slots: int, edge: str = "none", sneak: bool = False
) -> tuple[list[int], int, bool]:
    """Roll an attack's damage dice: ``(faces, explosions, fumble)``.

    The weapon die (kept under a Boon/Bane) explodes first, then the sneak die, sharing the
    cap of ``slots`` explosions. A fumble is a 1 on the weapon or sneak die itself.
    """
    cap = slots
    faces: list[int] = []
    fumble = False
    for first in (
        (roll_edge(rng, sides, edge), roll_die(rng, sides))
        if sneak
        else (roll_edge(rng, sides, edge),)
    ):
        fumble = fumble or first == 1
        face = first
        faces.append(face)
        while face == sides and cap > 0:
            cap -= 1
            face = roll_die(rng, sides)
            faces.append(face)
    return faces, slots - cap, fumble


def _chain(
    sides: int, cap: int, start: Iterable[tuple[int, int]]
) -> dict[tuple[int, int], Fraction]:
    """Exact (total, explosions left) after one exploding die whose first face has weights."""
    weights = list(start)
    whole = sum(w for _, w in weights)
    out: dict[tuple[int, int], Fraction] = {}
    for face, w in weights:
        p = Fraction(w, whole)
        if face == sides and cap > 0:
            for (total, left), q in _chain(
                sides, cap - 1, ((f, 1) for f in range(1, sides + 1))
            ).items():
                key = (face + total, left)
                out[key] = out.get(key, Fraction(0)) + p * q
        else:
            out[(face, cap)] = out.get((face, cap), Fraction(0)) + p
    return out


def damage_pmf(
    sides: int, slots: int, edge: str = "none", sneak: bool = False
) -> dict[int, Fraction]:
    """The exact distribution of an attack's raw damage (before AV)."""
    plain = [(f, 1) for f in range(1, sides + 1)]
    first = _chain(sides, slots, edge_faces(sides, edge))
    if sneak:
        joint: dict[tuple[int, int], Fraction] = {}
        for (total, left), p in first.items():
            for (more, rest), q in _chain(sides, left, plain).items():
                key = (total + more, rest)
                joint[key] = joint.get(key, Fraction(0)) + p * q
        first = joint
    pmf: dict[int, Fraction] = {}
    for (total, _), p in first.items():
        pmf[total] = pmf.get(total, Fraction(0)) + p
    return pmf


WOUND_BANDS = ("pain", "gear", "bleeding", "mortal")


def wound_band(wounds: int) -> str:
    """The effect of this many Wounds from one attack (at least 1)."""
    if wounds <= 3:
        return "pain"
    if wounds <= 6:
        return "gear"
    return "bleeding" if wounds <= 9 else "mortal"


ATTACK_OUTCOMES = ("no_damage", "stamina", *WOUND_BANDS, "dead")


def take_damage(
    amount: int, stamina: int, wounds: int, max_wounds: int
) -> tuple[int, int, int, str]:
    """Stamina first, then Wounds: ``(stamina, wounds, new wounds, outcome)``."""
    if amount <= 0:
        return stamina, wounds, 0, "no_damage"
    soak = min(stamina, amount)
    fresh = amount - soak
    stamina, wounds = stamina - soak, wounds + fresh
    if fresh and wounds >= max_wounds:
        return stamina, max_wounds, fresh, "dead"  # Wounds past the maximum mean nothing more
    return stamina, wounds, fresh, wound_band(fresh) if fresh else "stamina"


def _die(p: dict[str, Any]) -> int:
    dice = SmallDice.parse(p["weapon"], "weapon")
    if dice.count != 1 or dice.bonus:
        raise RulesError(f"a weapon here rolls one die, like d8; {p['weapon']!r} will not do.")
    return dice.sides


def _after_av(raw: int, p: dict[str, Any]) -> int:
    return max(0, raw - (0 if p["direct"] else p["av"]))


def _wound_extras(band: str, rng: random.Random) -> tuple[dict[str, Any], str]:
    if band == "gear":
        slot, usage = roll_die(rng, 20), roll_die(rng, 4)
        return {"slot": slot, "usage": usage}, f"the item in slot {slot} takes {usage} Usage"
    if band == "bleeding":
        return {}, "bleeding out"
    if band == "mortal":
        rounds = roll_die(rng, 4)
        return {"rounds": rounds}, f"mortally wounded: dead in {rounds} rounds unless healed"
    if band == "pain":
        return {}, "pain and blood, nothing worse"
    return {}, ""


def _attack(p: dict[str, Any], rng: random.Random) -> Outcome:
    sides = _die(p)
    if p["sneak"] and p["defenseless"]:
        return Outcome(
            "dead",
            "A sneak attack on a truly helpless target: killed outright, no dice needed.",
            {"dice": [], "damage": None},
        )
    faces, booms, fumble = roll_damage(rng, sides, p["slots"], p["edge"], p["sneak"])
    raw = sum(faces)
    dealt = _after_av(raw, p)
    stamina, wounds, fresh, name = take_damage(dealt, p["stamina"], p["wounds"], p["max_wounds"])
    data: dict[str, Any] = {
        "dice": faces,
        "explosions": booms,
        "raw": raw,
        "damage": dealt,
        "stamina": stamina,
        "wounds": wounds,
        "new_wounds": fresh,
        "usage_on_weapon": fumble,
    }
    extra, said = _wound_extras(name, rng)
    data.update(extra)
    if name == "no_damage":
        said = "the armour turns it"
    elif name == "stamina":
        said = "Stamina takes it all"
    elif name == "dead":
        said = "Wounds reach the maximum: dead"
    av = "direct, AV ignored" if p["direct"] else f"AV {p['av']}"
    fum = "; a 1 came up, mark Usage on the weapon" if fumble else ""
    return Outcome(
        name,
        f"d{sides} rolled {'+'.join(map(str, faces))} = {raw} ({av}) -> "
        f"{dealt} damage: Stamina {stamina}, Wounds {wounds}/{p['max_wounds']}; "
        f"{said}{fum}.",
        data,
    )


def _attack_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    if p["sneak"] and p["defenseless"]:
        return {n: Fraction(n == "dead") for n in ATTACK_OUTCOMES}
    pmf = damage_pmf(_die(p), p["slots"], p["edge"], p["sneak"])
    return tally(
        ATTACK_OUTCOMES,
        (
            (take_damage(_after_av(raw, p), p["stamina"], p["wounds"], p["max_wounds"])[3], w)
            for raw, w in pmf.items()
        ),
    )


def _wound(p: dict[str, Any], rng: random.Random) -> Outcome:
    name = wound_band(p["wounds"])
    data, said = _wound_extras(name, rng)
    return Outcome(name, f"{p['wounds']} Wounds from one blow: {said}.", data)


def _wound_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    band = wound_band(p["wounds"])
    return {n: Fraction(n == band) for n in WOUND_BANDS}


# -- saves: maneuver and morale ----------------------------------------------------------------


def _save_factory(
    name: str, title: str, attr: Param, good: str, bad: str, said: dict[str, str]
) -> Procedure:
    def resolve(p: dict[str, Any], rng: random.Random) -> Outcome:
        die = roll_edge(rng, 20, p["edge"])
        total = die + p[attr.name]
        outcome = good if total >= p["target"] else bad
        return Outcome(
            outcome,
            f"d20 rolled {die} + {attr.name.upper()} {p[attr.name]} = "
            f"{total} vs Target {p['target']}: {said[outcome]}.",
            {"roll": die, "total": total},
        )

    def odds(p: dict[str, Any]) -> dict[str, Fraction]:
        return tally(
            (good, bad),
            (
                (good if f + p[attr.name] >= p["target"] else bad, w)
                for f, w in edge_faces(20, p["edge"])
            ),
        )

    target = Param("target", int, None, "the opponent's Target", minimum=-20, maximum=60)
    return Procedure(name, title, (attr, target, EDGE), (good, bad), resolve, odds)


# -- rest ------------------------------------------------------------------------------------


def _rest(p: dict[str, Any], rng: random.Random) -> Outcome:
    stamina, wounds, top = p["stamina"], p["wounds"], p["max_stamina"]
    if p["length"] == "turn":
        gain = roll_die(rng, 6) + p["end"]
        stamina = min(top, stamina + max(0, gain))
        said = f"1d6 + END restores {max(0, gain)} Stamina"
    elif p["length"] == "watch":
        heal = roll_die(rng, 6) + p["end"]
        stamina, wounds = top, max(0, wounds - max(0, heal))
        said = f"all Stamina back, 1d6 + END heals {max(0, heal)} Wounds (spells: 1d6 + WIL)"
    else:
        stamina, wounds = top, 0
        said = "everything restored"
    name = "full" if stamina == top and wounds == 0 else "partial"
    return Outcome(
        name,
        f"A {p['length']} of rest: {said}; now Stamina {stamina}/{top}, Wounds {wounds}.",
        {"stamina": stamina, "wounds": wounds},
    )


def _rest_odds(p: dict[str, Any]) -> dict[str, Fraction]:
    top = p["max_stamina"]

    def outcome(face: int) -> str:
        if p["length"] == "turn":
            full = min(top, p["stamina"] + max(0, face + p["end"])) == top and p["wounds"] == 0
        elif p["length"] == "watch":
            full = p["wounds"] - max(0, face + p["end"]) <= 0
        else:
            full = True
        return "full" if full else "partial"

    return tally(("full", "partial"), ((outcome(f), 1) for f in range(1, 7)))


PROCEDURES: dict[str, Procedure] = {
    proc.name: proc
    for proc in (
        Procedure(
            "initiative",
            "Side initiative (d6: 1-3 players, 4-6 enemies)",
            (
                Param(
                    "ambush",
                    str,
                    "none",
                    "a side that caught the other unaware: none, players or enemies",
                    choices=("none", "players", "enemies"),
                ),
            ),
            ("players_first", "enemies_first"),
            _initiative,
            _initiative_odds,
        ),
        Procedure(
            "attack",
            "Attack (damage die - AV, explosions, Stamina then Wounds)",
            (
                Param("weapon", str, "d6", "the weapon's damage die, e.g. d8"),
                Param(
                    "slots",
                    int,
                    1,
                    "slots the weapon fills: the most explosions (1-3)",
                    minimum=1,
                    maximum=3,
                ),
                Param("av", int, 0, "the target's Armor Value", minimum=0, maximum=40),
                Param("direct", bool, False, "direct damage (ignores AV)"),
                Param("sneak", bool, False, "a sneak attack (one more die)"),
                Param(
                    "defenseless",
                    bool,
                    False,
                    "the target is truly defenceless (a sneak attack kills it outright)",
                ),
                Param(
                    "edge", str, "none", "bane when the target defends; boon or none", choices=EDGES
                ),
                Param("stamina", int, 0, "the target's Stamina", minimum=0, maximum=1000),
                Param("wounds", int, 0, "the target's Wounds so far", minimum=0, maximum=1000),
                Param("max_wounds", int, None, "the target's Max Wounds", minimum=1, maximum=1000),
            ),
            ATTACK_OUTCOMES,
            _attack,
            _attack_odds,
        ),
        Procedure(
            "wound_effect",
            "What Wounds from one blow do",
            (Param("wounds", int, None, "Wounds from the one attack", minimum=1, maximum=1000),),
            WOUND_BANDS,
            _wound,
            _wound_odds,
        ),
        _save_factory(
            "maneuver",
            "Maneuver (save vs the enemy's Target)",
            _stat("stat", "the attribute that fits the maneuver"),
            "succeeds",
            "fails",
            {"succeeds": "it works", "fails": "it does not come off"},
        ),
        _save_factory(
            "morale",
            "Morale (a PC's WIL save vs the enemy leader's Target)",
            _stat("wil", "the PC's WIL"),
            "flees",
            "stands",
            {
                "flees": "the enemies run or give up",
                "stands": "they fight on; wait for another breaking point",
            },
        ),
        Procedure(
            "rest",
            "Rest and healing",
            (
                Param(
                    "length", str, "turn", "turn, watch or week", choices=("turn", "watch", "week")
                ),
                _stat("end", "END"),
                Param("stamina", int, 0, "Stamina now", minimum=0, maximum=1000),
                Param("max_stamina", int, None, "full Stamina", minimum=0, maximum=1000),
                Param("wounds", int, 0, "Wounds now", minimum=0, maximum=1000),
            ),
            ("full", "partial"),
            _rest,
            _rest_odds,
        ),
    )
}


# -- the fight -------------------------------------------------------------------------------

KINDS = ("pc", "hireling", "enemy")


class StaminaWoundsSystem(System):
    """Hooks for the encounter resolver (see the module docstring for the rules)."""

    id = "stamina-wounds"
    title = "Stamina & Wounds (side initiative, damage - AV, exploding dice)"
    procedures = PROCEDURES
    combatant_fields = (
        Param("kind", str, "enemy", "pc, hireling or enemy", choices=KINDS),
        Param("stamina", int, 0, "Stamina (lost first)", minimum=0, maximum=1000),
        Param("max_wounds", int, None, "Max Wounds (death when reached)", minimum=1, maximum=1000),
        Param("wounds", int, 0, "Wounds already taken", minimum=0, maximum=1000),
        Param("av", int, 0, "Armor Value", minimum=0, maximum=40),
        Param("weapon", str, "d6", "the weapon's damage die"),
        Param("slots", int, 1, "slots the weapon fills (explosion cap)", minimum=1, maximum=3),
        _stat("wil", "WIL (a pc's morale saves)"),
        Param("target", int, 10, "Target (saves against this creature)", minimum=-20, maximum=60),
        Param("leader", bool, False, "the side's leader"),
        Param("ambush", bool, False, "this side caught the other unaware"),
    )

    def make_combatant(self, side: str, data: Any) -> Combatant:
        c = super().make_combatant(side, data)
        if c.stats["wounds"] >= c.stats["max_wounds"]:
            raise RulesError(f"{c.name} starts with Wounds at Max Wounds (already dead).")
        c.stats["sides"] = _die({"weapon": c.stats["weapon"]})
        # the running state every fight starts from (Monte Carlo copies it thousands of times)
        c.stats["start"] = {"stamina": c.stats["stamina"], "wounds": c.stats["wounds"], "usage": 0}
        return c

    def starting_hp(self, stats: dict[str, Any]) -> int:
        return int(stats["stamina"]) + int(stats["max_wounds"]) - int(stats["wounds"])

    def status(self, combatant: Combatant) -> dict[str, Any]:
        st, stats = combatant.state, combatant.stats
        return {
            "stamina": st.get("stamina", stats["stamina"]),
            "wounds": st.get("wounds", stats["wounds"]),
            "max_wounds": stats["max_wounds"],
            "av": stats["av"],
            "usage": st.get("usage", 0),
            "bleeding": bool(st.get("bleeding")),
            "dying_in": st.get("dying_in"),
        }

    # -- set-up -----------------------------------------------------------------------------
    def begin(self, fight: Fight, rng: random.Random) -> None:
        names = list(fight.sides)
        with_pcs = [s for s in names if any(c.stats["kind"] == "pc" for c in fight.sides[s])]
        players = with_pcs[0] if len(with_pcs) == 1 else names[0]
        fight.state["players"] = players
        fight.state["enemies"] = fight.other(players)
        ambushers = [s for s in names if any(c.stats["ambush"] for c in fight.sides[s])]
        fight.state["ambush"] = ambushers[0] if len(ambushers) == 1 else None
        fight.state["broken"] = dict.fromkeys(names, False)  # "half of them down" used up
        for c in fight.everyone():
            c.state.update(c.stats["start"])
        if fight.state["ambush"]:
            fight.log(f"{fight.state['ambush']} catch the other side unaware.")

    # -- one round --------------------------------------------------------------------------
    def play_round(self, fight: Fight, rng: random.Random) -> None:
        players, enemies = fight.state["players"], fight.state["enemies"]
        ambush = fight.state["ambush"] if fight.round == 1 else None
        if ambush:
            first = ambush
        else:
            roll = roll_die(rng, 6)
            first = players if roll <= 3 else enemies
            if not fight.quiet:
                fight.log(f"Initiative d6: {roll}, {first} go first.")
        points: list[str] = []
        if ambush == players:
            points.append("ambushed")
        for side in (first, fight.other(first)):
            for c in fight.sides[side]:
                if fight.decided():
                    break
                if c.out is None:
                    self._attack(fight, rng, c, sneak=ambush == side, points=points)
        self._tick(fight, rng, points)
        if not fight.decided() and points:
            self._morale(fight, rng, points)

    def _attack(
        self, fight: Fight, rng: random.Random, c: Combatant, sneak: bool, points: list[str]
    ) -> None:
        foe = fight.target_for(c)
        if foe is None:
            return
        s = c.stats
        faces, booms, fumble = roll_damage(rng, s["sides"], s["slots"], "none", sneak)
        raw = sum(faces)
        dealt = max(0, raw - foe.stats["av"])
        if fumble:
            c.state["usage"] += 1
        kind = "sneak attack" if sneak else "attack"
        head = (
            ""
            if fight.quiet
            # Monte Carlo runs never read it
            else (
                f"{c.name}'s {kind} on {foe.name}: d{s['sides']} {'+'.join(map(str, faces))}"
                f"{' (explodes)' if booms else ''} - AV {foe.stats['av']} = {dealt}"
            )
        )
        self._harm(fight, rng, foe, dealt, head + (", Usage marked" if fumble else ""), points)

    def _harm(
        self,
        fight: Fight,
        rng: random.Random,
        foe: Combatant,
        amount: int,
        head: str,
        points: list[str],
    ) -> None:
        stamina, wounds, _, name = take_damage(
            amount, foe.state["stamina"], foe.state["wounds"], foe.stats["max_wounds"]
        )
        foe.state["stamina"], foe.state["wounds"] = stamina, wounds
        foe.hp = stamina + foe.stats["max_wounds"] - wounds
        extra, said = _wound_extras(name, rng)
        if name == "no_damage":
            said = "no harm done"
        elif name == "stamina":
            said = "Stamina soaks it"
        elif name == "dead":
            said = "that is the last Wound: dead"
            foe.out = "dead"
            self._fallen(fight, foe, points)
        elif name == "bleeding":
            foe.state["bleeding"] = True
        elif name == "mortal" and "dying_in" not in foe.state:
            foe.state["dying_in"] = extra["rounds"]
        if not fight.quiet:
            fight.log(
                f"{head}: Stamina {stamina}, Wounds {wounds}/{foe.stats['max_wounds']}, {said}."
            )

    def _fallen(self, fight: Fight, c: Combatant, points: list[str]) -> None:
        members = fight.sides[c.side]
        if c.side != fight.state["enemies"]:
            return
        if c.stats["leader"]:
            points.append(f"their leader {c.name} fell")
        if not fight.state["broken"][c.side] and 2 * sum(not m.active for m in members) >= len(
            members
        ):
            fight.state["broken"][c.side] = True
            points.append("half of them are down")

    def _tick(self, fight: Fight, rng: random.Random, points: list[str]) -> None:
        """End of round: bleeding costs a Wound, mortal wounds count down."""
        for c in fight.everyone():
            if c.out is not None:
                continue
            if c.state.get("bleeding"):
                c.state["wounds"] += 1
                c.hp -= 1
                if c.state["wounds"] >= c.stats["max_wounds"]:
                    c.out = "dead"
                    fight.log(f"{c.name} bleeds out and dies.")
                    self._fallen(fight, c, points)
                    continue
                fight.log(f"{c.name} bleeds: Wounds {c.state['wounds']}/{c.stats['max_wounds']}.")
            if "dying_in" in c.state:
                c.state["dying_in"] -= 1
                if c.state["dying_in"] <= 0:
                    c.out = "dead"
                    fight.log(f"{c.name} succumbs to the mortal wound.")
                    self._fallen(fight, c, points)

    def _morale(self, fight: Fight, rng: random.Random, points: list[str]) -> None:
        players, enemies = fight.state["players"], fight.state["enemies"]
        pcs = [c for c in fight.active(players) if c.stats["kind"] == "pc"]
        foes = fight.active(enemies)
        if not pcs or not foes:
            return
        wil = max(c.stats["wil"] for c in pcs)
        leader = next((f for f in foes if f.stats["leader"]), None) or max(
            foes, key=lambda f: f.stats["target"]
        )
        die = roll_die(rng, 20)
        total = die + wil
        head = (
            f"Breaking point ({'; '.join(points)}): WIL save {die} + {wil} = {total} vs "
            f"{leader.name}'s Target {leader.stats['target']}"
        )
        if total >= leader.stats["target"]:
            for f in foes:
                f.out = "fled"
            fight.log(f"{head}: the enemies break and run.")
        else:
            fight.log(f"{head}: they hold.")


SYSTEM = StaminaWoundsSystem()
