"""Read a page file for the command line: a sentence with the line, never a decode traceback."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from rollbook.engine.limits import value
from rollbook.engine.located import LocatedError

__all__ = ["PageReadError", "page_too_big", "read_page", "read_regular"]


class PageReadError(LocatedError):
    """The page cannot be read as text; ``line`` is where the first bad byte is (else 1)."""


def page_too_big(size: int) -> str | None:
    """The sentence for a page of ``size`` bytes over the ``page_bytes`` limit, else None."""
    limit = value("page_bytes")
    if size <= limit:
        return None
    return f"the page is larger than the page_bytes limit of {limit} bytes; split it."


def read_page(path: Path) -> str:
    """The page as text (UTF-8, a byte-order mark dropped, CRLF as LF), like MkDocs reads it."""
    try:
        too_big = page_too_big(path.stat().st_size)  # before reading it into memory
        if too_big:
            raise PageReadError(1, too_big)
        with path.open("rb") as file:  # the size again, for files that are not regular
            raw = file.read(value("page_bytes") + 1)
    except OSError as err:
        reason = err.strerror or type(err).__name__
        raise PageReadError(1, f"the page cannot be read ({reason}).") from None
    too_big = page_too_big(len(raw))
    if too_big:
        raise PageReadError(1, too_big)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = raw[: err.start].count(b"\n") + 1
        byte = raw[err.start : err.start + 1].hex()
        raise PageReadError(
            line, f"the page is not UTF-8 text: byte 0x{byte} on this line cannot be read."
        ) from None
    return text.replace("\r\n", "\n")


def read_regular(path: Path, limit: str) -> bytes:
    """The bytes of a regular file no larger than the limit called ``limit``.

    The file is opened without blocking and checked before anything is read: a FIFO, a
    device (``/dev/zero``) or a folder is refused, and so is a file over the limit, each
    in one sentence (`PageReadError`, line 1); ``OSError`` for a file that is missing.
    """
    cap = value(limit)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise PageReadError(1, "it is not a regular file (a device, a pipe or a folder).")
        if info.st_size > cap:
            raise PageReadError(
                1, f"it has {info.st_size:,} bytes, more than the {limit} limit of {cap:,}."
            )
        data = file.read(cap + 1)
    if len(data) > cap:
        raise PageReadError(1, f"it grew past the {limit} limit of {cap:,} bytes.")
    return data
