"""Roll-under-atk fights: the hooks the shared encounter resolver calls.

Round order: morale (for a side outnumbered or down to half), initiative (characters make WIS
checks: successes act before the monsters, failures after, lowest roll first), then one
action each. Rolls face the players: a character attacks with ATK minus the target's
defense, and defends against a monster with DEF minus the monster's hit dice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, override

from rollbook.engine.messages import Joined, Message
from rollbook.engine.systems.base import Combatant, CombatantState, FightState, Param, System
from rollbook.engine.systems.blow import BlowOdds
from rollbook.engine.systems.dice import SmallDice, draw_dice, draw_die, stat_dice
from rollbook.engine.systems.mechanics import dice_param, kind_param, number
from rollbook.engine.systems.roll_under_atk import rules
from rollbook.engine.systems.roll_under_atk.procedures import roll_breakage

if TYPE_CHECKING:
    from rollbook.engine.systems.encounter import Fight

__all__ = ["FIELDS", "RollUnderAtkFightState", "RollUnderAtkState", "RollUnderAtkSystem"]


@dataclass(slots=True)
class RollUnderAtkState(CombatantState):
    """One combatant's running numbers in a roll-under-atk fight."""

    reloading: bool = False  # a crossbow spends the next action reloading
    weapon_breaks: int = 0
    weapon_ruined: bool = False  # fights with fists from now on
    atk_penalty: int = 0  # from a cracked weapon
    armor_breaks: int = 0  # armour points lost
    damage: SmallDice | None = None  # the stat block's own damage dice (None: the weapon's)

    @classmethod
    @override
    def start(cls, stats: dict[str, Any]) -> RollUnderAtkState:
        return cls(damage=stat_dice(stats["damage"]) if stats["damage"] else None)


Fighter = Combatant[RollUnderAtkState]


@dataclass(slots=True)
class RollUnderAtkFightState(FightState):
    """What a roll-under-atk fight keeps between rounds (dicts are keyed by side)."""

    surprise: str | None = None  # the side that gets the drop in round 1
    start: dict[str, tuple[int, int]] = field(default_factory=dict)  # (members, total hp)
    morale_sides: list[str] | None = None  # sides that can still check morale
    morale_spent: dict[str, set[str]] = field(default_factory=dict)  # reasons already used
    # who rolls for the party and who does not: the same all fight
    roster: tuple[list[Fighter], list[Fighter]] | None = None


if TYPE_CHECKING:
    RollUnderAtkFight = Fight[RollUnderAtkState, RollUnderAtkFightState]

FIELDS: tuple[Param, ...] = (
    kind_param(("pc", "retainer", "monster"), "monster", "who rolls, who checks morale"),
    Param("hp", int, None, "hit points", minimum=1, maximum=10000),
    Param("atk", int, 11, "attack score (8 poor, 11 standard, 15 great)", minimum=0, maximum=40),
    Param("armor", int, 0, "worn armour bonus: DEF is 10 + armour", minimum=0, maximum=20),
    number("hd", 1, "hit dice (what a defending character subtracts from DEF)", 0, 30),
    Param("wis", int, 10, "wisdom score for initiative", minimum=0, maximum=30),
    Param("weapon", str, "medium", "weapon class", choices=tuple(rules.WEAPONS)),
    Param("two_hands", bool, False, "medium weapon in two hands (d8)"),
    Param("str_mod", int, 0, "strength modifier (melee damage)", minimum=-5, maximum=10),
    dice_param("damage", "damage dice instead of the weapon's (e.g. a monster's 2d6)", ""),
    Param("weapon_quality", str, "standard", "weapon quality", choices=rules.QUALITIES),
    Param("armor_quality", str, "standard", "armour quality", choices=rules.QUALITIES),
    Param(
        "morale", int, 12, "morale (12 never breaks; characters never check)", minimum=2, maximum=12
    ),
    Param("on_break", str, "flee", "what a broken combatant does", choices=("flee", "surrender")),
    Param("light", bool, False, "carries a light source (matters for surprise)"),
)


def _rolls_for_party(c: Fighter) -> bool:
    return bool(c.stats["kind"] != "monster")


def _side_facts(members: list[Fighter]) -> tuple[bool, bool, int]:
    """A side's party roller, light and starting hit points, in one pass.

    Whether it has someone who rolls for the party, whether it carries a light, and its hit
    points at the start (every Monte Carlo fight asks this).
    """
    party = light = False
    hp = 0
    for c in members:
        party = party or _rolls_for_party(c)
        light = light or c.stats["light"]
        hp += c.max_hp
    return party, light, hp


def _can_break(c: Fighter) -> bool:
    """True for a combatant who checks morale: not a character, morale below 12."""
    return bool(c.stats["kind"] != "pc" and c.stats["morale"] < 12)


_MORALE_REASONS = ("outnumbered", "half")  # a side checks once for each


def _head(key: str, actor: Fighter, target: Fighter, roll: int, needs: int) -> Message:
    """The start of an attack's or a defence's log line: who, against whom, the d20, the need."""
    return Message(key, {"name": actor.name, "target": target.name, "roll": roll, "needs": needs})


class RollUnderAtkSystem(System[RollUnderAtkState, RollUnderAtkFightState]):
    """Roll-under-atk (the package docstring sums up the rules)."""

    @override
    def blow_odds(self, attacker: dict[str, Any], defender: dict[str, Any]) -> BlowOdds:
        # Rolls face the players: a monster's blow on a character is the character's defence.
        a, d = attacker, defender
        if a["kind"] == "monster" and d["kind"] != "monster":
            params = {"armor": d["armor"], "enemy_hd": a["hd"], "armor_quality": d["armor_quality"]}
            return BlowOdds("defend", params, ("hit", "fumble", "armor_breaks"))
        params = {"atk": a["atk"], "enemy_def": d["armor"], "weapon": a["weapon"]}
        params.update(two_hands=a["two_hands"], str_mod=a["str_mod"], quality=a["weapon_quality"])
        return BlowOdds("attack", params, ("critical", "hit"))

    # -- before round 1 ----------------------------------------------------------------------
    @override
    def begin(self, fight: RollUnderAtkFight, rng: random.Random) -> None:
        names = fight.side_names()
        facts = {side: _side_facts(members) for side, members in fight.sides.items()}
        party = [s for s in names if facts[s][0]]
        us = party[0] if len(party) == 1 else names[0]
        them = fight.other(us)
        lit = {s: facts[s][1] for s in names}
        roll = draw_die(rng, 6)
        fight.state.surprise = None
        if roll == 1 and not (lit[us] and not lit[them]):
            fight.state.surprise = us
        elif roll == 6 and not (lit[them] and not lit[us]):
            fight.state.surprise = them
        who = fight.state.surprise
        if not fight.quiet:
            key = "log.ru.surprise" if who else "log.ru.no_surprise"
            fight.say(key, side=us, roll=roll, who=who or "")
        fight.state.start = {s: (len(m), facts[s][2]) for s, m in fight.sides.items()}

    # -- one round ---------------------------------------------------------------------------
    @override
    def play_round(self, fight: RollUnderAtkFight, rng: random.Random) -> None:
        if self._morale(fight, rng) and fight.decided():  # only a broken side can end it
            return
        for actor in self.initiative_order(fight, rng):
            # only a fall can end the fight mid-round, so decided() is asked after one
            if actor.out is None and self._act(fight, actor, rng) and fight.decided():
                return

    def _morale(self, fight: RollUnderAtkFight, rng: random.Random) -> bool:
        """Each side's morale check, once for each reason; True when anyone broke."""
        sides = fight.state.morale_sides
        if sides is None:  # only sides with someone who can break ever check
            sides = [
                side for side, members in fight.sides.items() if any(_can_break(c) for c in members)
            ]
            fight.state.morale_sides = sides
            fight.state.morale_spent = {side: set() for side in sides}
        settled = []
        anyone_broke = False
        for side in sides:
            active = fight.active(side)
            checkers = [c for c in active if _can_break(c)]
            if not checkers:  # nobody who can break is left, and nobody comes back
                settled.append(side)
                continue
            spent = fight.state.morale_spent[side]
            count, hp = fight.state.start[side]
            fresh = []  # reasons that hold now and have not called for a check yet
            if "outnumbered" not in spent and len(active) < len(fight.active(fight.other(side))):
                fresh.append("outnumbered")
            if "half" not in spent and (
                2 * len(active) <= count or 2 * sum(c.hp for c in active) <= hp
            ):
                fresh.append("half")
            if not fresh:
                continue
            spent.update(fresh)
            if len(spent) == len(_MORALE_REASONS):
                settled.append(side)  # both reasons spent: this side never checks again
            a, b = draw_die(rng, 6), draw_die(rng, 6)
            broke = []
            for c in checkers:
                if a + b > c.stats["morale"]:
                    c.out = "fled" if c.stats["on_break"] == "flee" else "surrendered"
                    broke.append(c.name)
                    anyone_broke = True
            if not fight.quiet:
                why = Joined("log.sep.and", tuple(Message(f"log.ru.why_{r}") for r in fresh))
                verdict = (
                    Message("log.ru.lose_heart", {"count": len(broke), "names": ", ".join(broke)})
                    if broke
                    else Message("log.ru.they_hold")
                )
                fight.say("log.ru.morale", side=side, why=why, total=a + b, verdict=verdict)
        if settled:  # later rounds skip them
            fight.state.morale_sides = [side for side in sides if side not in settled]
        return anyone_broke

    def initiative_order(self, fight: RollUnderAtkFight, rng: random.Random) -> list[Fighter]:
        # who rolls for the party and who does not is the same all fight: split once
        """Who acts this round, in order."""
        roster = fight.state.roster
        if roster is None:
            everyone = fight.everyone()
            roster = (
                [c for c in everyone if _rolls_for_party(c)],
                [c for c in everyone if not _rolls_for_party(c)],
            )
            fight.state.roster = roster
        ambush = fight.state.surprise if fight.round == 1 else None
        if ambush:
            active = [c for c in fight.everyone() if c.out is None]
            first = [c for c in active if c.side == ambush]
            return first + [c for c in active if c.side != ambush]
        rollers = [c for c in roster[0] if c.out is None]
        middle = [c for c in roster[1] if c.out is None]
        # monsters act between the characters who made their check and those who did not;
        # with no characters the monsters roll themselves
        if not rollers:
            rollers, middle = middle, []
        before: list[tuple[int, int, Fighter]] = []
        after: list[tuple[int, int, Fighter]] = []
        for i, (c, roll) in enumerate(zip(rollers, draw_dice(rng, 20, len(rollers)), strict=True)):
            (before if roll <= c.stats["wis"] else after).append((roll, i, c))
        # lowest roll first, then in listed order; places differ, so no two entries tie
        before.sort()
        after.sort()
        order = [c for _, _, c in before] + middle + [c for _, _, c in after]
        if not fight.quiet:
            fight.say(
                "log.ru.initiative", rolls=", ".join(f"{c.name} {r}" for r, _, c in before + after),
                order=", ".join(c.name for c in order),
            )  # fmt: skip
        return order

    # -- actions -----------------------------------------------------------------------------
    def _weapon(self, c: Fighter) -> str:
        return "fists" if c.state.weapon_ruined else str(c.stats["weapon"])

    def _act(self, fight: RollUnderAtkFight, actor: Fighter, rng: random.Random) -> bool:
        """One action by ``actor``; True when it put its target out of the fight."""
        if actor.state.reloading:
            actor.state.reloading = False
            fight.say("log.ru.reload", name=actor.name)
            return False
        target = fight.target_for(actor)
        if target is None:
            return False
        surprise = 4 if fight.round == 1 and fight.state.surprise == actor.side else 0
        if actor.stats["kind"] == "monster" and target.stats["kind"] != "monster":
            self._defend(fight, actor, target, surprise, rng)
        else:
            self._attack(fight, actor, target, surprise, rng)
        if actor.stats["weapon"] == "crossbow" and not actor.state.weapon_ruined:
            actor.state.reloading = True  # (see _weapon)
        return target.out is not None

    def _attack(
        self,
        fight: RollUnderAtkFight,
        actor: Fighter,
        target: Fighter,
        bonus: int,
        rng: random.Random,
    ) -> None:
        weapon_name = self._weapon(actor)
        weapon = rules.WEAPONS[weapon_name]
        atk = actor.stats["atk"] + bonus + weapon.atk - actor.state.atk_penalty
        number = atk - (target.stats["armor"] - target.state.armor_breaks)
        roll = draw_die(rng, 20)
        # Monte Carlo runs never read the head
        head = None if fight.quiet else _head("log.ru.attacks", actor, target, roll, number)
        if roll == 20:
            self._weapon_breakage(fight, actor, head, rng)
        elif roll == 1 or roll <= number:
            self._wound(fight, actor, weapon_name, target, head, roll == 1, rng)
        elif not fight.quiet:
            fight.say("log.ru.miss", head=head)

    def _defend(
        self,
        fight: RollUnderAtkFight,
        monster: Fighter,
        target: Fighter,
        bonus: int,
        rng: random.Random,
    ) -> None:
        def_score = 10 + target.stats["armor"] - target.state.armor_breaks
        number = def_score - monster.stats["hd"] - bonus
        roll = draw_die(rng, 20)
        head = None if fight.quiet else _head("log.ru.defends", monster, target, roll, number)
        if roll == 1 or (roll != 20 and roll <= number):
            if not fight.quiet:
                fight.say("log.ru.critical_defence" if roll == 1 else "log.ru.blocked", head=head)
            return
        self._wound(fight, monster, self._weapon(monster), target, head, False, rng)
        if roll == 20:
            self._armor_breakage(fight, target, rng)

    def _wound(
        self,
        fight: RollUnderAtkFight,
        actor: Fighter,
        weapon_name: str,
        target: Fighter,
        head: Message | None,
        critical: bool,
        rng: random.Random,
    ) -> None:
        """``actor`` hits ``target`` with ``weapon_name`` (its own weapon, or fists once broken)."""
        s = actor.stats
        dice = actor.state.damage
        if dice is not None and weapon_name == s["weapon"]:
            rolled = dice.roll(rng) + (draw_die(rng, dice.sides) if critical and dice.count else 0)
            dealt = max(0, rolled)
        else:
            weapon = rules.WEAPONS[weapon_name]
            die = weapon.two_hands_die if s["two_hands"] and weapon.two_hands_die else weapon.die
            faces = 1 + (1 if critical else 0)
            if not die:
                rolled = 1
            else:
                rolled = draw_die(rng, die) if faces == 1 else sum(draw_dice(rng, die, faces))
            dealt = max(0, rolled + (s["str_mod"] if weapon.strength else 0))
        before = target.hp
        target.hp = max(0, target.hp - dealt)
        if not fight.quiet:
            fight.say(
                "log.ru.critical" if critical else "log.ru.hit", head=head, dealt=dealt,
                target=target.name, before=before, after=target.hp,
            )  # fmt: skip
        if target.hp == 0:
            target.out = "dead" if target.stats["kind"] == "monster" else "down"
            if not fight.quiet:
                dies = target.out == "dead"
                fight.say("log.ru.dies" if dies else "log.ru.goes_down", name=target.name)

    def _weapon_breakage(
        self, fight: RollUnderAtkFight, actor: Fighter, head: Message | None, rng: random.Random
    ) -> None:
        weapon = self._weapon(actor)
        if weapon == "fists":
            fight.say("log.ru.clumsy", head=head)
            return
        quality = actor.stats["weapon_quality"]
        b, broke = roll_breakage(rng, quality)
        if not broke:
            fight.say("log.ru.weapon_holds", head=head, die=b)
            return
        breaks = actor.state.weapon_breaks + 1
        actor.state.weapon_breaks = breaks
        if quality == "masterwork" and breaks == 1:
            actor.state.atk_penalty = 1
            fight.say("log.ru.weapon_damaged", head=head, die=b)
        else:
            actor.state.weapon_ruined = True
            actor.state.atk_penalty = 0
            actor.state.reloading = False
            fight.say("log.ru.weapon_breaks", head=head, die=b, name=actor.name)

    def _armor_breakage(
        self, fight: RollUnderAtkFight, target: Fighter, rng: random.Random
    ) -> None:
        left = target.stats["armor"] - target.state.armor_breaks
        if left <= 0:
            return
        b, broke = roll_breakage(rng, target.stats["armor_quality"])
        if broke:
            target.state.armor_breaks += 1
            key = "log.ru.armour_useless" if left == 1 else "log.ru.armour_cracks"
            fight.say(key, name=target.name, die=b)
        else:
            fight.say("log.ru.armour_holds", name=target.name, die=b)
