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

from rollbook.engine.dice import letters
from rollbook.engine.dice.variants import offered
from rollbook.language import Catalogue, catalogue
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


@functools.lru_cache(maxsize=4096)
def check_notation(notation: str, written: str | None = None) -> str | None:
    """Return why the notation is not usable (a sentence), or ``None`` if it parses.

    ``written`` is the notation as the author wrote it, when the page's language wrote a
    dice letter of its own (``1W20``); sentences name it that way. Kept per notation: a
    site's pages repeat the same few dice.
    """
    written = notation if written is None else written
    if not notation:
        return "the inline roll has no dice notation after 'roll:'."
    try:
        from rollbook.engine.dice import DiceError, parse
    except ImportError as err:  # pragma: no cover - the engine ships with the plugin
        return f"the dice engine is not available ({err})."
    try:
        parse(notation)
    except DiceError as err:
        message = letters.written(err, written).message
        return f"the dice notation {written!r} does not parse: {message}"
    except Exception as err:  # an engine bug must still not become a traceback
        return f"the dice notation {written!r} could not be read ({type(err).__name__}: {err})."
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
        written = self.unescape(text[len("roll:") :]).strip()
        state = self.state
        line = state.claim_inline(written)
        if nested.is_table_ref(written):
            return nested.ref_element(state, written, title, line), m.start(0), index
        notation = state.notation(written)  # 1W20 on a German page is 1d20
        problem = check_notation(notation, written)
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
            return self._button(notation, written, title, options), m.start(0), index
        except Exception as err:  # a bug must reach the author as a sentence, not a traceback
            why = f"{type(err).__name__}: {err}"
            problem = f"the inline roll {notation!r} could not be built ({why})."
            state.report(line, problem)
            return self._error(data[m.start(0) : index], problem), m.start(0), index

    def _button(
        self, notation: str, written: str, title: str | None, options: dict[str, Any]
    ) -> etree.Element:
        label = " ".join(title.split()) if title and title.strip() else written
        element = inline_roll_element(
            self.state.next_inline_id(),
            notation,
            label,
            options,
            text=self.state.text(),
            written=written,
        )
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
    inline_id: str,
    notation: str,
    label: str,
    options: Mapping[str, Any] | None = None,
    *,
    text: Catalogue | None = None,
    written: str | None = None,
) -> etree.Element:
    """The span of one inline roll: its button (with the odds, unless turned off) and output.

    Every inline roll of a page, written as ``![roll:...]()`` or as a stat-block field,
    is built here, so inline.js finds the same markup everywhere. ``notation`` is what the
    engine reads (``d`` for the language's dice letter); ``label`` what the reader sees,
    kept left to right when it is dice notation; ``text`` the page's catalogue (English
    when not given); ``written`` the notation as the author wrote it (``1W20``).
    """
    options = options or {}
    odds = bool(options.get("odds", True))
    text = text or catalogue()
    wrap = etree.Element("span")
    wrap.set("class", " ".join(["rb-inline", *str(options.get("class", "")).split()]))
    wrap.set("data-rb-id", inline_id)
    button = roll_controls(wrap, label)
    for name, value in _button_attributes(notation, written or notation, text, odds):
        button.set(name, value)
    if text.rtl and letters.to_d(label, text.language) == notation:
        button.set("dir", "ltr")  # dice notation reads left to right in any language
    return wrap


# A site repeats the same few notations on every page. Catalogues compare and hash by
# identity (one object per language and overrides: `rollbook.language.catalogue`).
@functools.lru_cache(maxsize=4096)
def _button_attributes(
    notation: str, shown: str, text: Catalogue, odds: bool
) -> tuple[tuple[str, str], ...]:
    """The roll button's attributes: its notation, variants, odds and tooltip."""
    found = [("data-roll", notation)]
    # The reader's menu offers what the engine accepts, composed here (engine/dice/variants.py).
    # Its line breaks as references, so that no tool that tidies HTML folds them into spaces.
    for variant, composed in _variants(notation):
        found.append((f"data-rb-{variant}", composed.replace("\n", "&#10;")))
    summary = dice_summary(notation) if odds else None
    if summary is not None:
        low, high, mean = summary
        found += [("data-rb-min", low), ("data-rb-max", high), ("data-rb-mean", mean)]
        # ascii_refs: the en dash as &#8211; (the serializer keeps character references).
        summary_text = text(
            "roll.summary", roll=shown, mean=text.number(mean), min=text.number(low),
            max=text.number(high),
        )  # fmt: skip
        found.append(("title", ascii_refs(summary_text)))
    else:
        found.append(("title", shown))
    return tuple(found)
