"""The ``combat`` widget's HTML (`rollbook.markup.combat.fence` checks the body first).

The widget carries the resolved sides as its payload, a table of the combatants, the fight
controls and log the browser fills (`rollbook/assets/combat.mjs`), and the exact chance of
each attacker/defender pair landing a blow (`rollbook.markup.combat.odds`).
"""

from __future__ import annotations

from html import escape

from rollbook.engine.bridge import MAX_SEED
from rollbook.engine.numbers import fraction_text, percent_text
from rollbook.language import Catalogue, catalogue
from rollbook.markup.combat.model import Encounter
from rollbook.markup.combat.odds import pair_odds
from rollbook.markup.html import ascii_refs, lines, payload_html, roll_button

__all__ = ["widget_html"]


def _odds_table(enc: Encounter, side: str, foe: str, t: Catalogue) -> str:
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
                f"{name.replace('_', ' ')} {t.percent(percent_text(p))}"
                for name, p in odds.outcomes.items()
                if p
            )
            cells.append(
                f'<td data-rb-p="{fraction_text(odds.hit)}" '
                f'title="{escape(odds.procedure)}: {escape(detail)}">'
                f"{ascii_refs(t.percent(percent_text(odds.hit)))}</td>"
            )
        rows.append(f'<tr><th scope="row">{escape(unit.label)}</th>\n{lines(*cells)}</tr>')
    return (
        f'<table class="rb-pair-odds" data-rb-side="{escape(side)}"><caption>'
        f"{escape(t('combat.attacking', side=side))}</caption><thead><tr>"
        f"<td></td>\n{head}</tr></thead><tbody>\n{lines(*rows)}\n</tbody></table>"
    )


def _combatants(enc: Encounter, t: Catalogue) -> str:
    from rollbook.engine.systems.encounter import build_sides

    rows = []
    n = 0
    for side, members in build_sides(enc.system, enc.resolved()).items():
        for c in members:
            cells = lines(
                f"<td>{escape(side)}</td>",
                f"<td>{escape(c.name)}</td>",
                f'<td class="rb-hp">{c.hp}/{c.max_hp}</td>',
                f'<td class="rb-status">{escape(t("combat.state.ready"))}</td>',
            )
            rows.append(f'<tr data-rb-c="{n}">{cells}</tr>')
            n += 1
    names = (t(f"combat.col.{key}") for key in ("side", "name", "hp", "status"))
    head = lines(*(f'<th scope="col">{escape(name)}</th>' for name in names))
    return (
        f'<table class="rb-combatants"><caption>{escape(t("combat.caption"))}</caption>'
        "<thead><tr>\n"
        f"{head}</tr></thead><tbody>\n{lines(*rows)}\n</tbody></table>"
    )


def widget_html(enc: Encounter, anchor: str, own_id: bool, t: Catalogue | None = None) -> str:
    """The encounter widget for a checked combat block, in the catalogue's language."""
    t = t or catalogue()
    names = list(enc.sides)
    payload = {
        "system": enc.system.id,
        "sides": [[side, members] for side, members in enc.resolved().items()],
        "seed": enc.seed,
        "runs": enc.runs,
    }
    id_attr = f' id="{escape(anchor)}"' if own_id else ""
    title = enc.title or t("combat.against", side=names[0], foe=names[1])
    seed_value = f' value="{enc.seed}"' if enc.seed is not None else ""
    a = escape(anchor)

    def x(key: str, **params: object) -> str:  # the catalogue's text, escaped, ASCII
        return ascii_refs(escape(t(key, **params)))

    # Controls, live state and odds are not content to search for (data-search-exclude).
    return lines(
        f'<div class="rb-combat"{id_attr} data-rb-anchor="{a}" '
        f'data-rb-system="{escape(enc.system.id)}">',
        payload_html(payload),
        f'<p class="rb-combat-title"><strong>{escape(title)}</strong> '
        f'<span class="rb-statblock-system">{escape(enc.system.name)}</span></p>',
        _combatants(enc, t),
        f'<div class="rb-bar rb-combat-bar" data-search-exclude><label class="rb-seed-label" '
        f'for="{a}-seed">{x("combat.seed")}</label><input type="number" class="rb-seed" '
        f'id="{a}-seed" min="0" max="{MAX_SEED}" step="1" inputmode="numeric" '
        f'placeholder="{x("combat.seed_random")}"{seed_value}>'
        f"{ascii_refs(roll_button(t('combat.start'), extra_class='rb-fight-start'))}"
        f'<button type="button" class="rb-fight-next">{x("combat.next")}</button>'
        f'<button type="button" class="rb-fight-end">{x("combat.end")}</button>'
        f'<button type="button" class="rb-fight-reset">{x("combat.reset")}</button>'
        f'<button type="button" class="rb-copy-link" data-rb-href="#{a}">'
        f"{x('table.copy_link')}</button></div>",
        '<p class="rb-fight-status" role="status" data-search-exclude>'
        f"{x('combat.not_started')}</p>",
        '<div class="rb-log" role="log" aria-live="polite" aria-relevant="additions" '
        f'aria-label="{x("combat.log")}" tabindex="0"><ol class="rb-log-lines"></ol></div>',
        '<details class="rb-combat-odds" data-search-exclude>'
        f"<summary>{x('combat.odds')}</summary>",
        _odds_table(enc, names[0], names[1], t),
        _odds_table(enc, names[1], names[0], t),
        f'<div class="rb-mc"><div class="rb-bar"><button type="button" class="rb-mc-run" '
        f'data-rb-runs="{enc.runs}">{x("combat.simulate", count=enc.runs)}</button></div>'
        '<p class="rb-mc-result" aria-live="polite"></p></div></details>',
        "</div>",
    )
