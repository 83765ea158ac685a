"""What the engine says to a reader: a stable key, its arguments, and the English text.

A sentence a reader may see in the browser (a dice error, a line of a fight's log) is a
`Message`: a catalogue key (``error.*``, ``log.*``, ``stat.*``) and its arguments. The engine speaks
English by itself (`Message.english`: the command line, build messages for authors); the
page says the same message in the reader's language from the site's catalogue, where the
other languages' texts of these keys live (``rollbook/language/strings/*.json``; the
English ones are `ENGLISH`, their only home). The engine imports nothing of the catalogue,
so it runs the same in CPython and Pyodide.

Arguments are text, whole numbers (`Grouped` for one English writes ``5,000,000``; the page
writes every number as the reader's language does), another `Message` (a part said in the
reader's language too: ``the other side fled``) or a `Joined` list of them (``A, then B``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rollbook.engine.record import record

__all__ = ["ENGLISH", "Grouped", "Joined", "Message", "english"]

#: A template with ``{name}`` placeholders, or its plural forms (``one``/``other``) when it
#: has a ``{count}``.
Template = str | dict[str, str]

ENGLISH: dict[str, Template] = {
    # -- what a reader's roll may be refused with: dice notation, odds, prompt values, no row,
    # -- the bridge (the page says them as sentences: a capital first, a full stop at the end)
    "error.dice.found": "found '{char}'",
    "error.dice.found_end": "the notation ends",
    "error.dice.empty": "The notation is empty.",
    "error.dice.too_long": "The notation is longer than {limit} characters.",
    "error.dice.not_text": "Dice notation must be text, not {type}.",
    "error.dice.too_deep": "The notation nests more than {limit} levels deep.",
    "error.dice.signs": "More than {limit} signs in a row.",
    "error.dice.unmatched_paren": "There is a ')' without a matching '('.",
    "error.dice.unmatched_brace": "There is a '}' without a matching '{'.",
    "error.dice.modifier_space": (
        "Unexpected '{char}': modifiers must follow their dice with no space."
    ),
    "error.dice.unexpected": "Unexpected '{char}': expected an operator (+ - * / % **) or the end.",
    "error.dice.ends_early": "The notation ends too early: expected a number, dice, '(' or '{'.",
    "error.dice.close_paren": "Expected ')' to close the '(' at column {column}, but {found}.",
    "error.dice.expected_term": "Expected a number, dice, '(' or '{', but {found}.",
    "error.dice.no_dice": "The number of dice must be 1 or more.",
    "error.dice.too_many_dice": "{qty} dice in one roll is more than the limit of {limit}.",
    "error.dice.decimal": "A decimal point must be followed by digits.",
    "error.dice.sides_expected": "Expected the number of sides after 'd', but {found}.",
    "error.dice.no_sides": "A die needs 1 or more sides (written without a leading 0).",
    "error.dice.too_many_sides": "A die with {sides} sides is more than the limit of {limit}.",
    "error.dice.total_dice": "The notation rolls more than {limit} dice in all.",
    "error.dice.rolled_dice": (
        "The notation could roll more than {limit} dice in all, counting up to {explosions} "
        "explosions per exploding die."
    ),
    "error.dice.close_group": (
        "Expected ',' or '}' to close the group at column {column}, but {found}."
    ),
    "error.dice.unknown_word": (
        "Unknown word '{word}': expected dice such as 2d6, a number or a function ({functions})."
    ),
    "error.dice.function_paren": "Expected '(' after the function name '{name}'.",
    "error.dice.function_close": "Expected ')' to close '{name}(', but {found}.",
    "error.dice.function_args": "The function '{name}' takes {want}, not {given}.",
    "error.dice.arguments": {
        "one": "{count} argument",
        "other": "{count} arguments",
    },
    "error.dice.compare_number": "Expected a number after '{op}' in {what}.",
    "error.dice.compare_needed": "Expected a compare point (such as >=5) in {what}.",
    "error.dice.what_explosion": "an explosion",
    "error.dice.what_reroll": "a re-roll",
    "error.dice.what_unique": "a unique modifier",
    "error.dice.what_critical": "a critical modifier",
    "error.dice.what_success": "success counting",
    "error.dice.what_failure": "failure counting",
    "error.dice.count_needed": "Expected a count of 1 or more after '{what}'.",
    "error.dice.group_modifier": (
        "Only keep/drop, success counting and sorting apply to a roll group."
    ),
    "error.dice.clamp_number": "Expected a number after '{kind}'.",
    "error.dice.failure_order": "Failure counting (f<3) must follow a success compare point (>=8).",
    "error.dice.single_face": "A die with a single possible value cannot explode or be re-rolled.",
    "error.dice.explode_forever": (
        "Every face matches '{compare}', so the dice would explode forever."
    ),
    "error.dice.reroll_forever": (
        "Every face matches '{compare}', so the dice would be re-rolled forever."
    ),
    "error.dice.unique_explode": "Unique dice cannot also explode into extra dice (use '!!').",
    "error.dice.unique_faces": (
        "{qty} unique dice need at least {qty} different faces, but the die has {faces}."
    ),
    "error.dice.label_open": "The label starting with '[' has no closing ']'.",
    "error.dice.comment_open": "The comment starting with '/*' has no closing '*/'.",
    "error.dice.placeholder_missing": "No value was given for the placeholder '{name}'.",
    "error.dice.placeholder_not_whole": (
        "The placeholder '{name}' needs a whole number, not {value}."
    ),
    "error.dice.placeholder_unfilled": (
        "The placeholder '{name}' has no value; fill it before rolling."
    ),
    "error.dice.fill_before_rolling": "Fill the placeholders before rolling: {names}.",
    "error.dice.fill_before_odds": "Fill the placeholders before computing odds: {names}.",
    "error.dice.value_bits": "A value grows beyond {bits} bits; the notation is too large.",
    "error.dice.power_bits": "A power grows beyond {bits} bits; the notation is too large.",
    "error.dice.division_by_zero": "Division by zero.",
    "error.dice.exponent_limit": "The exponent {exponent} is larger than the limit of {limit}.",
    "error.dice.zero_negative_power": "Zero cannot be raised to a negative power.",
    "error.dice.negative_root": "A negative number has no real fractional power.",
    "error.dice.inexact_power": "A fractional power must have an exact value here.",
    "error.dice.negative_sqrt": "The square root of a negative number is not a real number.",
    "error.odds.work": (
        "The exact odds of this notation would take more than {cap} steps to work out (the "
        "odds_work limit); use fewer or smaller dice, or fewer divisions."
    ),
    "error.odds.outcomes": "The exact odds would have more than {limit} different totals.",
    "error.odds.combinations": (
        "The exact odds need too many combinations ({left} x {right} values)."
    ),
    "error.odds.too_large": (
        "The exact odds of this notation are too large to compute quickly; use fewer or smaller "
        "dice."
    ),
    "error.odds.too_many_dice": (
        "The exact odds of {qty} such dice are too large to compute quickly; use fewer or smaller "
        "dice."
    ),
    "error.odds.exploding": (
        "The exact odds of exploding d{sides} dice are too large to compute quickly."
    ),
    "error.odds.keep_drop": (
        "Exact odds for keeping or dropping among this many dice (or faces) would take too long to"
        " compute; use fewer or smaller dice."
    ),
    "error.odds.explode_keep": (
        "Exact odds are not available for exploding dice that are also kept or dropped together "
        "with re-rolls, min/max or penetration."
    ),
    "error.odds.unique": (
        "Exact odds are not available for these unique dice: too many combinations."
    ),
    "error.odds.unique_enumerate": (
        "Exact odds for these unique dice need too many combinations to enumerate."
    ),
    "error.odds.group_keep": (
        "Exact odds are not available for keep/drop inside a one-item roll group unless the item "
        "only adds dice and numbers."
    ),
    "error.odds.group_success": (
        "Exact odds are not available for success counting on a one-item roll group with keep/drop."
    ),
    "error.odds.comma": (
        "The exact odds of this comma roll would have more than {limit} different results."
    ),
    "error.too_deep": "That expression is nested too deeply.",
    "error.memory": "That roll needs more memory than a page has.",
    "error.failed": "The engine failed on this request ({name}).",
    "error.prompt.not_whole": "prompt '{name}' needs a whole number, not {value}",
    "error.prompt.empty": "prompt '{name}' ({label}) needs a value",
    "error.prompt.not_number": (
        "prompt '{name}' needs a whole number from {low} to {high}, not {value}"
    ),
    "error.prompt.range": "prompt '{name}' must be from {low} to {high}, not {value}",
    "error.table.no_row": "No row for {value}.",
    "error.table.no_prompt": "this table has no prompt '{name}' (its prompts: {names})",
    "error.table.too_deep": "table references nest deeper than {limit} levels",
    "error.table.missing_ref": "the table '{ref}' that this row rolls is not available",
    # -- the fight log, every system (rollbook.engine.systems.encounter)
    "log.line": "R{round}: {text}",
    "log.over": {
        "one": "Fight over after {count} round; winner: {winner} ({reason}).",
        "other": "Fight over after {count} rounds; winner: {winner} ({reason}).",
    },
    "log.nobody": "nobody",
    "log.reason.defeated": "defeated",
    "log.reason.fled": "fled",
    "log.reason.surrendered": "surrendered",
    "log.reason.stalemate": "stalemate",
    # -- Dark Dungeons (rollbook.engine.systems.dark_dungeons.combat)
    "log.dd.side_rolls": "{side} rolls {roll}",
    "log.dd.surprise_one": "Surprise: {rolls}. {side} is caught off guard and loses round 1.",
    "log.dd.surprise_both": (
        "Surprise: {rolls}; both sides are surprised, so round 1 is a normal round."
    ),
    "log.dd.surprise_none": "Surprise: {rolls}; nobody is surprised, so round 1 is a normal round.",
    "log.dd.flees": "{name} flees",
    "log.dd.gives_up": "{name} gives up",
    "log.dd.all_hold": "all hold",
    "log.dd.morale": "Morale ({names}): 2d6 = {total}; {verdict}.",
    "log.dd.tier.win": "{who} (always first)",
    "log.dd.tier.none": "{who} (no roll needed)",
    "log.dd.tier.lose": "{who} (always last)",
    "log.dd.init_roll": "{who} {roll}",
    "log.dd.init_mod": "{who} {roll}{mod}={total}",
    "log.dd.initiative": "Initiative: {order}.",
    "log.dd.too_slow": "{name} is too slow to attack this round.",
    "log.dd.miss": "{name} attacks {target}: d20 {roll}, needs {needs}: miss.",
    "log.dd.miss_smash": "{name} smashes at {target}: d20 {roll}, needs {needs}: miss.",
    "log.dd.miss_off": "{name} strikes off-hand at {target}: d20 {roll}, needs {needs}: miss.",
    "log.dd.hit": (
        "{name} attacks {target}: d20 {roll}, needs {needs}: hit for {dealt} ({dice} rolled "
        "{rolled}{bonus}); {target} {before} -> {after} hp."
    ),
    "log.dd.hit_smash": (
        "{name} smashes at {target}: d20 {roll}, needs {needs}: hit for {dealt} ({dice} rolled "
        "{rolled}{bonus}); {target} {before} -> {after} hp."
    ),
    "log.dd.hit_off": (
        "{name} strikes off-hand at {target}: d20 {roll}, needs {needs}: hit for {dealt} ({dice} "
        "rolled {rolled}{bonus}); {target} {before} -> {after} hp."
    ),
    "log.dd.dying": "{name} falls unconscious and is dying.",
    "log.dd.slain": "{name} is slain.",
    "log.dd.save_holds": "{name} saves vs death ray: d20 {roll}{minus} against {save}: holds on.",
    "log.dd.save_dies": "{name} saves vs death ray: d20 {roll}{minus} against {save}: dies.",
    # -- more than one system
    "log.unaware": "{name} is caught unaware and loses round 1.",
    # -- Scars (rollbook.engine.systems.scars.combat)
    "log.scars.moved": "{raw} moved to {used} by Scars",
    "log.scars.init_quick_action": (
        "{name} rolls {roll} vs Agility {agility}: goes first, with a quick action before blows "
        "fall."
    ),
    "log.scars.init_before": "{name} rolls {roll} vs Agility {agility}: goes before the enemies.",
    "log.scars.init_after": "{name} rolls {roll} vs Agility {agility}: goes after the enemies.",
    "log.scars.reeling": "{name} is still reeling and loses this action.",
    "log.scars.wrecked": (
        "{name} rolls {roll} vs {foe}'s AC {ac} exactly: the armour is wrecked (AC 0)."
    ),
    "log.scars.dented": (
        "{name} rolls {roll} vs {foe}'s AC {ac} exactly: no damage, armour dented to AC {dented}."
    ),
    "log.scars.miss": "{name} rolls {roll} (needs {low}-{attack}) and misses {foe}.",
    "log.scars.hit": "{name} rolls {roll} and hits {foe} for {dealt} ({hp}/{max_hp} left).",
    "log.scars.stun": (
        "{name} rolls {roll} and hits {foe} for {dealt} ({hp}/{max_hp} left); exactly {attack}: "
        "{foe} is stunned and {name} strikes again."
    ),
    "log.scars.falls_dead": "{name} falls dead.",
    "log.scars.drops_dies": "{name} drops, gains Scar {scars}, rolls {total} on 2d6 and dies.",
    "log.scars.drops_out": {
        "one": "{name} drops, gains Scar {scars}, rolls {total} on 2d6: out for {count} round.",
        "other": "{name} drops, gains Scar {scars}, rolls {total} on 2d6: out for {count} rounds.",
    },
    "log.scars.comes_round": "{name} comes round with 1 health.",
    "log.scars.led": "{side} (led by {leader})",
    "log.scars.morale_rallies": (
        "Morale for {who}: {roll} vs {target}: they rally (extra attack next round, no more tests)."
    ),
    "log.scars.morale_stands": "Morale for {who}: {roll} vs {target}: they hold.",
    "log.scars.morale_flees": "Morale for {who}: {roll} vs {target}: they break and run.",
    "log.scars.the_party": "the party",
    "log.scars.nerve_heroic": "{who} tests {name}'s nerve: {roll}, inspired to heroics.",
    "log.scars.nerve_holds": "{who} tests {name}'s nerve: {roll}, holds.",
    "log.scars.nerve_wavers": (
        "{who} tests {name}'s nerve: {roll}, wavers; {sp} sp more keeps them fighting."
    ),
    "log.scars.nerve_flees": "{who} tests {name}'s nerve: {roll}, and {name} runs for it.",
    # -- Grit & Flesh (rollbook.engine.systems.grit_flesh.combat)
    "log.gf.with_boon": " with a Boon",
    "log.gf.with_bane": " with a Bane",
    "log.gf.alert": "{name} saves vs Savvy{edge}: {die} + {savvy} -> alert.",
    "log.gf.surprised": "{name} saves vs Savvy{edge}: {die} + {savvy} -> surprised, loses round 1.",
    "log.gf.first": "{name} first",
    "log.gf.after": "{name} after",
    "log.gf.initiative": "Initiative: {order}.",
    "log.gf.initiative_both": "Initiative: {first}; {last}.",
    "log.gf.reload": "{name} spends the action fetching more ammunition.",
    "log.gf.head": "{name} rolls {die}{edge} + {violence} vs {foe}'s Defense {defense}",
    "log.gf.miss": "{head}: miss.",
    "log.gf.out_of_ammo": "{head}: natural 1, out of ammunition.",
    "log.gf.notch": "{head}: natural 1, the weapon takes a Notch ({notches} so far).",
    "log.gf.hit": "{head}: hit, {rolled} damage (Grit {grit}, Flesh {flesh}){note}.",
    "log.gf.critical": (
        "{head}: natural 20, straight to Flesh, {rolled} damage (Grit {grit}, Flesh {flesh}){note}."
    ),
    "log.gf.top_effect": "; top damage: weapon Notched, {foe} is {effect}",
    "log.gf.top_armour": "; top damage: weapon and armour Notched (Defense now {defense})",
    "log.gf.taken_out": "{name} is taken out.",
    "log.gf.bleeds": "{name} bleeds for {bleed} (Grit {grit}, Flesh {flesh}).",
    "log.gf.shakes_off": "{name} shakes off being {effect} (MIG {die} + {might}).",
    "log.gf.why_bleeds": "{name} bleeds for the first time",
    "log.gf.why_first": "{name} is the first to fall",
    "log.gf.why_leader": "their leader {name} falls",
    "log.gf.why_half": "half of them are down",
    "log.gf.holds": "{name} tests morale ({why}): {die} vs {limit} or less, holds.",
    "log.gf.gives_up": "{name} tests morale ({why}): {die}, pinned in place, gives up.",
    "log.gf.runs": "{name} tests morale ({why}): {die}, breaks and runs.",
    # -- Stamina & Wounds (rollbook.engine.systems.stamina_wounds.combat)
    "log.sw.ambush": "{side} catch the other side unaware.",
    "log.sw.initiative": "Initiative d6: {roll}, {side} go first.",
    "log.sw.why_ambushed": "ambushed",
    "log.sw.why_leader": "their leader {name} fell",
    "log.sw.why_half": "half of them are down",
    "log.sw.attack": (
        "{name}'s attack on {foe}: d{sides} {faces}{explodes} - AV {av} = {dealt}{usage}"
    ),
    "log.sw.sneak": (
        "{name}'s sneak attack on {foe}: d{sides} {faces}{explodes} - AV {av} = {dealt}{usage}"
    ),
    "log.sw.explodes": " (explodes)",
    "log.sw.usage": ", Usage marked",
    "log.sw.harm": "{head}: Stamina {stamina}, Wounds {wounds}/{max_wounds}, {said}.",
    "log.sw.band_no_damage": "no harm done",
    "log.sw.band_stamina": "Stamina soaks it",
    "log.sw.band_dead": "that is the last Wound: dead",
    "log.sw.band_pain": "pain and blood, nothing worse",
    "log.sw.band_gear": "the item in slot {slot} takes {usage} Usage",
    "log.sw.band_bleeding": "bleeding out",
    "log.sw.band_mortal": {
        "one": "mortally wounded: dead in {count} round unless healed",
        "other": "mortally wounded: dead in {count} rounds unless healed",
    },
    "log.sw.bleeds_out": "{name} bleeds out and dies.",
    "log.sw.bleeds": "{name} bleeds: Wounds {wounds}/{max_wounds}.",
    "log.sw.succumbs": "{name} succumbs to the mortal wound.",
    "log.sw.breaking_runs": (
        "Breaking point ({why}): WIL save {die} + {wil} = {total} vs {leader}'s Target {target}: "
        "the enemies break and run."
    ),
    "log.sw.breaking_holds": (
        "Breaking point ({why}): WIL save {die} + {wil} = {total} vs {leader}'s Target {target}: "
        "they hold."
    ),
    # -- Roll-under ATK (rollbook.engine.systems.roll_under_atk.combat)
    "log.ru.surprise": (
        "Surprise d6 for {side}: {roll}; {who} gets the drop (+4 ATK, acts first in round 1)."
    ),
    "log.ru.no_surprise": "Surprise d6 for {side}: {roll}; nobody is caught unawares.",
    "log.ru.why_outnumbered": "outnumbered",
    "log.ru.why_half": "down to half",
    "log.ru.lose_heart": {
        "one": "{names} loses heart",
        "other": "{names} lose heart",
    },
    "log.ru.they_hold": "they hold",
    "log.ru.morale": "Morale for {side} ({why}): 2d6 = {total}; {verdict}.",
    "log.ru.initiative": "Initiative (WIS): {rolls} -> {order}.",
    "log.ru.reload": "{name} reloads the crossbow.",
    "log.ru.attacks": "{name} attacks {target}: d20 {roll}, needs {needs} or less",
    "log.ru.defends": "{name} attacks {target}, who defends: d20 {roll}, needs {needs} or less",
    "log.ru.miss": "{head}: miss.",
    "log.ru.critical_defence": "{head}: critical defence.",
    "log.ru.blocked": "{head}: blocked.",
    "log.ru.hit": "{head}: hit; {dealt} damage, {target} {before} -> {after} HP.",
    "log.ru.critical": (
        "{head}: critical hit, an extra damage die; {dealt} damage, {target} {before} -> {after} "
        "HP."
    ),
    "log.ru.dies": "{name} dies.",
    "log.ru.goes_down": "{name} goes down.",
    "log.ru.clumsy": "{head}: natural 20, a clumsy miss.",
    "log.ru.weapon_holds": "{head}: natural 20; breakage d6 {die}, the weapon holds.",
    "log.ru.weapon_damaged": (
        "{head}: natural 20; breakage d6 {die}, the masterwork weapon is damaged (-1 ATK)."
    ),
    "log.ru.weapon_breaks": (
        "{head}: natural 20; breakage d6 {die}, the weapon breaks; {name} fights on with fists."
    ),
    "log.ru.armour_cracks": "{name}'s armour cracks on a fumbled defence (d6 {die}): -1 DEF.",
    "log.ru.armour_useless": (
        "{name}'s armour cracks on a fumbled defence (d6 {die}): -1 DEF, now useless."
    ),
    "log.ru.armour_holds": "{name}'s armour survives the fumbled defence (d6 {die}).",
    # -- the rule systems' stat labels (statblock cards, a fighter's status) and the values
    # -- of their choices (``combatant_fields`` of rollbook.engine.systems.*)
    "stat.kind": "Kind",
    "stat.health": "Health",
    "stat.attack": "Attack",
    "stat.ac": "AC",
    "stat.damage": "Damage",
    "stat.hd": "HD",
    "stat.agility": "Agility",
    "stat.cunning": "Cunning",
    "stat.scars": "Scars",
    "stat.leader": "Leader",
    "stat.surprised": "Surprised",
    "stat.grit": "Grit",
    "stat.flesh": "Flesh",
    "stat.defense": "Defense",
    "stat.violence": "Violence",
    "stat.savvy": "Savvy",
    "stat.might": "Might",
    "stat.tag": "Tag",
    "stat.ranged": "Ranged",
    "stat.morale": "Morale",
    "stat.loyalty": "Loyalty",
    "stat.armor": "Armor",
    "stat.wits": "Wits",
    "stat.surprise_save": "Surprise save",
    "stat.stealthy": "Stealthy",
    "stat.stamina": "Stamina",
    "stat.max_wounds": "Max wounds",
    "stat.wounds": "Wounds",
    "stat.av": "AV",
    "stat.weapon": "Weapon",
    "stat.slots": "Slots",
    "stat.wil": "WIL",
    "stat.target": "Target",
    "stat.ambush": "Ambush",
    "stat.hp": "HP",
    "stat.level": "Level",
    "stat.attack_bonus": "Attack bonus",
    "stat.hit_bonus": "Hit bonus",
    "stat.damage_bonus": "Damage bonus",
    "stat.attacks": "Attacks",
    "stat.speed": "Speed",
    "stat.initiative_mod": "Initiative mod",
    "stat.two_handed": "Two handed",
    "stat.auto_initiative": "Auto initiative",
    "stat.off_hand": "Off hand",
    "stat.off_hand_damage": "Off hand damage",
    "stat.smash": "Smash",
    "stat.strength": "Strength",
    "stat.on_break": "On break",
    "stat.death_save": "Death save",
    "stat.group": "Group",
    "stat.atk": "ATK",
    "stat.wis": "WIS",
    "stat.two_hands": "Two hands",
    "stat.str_mod": "Str mod",
    "stat.weapon_quality": "Weapon quality",
    "stat.armor_quality": "Armor quality",
    "stat.light": "Light",
    "stat.effects": "Effects",
    "stat.notches": "Notches",
    "stat.usage": "Usage",
    "stat.bleeding": "Bleeding",
    "stat.dying_in": "Dying in",
    "stat.value.bleeding": "bleeding",
    "stat.value.bow": "bow",
    "stat.value.crossbow": "crossbow",
    "stat.value.crushing": "crushing",
    "stat.value.dazed": "dazed",
    "stat.value.double-hasted": "double-hasted",
    "stat.value.double-slowed": "double-slowed",
    "stat.value.enemy": "enemy",
    "stat.value.fists": "fists",
    "stat.value.flee": "flee",
    "stat.value.fragile": "fragile",
    "stat.value.hasted": "hasted",
    "stat.value.heavy": "heavy",
    "stat.value.hireling": "hireling",
    "stat.value.improvised": "improvised",
    "stat.value.light": "light",
    "stat.value.lose": "lose",
    "stat.value.masterwork": "masterwork",
    "stat.value.medium": "medium",
    "stat.value.monster": "monster",
    "stat.value.none": "none",
    "stat.value.normal": "normal",
    "stat.value.off-hand": "off-hand",
    "stat.value.pc": "pc",
    "stat.value.piercing": "piercing",
    "stat.value.pinned": "pinned",
    "stat.value.plain": "plain",
    "stat.value.quick": "quick",
    "stat.value.retainer": "retainer",
    "stat.value.slashing": "slashing",
    "stat.value.sling": "sling",
    "stat.value.slow": "slow",
    "stat.value.slowed": "slowed",
    "stat.value.standard": "standard",
    "stat.value.surrender": "surrender",
    "stat.value.win": "win",
    # -- separators of `Joined` lists
    "log.sep.comma": ", ",
    "log.sep.then": ", then ",
    "log.sep.semicolon": "; ",
    "log.sep.and": " and ",
    "log.sep.same_time": " = ",
}

_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


@record
class Message:
    """A sentence (or part of one) for a reader: catalogue ``key`` and its arguments."""

    key: str
    args: Mapping[str, Any]

    # Its own, for the default: no arguments is an empty mapping.
    def __init__(self, key: str, args: Mapping[str, Any] | None = None) -> None:
        """The message ``key`` with ``args`` (none: an empty mapping)."""
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "args", {} if args is None else args)

    def english(self) -> str:
        """The message in English (`ENGLISH`)."""
        return english(self.key, **self.args)

    def to_dict(self) -> dict[str, Any]:
        """``{"key", "args"}`` as JSON for the page, which says it in the reader's language."""
        return {"key": self.key, "args": {k: _arg_json(v) for k, v in self.args.items()}}


@record
class Joined:
    """Parts said one after another with the separator ``sep`` (a ``log.sep.*`` key)."""

    sep: str
    items: tuple[Any, ...]

    def english(self) -> str:
        """The parts in English, joined."""
        separator = ENGLISH[self.sep]
        assert isinstance(separator, str)
        return separator.join(_arg_english(item) for item in self.items)


class Grouped(int):
    """A whole number English writes with digit groups (``5,000,000``)."""


def _arg_english(value: Any) -> str:
    if isinstance(value, Message | Joined):
        return value.english()
    if isinstance(value, Grouped):
        return f"{value:,}"
    return str(value)


def _arg_json(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_dict()
    if isinstance(value, Joined):
        return {"sep": value.sep, "items": [_arg_json(item) for item in value.items]}
    if isinstance(value, bool) or not isinstance(value, int):
        return str(value)
    return int(value)


def english(key: str, **args: Any) -> str:
    """The English text of ``key`` with its placeholders filled (``count`` picks the form)."""
    template = ENGLISH[key]
    if isinstance(template, dict):
        template = template["one" if args.get("count") == 1 else "other"]
    return _PLACEHOLDER.sub(
        lambda m: _arg_english(args[m.group(1)]) if m.group(1) in args else m.group(0), template
    )
