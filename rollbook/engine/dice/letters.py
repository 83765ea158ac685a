"""Dice letters of other languages read as ``d``: ``1W20``, ``1k6``, ``1к6``.

German writes ``1W20``, Polish and Czech ``1k6``, Russian and Ukrainian ``1к6``.

The rewrite is one character for one character, so every position (a caret under the
offending character) is the same in the text as written. A letter is a die only where a
die can start: at the start of a term (the start, a space, an operator, a bracket, a comma)
or after a count that starts one (``3W6``, ``{{ n }}k6``), and only before the sides
(digits, ``%``, ``F`` or a ``{{ placeholder }}``). Everywhere else it stays what it was,
so Polish ``4k6k3`` is four six-sided dice keeping three, and ``4d6k3`` still keeps three.
A letter left over is a parse error with its caret, as any unknown character is.
"""

from __future__ import annotations

import re

from rollbook.engine.messages import Message

from .errors import DiceError

__all__ = ["DICE_LETTERS", "letters_for", "to_d", "written"]

#: Base language code -> the letters its rules texts write for ``d`` (both cases).
DICE_LETTERS: dict[str, str] = {
    "cs": "kK",
    "de": "Ww",
    "pl": "kK",
    "ru": "кК",
    "uk": "кК",
}

# Characters after which a new term starts (no ``!``: ``4d6!k3`` explodes, then keeps).
_BOUNDARY = set(" \t\r\n+-*/%^(,{[=<>")
_COUNT = re.compile(r"(?:[0-9]+|\{\{\s*[A-Za-z_][A-Za-z0-9_-]*\s*\}\})$")
_SIDES = re.compile(r"[0-9%F]|\{\{")


def letters_for(language: str | None) -> str:
    """The extra dice letters of a language code (``"de"``, ``"pl-PL"``, ``"ru_RU"``), or ``""``."""
    if not language:
        return ""
    return DICE_LETTERS.get(re.split(r"[-_]", language.strip(), maxsplit=1)[0].lower(), "")


def to_d(text: str, language: str | None) -> str:
    """``text`` with the language's dice letters written ``d`` where they start a die.

    Same length as ``text``; unchanged when the language has no letters of its own.
    """
    letters = letters_for(language)
    if not letters or not any(letter in text for letter in letters):
        return text
    out = list(text)
    for i, char in enumerate(text):
        if char not in letters or not _SIDES.match(text, i + 1):
            continue
        before = text[:i]
        count = _COUNT.search(before)
        start = count.start() if count else i
        if start == 0 or text[start - 1] in _BOUNDARY:
            out[i] = "d"
    return "".join(out)


def written(error: DiceError, text: str) -> DiceError:
    """The same error about ``text`` as written.

    The rewrite kept every position: the caret stays under the character the author typed,
    and the sentence names that character.
    """
    read, at = error.text, error.position
    if at is not None and len(read) == len(text) and at < len(text) and read[at] != text[at]:
        error.message = error.message.replace(f"'{read[at]}'", f"'{text[at]}'")
        error.args = (error.message, *error.args[1:])
        said = getattr(error, "said", None)
        if isinstance(said, Message):
            error.said = _as_written(said, read[at], text[at])
    error.text = text
    return error


def _as_written(said: Message, read: str, wrote: str) -> Message:
    """``said`` naming the character ``wrote`` where it named ``read`` (``char`` arguments)."""
    args = {
        name: wrote
        if name == "char" and value == read
        else _as_written(value, read, wrote)
        if isinstance(value, Message)
        else value
        for name, value in said.args.items()
    }
    return Message(said.key, args)
