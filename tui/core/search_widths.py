"""A review's search text kept split by width, and a query's terms looked for
in it.

A text is kept as two strings: its Latin-1 runs (a str of 1 byte a
character, which `str.find` reads faster too) and its wider runs (2 or 4
bytes a character), each string its runs joined by `SEP`. A term holds no
whitespace (a query is split at it) and `SEP` is whitespace to `str.split`,
so a term of Latin-1 characters occurs in the text exactly where it occurs
in one of its Latin-1 runs, and a term of wider ones in one of its wide runs:
only the term's width's part is read (a code word after its first character
skips the Chinese half of every text). A term of both widths (`fp8量化`; `İ`
lowered is `i` and a combining dot) is looked for in the text put back in
order (`joined`), among the texts whose parts hold each of its pieces.

Places kept for a term (`Found.starts`) are places in its width's part (in
the joined text for a term of both widths): a longer term may be looked for
from them only if it is of the same width (`same_width`).

A text that holds `SEP` itself is kept whole in both parts (one object):
found as the whole text would be, put back as itself.
"""

from __future__ import annotations

import operator
import re
from array import array
from collections.abc import Sequence
from itertools import compress, repeat
from typing import TypeVar

from tui.core.search_memory import Found

T = TypeVar("T")

Parts = tuple[str, str]
"""A text's Latin-1 runs and its wide runs, each joined by `SEP`."""

SEP = "\x1f"
"""Between two runs of a part: whitespace to `str.split`, so in no term."""

LATIN, WIDE, BOTH = 0, 1, 2
"""A term's width: every character Latin-1, none, some."""

_WIDE_RUN = re.compile("[^\x00-\xff]+")
_RUNS = re.compile("([^\x00-\xff]+)")


def split(text: str) -> Parts:
    """`text` as its two parts (`Parts`)."""
    if text.isascii():
        return text, ""
    runs = _RUNS.split(text)  # Latin-1, wide, ..., Latin-1: one pass (~13 µs for 900 characters)
    if len(runs) == 1:
        return text, ""
    if SEP in text:
        return text, text  # runs could not be told apart: whole, found as it is
    return SEP.join(runs[::2]), SEP.join(runs[1::2])


def joined(latin: str, wide: str) -> str:
    """The text whose parts these are, in its order."""
    if not wide or latin is wide:
        return latin
    runs = latin.split(SEP)  # one more than the wide runs: the text begins and ends with one
    out = [""] * (2 * len(runs) - 1)
    out[::2] = runs
    out[1::2] = wide.split(SEP)
    return "".join(out)


def width(term: str) -> int:
    """`LATIN`, `WIDE` or `BOTH`."""
    if term.isascii() or max(term) <= "\xff":
        return LATIN
    return WIDE if min(term) > "\xff" else BOTH


def same_width(term: str, other: str | None) -> bool:
    """Places kept for `other` are places to look for `term` from."""
    return other is not None and width(term) == width(other)


def holds(parts: Parts, term: str) -> bool:
    """`term` occurs in the text of `parts`."""
    kind = width(term)
    if kind == BOTH:
        return term in joined(*parts)
    return term in parts[kind]


def _pieces_held(term: str, latins: list[str], wides: list[str]) -> bytes:
    """0/1 flags, one a text: its parts hold every run of `term` (of both widths)."""
    flags: bytes | None = None
    for piece in _WIDE_RUN.findall(term):
        held = bytes(map(operator.contains, wides, repeat(piece)))
        flags = held if flags is None else bytes(map(operator.and_, flags, held))
    for piece in _WIDE_RUN.split(term):
        if piece:
            held = bytes(map(operator.contains, latins, repeat(piece)))
            flags = held if flags is None else bytes(map(operator.and_, flags, held))
    assert flags is not None  # a term of both widths has a piece of each
    return flags


def matching(
    rest: tuple[str, ...],
    reviews: list[T],
    latins: list[str],
    wides: list[str],
    places: array,
    starts: Sequence[int],
    placed: bool = False,
) -> Found[T]:
    """Those of `reviews` whose text (`latins` and `wides`, its parts) has
    every term of `rest`, in full (`places` one a review); `starts`: where to
    look for the first term in each text (in its width's part), `placed` if
    that is where a shorter term it begins with first occurs (so it is most
    often right there). Each term is looked for in C: `str.startswith`
    there, `str.find` over its width's parts (`in` for one character: no
    place to keep, a longer term cannot begin where it does), `compress` of
    what it found."""
    first: Sequence[int] = starts
    for n, term in enumerate(rest):
        kind = width(term)
        if kind == BOTH:  # only texts holding its pieces are put back in order
            held = _pieces_held(term, latins, wides)
            if held.count(1) != len(held):
                reviews, latins, wides = (
                    list(compress(reviews, held)),
                    list(compress(latins, held)),
                    list(compress(wides, held)),
                )
                places, first = array("i", compress(places, held)), array("i", compress(first, held))
            texts = list(map(joined, latins, wides))
        else:
            texts = latins if kind == LATIN else wides
        if n == 0 and placed:
            at_once = bytes(map(str.startswith, texts, repeat(term), first))
            if at_once.count(1) == len(at_once):  # all there: nothing changes
                continue
            found, hits = _found_later(texts, term, first, at_once)
        elif len(term) == 1 and n == len(rest) - 1:
            hits = bytes(map(operator.contains, texts, repeat(term)))
            found = None
        else:
            found = list(map(str.find, texts, repeat(term), first if n == 0 else repeat(0)))
            hits = bytes(map(operator.ge, found, repeat(0)))
        reviews, latins, wides = (
            list(compress(reviews, hits)),
            list(compress(latins, hits)),
            list(compress(wides, hits)),
        )
        places = array("i", compress(places, hits))
        first = array("i", [0]) * len(reviews) if found is None else array("i", compress(found, hits))
    return Found(rest[-1], reviews, latins, wides, places, first)  # type: ignore[arg-type]  # an array


def _found_later(
    texts: list[str], term: str, starts: Sequence[int], at_once: bytes
) -> tuple[list[int], bytes]:
    """Where `term` first occurs in each text (-1: nowhere), and 0/1 flags of
    where it does, given that it begins at `starts` where `at_once` says and
    occurs only after them elsewhere."""
    found = list(starts)
    later = bytes(map(operator.not_, at_once))
    again = map(
        str.find, compress(texts, later), repeat(term), map(operator.add, compress(starts, later), repeat(1))
    )
    for n, place in zip(compress(range(len(found)), later), again, strict=True):
        found[n] = place
    return found, bytes(map(operator.ge, found, repeat(0)))
