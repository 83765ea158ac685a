"""Exact hit chances for every attacker/defender pair of a ``combat`` block, at build time.

Each system's ``attack`` (or, for a roll-under-atk monster striking a character, ``defend``)
procedure gives the exact odds; this module only knows which stat-block fields feed which
procedure parameters, the way each system's fight code uses them, and which outcomes mean
that the blow lands. The page then shows the chances without starting the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["PairOdds", "pair_odds"]

Stats = dict[str, Any]


@dataclass(frozen=True)
class PairOdds:
    """One attacker against one defender: the chance the blow lands and every outcome."""

    hit: Fraction
    outcomes: dict[str, Fraction]
    procedure: str


def _scars(a: Stats, d: Stats) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    # the fight lets each roller use Scars in the most useful way ("best")
    return (
        "attack",
        {"attribute": a["attack"], "ac": d["ac"], "scars": a["scars"], "shift": "best"},
        ("stun", "hit"),
    )


def _grit_flesh(a: Stats, d: Stats) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    return "attack", {"violence": a["violence"], "defense": d["defense"]}, ("critical_hit", "hit")


_SW_HARMLESS = ("no_damage",)


def _stamina_wounds(a: Stats, d: Stats) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    # every attack connects; "lands" here means it gets past the armour (AV)
    params = {
        "weapon": a["weapon"],
        "slots": a["slots"],
        "av": d["av"],
        "stamina": d["stamina"],
        "wounds": d["wounds"],
        "max_wounds": d["max_wounds"],
    }
    return "attack", params, _SW_HARMLESS


def _dark_dungeons(a: Stats, d: Stats) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    params = {
        "attack_bonus": a["attack_bonus"],
        "hit_bonus": a["hit_bonus"],
        "ac": d["ac"],
        "speed": a["speed"],
        "target_speed": d["speed"],
        "smash": a["smash"],
    }
    return "attack", params, ("hit",)


def _roll_under_atk(a: Stats, d: Stats) -> tuple[str, dict[str, Any], tuple[str, ...]]:
    # Rolls face the players: a monster's blow on a character is the character's defence roll.
    if a["kind"] == "monster" and d["kind"] != "monster":
        params = {"armor": d["armor"], "enemy_hd": a["hd"], "armor_quality": d["armor_quality"]}
        return "defend", params, ("hit", "fumble", "armor_breaks")
    params = {
        "atk": a["atk"],
        "enemy_def": d["armor"],
        "weapon": a["weapon"],
        "two_hands": a["two_hands"],
        "str_mod": a["str_mod"],
        "quality": a["weapon_quality"],
    }
    return "attack", params, ("critical", "hit")


_MAPPINGS: dict[str, Callable[[Stats, Stats], tuple[str, dict[str, Any], tuple[str, ...]]]] = {
    "scars": _scars,
    "grit-flesh": _grit_flesh,
    "stamina-wounds": _stamina_wounds,
    "dark-dungeons": _dark_dungeons,
    "roll-under-atk": _roll_under_atk,
}


def pair_odds(system: Any, attacker: Stats, defender: Stats) -> PairOdds | None:
    """The exact chance that ``attacker``'s ordinary attack lands on ``defender``.

    Args:
        system: The `rollbook.engine.systems.base.System`.
        attacker: The attacker's bound stats (`Combatant.stats`).
        defender: The defender's bound stats.

    Returns:
        The odds, or ``None`` for a system without a mapping or odds the engine cannot give.
    """
    mapping = _MAPPINGS.get(system.id)
    if mapping is None:
        return None
    name, params, landing = mapping(attacker, defender)
    try:
        procedure = system.procedure(name)
        odds = procedure.odds(
            {k: v for k, v in params.items() if k in {p.name for p in procedure.params}}
        )
    except ValueError:  # e.g. a broken weapon: no chance to show, not a page error
        return None
    if odds is None:
        return None
    if landing is _SW_HARMLESS:
        hit = 1 - sum((odds.get(n, Fraction(0)) for n in landing), Fraction(0))
    else:
        hit = sum((odds.get(n, Fraction(0)) for n in landing), Fraction(0))
    return PairOdds(hit=hit, outcomes=dict(odds), procedure=name)
