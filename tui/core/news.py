"""What is news to the reader, for the `notify:` program: reviews new since the
reader last ran or reloaded, and reviews changed since they were read.

No Textual, no disk: the keys known from the last run come from `tui.store.known`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from tui.core.model import Library, Review, digest
from tui.core.views import is_muted


def news(
    library: Library,
    *,
    known: frozenset[str] | None,
    updated: Callable[[Review], bool],
    mute: frozenset[str] = frozenset(),
    among: Iterable[str] | None = None,
) -> list[Review]:
    """Reviews new (their key's digest not in `known`) or updated since read, in
    reading order.

    `known=None` (no record of an earlier run: the first start) makes nothing new,
    or every review of a first start would be announced. `among`: only these
    keys (a reload's added and updated reviews). Muted reviews are never news."""
    keys = None if among is None else set(among)
    out = []
    for review in library.reviews:
        if keys is not None and review.key not in keys:
            continue
        if is_muted(review, mute):
            continue
        if (known is not None and digest(review.key) not in known) or updated(review):
            out.append(review)
    return out
