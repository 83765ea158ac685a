"""Numbers and plural forms as a language writes them, from Babel's CLDR data.

The engine writes numbers one way (``"27.8%"``, ``"10.5"``: `rollbook.engine.numbers`);
this module gives them the language's decimal sign, digit groups, minus sign and percent
pattern (``"27,8 %"`` in French, with the narrow no-break space CLDR asks for). The page
gets the same signs from the build (`NumberStyle.for_browser`) and applies them the same way
(``numbers.js``), so a chance reads alike whether the build or the page wrote it, whichever
CLDR version the reader's browser carries; plural forms come from ``Intl.PluralRules``
there, Babel's rules here (tests/language/test_numbers_agree.py runs both on one corpus).
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from babel import Locale
from babel.numbers import (
    format_percent,
    get_decimal_symbol,
    get_group_symbol,
)

__all__ = ["NumberStyle", "number_style", "plural_category"]


@functools.cache
def _locale(language: str) -> Locale:
    return Locale.parse(language.replace("-", "_"))


def plural_category(language: str, count: Any) -> str:
    """The CLDR plural category of ``count`` (``"one"``, ``"few"``, ``"many"``, ``"other"``...)."""
    try:
        number: int | Decimal = count if isinstance(count, int) else Decimal(str(count))
    except InvalidOperation:
        return "other"
    category: str = _locale(language).plural_form(number)
    return category


@dataclass(frozen=True)
class NumberStyle:
    """How one language writes numbers (Babel's locale data)."""

    language: str

    def number(self, text: str) -> str:
        """``"-1234.5"`` -> ``"-1 234,5"`` in French: every decimal written is kept."""
        return _number(self.language, text)

    def percent(self, text: str) -> str:
        """``"27.8%"`` -> ``"27,8 %"``; ``"<0.1%"`` keeps its ``<``."""
        return _percent(self.language, text)

    def for_browser(self) -> dict[str, Any]:
        """The signs ``numbers.js`` applies to the engine's numbers.

        Decimal, group, minus, the percent pattern with ``{n}`` for the number, and the
        digit group sizes (primary, secondary).
        """
        locale = _locale(self.language)
        grouping = locale.decimal_formats[None].grouping
        return {
            "decimal": get_decimal_symbol(locale),
            "group": get_group_symbol(locale),
            "grouping": [grouping[0], grouping[1]],
            "minus": self.number("-1")[:-1],  # what `number` writes, not the bare symbol
            "percent": format_percent(Decimal("0.05"), locale=locale).replace("5", "{n}", 1),
        }


@functools.cache
def number_style(language: str) -> NumberStyle:
    """The number style of a language code (``"fr"``, ``"pt-BR"``)."""
    _locale(language)  # unknown codes fail here, once
    return NumberStyle(language)


def _digits(text: str) -> tuple[Decimal, int]:
    value = Decimal(text)
    return value, len(text.split(".", 1)[1]) if "." in text else 0


# Cached: a site writes the same few averages, ranges and chances on every page, and
# Babel's pattern work costs far more than the lookup (bench 1b).
@functools.lru_cache(maxsize=8192)
def _number(language: str, text: str) -> str:
    try:
        value, digits = _digits(text)
    except InvalidOperation:
        return text  # not a number ("?"): as it is
    locale = _locale(language)
    pattern = copy.copy(locale.decimal_formats[None])
    pattern.frac_prec = (digits, digits)
    return pattern.apply(value, locale, numbering_system="latn")


@functools.lru_cache(maxsize=8192)
def _percent(language: str, text: str) -> str:
    below = text.startswith("<")
    body = text.removeprefix("<").removesuffix("%")
    try:
        value, digits = _digits(body)
    except InvalidOperation:
        return text
    locale = _locale(language)
    pattern = copy.copy(locale.percent_formats[None])
    pattern.frac_prec = (digits, digits)
    shown = pattern.apply(value / 100, locale, numbering_system="latn")
    return f"<{shown}" if below else shown
