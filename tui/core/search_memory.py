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

import bisect
from array import array
from collections import deque
from collections.abc import Iterator, Sequence
from itertools import accumulate, compress, islice, repeat
from typing import TYPE_CHECKING, Generic, NamedTuple, TypeVar, overload

if TYPE_CHECKING:
    from tui.core.search_scan import Scan

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


class Picked(Sequence[T]):
    """The items of `source` whose flag is set (`flags`: one byte a place,
    0/1), in order, without a list of them: a search's answer of 100,000
    reviews is listed at the cost of the rows drawn from it, not of a list
    whose making touches every review (~4 ms at 100,000). An item is found by
    the counts of flags set per block of `BLOCK` places, then within its
    block (the last block looked in is kept: rows drawn are neighbours)."""

    BLOCK = 1024

    def __init__(self, source: Sequence[T], flags: bytes) -> None:
        self.source, self.flags = source, flags
        block = self.BLOCK
        counts = (flags.count(1, start, start + block) for start in range(0, len(flags), block))
        self._before = list(accumulate(counts, initial=0))  # set before each block, and in all
        self._block = -1
        self._places: list[int] = []

    def __len__(self) -> int:
        return self._before[-1]

    def __iter__(self) -> Iterator[T]:
        return compress(self.source, self.flags)

    @overload
    def __getitem__(self, at: int) -> T: ...
    @overload
    def __getitem__(self, at: slice) -> list[T]: ...
    def __getitem__(self, at: int | slice) -> T | list[T]:
        if isinstance(at, slice):
            start, stop, step = at.indices(len(self))
            if step != 1 or start >= stop:
                return [self[n] for n in range(start, stop, step)]
            place, source = self._place(start), self.source
            places = compress(range(place, len(self.flags)), memoryview(self.flags)[place:])
            return [source[n] for n in islice(places, stop - start)]  # no other review touched
        if at < 0:
            at += len(self)
        if not 0 <= at < len(self):
            raise IndexError(at)
        return self.source[self._place(at)]

    def _place(self, at: int) -> int:
        """Where in `source` the item `at` (within range) is."""
        block = bisect.bisect_right(self._before, at) - 1
        if block != self._block:
            start = block * self.BLOCK
            end = start + self.BLOCK
            self._places = list(compress(range(start, end), self.flags[start:end]))
            self._block = block
        return self._places[at - self._before[block]]


def narrows(new: tuple[str, ...], old: tuple[str, ...]) -> bool:
    """Every review matching `new` matches `old`: each old term is in a new one."""
    return all(any(term in wanted for wanted in new) for term in old)


class Found(NamedTuple, Generic[T]):
    """An answer in full, one entry a review found, in the list's order: the
    reviews, their texts (the Latin-1 parts, `texts`, and the wide ones,
    `wides`: `tui.core.search_widths`), their places in the list, and where
    to look for `term` in each text (where it first occurs, or before, in its
    width's part). A query typed further looks for its longer term from
    there: found at once where it begins, and it cannot occur before."""

    term: str
    reviews: list[T]
    texts: list[str]
    wides: list[str]
    places: array
    starts: array


class ListAnswers(Generic[T]):
    """The answers of searches of one list (kept alive here, so that `is`
    tells it from any list made later), most recent last."""

    KEEP = 64
    """Answers kept as bitsets: 64 × 12.5 KB at 100,000 reviews. A query typed
    and erased a character at a time asks one answer a character."""

    FULL = 4
    """Answers kept in full (`Found`): ~3 MB each at most, at 100,000."""

    def __init__(self, source: Sequence[T]) -> None:
        self.source = source
        self.size = len(source)
        self.every = (1 << self.size) - 1
        self.found: dict[tuple[str, ...], int] = {}
        self.chars: dict[tuple[str, ...], int] = {}  # one-character queries: kept for good
        self.full: dict[tuple[str, ...], Found[T]] = {}
        self.texts: list[str] | None = (
            None  # the list's texts' Latin-1 parts, in its order, once all are made
        )
        self.wides: list[str] = []  # and their wide parts, with them
        self.looked_at = -1  # how many texts were made when `texts` was last looked for
        self.running: Scan[T] | None = None  # the scan not done yet, which a query typed further narrows

    def base(self, wanted: tuple[str, ...]) -> tuple[int, tuple[str, ...], bool]:
        """Where `wanted` can match (a bitset), the terms still to test there,
        and whether that is the answer already (a query asked lately)."""
        found = self.chars.get(wanted)
        if found is not None:
            return found, (), True
        found = self.found.get(wanted)
        if found is not None:
            self.found[wanted] = self.found.pop(wanted)  # used: kept longest
            return found, (), True
        bits = self.every
        tested: set[str] = set()
        for kept in (self.chars, self.found):
            for before, answer in kept.items():
                if narrows(wanted, before):
                    bits &= answer
                    tested.update(before)
        rest = tuple(term for term in wanted if term not in tested)
        return bits, rest, not rest

    def remember(self, wanted: tuple[str, ...], bits: int, full: Found[T] | None = None) -> None:
        if len(wanted) == 1 and len(wanted[0]) == 1:
            self.chars[wanted] = bits  # a few of them (an alphabet), and the most asked
        else:
            self.found.pop(wanted, None)
            self.found[wanted] = bits
            while len(self.found) > self.KEEP:
                del self.found[next(iter(self.found))]
        if full is not None:
            self.full.pop(wanted, None)
            self.full[wanted] = full
            while len(self.full) > self.FULL:
                del self.full[next(iter(self.full))]

    def parent(self, wanted: tuple[str, ...], rest: tuple[str, ...]) -> tuple[str, tuple[str, ...]] | None:
        """A term of `rest` that a kept full answer's term begins (the longest
        such), and that answer's query: `wanted` typed further from it."""
        best: tuple[str, tuple[str, ...]] | None = None
        for before, full in self.full.items():
            if (before not in self.found and before not in self.chars) or not narrows(wanted, before):
                continue
            for longer in rest:
                if (
                    longer != full.term
                    and longer.startswith(full.term)
                    and (best is None or len(full.term) > len(self.full[best[1]].term))
                ):
                    best = (longer, before)
        return best

    def typed_further(
        self, wanted: tuple[str, ...], rest: tuple[str, ...], bits: int
    ) -> tuple[Found[T] | None, bytes | None, bool]:
        """A kept answer in full that `wanted` narrows, with where to look for
        a term of `rest` in each (as `Found.term`): where a shorter term it
        begins with first occurs (the longer term cannot occur before); the
        flags (one an entry) of its entries among the candidates `bits`, None
        if all are; and whether those are places found (a one-character term
        keeps none). None if no kept answer has that."""
        best = self.parent(wanted, rest)
        if best is None:
            return None, None, False
        longer, before = best
        full, kept = self.full[before], self.answer(before)
        placed = len(full.term) > 1
        flags = None
        if bits != kept:  # narrowed by other answers too: bits is within kept
            flags = bytes(compress(flags_of(bits, self.size), flags_of(kept, self.size)))
        return full._replace(term=longer), flags, placed

    def answer(self, wanted: tuple[str, ...]) -> int:
        """The kept answer of `wanted` (KeyError if none is)."""
        found = self.chars.get(wanted)
        return self.found[wanted] if found is None else found

    def items(self, bits: int, wanted: tuple[str, ...] | None = None) -> list[T]:
        """The reviews of `bits`, in the list's order: `wanted`'s full answer's
        own list if it is kept (not to be changed: a copy of 40,000 reviews
        costs ~1.5 ms, each one's count touched), else a new one."""
        full = self.full.get(wanted) if wanted is not None else None
        if full is not None:
            return full.reviews
        if bits == self.every:
            return list(self.source)
        return list(compress(self.source, flags_of(bits, self.size)))

    def picked(self, bits: int, wanted: tuple[str, ...] | None = None) -> Sequence[T]:
        """`items`, without a new list of them (`Picked`): to be read, not changed."""
        full = self.full.get(wanted) if wanted is not None else None
        if full is not None:
            return full.reviews
        if bits == self.every:
            return self.source
        return Picked(self.source, flags_of(bits, self.size))

    def positions(self, bits: int) -> list[int]:
        return list(compress(range(self.size), flags_of(bits, self.size)))
