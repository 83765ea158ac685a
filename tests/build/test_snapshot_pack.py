"""The snapshot's served layout: zero pages left out, gzip; unpack gives the memory back."""

from __future__ import annotations

import gzip
import random
import struct

import pytest

from rollbook.site_runtime.snapshot_pack import MAGIC, PAGE, memory_size, pack_for_site, unpack


def _memory(pages: list[int], tail: int = 0) -> bytes:
    """Pages of random bytes (1) or zeros (0), then ``tail`` random bytes (a partial page)."""
    rng = random.Random(7)
    out = bytearray()
    for kind in pages:
        out += rng.randbytes(PAGE) if kind else bytes(PAGE)
    return bytes(out + rng.randbytes(tail))


@pytest.mark.parametrize(
    ("pages", "tail"),
    [
        ([1, 1, 0, 0, 1, 0, 1, 1, 1, 0], 0),
        ([0, 0, 0], 0),  # nothing stored but the size
        ([1, 0, 1], 100),  # the last page is partial
        ([0, 0], 1),
        ([], 0),
    ],
)
def test_round_trip(pages: list[int], tail: int) -> None:
    memory = _memory(pages, tail)
    packed = pack_for_site(memory)
    assert unpack(packed) == memory
    assert memory_size(packed) == len(memory)


def test_zero_pages_are_not_stored() -> None:
    memory = _memory([1, 0, 0, 0, 1, 1, 0])
    data = gzip.decompress(pack_for_site(memory))
    magic, size, page, runs = struct.unpack_from("<8sIII", data)
    assert (magic, size, page, runs) == (MAGIC, len(memory), PAGE, 2)
    assert struct.unpack_from("<IIII", data, 20) == (0, 1, 4, 2)
    assert len(data) == 20 + 2 * 8 + 3 * PAGE


def test_output_is_byte_identical_for_the_same_memory() -> None:
    memory = _memory([1, 0, 1], 5)
    assert pack_for_site(memory) == pack_for_site(bytes(memory))


def test_damaged_or_foreign_files_are_refused() -> None:
    packed = gzip.decompress(pack_for_site(_memory([1, 1])))
    with pytest.raises(ValueError, match="damaged"):
        unpack(gzip.compress(packed[:-10]))
    with pytest.raises(ValueError, match="not a packed snapshot"):
        unpack(gzip.compress(b"\0snp" + bytes(40)))
    with pytest.raises(ValueError, match="not a packed snapshot"):
        memory_size(gzip.compress(b"\0snp" + bytes(40)))
