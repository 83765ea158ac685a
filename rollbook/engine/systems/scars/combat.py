"""Scars fights: the hooks the shared encounter resolver calls."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, override

from rollbook.engine.messages import Message
from rollbook.engine.systems.base import Combatant, CombatantState, FightState, Param, System
from rollbook.engine.systems.blow import BlowOdds
from rollbook.engine.systems.dice import NO_DICE, SmallDice, roll_die, stat_dice
from rollbook.engine.systems.mechanics import dice_param, kind_param
from rollbook.engine.systems.scars.procedures import (
    roll_attack,
    roll_dying,
    roll_hireling,
    roll_initiative,
    score_param,
)
from rollbook.engine.systems.scars.rules import (
    attack_result,
    initiative_result,
    morale_result,
)

if TYPE_CHECKING:
    from rollbook.engine.systems.encounter import Fight

__all__ = ["FIELDS", "MAX_CHAIN", "ScarsFightState", "ScarsState", "ScarsSystem"]

MAX_CHAIN = 20  # stun chains are rare; the cap only guards against an endless loop


FIELDS: tuple[Param, ...] = (
    kind_param(),
    Param("health", int, None, "health (hit points)", minimum=1, maximum=1000),
    score_param(
        "attack", "number to roll at or under to hit (Brawn, Agility or Attack)", default=10
    ),
    score_param("ac", "Armour Class", default=0),
    dice_param("damage", "weapon damage dice", "1d6"),
    Param("hd", int, 1, "Hit Dice (enemy and hireling morale)", minimum=0, maximum=30),
    score_param("agility", "Agility (initiative of pcs and hirelings)", default=10),
    score_param("cunning", "Cunning (a pc's hireling morale checks)", default=10),
    Param("scars", int, 0, "Scars", minimum=0, maximum=20),
    Param("leader", bool, False, "an enemy leader: the group's morale follows them"),
    Param("surprised", bool, False, "caught unaware: no action in round 1"),
)


@dataclass(slots=True)
class ScarsState(CombatantState):
    """One combatant's running numbers in a Scars fight."""

    ac: int = 0  # the armour's class now (dents lower it)
    scars: int = 0  # Scars now (dropping to 0 health adds one)
    extra: int = 0  # attacks owed next turn (a rally or heroics)
    steady: bool = False  # rallied or heroic: no more morale tests
    hurt: bool = False  # took damage this round
    halved: bool = False  # a lone foe has tested for being at half health
    stunned: bool = False  # loses its next action
    tested: bool = False  # a hireling has tested its nerve this fight
    waking: int | None = None  # rounds until a downed pc comes round (None: not waking)
    fell: int = 0  # the round it dropped (the count starts with the next)
    damage: SmallDice = NO_DICE  # the stat block's damage dice

    @classmethod
    @override
    def start(cls, stats: dict[str, Any]) -> ScarsState:
        return cls(ac=stats["ac"], scars=stats["scars"], damage=stat_dice(stats["damage"]))


@dataclass(slots=True)
class ScarsFightState(FightState):
    """What a Scars fight keeps between rounds."""

    order: list[Combatant[ScarsState]] = field(default_factory=list)  # everyone, acting order
    lone: dict[str, bool] = field(default_factory=dict)  # side -> a single enemy
    group_steady: dict[str, bool] = field(default_factory=dict)  # side -> the group rallied


if TYPE_CHECKING:
    ScarsFight = Fight[ScarsState, ScarsFightState]
    Fighter = Combatant[ScarsState]


class ScarsSystem(System[ScarsState, ScarsFightState]):
    """Hooks for the encounter resolver (the package docstring sums up the rules)."""

    @override
    def blow_odds(self, attacker: dict[str, Any], defender: dict[str, Any]) -> BlowOdds:
        # the fight lets each roller use Scars in the most useful way ("best")
        a, d = attacker, defender
        params = {"attribute": a["attack"], "ac": d["ac"], "scars": a["scars"], "shift": "best"}
        return BlowOdds("attack", params, ("stun", "hit"))

    @override
    def starting_hp(self, stats: dict[str, Any]) -> int:
        return int(stats["health"])

    @override
    def status(self, combatant: Fighter) -> dict[str, Any]:
        st = combatant.state
        return {
            "health": combatant.hp,
            "ac": st.ac,
            "scars": st.scars,
        }

    # -- set-up -----------------------------------------------------------------------------
    @override
    def begin(self, fight: ScarsFight, rng: random.Random) -> None:
        fast: list[Fighter] = []
        slow: list[Fighter] = []
        enemies: list[Fighter] = []
        enemy_count = dict.fromkeys(fight.sides, 0)
        for c in fight.everyone():
            s = c.stats
            if s["surprised"]:
                fight.say("log.unaware", name=c.name)
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
            fight.say(
                f"log.scars.init_{name}", name=c.name, roll=_die(raw, used), agility=s["agility"]
            )
        fight.state.order = fast + enemies + slow
        fight.state.lone = {side: count == 1 for side, count in enemy_count.items()}
        fight.state.group_steady = dict.fromkeys(fight.sides, False)

    # -- one round --------------------------------------------------------------------------
    @override
    def play_round(self, fight: ScarsFight, rng: random.Random) -> None:
        died: dict[str, int] = dict.fromkeys(fight.sides, 0)
        order = fight.state.order
        for c in order:
            c.state.hurt = False
        for c in order:
            if c.out is not None:
                continue
            if fight.round == 1 and c.stats["surprised"]:
                continue
            if c.state.stunned:
                c.state.stunned = False
                if not fight.quiet:
                    fight.say("log.scars.reeling", name=c.name)
                continue
            swings, c.state.extra = 1 + c.state.extra, 0
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
        self, fight: ScarsFight, rng: random.Random, c: Fighter, died: dict[str, int]
    ) -> tuple[bool, bool]:
        """One attack by ``c``: whether it earned another at once, and whether its foe fell."""
        foe = fight.target_for(c)
        if foe is None:
            return False, False
        s = c.stats
        ac = foe.state.ac
        scars = c.state.scars
        if scars:
            raw, used, name = roll_attack(rng, s["attack"], ac, scars, "best")
        else:  # nothing to move the die by: roll_attack without building its ranking
            raw = used = roll_die(rng, 20)
            name = attack_result(raw, s["attack"], ac)
        loud = not fight.quiet  # Monte Carlo runs skip building log text
        roll = _die(raw, used) if loud else ""
        if name in ("armour_dent", "armour_broken"):
            foe.state.ac = ac - 1
            if loud:
                key = "log.scars.wrecked" if name == "armour_broken" else "log.scars.dented"
                fight.say(key, name=c.name, roll=roll, foe=foe.name, ac=ac, dented=ac - 1)
            return False, False
        if name == "miss":
            if loud:
                fight.say(
                    "log.scars.miss", name=c.name, roll=roll, low=ac + 1, attack=s["attack"],
                    foe=foe.name,
                )  # fmt: skip
            return False, False
        dealt = max(0, c.state.damage.roll(rng) + c.state.scars)
        foe.hp = max(0, foe.hp - dealt)
        foe.state.hurt = foe.state.hurt or dealt > 0
        if name == "stun":
            foe.state.stunned = True
        if loud:
            fight.say(
                "log.scars.stun" if name == "stun" else "log.scars.hit", name=c.name, roll=roll,
                foe=foe.name, dealt=dealt, hp=foe.hp, max_hp=foe.max_hp, attack=s["attack"],
            )  # fmt: skip
        if foe.hp == 0:
            self._drop(fight, rng, foe, died)
        return name == "stun", foe.out is not None

    def _drop(
        self, fight: ScarsFight, rng: random.Random, c: Fighter, died: dict[str, int]
    ) -> None:
        if c.stats["kind"] != "pc":
            c.out = "dead"
            died[c.side] += 1
            if not fight.quiet:
                fight.say("log.scars.falls_dead", name=c.name)
            return
        scars, total, name, rounds = roll_dying(rng, c.state.scars)
        c.state.scars = scars
        if name == "dies":
            c.out = "dead"
            died[c.side] += 1
            fight.say("log.scars.drops_dies", name=c.name, scars=scars, total=total)
        else:
            c.out = "down"
            c.state.waking = rounds
            c.state.fell = fight.round  # the count starts with the next round
            fight.say("log.scars.drops_out", name=c.name, scars=scars, total=total, count=rounds)

    def _wake(self, fight: ScarsFight, rng: random.Random) -> None:
        for c in fight.everyone():
            st = c.state
            if c.out == "down" and st.waking is not None and st.fell != fight.round:
                st.waking -= 1
                if st.waking <= 0:
                    st.waking = None
                    c.out, c.hp = None, 1
                    fight.say("log.scars.comes_round", name=c.name)

    # -- morale -----------------------------------------------------------------------------
    def _morale(self, fight: ScarsFight, rng: random.Random, died: dict[str, int]) -> None:
        for side, members in fight.sides.items():
            enemies = [c for c in members if c.out is None and c.stats["kind"] == "enemy"]
            leader = next((c for c in enemies if c.stats["leader"]), None)
            if enemies and fight.state.lone[side]:
                self._lone_morale(fight, rng, enemies[0])
            elif fight.state.group_steady[side]:
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
                    and not h.state.steady
                    and not h.state.tested
                    and (h.state.hurt or allies_died)
                ):
                    h.state.tested = True
                    self._hireling_morale(fight, rng, h)

    def _lone_morale(self, fight: ScarsFight, rng: random.Random, c: Fighter) -> None:
        if c.state.steady or 2 * c.hp > c.max_hp:
            return
        if c.state.halved and not c.state.hurt:
            return
        c.state.halved = True
        roll = roll_die(rng, 20)
        name = morale_result(roll, c.stats["hd"])
        fight.say(f"log.scars.morale_{name}", who=c.name, roll=roll, target=10 + c.stats["hd"])
        if name == "rallies":
            c.state.steady = True
            c.state.extra = 1
        elif name == "flees":
            c.out = "fled"

    def _leader_morale(
        self,
        fight: ScarsFight,
        rng: random.Random,
        side: str,
        leader: Fighter,
        enemies: list[Fighter],
        deaths: int,
    ) -> None:
        """A led group tests on its leader's wounds (as a lone foe) and on its losses."""
        due = False
        if 2 * leader.hp <= leader.max_hp and (not leader.state.halved or leader.state.hurt):
            leader.state.halved = due = True
        members = fight.sides[side]
        slain = sum(c.out == "dead" for c in members)
        if deaths and 2 * slain >= len(members):
            due = True  # the round half of them fell, and every later round with a death
        if due:
            label = Message("log.scars.led", {"side": side, "leader": leader.name})
            self._group_morale(fight, rng, side, enemies, leader.stats["hd"], label)

    def _group_morale(
        self,
        fight: ScarsFight,
        rng: random.Random,
        side: str,
        enemies: list[Fighter],
        hd: int,
        label: str | Message,
    ) -> None:
        roll = roll_die(rng, 20)
        name = morale_result(roll, hd)
        fight.say(f"log.scars.morale_{name}", who=label, roll=roll, target=10 + hd)
        if name == "rallies":
            fight.state.group_steady[side] = True
            for c in enemies:
                c.state.extra = 1
        elif name == "flees":
            for c in enemies:
                c.out = "fled"

    def _hireling_morale(self, fight: ScarsFight, rng: random.Random, h: Fighter) -> None:
        boss = next((c for c in fight.sides[h.side] if c.stats["kind"] == "pc" and c.active), None)
        cunning = boss.stats["cunning"] if boss else 10
        scars = boss.state.scars if boss else 0
        raw, used, name = roll_hireling(rng, cunning, h.stats["hd"], scars, "best")
        who = boss.name if boss else Message("log.scars.the_party")
        if name == "heroic":
            h.state.steady, h.state.extra = True, 1
        elif name not in ("holds", "wavers"):
            h.out = "fled"
        fight.say(
            f"log.scars.nerve_{name}", who=who, name=h.name, roll=_die(raw, used),
            sp=15 * h.stats["hd"],
        )  # fmt: skip


def _die(raw: int, used: int) -> int | Message:
    """The die for the log: ``raw``, or how Scars moved it (`rules.shift_note` in words)."""
    return raw if raw == used else Message("log.scars.moved", {"raw": raw, "used": used})
