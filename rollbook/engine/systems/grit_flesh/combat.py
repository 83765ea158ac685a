"""Grit & Flesh fights: the hooks the shared encounter resolver calls."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, override

from rollbook.engine.messages import Joined, Message
from rollbook.engine.systems.base import Combatant, CombatantState, FightState, Param, System
from rollbook.engine.systems.blow import BlowOdds
from rollbook.engine.systems.dice import NO_DICE, SmallDice, roll_die, roll_edge, stat_dice
from rollbook.engine.systems.grit_flesh.rules import (
    EFFECTS,
    TAGS,
    apply_damage,
    attack_result,
    combine,
)
from rollbook.engine.systems.mechanics import attr_param, dice_param, kind_param, number

if TYPE_CHECKING:
    from rollbook.engine.systems.encounter import Fight

__all__ = ["FIELDS", "GritFleshFightState", "GritFleshState", "GritFleshSystem"]


FIELDS: tuple[Param, ...] = (
    kind_param(),
    Param("grit", int, 0, "Grit (lost first)", minimum=0, maximum=1000),
    Param("flesh", int, None, "Flesh (0 takes them out)", minimum=1, maximum=1000),
    attr_param("defense", "Defense", 10),
    attr_param("violence", "Violence"),
    attr_param("savvy", "Savvy (initiative, surprise)"),
    attr_param("might", "MIG (saves against tag effects)"),
    dice_param("damage", "weapon damage dice", "1d6"),
    Param("tag", str, "slashing", "damage tag", choices=TAGS),
    Param("ranged", bool, False, "fights with a ranged weapon"),
    Param("morale", int, 10, "Morale 0-20 (enemies)", minimum=0, maximum=20),
    Param("loyalty", int, 10, "Loyalty (hirelings under 10 test morale)", minimum=0, maximum=20),
    number("armor", 0, "how much of Defense is armour (each armour Notch takes 1)", 0, 40),
    Param("leader", bool, False, "the enemies' leader"),
    Param(
        "wits",
        str,
        "normal",
        "normal, quick or slow: quick foes give characters a Bane on initiative, slow ones a Boon",
        choices=("normal", "quick", "slow"),
    ),
    Param("surprised", bool, False, "caught unaware by the fiction: no action in round 1"),
    Param("surprise_save", bool, False, "a pc who Saves vs Savvy against surprise"),
    Param("stealthy", bool, False, "stealthy: foes' surprise saves take a Bane"),
)


@dataclass(slots=True)
class GritFleshState(CombatantState):
    """One combatant's running numbers in a Grit & Flesh fight."""

    grit: int = 0
    flesh: int = 0
    defense: int = 0  # armour Notches lower it
    effects: set[str] = field(default_factory=set)  # "dazed", "bleeding", "pinned"
    notches: int = 0  # Notches on its weapon
    armour_notches: int = 0
    reload: bool = False  # a ranged weapon out of ammunition: the next action fetches more
    surprised: bool = False  # loses round 1
    damage: SmallDice = NO_DICE  # the stat block's damage dice

    @classmethod
    @override
    def start(cls, stats: dict[str, Any]) -> GritFleshState:
        damage = stat_dice(stats["damage"])
        return cls(
            grit=stats["grit"], flesh=stats["flesh"], defense=stats["defense"], damage=damage
        )


@dataclass(slots=True)
class GritFleshFightState(FightState):
    """What a Grit & Flesh fight keeps between rounds (dicts are keyed by side)."""

    first_out: Combatant[GritFleshState] | None = None  # the first to fall, on either side
    halved: dict[str, bool] = field(default_factory=dict)  # half of the side is down
    solo_bled: dict[str, bool] = field(default_factory=dict)  # a lone enemy has bled
    solo: dict[str, bool] = field(default_factory=dict)  # the side has a single enemy
    triggers: dict[str, list[Message]] = field(default_factory=dict)  # this round's morale causes
    # who rolls initiative (characters) and who does not (enemies): the same all fight
    roster: tuple[list[Combatant[GritFleshState]], list[Combatant[GritFleshState]]] | None = None
    paces: dict[str, str] | None = None  # set when nobody's wits matter: the same all fight
    plain_wits: set[str] | None = None  # sides whose members all have normal wits


if TYPE_CHECKING:
    GritFleshFight = Fight[GritFleshState, GritFleshFightState]
    Fighter = Combatant[GritFleshState]


class GritFleshSystem(System[GritFleshState, GritFleshFightState]):
    """Hooks for the encounter resolver (the package docstring sums up the rules)."""

    @override
    def blow_odds(self, attacker: dict[str, Any], defender: dict[str, Any]) -> BlowOdds:
        params = {"violence": attacker["violence"], "defense": defender["defense"]}
        return BlowOdds("attack", params, ("critical_hit", "hit"))

    @override
    def starting_hp(self, stats: dict[str, Any]) -> int:
        return int(stats["grit"]) + int(stats["flesh"])

    @override
    def status(self, combatant: Fighter) -> dict[str, Any]:
        st = combatant.state
        return {
            "grit": st.grit,
            "flesh": st.flesh,
            "defense": st.defense,
            "effects": sorted(st.effects),
            "notches": st.notches,
        }

    # -- set-up -----------------------------------------------------------------------------
    @override
    def begin(self, fight: GritFleshFight, rng: random.Random) -> None:
        fight.state.halved = dict.fromkeys(fight.sides, False)
        fight.state.solo_bled = dict.fromkeys(fight.sides, False)
        fight.state.solo = {
            side: sum(c.stats["kind"] == "enemy" for c in m) == 1 for side, m in fight.sides.items()
        }
        for c in fight.everyone():
            s = c.stats
            if s["surprised"]:
                c.state.surprised = True
                fight.say("log.unaware", name=c.name)
            elif s["surprise_save"]:
                foes = fight.sides[fight.other(c.side)]
                edge = "bane" if any(f.stats["stealthy"] for f in foes) else "none"
                die = roll_edge(rng, 20, edge)
                ok = die + s["savvy"] >= 10
                c.state.surprised = not ok
                fight.say(
                    "log.gf.alert" if ok else "log.gf.surprised", name=c.name, edge=_edge(edge),
                    die=die, savvy=s["savvy"],
                )  # fmt: skip

    # -- one round --------------------------------------------------------------------------
    @override
    def play_round(self, fight: GritFleshFight, rng: random.Random) -> None:
        triggers: dict[str, list[Message]] = {side: [] for side in fight.sides}
        fight.state.triggers = triggers
        first: list[Fighter] = []
        last: list[Fighter] = []
        paces = self._paces(fight)
        roster = fight.state.roster
        if roster is None:  # who rolls initiative and who does not is the same all fight
            everyone = fight.everyone()
            roster = (
                [c for c in everyone if c.stats["kind"] != "enemy"],
                [c for c in everyone if c.stats["kind"] == "enemy"],
            )
            fight.state.roster = roster
        enemies = [c for c in roster[1] if c.out is None]
        for c in roster[0]:
            if c.out is not None:
                continue
            pace = paces[c.side]
            dazed = "dazed" in c.state.effects  # see _dazed
            edge = combine("bane", pace) if dazed else pace
            # roll_edge, one call fewer for the usual plain roll
            die = roll_die(rng, 20) if edge == "none" else roll_edge(rng, 20, edge)
            (first if die + c.stats["savvy"] >= 10 else last).append(c)
        if (first or last) and not fight.quiet:
            ahead = [Message("log.gf.first", {"name": c.name}) for c in first]
            behind = [Message("log.gf.after", {"name": c.name}) for c in last]
            if first and last:
                fight.say(
                    "log.gf.initiative_both", first=Joined("log.sep.comma", tuple(ahead)),
                    last=Joined("log.sep.comma", tuple(behind)),
                )  # fmt: skip
            else:
                fight.say("log.gf.initiative", order=Joined("log.sep.comma", (*ahead, *behind)))
        for c in first + enemies + last:
            if c.out is not None:
                continue
            if fight.round == 1 and c.state.surprised:
                continue
            # only a fall can end the fight mid-round, so decided() is asked after one
            if self._act(fight, rng, c) and fight.decided():
                break
        self._end_of_round(fight, rng)

    @staticmethod
    def _paces(fight: GritFleshFight) -> dict[str, str]:
        """Each side's initiative edge from its foes' wits: side -> none, bane or boon."""
        paces = fight.state.paces
        if paces is not None:
            return paces
        plain = fight.state.plain_wits
        if plain is None:  # sides whose members are all of normal wits never rush anyone
            plain = {
                side
                for side, members in fight.sides.items()
                if all(f.stats["wits"] == "normal" for f in members)
            }
            fight.state.plain_wits = plain
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
            fight.state.paces = paces
        return paces

    @staticmethod
    def _dazed(c: Fighter) -> str:
        return "bane" if "dazed" in c.state.effects else "none"

    def _act(self, fight: GritFleshFight, rng: random.Random, c: Fighter) -> bool:
        """One action by ``c``; True when it took its foe out of the fight."""
        if c.state.reload:
            c.state.reload = False
            fight.say("log.gf.reload", name=c.name)
            return False
        foe = fight.target_for(c)
        if foe is None:
            return False
        s = c.stats
        if "dazed" in c.state.effects:  # see _dazed
            edge = "bane"
            die = roll_edge(rng, 20, edge)
        else:  # roll_edge, one call fewer for the usual plain roll
            edge = "none"
            die = roll_die(rng, 20)
        defense = foe.state.defense
        name = attack_result(die, s["violence"], defense)
        head = (
            None
            if fight.quiet
            # Monte Carlo runs never read it
            else Message(
                "log.gf.head",
                {
                    "name": c.name,
                    "die": die,
                    "edge": _edge(edge),
                    "violence": s["violence"],
                    "foe": foe.name,
                    "defense": defense,
                },
            )
        )
        if name == "miss":
            if head:
                fight.say("log.gf.miss", head=head)
            return False
        if name == "critical_miss":
            if s["ranged"]:
                c.state.reload = True
                fight.say("log.gf.out_of_ammo", head=head)
            else:
                c.state.notches += 1
                fight.say("log.gf.notch", head=head, notches=c.state.notches)
            return False
        self._hit(fight, rng, c, foe, name == "critical_hit", head)
        return foe.out is not None

    def _hit(
        self,
        fight: GritFleshFight,
        rng: random.Random,
        c: Fighter,
        foe: Fighter,
        critical: bool,
        head: Message | None,
    ) -> None:
        dice = c.state.damage
        rolled = max(0, dice.roll(rng))
        self._harm(fight, foe, rolled, critical)
        note: str | Message = ""
        if rolled == dice.maximum and dice.count and foe.out is None:
            effect = EFFECTS[c.stats["tag"]]
            armour_left = foe.stats["armor"] - foe.state.armour_notches
            if effect not in foe.state.effects:
                foe.state.effects.add(effect)
                c.state.notches += 1
                note = Message(
                    "log.gf.top_effect",
                    {"foe": foe.name, "effect": Message(f"stat.value.{effect}")},
                )
            elif armour_left > 0:
                foe.state.armour_notches += 1
                foe.state.defense -= 1
                c.state.notches += 1
                note = Message("log.gf.top_armour", {"defense": foe.state.defense})
        if fight.quiet:
            return
        fight.say(
            "log.gf.critical" if critical else "log.gf.hit", head=head, rolled=rolled,
            grit=foe.state.grit, flesh=foe.state.flesh, note=note,
        )  # fmt: skip
        if foe.out is not None:
            fight.say("log.gf.taken_out", name=foe.name)

    def _harm(self, fight: GritFleshFight, foe: Fighter, amount: int, critical: bool) -> None:
        st, state, side = foe.state, fight.state, foe.side
        before = st.flesh
        grit, flesh, name = apply_damage(amount, st.grit, before, critical)
        st.grit, st.flesh = grit, flesh
        foe.hp = grit + flesh
        triggers = state.triggers[side]
        if (
            flesh < before
            and foe.stats["kind"] == "enemy"
            and state.solo[side]
            and not state.solo_bled[side]
        ):
            state.solo_bled[side] = True
            triggers.append(Message("log.gf.why_bleeds", {"name": foe.name}))
        if name == "down":
            foe.out = "down"
            if state.first_out is None:
                state.first_out = foe
                triggers.append(Message("log.gf.why_first", {"name": foe.name}))
            if foe.stats["leader"]:
                triggers.append(Message("log.gf.why_leader", {"name": foe.name}))
            members = fight.sides[side]
            if not state.halved[side] and 2 * sum(not m.active for m in members) >= len(members):
                state.halved[side] = True
                triggers.append(Message("log.gf.why_half"))

    def _end_of_round(self, fight: GritFleshFight, rng: random.Random) -> None:
        for c in fight.everyone():
            if c.out is not None or not c.state.effects:
                continue
            if "bleeding" in c.state.effects:
                bleed = roll_die(rng, 4)
                self._harm(fight, c, bleed, False)
                if not fight.quiet:
                    fight.say(
                        "log.gf.bleeds", name=c.name, bleed=bleed, grit=c.state.grit,
                        flesh=c.state.flesh,
                    )  # fmt: skip
                if c.out is not None:
                    fight.say("log.gf.taken_out", name=c.name)
                    continue
            for effect in sorted(c.state.effects):
                die = roll_die(rng, 20)
                if die + c.stats["might"] >= 10:
                    c.state.effects.discard(effect)
                    fight.say(
                        "log.gf.shakes_off", name=c.name, effect=Message(f"stat.value.{effect}"),
                        die=die, might=c.stats["might"],
                    )  # fmt: skip
        if fight.decided():
            return
        for side, reasons in fight.state.triggers.items():
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
                pinned = "pinned" in c.state.effects
                if not holds:
                    c.out = "surrendered" if pinned else "fled"
                if fight.quiet:  # Monte Carlo runs skip building the log's words
                    continue
                why = Joined("log.sep.semicolon", tuple(reasons))
                fight.say(
                    "log.gf.holds" if holds else "log.gf.gives_up" if pinned else "log.gf.runs",
                    name=c.name, why=why, die=die, limit=score + 1,
                )  # fmt: skip


def _edge(edge: str) -> str | Message:
    """`` with a Boon`` / `` with a Bane`` for the log (`procedures.edge_note` in words)."""
    return "" if edge == "none" else Message(f"log.gf.with_{edge}")
