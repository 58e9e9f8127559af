"""What searches of one list answered, kept as bitsets over the list's order.

A search as you type asks many queries of the same list, each a little
longer or shorter than the one before. An answer kept as a Python int with one
bit a review (12.5 KB at 100,000 reviews, where a list of the reviews is
800 KB) lets many be kept: a backspace, or a query typed again, is answered
from memory, and a query that narrows several kept ones (each of their terms
is in one of its terms) is looked for only where all of them matched: the AND
of their bitsets, done in C. Terms that a kept answer already tested are not
tested again ("kv c" after "kv" tests only "c").

Bit order: the list's first review is the top bit, so `format(bits, "0Nb")`
spells the list in order, one digit a review; `bytes.translate` turns the
digits into the 0/1 flags `itertools.compress` takes. Both run in C: ~0.2 ms
each way at 100,000.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from itertools import compress, repeat
from typing import Generic, TypeVar

T = TypeVar("T")

_TO_FLAGS = bytes.maketrans(b"01", b"\x00\x01")
_TO_DIGITS = bytes.maketrans(b"\x00\x01", b"01")


def flags_of(bits: int, size: int) -> bytes:
    """One byte a position, 1 where `bits` has the position's bit."""
    if not size:
        return b""
    return format(bits, f"0{size}b").encode("ascii").translate(_TO_FLAGS)


def bits_of(flags: bytes | bytearray) -> int:
    """The bitset of 0/1 `flags` (the inverse of `flags_of`)."""
    return int(flags.translate(_TO_DIGITS), 2) if flags else 0


def bits_at(positions: Sequence[int] | map, size: int) -> int:
    """The bitset with the bits of `positions` set."""
    out = bytearray(size)
    deque(map(out.__setitem__, positions, repeat(1)), maxlen=0)  # a C loop
    return bits_of(out)


def narrows(new: tuple[str, ...], old: tuple[str, ...]) -> bool:
    """Every review matching `new` matches `old`: each old term is in a new one."""
    return all(any(term in wanted for wanted in new) for term in old)


class ListAnswers(Generic[T]):
    """The answers of searches of one list (kept alive here, so that `is`
    tells it from any list made later), most recent last."""

    KEEP = 64
    """Answers kept: 64 × 12.5 KB at 100,000 reviews. A query typed and erased
    a character at a time asks one answer a character."""

    def __init__(self, source: Sequence[T]) -> None:
        self.source = source
        self.size = len(source)
        self.every = (1 << self.size) - 1
        self.found: dict[tuple[str, ...], int] = {}
        self.texts: list[str] | None = None  # the list's texts, in its order, once all are made
        self.looked_at = -1  # how many texts were made when `texts` was last looked for

    def base(self, wanted: tuple[str, ...]) -> tuple[int, tuple[str, ...], bool]:
        """Where `wanted` can match (a bitset), the terms still to test there,
        and whether that is the answer already (a query asked lately)."""
        found = self.found.get(wanted)
        if found is not None:
            self.found[wanted] = self.found.pop(wanted)  # used: kept longest
            return found, (), True
        bits = self.every
        tested: set[str] = set()
        for before, answer in self.found.items():
            if narrows(wanted, before):
                bits &= answer
                tested.update(before)
        rest = tuple(term for term in wanted if term not in tested)
        return bits, rest, not rest

    def remember(self, wanted: tuple[str, ...], bits: int) -> None:
        self.found.pop(wanted, None)
        self.found[wanted] = bits
        while len(self.found) > self.KEEP:
            del self.found[next(iter(self.found))]

    def items(self, bits: int) -> list[T]:
        """The reviews of `bits`, in the list's order."""
        if bits == self.every:
            return list(self.source)
        return list(compress(self.source, flags_of(bits, self.size)))

    def positions(self, bits: int) -> list[int]:
        return list(compress(range(self.size), flags_of(bits, self.size)))
