"""Dark Dungeons fights: the hooks the shared encounter resolver calls.

Round order: morale checks (start of the statement-of-intent phase), initiative, actions in
initiative order (equal totals act at once), then saves vs death ray for the dying.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, override

from rollbook.engine.messages import Joined, Message
from rollbook.engine.systems.base import Combatant, CombatantState, FightState, Param, System
from rollbook.engine.systems.blow import BlowOdds
from rollbook.engine.systems.dark_dungeons import rules
from rollbook.engine.systems.dice import SmallDice, draw_dice, draw_die, stat_dice
from rollbook.engine.systems.mechanics import dice_param, number

if TYPE_CHECKING:
    from rollbook.engine.systems.encounter import Fight

__all__ = ["FIELDS", "DarkDungeonsFightState", "DarkDungeonsState", "DarkDungeonsSystem"]

FIELDS: tuple[Param, ...] = (
    Param("hp", int, None, "hit points", minimum=1, maximum=100000),
    Param("ac", int, 9, "armour class (9 unarmoured, lower is better)", minimum=-50, maximum=50),
    number("level", 1, "level or hit dice (shown only; attack_bonus carries its effect)", 0, 100),
    Param("attack_bonus", int, 0, "attack bonus from level or hit dice", minimum=-20, maximum=100),
    number("hit_bonus", 0, "other to-hit bonuses (strength, feats, magic)", -50, 50),
    dice_param("damage", "damage per hit, e.g. 1d8 or 2d4+1", "1d6"),
    Param("damage_bonus", int, 0, "flat damage bonus per hit", minimum=-50, maximum=100),
    Param("attacks", int, 1, "attacks per round at normal speed", minimum=1, maximum=20),
    Param("speed", str, "normal", "haste or slow", choices=rules.SPEEDS),
    number("initiative_mod", 0, "dexterity, halfling and other initiative modifiers", -20, 20),
    Param("two_handed", bool, False, "two-handed melee weapon: always loses initiative"),
    Param(
        "auto_initiative",
        str,
        "none",
        "always wins or always loses initiative (e.g. zombies)",
        choices=rules.AUTO,
    ),
    Param(
        "off_hand",
        str,
        "none",
        "second weapon: none, plain (-4) or one with Off Hand",
        choices=("none", "plain", "off-hand"),
    ),
    dice_param("off_hand_damage", "damage of the off-hand weapon", "1d4"),
    Param("smash", bool, False, "always smashes: -5 to hit, +strength score damage, acts last"),
    Param("strength", int, 0, "strength score (added to smash damage)", minimum=0, maximum=30),
    Param("morale", int, 12, "morale score; 12 or more never breaks", minimum=2, maximum=30),
    Param("on_break", str, "flee", "what a broken combatant does", choices=("flee", "surrender")),
    number("death_save", 0, "save vs death ray when at 0 hit points (0: dies outright)", 0, 40),
    Param("group", str, "", "combatants of a side with the same group share initiative rolls"),
)

MAX_MORALE_CHECKS = 2  # the rules advise two or three checks a fight at most
_TIER_NOTE = {"win": "log.dd.tier.win", "none": "log.dd.tier.none", "lose": "log.dd.tier.lose"}
_TIERS = ("win", "none", "lose")  # the order automatic initiative results act in


@dataclass(frozen=True, slots=True)
class _Prep:
    """What fights need from a stat block, worked out once when the combatant is built.

    Stats never change during a fight, and a Monte Carlo run replays the same stat blocks
    thousands of times, so the per-action work is plain arithmetic on these numbers.
    """

    # attack bonus + other to-hit bonuses (-5 when always smashing) + 2 x speed level: the
    # attacker's half of the to-hit value
    attack: int
    speed: int  # speed level, normal 0; each level apart is 2 points to hit
    bonus: int  # flat damage per hit, + strength when smashing (extra damage comes on top)
    tier: int  # index in _TIERS
    initiative_mod: int
    attacks: int | None  # attacks every round, or None when the speed makes them alternate
    off_hand: bool  # a second weapon: one more blow after the main ones
    single: bool  # one blow every round, the usual case (no off hand, no alternating rate)
    defence: int  # armour class - 2 x speed level: what attackers add to their attack value
    damage: SmallDice  # the main weapon's damage dice
    off_hand_damage: SmallDice  # the second weapon's

    @classmethod
    def of(cls, s: dict[str, Any]) -> _Prep:
        base, speed = s["attacks"], s["speed"]
        rates = {rules.attacks_this_round(base, speed, r) for r in range(1, 5)}  # period <= 4
        auto = rules.initiative_auto(
            speed=s["speed"],
            two_handed=s["two_handed"],
            smash=s["smash"],
            forced=s["auto_initiative"],
        )
        to_hit = s["attack_bonus"] + s["hit_bonus"] - (5 if s["smash"] else 0)
        speed = rules.SPEED_LEVEL[s["speed"]]
        bonus = s["damage_bonus"] + (s["strength"] if s["smash"] else 0)
        mod = rules.initiative_modifier(dex_mod=s["initiative_mod"], speed=s["speed"])
        attacks = rates.pop() if len(rates) == 1 else None
        off_hand = s["off_hand"] != "none"
        return cls(
            attack=to_hit + 2 * speed,
            speed=speed,
            bonus=bonus,
            tier=_TIERS.index(auto),
            initiative_mod=mod,
            attacks=attacks,
            off_hand=off_hand,
            single=attacks == 1 and not off_hand,
            defence=s["ac"] - 2 * speed,
            damage=stat_dice(s["damage"]),
            off_hand_damage=stat_dice(s["off_hand_damage"], "off_hand_damage"),
        )


@dataclass(slots=True)
class DarkDungeonsState(CombatantState):
    """One combatant's running numbers in a Dark Dungeons fight."""

    prep: _Prep  # worked out from the stat block once (see `restart`)
    morale_checks: int = 0  # morale checks made this fight (at most MAX_MORALE_CHECKS)
    hurt_checked: bool = False  # has checked morale for dropping below half its hit points
    dying_saves: int | None = None  # saves vs death ray made while down (None: not dying)

    @classmethod
    @override
    def start(cls, stats: dict[str, Any]) -> DarkDungeonsState:
        return cls(prep=_Prep.of(stats))

    @override
    def restart(self, stats: dict[str, Any]) -> DarkDungeonsState:
        return DarkDungeonsState(prep=self.prep)  # the stat block is the same: keep the work


Fighter = Combatant[DarkDungeonsState]


@dataclass(slots=True)
class DarkDungeonsFightState(FightState):
    """What a Dark Dungeons fight keeps between rounds."""

    surprised: str | None = None  # the side that loses round 1
    fell: bool = False  # someone fell during the current beat
    dying: bool = False  # someone has fallen with death saves to make
    halved: dict[str, bool] = field(default_factory=dict)  # side -> checked for half gone
    morale_sides: list[str] | None = None  # sides that can still check morale
    # (combatant, group key or None, initiative tier, initiative mod): the same all fight
    roster: list[tuple[Fighter, object, int, int]] | None = None
    solo_roll: bool = False  # no groups and one tier: every fighter rolls alone


if TYPE_CHECKING:
    DarkDungeonsFight = Fight[DarkDungeonsState, DarkDungeonsFightState]


class DarkDungeonsSystem(System[DarkDungeonsState, DarkDungeonsFightState]):
    """Dark Dungeons (the package docstring sums up the rules)."""

    @override
    def blow_odds(self, attacker: dict[str, Any], defender: dict[str, Any]) -> BlowOdds:
        a, d = attacker, defender
        params = {"attack_bonus": a["attack_bonus"], "hit_bonus": a["hit_bonus"], "ac": d["ac"]}
        params.update(speed=a["speed"], target_speed=d["speed"], smash=a["smash"])
        return BlowOdds("attack", params, ("hit",))

    # -- before round 1 ----------------------------------------------------------------------
    @override
    def begin(self, fight: DarkDungeonsFight, rng: random.Random) -> None:
        rolls = {side: draw_die(rng, 6) for side in fight.side_names()}
        caught = [side for side, roll in rolls.items() if roll <= 2]
        fight.state.surprised = caught[0] if len(caught) == 1 else None
        if fight.quiet:
            return
        said = [Message("log.dd.side_rolls", {"side": s, "roll": r}) for s, r in rolls.items()]
        text = Joined("log.sep.comma", tuple(said))
        if len(caught) == 1:
            fight.say("log.dd.surprise_one", rolls=text, side=caught[0])
        else:
            fight.say("log.dd.surprise_both" if caught else "log.dd.surprise_none", rolls=text)

    # -- one round ---------------------------------------------------------------------------
    @override
    def play_round(self, fight: DarkDungeonsFight, rng: random.Random) -> None:
        if self._morale(fight, rng) and fight.decided():  # only a broken fighter can end it
            return
        surprised = fight.state.surprised if fight.round == 1 else None
        state = fight.state
        for beat in self.initiative_order(fight, rng, surprised):
            state.fell = False
            if len(beat) == 1:
                actors = beat if beat[0].out is None else []
            else:  # simultaneous: everyone active when the beat starts acts
                actors = [c for c in beat if c.out is None]
            for actor in actors:
                prep = actor.state.prep
                if prep.single:  # one blow every round (worked out once): no call to _act
                    target = fight.target_for(actor)
                    if target is not None:
                        self.strike(fight, actor, target, "main", prep.damage, rng)
                else:
                    self._act(fight, actor, rng)
            if state.fell and fight.decided():  # only a fall can end the fight
                break
        self.death_saves(fight, rng)

    # -- morale ------------------------------------------------------------------------------
    def _morale(self, fight: DarkDungeonsFight, rng: random.Random) -> bool:
        """The round's morale checks; True when anyone fled or gave up."""
        sides = fight.state.morale_sides
        if sides is None:  # only sides with someone who can break ever check
            sides = [
                side
                for side, members in fight.sides.items()
                if any(c.stats["morale"] < 12 for c in members)
            ]
            fight.state.morale_sides = sides
        halved = fight.state.halved
        settled = []
        anyone_broke = False
        for side in sides:
            members = fight.sides[side]
            checkers: list[Fighter] = []
            half_gone = not halved.get(side) and 2 * _down(members) >= len(members)
            if half_gone:
                halved[side] = True
            for c in members:
                if not half_gone and 2 * c.hp >= c.max_hp:
                    continue  # neither reason to check applies (the usual case): skip the rest
                if c.out is not None or c.stats["morale"] >= 12:
                    continue
                if c.state.morale_checks >= MAX_MORALE_CHECKS:
                    continue
                hurt = 2 * c.hp < c.max_hp and not c.state.hurt_checked
                if hurt:
                    c.state.hurt_checked = True
                if half_gone or hurt:
                    checkers.append(c)
            if halved.get(side) and _settled(members):
                settled.append(side)
            if not checkers:
                continue
            a, b = draw_die(rng, 6), draw_die(rng, 6)
            broke = []
            for c in checkers:
                c.state.morale_checks += 1
                if a + b > c.stats["morale"]:
                    c.out = "fled" if c.stats["on_break"] == "flee" else "surrendered"
                    broke.append(c)
                    anyone_broke = True
            if not fight.quiet:
                names = ", ".join(c.name for c in checkers)
                gone = tuple(
                    Message(
                        "log.dd.flees" if c.out == "fled" else "log.dd.gives_up", {"name": c.name}
                    )
                    for c in broke
                )
                verdict = Joined("log.sep.semicolon", gone) if gone else Message("log.dd.all_hold")
                fight.say("log.dd.morale", names=names, total=a + b, verdict=verdict)
        if settled:  # these sides can never check again: later rounds skip them
            fight.state.morale_sides = [side for side in sides if side not in settled]
        return anyone_broke

    # -- initiative --------------------------------------------------------------------------
    def initiative_order(
        self, fight: DarkDungeonsFight, rng: random.Random, surprised: str | None
    ) -> list[list[Fighter]]:
        """Acting order as beats: each beat is a set of combatants who act at the same time."""
        # Units roll together: a combatant alone, or the active members of a group, in the
        # order their first active member is listed. Who is in which unit and tier is the
        # same every round, so it is worked out once per fight.
        roster = fight.state.roster
        if roster is None:
            roster = [
                (
                    c,
                    (c.side, c.stats["group"]) if c.stats["group"] else None,
                    c.state.prep.tier,
                    c.state.prep.initiative_mod,
                )
                for c in fight.everyone()
            ]
            fight.state.roster = roster
            # the usual case: no groups and one tier, so every active fighter rolls alone
            fight.state.solo_roll = len({tier for _, _, tier, _ in roster}) == 1 and all(
                group is None for _, group, _, _ in roster
            )
        if fight.quiet and fight.state.solo_roll:
            return _solo_beats(roster, rng, surprised)
        units: dict[object, list[Fighter]] = {}
        tiers: tuple[list[tuple[list[Fighter], int]], ...] = ([], [], [])
        for c, group, tier, mod in roster:
            if c.out is None and c.side != surprised:
                members = None if group is None else units.get(group)
                if members is None:  # the first active member sets the unit's tier and mod
                    members = [c]
                    tiers[tier].append((members, mod))
                    if group is not None:
                        units[group] = members
                else:
                    members.append(c)
        quiet = fight.quiet
        beats: list[list[Fighter]] = []
        notes: list[Message | Joined] = []
        for auto, tier_units in zip(_TIERS, tiers, strict=True):
            if not tier_units:
                continue
            if len(tier_units) == 1:  # alone in its tier: no roll needed
                beats.append(tier_units[0][0])
                if not quiet:
                    notes.append(Message(_TIER_NOTE[auto], {"who": _label(tier_units[0][0])}))
                continue
            scored: dict[int, list[Fighter]] = {}
            rolled: dict[int, list[Message]] = {}
            for (members, mod), roll in zip(
                tier_units, draw_dice(rng, 6, len(tier_units)), strict=True
            ):
                total = roll + mod
                same = scored.get(total)
                if same is None:
                    scored[total] = members  # built this round: free to grow
                else:
                    same.extend(members)
                if not quiet:
                    who = _label(members)
                    rolled.setdefault(total, []).append(
                        Message("log.dd.init_mod", {"who": who, "roll": roll, "mod": f"{mod:+d}",
                                                    "total": total})
                        if mod
                        else Message("log.dd.init_roll", {"who": who, "roll": roll})
                    )  # fmt: skip
            for total in sorted(scored, reverse=True):
                beats.append(scored[total])
                if not quiet:
                    # equal totals act at the same time
                    notes.append(Joined("log.sep.same_time", tuple(rolled[total])))
        if not quiet:
            fight.say("log.dd.initiative", order=Joined("log.sep.then", tuple(notes)))
        return beats

    # -- actions -----------------------------------------------------------------------------
    def _act(self, fight: DarkDungeonsFight, actor: Fighter, rng: random.Random) -> None:
        s = actor.stats
        prep = actor.state.prep
        swings = prep.attacks
        if swings is None:
            swings = rules.attacks_this_round(s["attacks"], s["speed"], fight.round)
        off_hand = prep.off_hand
        if swings == 1 and not off_hand:  # the usual single blow, without the loop below
            target = fight.target_for(actor)
            if target is not None:
                self.strike(fight, actor, target, "main", prep.damage, rng)
            return
        if not swings and not off_hand and not fight.quiet:
            fight.say("log.dd.too_slow", name=actor.name)
        for blow in range(swings + off_hand):  # the off-hand blow comes last
            target = fight.target_for(actor)
            if target is None:
                return
            if blow < swings:
                self.strike(fight, actor, target, "main", prep.damage, rng)
            else:
                self.strike(fight, actor, target, "off", prep.off_hand_damage, rng)

    def strike(
        self,
        fight: DarkDungeonsFight,
        actor: Fighter,
        target: Fighter,
        hand: str,
        dice: SmallDice,
        rng: random.Random,
    ) -> None:
        """One attack of ``actor`` on ``target``: to-hit, damage and what it does."""
        s = actor.stats
        prep = actor.state.prep
        # rules.to_hit_value with the speed, smash and off-hand modifiers, from numbers
        # worked out once (see _Prep): to-hit bonuses + ac + 2 x (speed - the target's speed)
        value = prep.attack + target.state.prep.defence
        if hand == "off" and s["off_hand"] == "plain":
            value -= 4
        roll = draw_die(rng, 20)
        hit = roll != 1 and (roll == 20 or roll + value >= rules.HIT_TARGET)
        quiet = fight.quiet
        if not hit:
            if not quiet:
                needs = rules.needed_roll(value)
                key = f"log.dd.miss{_verb(s, hand)}"
                fight.say(key, name=actor.name, target=target.name, roll=roll, needs=needs)
            return
        rolled = dice.roll(rng)
        bonus = prep.bonus + (rules.extra_damage(value) if value > rules.HIT_TARGET else 0)
        dealt = rolled + bonus
        if dealt < 0:  # conditions, not max(): a call into C costs several times more in Pyodide
            dealt = 0
        before = target.hp
        target.hp = before - dealt if before > dealt else 0  # no negative hit points
        if not quiet:
            fight.say(
                f"log.dd.hit{_verb(s, hand)}", name=actor.name, target=target.name, roll=roll,
                needs=rules.needed_roll(value), dealt=dealt, dice=str(dice), rolled=rolled,
                bonus=f", {bonus:+d}" if bonus else "", before=before, after=target.hp,
            )  # fmt: skip
        if target.hp == 0:
            self._fall(fight, target)

    def _fall(self, fight: DarkDungeonsFight, c: Fighter) -> None:
        fight.state.fell = True
        if c.stats["death_save"]:
            c.out = "down"
            c.state.dying_saves = 0
            fight.state.dying = True
            if not fight.quiet:
                fight.say("log.dd.dying", name=c.name)
        else:
            c.out = "dead"
            if not fight.quiet:
                fight.say("log.dd.slain", name=c.name)

    # -- dying -------------------------------------------------------------------------------
    def death_saves(self, fight: DarkDungeonsFight, rng: random.Random) -> None:
        """The saving throws of everyone dying this round."""
        if not fight.state.dying:  # nobody has fallen with a save to make
            return
        for c in fight.everyone():
            made = c.state.dying_saves
            if c.out != "down" or made is None:
                continue
            roll = draw_die(rng, 20)
            lives = roll - made >= c.stats["death_save"]
            c.state.dying_saves = made + 1
            if not lives:
                c.out = "dead"
            if not fight.quiet:
                fight.say(
                    "log.dd.save_holds" if lives else "log.dd.save_dies", name=c.name,
                    roll=roll, minus=f"{-made:+d}", save=c.stats["death_save"],
                )  # fmt: skip


def _down(members: list[Fighter]) -> int:
    """How many of ``members`` are out of the fight."""
    down = 0
    for c in members:
        if c.out is not None:
            down += 1
    return down


def _settled(members: list[Fighter]) -> bool:
    """True when no member of a side that has checked for losing half can ever check again.

    After that check only a first wound past half hit points can call for one, and a member
    is past it once out, unbreakable, out of checks or already checked for the wound.
    """
    for c in members:
        if not (
            c.out is not None
            or c.stats["morale"] >= 12
            or c.state.hurt_checked
            or c.state.morale_checks >= MAX_MORALE_CHECKS
        ):
            return False
    return True


def _solo_beats(
    roster: list[tuple[Fighter, object, int, int]], rng: random.Random, surprised: str | None
) -> list[list[Fighter]]:
    """`DarkDungeonsSystem.initiative_order` without groups or tiers and without notes (quiet).

    The same dice in the same order and the same beats, with a third of the work: this is
    the most frequent step of a Monte Carlo run.
    """
    # the roster's own entries, no pairs built: after round 1 nobody is surprised
    if surprised is None:
        active = [entry for entry in roster if entry[0].out is None]
    else:
        active = [entry for entry in roster if entry[0].out is None and entry[0].side != surprised]
    if len(active) < 2:  # alone in its tier: no roll needed
        return [[active[0][0]]] if active else []
    scored: dict[int, list[Fighter]] = {}
    for entry, roll in zip(active, draw_dice(rng, 6, len(active)), strict=True):
        total = roll + entry[3]  # the initiative modifier
        same = scored.get(total)
        if same is None:
            scored[total] = [entry[0]]
        else:
            same.append(entry[0])  # equal totals act at the same time
    return [scored[total] for total in sorted(scored, reverse=True)]


def _verb(s: dict[str, Any], hand: str) -> str:
    """The attack's kind as a ``log.dd.hit*``/``log.dd.miss*`` key ends."""
    return "_smash" if s["smash"] else "" if hand == "main" else "_off"


def _label(members: list[Fighter]) -> str:
    group = members[0].stats["group"]
    return group if group and len(members) > 1 else ", ".join(c.name for c in members)
