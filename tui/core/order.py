"""Where a review stands in the library's reading order, and what that buys a
list that keeps it: every list the reader shows (a tag's, a view's, what the
filters and the search leave) is a part of `Library.reviews` in the same
order, so a review is found in it by bisection, not by a scan, and a few
reviews are taken out of it by slicing around them, not by testing every
review (tests/core/test_order.py holds the library to that order).

At 100,000 reviews a scan for the highlighted review cost 3-11 ms a relist,
and each filter that depends on marks (unread only, unchecked only) a pass of
~4 ms over every review listed, though only the few read or fully checked
reviews drop out. No Textual here.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Collection, Sequence
from itertools import chain, compress

from tui.core.model import Review

_key = operator.attrgetter("key")

FEW = 16
"""`without` slices around the keys when they are fewer than one in this many
reviews listed; more than that, one pass in C that tests each review is faster."""


def without(listed: Sequence[Review], keys: Collection[str]) -> list[Review]:
    """`listed` less the reviews with these keys, in order: one pass in C
    that tests each review (~4 ms at 100,000 reviews, a comprehension ~10)."""
    return list(compress(listed, map(operator.not_, map(keys.__contains__, map(_key, listed)))))


def without_ranked(listed: Sequence[Review], keys: Collection[str], ranks: Ranks | None) -> list[Review]:
    """`without`, cut out around the keys when `ranks` rank `listed`'s order."""
    return ranks.without(listed, keys) if ranks is not None else without(listed, keys)


class Ranks:
    """The reading-order position of each review of one list (the library's), by key."""

    def __init__(self, reviews: Sequence[Review]) -> None:
        self.reviews = reviews
        self.of: dict[str, int] = dict(zip(map(_key, reviews), range(len(reviews)), strict=True))

    def _rank(self, review: Review) -> int:
        return self.of[review.key]

    def find(self, listed: Sequence[Review], key: str | None) -> int | None:
        """Where `key` is in `listed` (a part of the ranked list, in its order), or None."""
        rank = self.of.get(key) if key is not None else None
        if rank is None:
            return None
        at = bisect.bisect_left(listed, rank, key=self._rank)
        return at if at < len(listed) and listed[at].key == key else None

    def without(self, listed: Sequence[Review], keys: Collection[str]) -> list[Review]:
        """`listed` (in the ranked order) less the reviews with these keys, in order."""
        if len(keys) * FEW >= len(listed):
            return without(listed, keys)
        found = sorted(at for at in (self.find(listed, key) for key in keys) if at is not None)
        if not found:
            return list(listed)
        bounds = zip([-1, *found], [*found, len(listed)], strict=True)
        return list(chain.from_iterable(listed[start + 1 : end] for start, end in bounds))

    def insert(self, listed: Sequence[Review], review: Review) -> list[Review]:
        """`listed` with `review` (not in it) at its place in the order."""
        at = bisect.bisect_left(listed, self.of[review.key], key=self._rank)
        return [*listed[:at], review, *listed[at:]]


def position(listed: Sequence[Review], key: str | None, ranks: Ranks | None) -> int | None:
    """Where the review `key` is in `listed`, or None: by bisection when
    `ranks` rank `listed`'s order, else one pass in C over the keys. Never by
    comparing reviews: `Review.__eq__` compares contents in Python (~0.3 µs a
    review), and a search of the open review deep in 100,000 spent ~30 ms of a
    typed character's frame doing it."""
    if key is None:
        return None
    if ranks is not None:
        return ranks.find(listed, key)
    try:
        return operator.indexOf(map(_key, listed), key)
    except ValueError:
        return None


class LibraryRanks:
    """`Ranks` of the library's list, made once per list (a new one each time
    the library changes). `ready` is the ranks already made for a list, or
    None: during a first load, whose every batch makes a new list, nothing is
    ranked until it is asked for (making them costs ~10 ms at 100,000)."""

    def __init__(self) -> None:
        self._ranks: Ranks | None = None

    def of(self, reviews: Sequence[Review]) -> Ranks:
        ranks = self._ranks
        if ranks is None or ranks.reviews is not reviews:
            ranks = self._ranks = Ranks(reviews)
        return ranks

    def ready(self, reviews: Sequence[Review]) -> Ranks | None:
        ranks = self._ranks
        return ranks if ranks is not None and ranks.reviews is reviews else None
