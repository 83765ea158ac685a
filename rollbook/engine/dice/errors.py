"""Errors raised by the dice engine: every one carries a position and a plain sentence.

The sentence is a `rollbook.engine.messages.Message` where a reader may see it (``said``:
the page says it in the reader's language); ``message`` is its English.
"""

from __future__ import annotations

from rollbook.engine.messages import Message

__all__ = [
    "DiceError",
    "DiceLimitError",
    "DiceSyntaxError",
    "DiceValueError",
    "OddsUnavailableError",
    "PlaceholderError",
]


class DiceError(ValueError):
    """A notation that cannot be parsed, rolled or analysed.

    Args:
        message: One plain sentence saying what is wrong, or that sentence as a `Message`.
        position: 0-based index into ``text`` where the problem is (``None`` if unknown).
        text: The notation as the author wrote it.
    """

    def __init__(self, message: str | Message, position: int | None = None, text: str = "") -> None:
        self.said = message if isinstance(message, Message) else None
        sentence = message.english() if isinstance(message, Message) else message
        super().__init__(sentence)
        self.message = sentence
        self.position = position
        self.text = text

    def caret(self) -> str:
        """Return the notation and a caret under the offending character (two lines)."""
        if self.position is None or not self.text:
            return self.text
        line = self.text.replace("\n", " ").replace("\t", " ")
        return f"{line}\n{' ' * min(self.position, len(line))}^"

    def __str__(self) -> str:
        if self.position is None or not self.text:
            return self.message
        return f"{self.message} (at column {self.position + 1})\n{self.caret()}"


class DiceSyntaxError(DiceError):
    """The text is not valid dice notation."""


class DiceLimitError(DiceError):
    """The notation is valid but exceeds one of the documented limits (`rollbook.engine.limits`)."""


class DiceValueError(DiceError):
    """A value is impossible while rolling or computing odds, e.g. division by zero."""


class PlaceholderError(DiceError):
    """The notation still contains ``{{ name }}`` placeholders that were not filled."""


class OddsUnavailableError(DiceError):
    """Exact odds cannot be computed for this notation (said plainly, never guessed)."""
