"""The one judge of a prompt value a reader gave: a form, a link or ``rollbook table --set``.

The browser sends the text of its inputs and of its links' parameters as it is, and the CLI
sends the text after ``--set NAME=``; both reach `prompt_value` through the bridge, so they
accept exactly the same values and refuse the rest with the same sentence.

The rule: ASCII white space around the value is ignored; the rest is an optional ``-`` and
ASCII digits (no ``+``, no other digits, no decimals or exponents); the number lies within
the prompt's ``min``/``max`` and within ``±MAX_PROMPT_MAGNITUDE``, which keeps it exact in
JavaScript and in links.
"""

from __future__ import annotations

import re
from typing import Any

from rollbook.engine.messages import Message
from rollbook.engine.tables.parts import Prompt
from rollbook.engine.tables.problems import TableError

__all__ = ["MAX_PROMPT_MAGNITUDE", "PromptError", "prompt_bounds", "prompt_value"]

MAX_PROMPT_MAGNITUDE = 1_000_000_000
_WHOLE = re.compile(r"-?[0-9]+")
_SPACE = " \t\n\r\f\v"
_SHOWN = 40  # characters of a refused value quoted back


class PromptError(TableError):
    """A prompt value refused; ``prompt`` names the prompt (the browser marks its input).

    ``said`` is the sentence as a `Message` (the page says it in the reader's language).
    """

    said: Message

    def __init__(self, said: Message, prompt: str) -> None:
        super().__init__(said.english())
        self.said = said
        self.prompt = prompt


def prompt_bounds(prompt: Prompt) -> tuple[int, int]:
    """The lowest and highest value `prompt` accepts (its min/max within the magnitude)."""
    low = -MAX_PROMPT_MAGNITUDE if prompt.min is None else max(prompt.min, -MAX_PROMPT_MAGNITUDE)
    high = MAX_PROMPT_MAGNITUDE if prompt.max is None else min(prompt.max, MAX_PROMPT_MAGNITUDE)
    return low, high


def _shown(text: str) -> str:
    return repr(text if len(text) <= _SHOWN else text[:_SHOWN] + "…")


def prompt_value(prompt: Prompt, raw: Any) -> int:
    """The whole number `raw` stands for, or `PromptError` with the sentence to show.

    Args:
        prompt: The prompt asked.
        raw: Text as typed or linked (the browser and the CLI send text); an ``int`` from
            Python callers is judged by the same bounds.
    """
    low, high = prompt_bounds(prompt)

    def refused(key: str, **args: Any) -> PromptError:
        return PromptError(Message(key, {"name": prompt.name, **args}), prompt.name)

    if isinstance(raw, bool) or not isinstance(raw, int | str):
        raise refused("error.prompt.not_whole", value=repr(raw))
    if isinstance(raw, str):
        text = raw.strip(_SPACE)
        if not text:
            raise refused("error.prompt.empty", label=prompt.label)
        if not _WHOLE.fullmatch(text):
            raise refused("error.prompt.not_number", low=low, high=high, value=_shown(text))
        if len(text.lstrip("-")) > len(str(MAX_PROMPT_MAGNITUDE)):
            raise refused("error.prompt.range", low=low, high=high, value=_shown(text))
        value = int(text)
    else:
        value = raw
    if not low <= value <= high:
        raise refused("error.prompt.range", low=low, high=high, value=value)
    return value
