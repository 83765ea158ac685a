"""The ``combat`` widget's HTML (`rollbook.markup.combat.fence` checks the body first).

The widget carries the resolved sides as its payload, a table of the combatants, the fight
controls and log the browser fills (`rollbook/assets/combat.mjs`), and the exact chance of
each attacker/defender pair landing a blow (`rollbook.markup.combat.odds`).
"""

from __future__ import annotations

from html import escape

from rollbook.engine.bridge import MAX_SEED
from rollbook.engine.numbers import fraction_text, percent_text
from rollbook.markup.combat.model import Encounter
from rollbook.markup.combat.odds import pair_odds
from rollbook.markup.html import lines, payload_html, roll_button

__all__ = ["widget_html"]


def _odds_table(enc: Encounter, side: str, foe: str) -> str:
    head = lines(*(f'<th scope="col">{escape(u.label)}</th>' for u in enc.sides[foe]))
    rows = []
    for unit in enc.sides[side]:
        cells = []
        for target in enc.sides[foe]:
            odds = pair_odds(enc.system, unit.stats, target.stats)
            if odds is None:
                cells.append("<td>&ndash;</td>")  # an ASCII page stays ASCII (render.ascii_refs)
                continue
            detail = ", ".join(
                f"{name.replace('_', ' ')} {percent_text(p)}"
                for name, p in odds.outcomes.items()
                if p
            )
            cells.append(
                f'<td data-rb-p="{fraction_text(odds.hit)}" '
                f'title="{escape(odds.procedure)}: {escape(detail)}">'
                f"{percent_text(odds.hit)}</td>"
            )
        rows.append(f'<tr><th scope="row">{escape(unit.label)}</th>\n{lines(*cells)}</tr>')
    return (
        f'<table class="rb-pair-odds" data-rb-side="{escape(side)}"><caption>'
        f"{escape(side)} attacking: chance a blow lands</caption><thead><tr>"
        f"<td></td>\n{head}</tr></thead><tbody>\n{lines(*rows)}\n</tbody></table>"
    )


def _combatants(enc: Encounter) -> str:
    from rollbook.engine.systems.encounter import build_sides

    rows = []
    n = 0
    for side, members in build_sides(enc.system, enc.resolved()).items():
        for c in members:
            cells = lines(
                f"<td>{escape(side)}</td>",
                f"<td>{escape(c.name)}</td>",
                f'<td class="rb-hp">{c.hp}/{c.max_hp}</td>',
                '<td class="rb-status">ready</td>',
            )
            rows.append(f'<tr data-rb-c="{n}">{cells}</tr>')
            n += 1
    head = lines(*(f'<th scope="col">{name}</th>' for name in ("Side", "Name", "HP", "Status")))
    return (
        '<table class="rb-combatants"><caption>Combatants</caption><thead><tr>\n'
        f"{head}</tr></thead><tbody>\n{lines(*rows)}\n</tbody></table>"
    )


def widget_html(enc: Encounter, anchor: str, own_id: bool) -> str:
    """The encounter widget for a checked combat block."""
    names = list(enc.sides)
    payload = {
        "system": enc.system.id,
        "sides": [[side, members] for side, members in enc.resolved().items()],
        "seed": enc.seed,
        "runs": enc.runs,
    }
    id_attr = f' id="{escape(anchor)}"' if own_id else ""
    title = enc.title or f"{names[0]} against {names[1]}"
    seed_value = f' value="{enc.seed}"' if enc.seed is not None else ""
    a = escape(anchor)
    # Controls, live state and odds are not content to search for (data-search-exclude).
    return lines(
        f'<div class="rb-combat"{id_attr} data-rb-anchor="{a}" '
        f'data-rb-system="{escape(enc.system.id)}">',
        payload_html(payload),
        f'<p class="rb-combat-title"><strong>{escape(title)}</strong> '
        f'<span class="rb-statblock-system">{escape(enc.system.name)}</span></p>',
        _combatants(enc),
        f'<div class="rb-bar rb-combat-bar" data-search-exclude><label class="rb-seed-label" '
        f'for="{a}-seed">Seed</label><input type="number" class="rb-seed" id="{a}-seed" min="0" '
        f'max="{MAX_SEED}" step="1" inputmode="numeric" placeholder="random"{seed_value}>'
        f"{roll_button('Roll initiative', extra_class='rb-fight-start')}"
        '<button type="button" class="rb-fight-next">Next round</button>'
        '<button type="button" class="rb-fight-end">Fight to the end</button>'
        '<button type="button" class="rb-fight-reset">Reset</button>'
        f'<button type="button" class="rb-copy-link" data-rb-href="#{a}">Copy link</button>'
        "</div>",
        '<p class="rb-fight-status" role="status" data-search-exclude>Not started.</p>',
        '<div class="rb-log" role="log" aria-live="polite" aria-relevant="additions" '
        'aria-label="Round log" tabindex="0"><ol class="rb-log-lines"></ol></div>',
        '<details class="rb-combat-odds" data-search-exclude><summary>Odds</summary>',
        _odds_table(enc, names[0], names[1]),
        _odds_table(enc, names[1], names[0]),
        f'<div class="rb-mc"><div class="rb-bar"><button type="button" class="rb-mc-run" '
        f'data-rb-runs="{enc.runs}">Simulate {enc.runs:,} fights</button></div>'
        '<p class="rb-mc-result" aria-live="polite"></p></div></details>',
        "</div>",
    )
