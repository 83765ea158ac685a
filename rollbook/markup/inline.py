"""The inline roll ``![roll:NOTATION](DEST "LABEL")`` as a Python-Markdown InlineProcessor.

It reuses the image pattern's own bracket and link parsing (titles over several lines,
nested brackets, escapes), so the only difference from an image is what it returns.
"""

from __future__ import annotations

import functools
import re
import xml.etree.ElementTree as etree
from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, override

from markdown import util
from markdown.inlinepatterns import IMAGE_LINK_RE, ImageInlineProcessor

from rollbook.engine.dice.variants import offered
from rollbook.markup import nested
from rollbook.markup.html import ascii_refs, roll_controls

if TYPE_CHECKING:
    from rollbook.markup.page_state import PageState

__all__ = ["PRIORITY", "RollInlineProcessor", "dice_summary", "inline_roll_element"]

# Above the image pattern (150) so `![roll:...]` is claimed before it becomes an <img>,
# below backticks (190) and escapes (180) so code spans and `\!` stay untouched. The link
# pattern (160) never matches `![`, so it does not matter which of the two runs first.
PRIORITY = 155

PRESET_PREFIX = "preset:"


def _fmt(value: Fraction | int | float) -> str:
    """A number as authors write it: 70, 3.5, 2.33 (two decimals at most)."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return str(value.numerator)
    if isinstance(value, int):
        return str(value)
    text = f"{float(value):.2f}".rstrip("0").rstrip(".")
    return text


@functools.lru_cache(maxsize=1024)
def dice_summary(notation: str) -> tuple[str, str, str] | None:
    """(min, max, mean) as display strings, or ``None`` if odds are unavailable.

    Cached per notation: a page repeats the same few notations many times.
    """
    found = _extremes(notation)
    if found is None:
        return None
    if not all(isinstance(v, int | Fraction) and not isinstance(v, bool) for v in found):
        return None  # comma rolls have tuple totals: no single average to show
    low, high, mean = found
    return _fmt(low), _fmt(high), _fmt(mean)


@functools.lru_cache(maxsize=1024)
def _variants(notation: str) -> tuple[tuple[str, str], ...]:
    return tuple(offered(notation).items())


def _extremes(notation: str) -> tuple[Any, Any, Any] | None:
    """Lowest, highest and mean total, from the exact odds or else from the parts.

    A roll too large for the odds (``1000d6``) is read from its parts alone; ``None`` when
    neither can tell. Odds are an extra, so any failure just leaves them out.
    """
    try:
        from rollbook.engine.dice import odds, parse
        from rollbook.engine.dice.moments import extremes_and_mean

        expr = parse(notation)
    except Exception:
        return None
    try:
        dist = odds(expr)
        return dist.min, dist.max, dist.mean
    except Exception:
        pass
    try:
        return extremes_and_mean(expr)
    except Exception:
        return None


def check_notation(notation: str) -> str | None:
    """Return why the notation is not usable (a sentence), or ``None`` if it parses."""
    if not notation:
        return "the inline roll has no dice notation after 'roll:'."
    try:
        from rollbook.engine.dice import DiceError, parse
    except ImportError as err:  # pragma: no cover - the engine ships with the plugin
        return f"the dice engine is not available ({err})."
    try:
        parse(notation)
    except DiceError as err:
        return f"the dice notation {notation!r} does not parse: {err.message}"
    except Exception as err:  # an engine bug must still not become a traceback
        return f"the dice notation {notation!r} could not be read ({type(err).__name__}: {err})."
    return None


class RollInlineProcessor(ImageInlineProcessor):
    """Turns ``![roll:...]`` into a roll button; declines every other image."""

    def __init__(self, state: PageState) -> None:
        super().__init__(IMAGE_LINK_RE, state.md)
        self.state = state

    @override
    def handleMatch(  # type: ignore[override]
        self, m: re.Match[str], data: str
    ) -> tuple[etree.Element | None, int | None, int | None]:
        text, index, handled = self.getText(data, m.end(0))
        if not handled or not text.startswith("roll:"):
            return None, None, None
        dest, title, index, handled = self.getLink(data, index)
        if not handled:
            return None, None, None
        notation = self.unescape(text[len("roll:") :]).strip()
        state = self.state
        line = state.claim_inline(notation)
        if nested.is_table_ref(notation):
            return nested.ref_element(state, notation, title, line), m.start(0), index
        problem = check_notation(notation)
        if problem is not None:
            state.report(line, problem)
            return self._error(data[m.start(0) : index], problem), m.start(0), index
        options: dict[str, Any] = {}
        dest = dest.strip()
        if dest.startswith(PRESET_PREFIX):
            name = dest[len(PRESET_PREFIX) :].strip()
            preset = state.preset(name)
            if preset is None:
                state.report(
                    line,
                    f"unknown preset {name!r} for inline roll {notation!r}; "
                    f"known presets: {state.preset_names()}.",
                    "warning",
                )
            else:
                options = preset
        try:
            return self._button(notation, title, options), m.start(0), index
        except Exception as err:  # a bug must reach the author as a sentence, not a traceback
            why = f"{type(err).__name__}: {err}"
            problem = f"the inline roll {notation!r} could not be built ({why})."
            state.report(line, problem)
            return self._error(data[m.start(0) : index], problem), m.start(0), index

    def _button(self, notation: str, title: str | None, options: dict[str, Any]) -> etree.Element:
        label = " ".join(title.split()) if title and title.strip() else notation
        element = inline_roll_element(self.state.next_inline_id(), notation, label, options)
        nested.mark_nested(self.state, element, notation, label)
        return element

    @staticmethod
    def _error(source: str, problem: str) -> etree.Element:
        el = etree.Element("span")
        el.set("class", "rb-error rb-inline-error")
        el.set("role", "note")
        code = etree.SubElement(el, "code")
        code.text = util.AtomicString(" ".join(source.split()))
        code.tail = util.AtomicString(f" (roll error: {problem})")
        return el


def inline_roll_element(
    inline_id: str, notation: str, label: str, options: Mapping[str, Any] | None = None
) -> etree.Element:
    """The span of one inline roll: its button (with the odds, unless turned off) and output.

    Every inline roll of a page, written as ``![roll:...]()`` or as a stat-block field,
    is built here, so inline.js finds the same markup everywhere.
    """
    options = options or {}
    wrap = etree.Element("span")
    wrap.set("class", " ".join(["rb-inline", *str(options.get("class", "")).split()]))
    wrap.set("data-rb-id", inline_id)
    button = roll_controls(wrap, label)
    button.set("data-roll", notation)
    # The reader's menu offers what the engine accepts, composed here (engine/dice/variants.py).
    # Its line breaks as references, so that no tool that tidies HTML folds them into spaces.
    for variant, composed in _variants(notation):
        button.set(f"data-rb-{variant}", composed.replace("\n", "&#10;"))
    summary = dice_summary(notation) if options.get("odds", True) else None
    if summary is not None:
        low, high, mean = summary
        button.set("data-rb-min", low)
        button.set("data-rb-max", high)
        button.set("data-rb-mean", mean)
        # ascii_refs: the en dash as &#8211; (the serializer keeps character references).
        button.set("title", ascii_refs(f"{notation}: average {mean}, range {low}–{high}"))
    else:
        button.set("title", notation)
    return wrap
