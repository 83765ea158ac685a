"""How exact chances are written: ``"p/q"`` for machines, a percentage for readers.

The one formatter of each kind on the Python side; ``rollbook/assets/page/numbers.js``
(``fractionText``, ``percentText``) is its twin in the browser and gives the same text for
the same fraction (tests/markup/test_number_formats.py runs both on one corpus). Both round
the exact value, a half to the even digit (as Python's own formatting rounds a float), so
the build's chances and the ones the page recomputes for other prompt values read alike.
"""

from __future__ import annotations

import functools
from fractions import Fraction

__all__ = ["fraction_text", "percent_text"]


def fraction_text(value: Fraction | int, *, whole: bool = False) -> str:
    """``value`` as ``"p/q"`` in lowest terms.

    Args:
        value: The exact number.
        whole: Write whole numbers without their ``/1`` (``"7"``, for people and for keys);
            by default they keep it (``"7/1"``), so a JSON reader parses one form.
    """
    f = Fraction(value)
    if whole and f.denominator == 1:
        return str(f.numerator)
    return f"{f.numerator}/{f.denominator}"


@functools.lru_cache(maxsize=4096)
def percent_text(
    share: Fraction | int, *, digits: int = 1, trim: bool = True, floor: bool = True
) -> str:
    """A share (``1/36``) as a percentage (``"2.8%"``), rounded from its exact value.

    A half goes to the even digit (``1/16`` is ``"6.2%"``). Kept per share: a site's
    tables repeat the same few chances (``1/6``, ``3/10``), each worked out in fractions.

    Args:
        share: The exact share, 1 being 100%.
        digits: Decimals shown.
        trim: Leave out trailing zeros after the point (``"50%"``, not ``"50.0%"``).
        floor: Write a share too small to show with ``digits`` decimals, but not zero, as
            ``"<0.1%"`` rather than as ``"0%"`` (a chance that exists is never shown as none).
    """
    unit = 10**digits
    value = Fraction(share) * 100
    smallest = "0." + "0" * (digits - 1) + "1" if digits else "1"
    if floor and value and abs(value) * unit < 1:
        return f"<{smallest}%"
    scaled = abs(value) * unit
    count = scaled.numerator // scaled.denominator
    rest = scaled - count
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and count % 2):
        count += 1
    sign = "-" if value < 0 and count else ""
    text = str(count // unit) + (f".{count % unit:0{digits}d}" if digits else "")
    if trim and "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{sign}{text}%"
