"""Stamina & Wounds fights: the hooks the shared encounter resolver calls."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, override

from rollbook.engine.messages import Joined, Message
from rollbook.engine.systems.base import (
    Combatant,
    CombatantState,
    FightState,
    Param,
    RulesError,
    System,
)
from rollbook.engine.systems.blow import BlowOdds
from rollbook.engine.systems.dice import roll_die
from rollbook.engine.systems.mechanics import attr_param, dice_param, kind_param
from rollbook.engine.systems.stamina_wounds.procedures import (
    roll_damage,
    weapon_die,
    wound_extras,
)
from rollbook.engine.systems.stamina_wounds.rules import take_damage

if TYPE_CHECKING:
    from rollbook.engine.systems.encounter import Fight

__all__ = [
    "FIELDS",
    "StaminaWoundsFightState",
    "StaminaWoundsState",
    "StaminaWoundsSystem",
]


FIELDS: tuple[Param, ...] = (
    kind_param(),
    Param("stamina", int, 0, "Stamina (lost first)", minimum=0, maximum=1000),
    Param("max_wounds", int, None, "Max Wounds (death when reached)", minimum=1, maximum=1000),
    Param("wounds", int, 0, "Wounds already taken", minimum=0, maximum=1000),
    Param("av", int, 0, "Armor Value", minimum=0, maximum=40),
    dice_param("weapon", "the weapon's damage die", "d6"),
    Param("slots", int, 1, "slots the weapon fills (explosion cap)", minimum=1, maximum=3),
    attr_param("wil", "WIL (a pc's morale saves)"),
    Param("target", int, 10, "Target (saves against this creature)", minimum=-20, maximum=60),
    Param("leader", bool, False, "the side's leader"),
    Param("ambush", bool, False, "this side caught the other unaware"),
)


@dataclass(slots=True)
class StaminaWoundsState(CombatantState):
    """One combatant's running numbers in a Stamina & Wounds fight."""

    stamina: int = 0
    wounds: int = 0
    usage: int = 0  # Usage marked on the weapon (a 1 on a damage die)
    bleeding: bool = False  # one more Wound at the end of every round
    dying_in: int | None = None  # rounds left after a mortal wound (None: none taken)
    sides: int = 6  # the weapon's one die (the stat block's ``weapon``)

    @classmethod
    @override
    def start(cls, stats: dict[str, Any]) -> StaminaWoundsState:
        sides = weapon_die(stats["weapon"])
        return cls(stamina=stats["stamina"], wounds=stats["wounds"], sides=sides)


@dataclass(slots=True)
class StaminaWoundsFightState(FightState):
    """What a Stamina & Wounds fight keeps between rounds."""

    players: str = ""  # the side of the player characters
    enemies: str = ""
    ambush: str | None = None  # the side that caught the other unaware
    broken: dict[str, bool] = field(default_factory=dict)  # side -> "half of them down" used up


if TYPE_CHECKING:
    StaminaWoundsFight = Fight[StaminaWoundsState, StaminaWoundsFightState]
    Fighter = Combatant[StaminaWoundsState]


class StaminaWoundsSystem(System[StaminaWoundsState, StaminaWoundsFightState]):
    """Hooks for the encounter resolver (the package docstring sums up the rules)."""

    @override
    def blow_odds(self, attacker: dict[str, Any], defender: dict[str, Any]) -> BlowOdds:
        # every attack connects; "lands" here means it gets past the armour (AV)
        a, d = attacker, defender
        params = {"weapon": a["weapon"], "slots": a["slots"], "av": d["av"]}
        params.update({k: d[k] for k in ("stamina", "wounds", "max_wounds")})
        return BlowOdds("attack", params, ("no_damage",), lands_unless=True)

    @override
    def make_combatant(self, side: str, data: Any) -> Fighter:
        c = super().make_combatant(side, data)
        if c.stats["wounds"] >= c.stats["max_wounds"]:
            raise RulesError(f"{c.name} starts with Wounds at Max Wounds (already dead).")
        return c

    @override
    def starting_hp(self, stats: dict[str, Any]) -> int:
        return int(stats["stamina"]) + int(stats["max_wounds"]) - int(stats["wounds"])

    @override
    def status(self, combatant: Fighter) -> dict[str, Any]:
        st, stats = combatant.state, combatant.stats
        return {
            "stamina": st.stamina,
            "wounds": st.wounds,
            "max_wounds": stats["max_wounds"],
            "av": stats["av"],
            "usage": st.usage,
            "bleeding": st.bleeding,
            "dying_in": st.dying_in,
        }

    # -- set-up -----------------------------------------------------------------------------
    @override
    def begin(self, fight: StaminaWoundsFight, rng: random.Random) -> None:
        names = list(fight.sides)
        with_pcs = [s for s in names if any(c.stats["kind"] == "pc" for c in fight.sides[s])]
        players = with_pcs[0] if len(with_pcs) == 1 else names[0]
        fight.state.players = players
        fight.state.enemies = fight.other(players)
        ambushers = [s for s in names if any(c.stats["ambush"] for c in fight.sides[s])]
        fight.state.ambush = ambushers[0] if len(ambushers) == 1 else None
        fight.state.broken = dict.fromkeys(names, False)
        if fight.state.ambush:
            fight.say("log.sw.ambush", side=fight.state.ambush)

    # -- one round --------------------------------------------------------------------------
    @override
    def play_round(self, fight: StaminaWoundsFight, rng: random.Random) -> None:
        players, enemies = fight.state.players, fight.state.enemies
        ambush = fight.state.ambush if fight.round == 1 else None
        if ambush:
            first = ambush
        else:
            roll = roll_die(rng, 6)
            first = players if roll <= 3 else enemies
            if not fight.quiet:
                fight.say("log.sw.initiative", roll=roll, side=first)
        points: list[Message] = []
        if ambush == players:
            points.append(Message("log.sw.why_ambushed"))
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
        self,
        fight: StaminaWoundsFight,
        rng: random.Random,
        c: Fighter,
        sneak: bool,
        points: list[Message],
    ) -> None:
        foe = fight.target_for(c)
        if foe is None:
            return
        s = c.stats
        sides = c.state.sides
        faces, booms, fumble = roll_damage(rng, sides, s["slots"], "none", sneak)
        raw = sum(faces)
        dealt = max(0, raw - foe.stats["av"])
        if fumble:
            c.state.usage += 1
        head = (
            None
            if fight.quiet
            # Monte Carlo runs never read it
            else Message(
                "log.sw.sneak" if sneak else "log.sw.attack",
                {
                    "name": c.name,
                    "foe": foe.name,
                    "sides": sides,
                    "faces": "+".join(map(str, faces)),
                    "av": foe.stats["av"],
                    "dealt": dealt,
                    "explodes": Message("log.sw.explodes") if booms else "",
                    "usage": Message("log.sw.usage") if fumble else "",
                },
            )
        )
        self._harm(fight, rng, foe, dealt, head, points)

    def _harm(
        self,
        fight: StaminaWoundsFight,
        rng: random.Random,
        foe: Fighter,
        amount: int,
        head: Message | None,
        points: list[Message],
    ) -> None:
        stamina, wounds, _, name = take_damage(
            amount, foe.state.stamina, foe.state.wounds, foe.stats["max_wounds"]
        )
        foe.state.stamina, foe.state.wounds = stamina, wounds
        foe.hp = stamina + foe.stats["max_wounds"] - wounds
        extra, _ = wound_extras(name, rng)
        if name == "dead":
            foe.out = "dead"
            self._fallen(fight, foe, points)
        elif name == "bleeding":
            foe.state.bleeding = True
        elif name == "mortal" and foe.state.dying_in is None:
            foe.state.dying_in = extra["rounds"]
        if not fight.quiet:
            said = Message(f"log.sw.band_{name}", {"count": extra.get("rounds", 0), **extra})
            fight.say(
                "log.sw.harm", head=head, stamina=stamina, wounds=wounds,
                max_wounds=foe.stats["max_wounds"], said=said,
            )  # fmt: skip

    def _fallen(self, fight: StaminaWoundsFight, c: Fighter, points: list[Message]) -> None:
        members = fight.sides[c.side]
        if c.side != fight.state.enemies:
            return
        if c.stats["leader"]:
            points.append(Message("log.sw.why_leader", {"name": c.name}))
        if not fight.state.broken[c.side] and 2 * sum(not m.active for m in members) >= len(
            members
        ):
            fight.state.broken[c.side] = True
            points.append(Message("log.sw.why_half"))

    def _tick(self, fight: StaminaWoundsFight, rng: random.Random, points: list[Message]) -> None:
        """End of round: bleeding costs a Wound, mortal wounds count down."""
        for c in fight.everyone():
            if c.out is not None:
                continue
            if c.state.bleeding:
                c.state.wounds += 1
                c.hp -= 1
                if c.state.wounds >= c.stats["max_wounds"]:
                    c.out = "dead"
                    fight.say("log.sw.bleeds_out", name=c.name)
                    self._fallen(fight, c, points)
                    continue
                fight.say(
                    "log.sw.bleeds", name=c.name, wounds=c.state.wounds,
                    max_wounds=c.stats["max_wounds"],
                )  # fmt: skip
            if c.state.dying_in is not None:
                c.state.dying_in -= 1
                if c.state.dying_in <= 0:
                    c.out = "dead"
                    fight.say("log.sw.succumbs", name=c.name)
                    self._fallen(fight, c, points)

    def _morale(self, fight: StaminaWoundsFight, rng: random.Random, points: list[Message]) -> None:
        players, enemies = fight.state.players, fight.state.enemies
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
        breaks = total >= leader.stats["target"]
        if breaks:
            for f in foes:
                f.out = "fled"
        fight.say(
            "log.sw.breaking_runs" if breaks else "log.sw.breaking_holds",
            why=Joined("log.sep.semicolon", tuple(points)), die=die, wil=wil, total=total,
            leader=leader.name, target=leader.stats["target"],
        )  # fmt: skip
