"""Filters that combine: tag, verdict, unread only, has unchecked items, search.

No Textual here. The app keeps the choices; `select` is one pass over the
reviews under the tag, and `labels` says in words what is filtered, for the
filter bar.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from tui.core.model import ALL_TAG, UNREAD_TAG, VERDICTS, Review
from tui.core.search import SearchIndex, terms
from tui.i18n import words

VERDICT_CYCLE: tuple[str | None, ...] = (None, *VERDICTS)
"""What `v` steps through: all verdicts, then each in reading-priority order."""


class Filters(NamedTuple):
    tag: str = ALL_TAG
    verdict: str | None = None
    unread: bool = False
    unchecked: bool = False
    query: str = ""

    @property
    def terms(self) -> tuple[str, ...]:
        return terms(self.query)

    @property
    def active(self) -> bool:
        """Anything narrower than every review?"""
        return self.tag != ALL_TAG or self.narrowing

    @property
    def narrowing(self) -> bool:
        """Anything besides the tag narrowing the list?"""
        return bool(self.verdict or self.unread or self.unchecked or self.terms)

    def next_verdict(self) -> Filters:
        index = VERDICT_CYCLE.index(self.verdict) if self.verdict in VERDICT_CYCLE else 0
        return self._replace(verdict=VERDICT_CYCLE[(index + 1) % len(VERDICT_CYCLE)])


def has_unchecked(review: Review, checked: frozenset[str]) -> bool:
    """True if any checklist item (focus, read order) is not checked."""
    return any(item.key not in checked for item in review.checklist)


def select(
    reviews: Iterable[Review],
    filters: Filters,
    *,
    is_read: Callable[[str], bool],
    checked: Callable[[Review], frozenset[str]],
    index: SearchIndex,
    keep: str | None = None,
) -> list[Review]:
    """The reviews that pass every filter, in order, in one pass.

    `keep` (the open review) stays listed when it would drop out only because
    it was just marked read or checked, so the list does not jump under the
    reader's cursor; the verdict and the search still apply to it.
    """
    unread = filters.unread or filters.tag == UNREAD_TAG
    verdict = filters.verdict
    query_terms = filters.terms
    if not (unread or verdict or query_terms or filters.unchecked):
        return list(reviews)  # the tag alone: nothing to test per review
    matches = index.matches
    out: list[Review] = []
    for review in reviews:
        if verdict is not None and review.verdict != verdict:
            continue
        if query_terms and not matches(review, query_terms):
            continue
        if review.key != keep:
            if unread and is_read(review.key):
                continue
            if filters.unchecked and not has_unchecked(review, checked(review)):
                continue
        out.append(review)
    return out


def marks_narrow(filters: Filters) -> bool:
    """Does what is listed depend on read marks and checks?"""
    return bool(filters.unread or filters.unchecked or filters.tag == UNREAD_TAG)


def tag_label(tag: str) -> str:
    if tag == ALL_TAG:
        return words().all
    if tag == UNREAD_TAG:
        return words().unread
    return f"#{tag}"


def labels(filters: Filters) -> list[str]:
    """What is filtered, in words, in the order the filter bar shows it."""
    out = []
    if filters.tag != ALL_TAG:
        out.append(tag_label(filters.tag))
    if filters.verdict:
        out.append(words().verdict_words.get(filters.verdict, filters.verdict))
    if filters.unread and filters.tag != UNREAD_TAG:
        out.append(words().filter_unread)
    if filters.unchecked:
        out.append(words().filter_unchecked)
    return out
