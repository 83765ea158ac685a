"""Row 1b: 1,000 rules pages written without rollbook in mind, with and without rollbook.

Each page reads like a real rules page: front matter, prose with dice in it ("roll 1d6",
"2d6 x 10 feet", "(d8)"), a plain ``| d6 | Result |`` table, a d100 table keyed ``01-20``,
a weapons table that stays a table, an admonition and a code block. With rollbook the
tables roll and the dice in prose become inline rolls, found while the pages convert (no
pass of its own over the site); the baseline builds the same pages without the plugin and
its Markdown extension. Same run, builds alternate, best of each kept (bench_build).
"""

from __future__ import annotations

from tests.bench.bench_build import PAGES, compare, generate_pages
from tests.bench.harness import CACHE, Row

__all__ = ["TARGET", "main", "page_text"]

TARGET = 1.15
_DICE = ("1d6", "2d6", "d8", "1d4+1", "3d6", "d20", "2d4", "1d10")


def page_text(n: int) -> str:
    """Markdown of rules page ``n`` (plain tables, prose dice, no rollbook markup)."""
    a, b, c = (_DICE[(n + i) % len(_DICE)] for i in range(3))
    return f"""---
title: Region {n}
weight: {n % 7}
---

# Region {n}

Travellers crossing region {n} roll {a} each morning for the weather and {b} for the
hours lost to the road. A guide (costs {c} shillings a day) halves the lost hours.
Ambushes come from 2d6 x 10 feet away; the first volley deals 1d6+1 to the lead cart.

!!! note "Camping"
    Each night roll d6: on a 1 something finds the camp. A fire keeps beasts off for d4
    hours, and the watch rotates every 1d3 hours.

## Encounters in region {n}

| d6 | Encounter |
|----|-----------|
| 1 | A patrol of 2d4 riders |
| 2-3 | Pilgrims on the road |
| 4-5 | A broken wagon |
| 6 | Nothing at all |

## What the ruins hold

| d100 | Find |
|------|------|
| 01-30 | Broken pottery |
| 31-60 | A rusted blade |
| 61-85 | Old coins ({a} x 10) |
| 86-99 | A sealed letter |
| 00 | A map to region {n + 1} |

## Weapons sold here

| Weapon | Damage | Cost |
|--------|--------|------|
| Knife | 1d4 | 2 |
| Spear | 1d8 | 5 |
| Bow | 1d6 | 8 |

```text
Price list, region {n}: rope 1, oil 2, rations 3.
```

Plain prose closes the page, so it is not only dice: region {n} has rivers, hills and
a market on the fourth day of every week.
"""


def main() -> list[Row]:
    """Build the plain rules pages with and without rollbook; one row with the ratio."""
    metric = f"1b. build {PAGES} plain rules pages (tables + prose dice)"
    work = CACHE / "plain"
    generate_pages(work / "docs", PAGES, page_text)
    return compare(work, metric, "1b. build, CPU time of the same builds", TARGET)


if __name__ == "__main__":
    for row in main():
        print(row)
