"""Which texts of a list hold each pair of adjacent characters of code words
(`ALPHABET`: lower-case letters, digits, `_`), as bitsets over the list's
order (`tui.core.search_memory`): a bigram index.

A term's second character is the costly key of a search as you type: where
the first is known (`SearchIndex.PREPARED`), the pair is still looked for in
every text that holds the first, and most texts that lack the pair are read
to their end (~100-170 ms at 100,000 reviews). A text that holds a term
holds each of its pairs, so the AND of the term's pairs' bitsets is where it
can occur: exactly the answer for a term of two characters of `ALPHABET`,
and for a longer one candidates far fewer than its first character leaves.

Made in the background once the texts are (`pairs_of`), a piece at a time,
without a Python loop over a text's characters: a text's Latin-1 part is
mapped to one byte a character (0 for any character outside `ALPHABET`, so
no pair spans one), its pairs read as 16-bit values from the bytes at even
and at odd offsets, deduplicated in a set, and set in a block of flags, one
row of `CHUNK` texts a pair; each row is then added to the pair's bitset.
~25 µs a text; 1,369 bitsets of up to 12.5 KB each at 100,000 reviews.
"""

from __future__ import annotations

import operator
import sys
from array import array
from collections import deque
from collections.abc import Iterator, Sequence
from itertools import repeat

ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789_"
"""Characters whose pairs are indexed: those of code words, lowered."""

PAIRS = tuple(a + b for a in ALPHABET for b in ALPHABET)
"""Every indexed pair, in the order of their rows."""

CHUNK = 1024
"""Texts whose flags are set in one block before it is added to the bitsets
(a block is `CHUNK` bytes a pair: ~1.4 MB)."""

_TO_DIGITS = bytes.maketrans(b"\x00\x01", b"01")

_CLASS = bytes(ALPHABET.index(chr(b)) + 1 if chr(b) in ALPHABET else 0 for b in range(256))
"""A byte to its character's place in `ALPHABET` plus one (0: not in it)."""


def _rows() -> list[int]:
    """A pair's 16-bit value (two `_CLASS` bytes read as one, in this
    machine's order) to its row's offset in a block; pairs with a 0 to the
    spare row after the last."""
    spare = len(PAIRS) * CHUNK
    rows = [spare] * 65536
    size = len(ALPHABET)
    for a in range(1, size + 1):
        for b in range(1, size + 1):
            value = a | b << 8 if sys.byteorder == "little" else a << 8 | b
            rows[value] = ((a - 1) * size + (b - 1)) * CHUNK
    return rows


_ROWS = _rows()


def term_pairs(term: str) -> list[str]:
    """The indexed pairs of `term`'s adjacent characters (one may be missing
    from the index: then it tells nothing)."""
    return [pair for pair in map(operator.add, term, term[1:]) if pair[0] in ALPHABET and pair[1] in ALPHABET]


def _values(text: str) -> set[int]:
    """The 16-bit values of the pairs of adjacent characters of `text`."""
    mapped = text.encode("latin-1", "replace").translate(_CLASS)  # a wide character: "?", 0
    values = set(array("H", mapped[: len(mapped) & ~1]))
    values.update(array("H", mapped[1 : 1 + ((len(mapped) - 1) & ~1)]))
    return values


def pairs_of(texts: Sequence[str], out: dict[str, int], piece: int = 64) -> Iterator[None]:
    """Fill `out` with every pair of `PAIRS` to the bitset of the `texts`
    (Latin-1 parts, in the list's order) that hold it, yielding every `piece`
    texts or rows or so; `out` is filled only once every text is read (a
    caller that stops earlier is left with nothing half made)."""
    bits = [0] * len(PAIRS)
    rows = _ROWS
    for start in range(0, len(texts), CHUNK):
        chunk = texts[start : start + CHUNK]
        block = bytearray((len(PAIRS) + 1) * CHUNK)
        put = block.__setitem__
        for n, text in enumerate(chunk):
            deque(
                map(put, map(operator.add, map(rows.__getitem__, _values(text)), repeat(n)), repeat(1)),
                maxlen=0,
            )
            if n % piece == piece - 1:
                yield
        size = len(chunk)
        for row in range(len(PAIRS)):
            at = row * CHUNK
            bits[row] = bits[row] << size | int(block[at : at + size].translate(_TO_DIGITS), 2)
            if row % (piece * 4) == piece * 4 - 1:
                yield
    out.update(zip(PAIRS, bits, strict=True))
