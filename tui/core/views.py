"""Saved views (named filter combinations from the config) and muted tags, without Textual.

A view narrows by what a review *is* (tags, any of; verdicts; repos) and by what
the reader has done with it (unread only, unchecked only) and a search text. A
muted tag hides its reviews from All, Unread, views and every count; they stay
listed under their own tag, where the reader went looking for them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple, TypeVar

from tui.core.model import VERDICTS, Listed, Review
from tui.core.search import SearchIndex, terms

R = TypeVar("R", bound=Listed)


class View(NamedTuple):
    """One entry of `views:`; an empty field does not narrow. (A NamedTuple,
    not a dataclass: `status` imports this, and `dataclasses` costs it a few ms.)"""

    name: str
    tags: frozenset[str] = frozenset()
    verdicts: frozenset[str] = frozenset()
    repos: frozenset[str] = frozenset()
    unread: bool = False
    unchecked: bool = False
    search: str = ""

    def admits(self, review: Listed) -> bool:
        """What the review is (tags, verdict, repo): the part no mark changes."""
        return (
            (not self.tags or not self.tags.isdisjoint(review.tags))
            and (not self.verdicts or review.verdict in self.verdicts)
            and (not self.repos or review.repo in self.repos)
        )

    @property
    def terms(self) -> tuple[str, ...]:
        return terms(self.search)


def is_muted(review: Listed, mute: frozenset[str]) -> bool:
    return bool(mute) and not mute.isdisjoint(review.tags)


def unmuted(reviews: Iterable[R], mute: frozenset[str]) -> list[R]:
    """`reviews` without those carrying a muted tag, in order."""
    if not mute:
        return list(reviews)
    return [review for review in reviews if mute.isdisjoint(review.tags)]


def in_view(
    reviews: Iterable[Review],
    view: View,
    *,
    mute: frozenset[str] = frozenset(),
    is_read: Callable[[str], bool],
    has_unchecked: Callable[[Review], bool],
    index: SearchIndex | None = None,
) -> list[Review]:
    """The reviews a view lists, in order: what it names, less muted tags.

    `index` is needed only for a view with a search text (it reads bodies)."""
    query = view.terms
    out = []
    for review in reviews:
        if not view.admits(review) or is_muted(review, mute):
            continue
        if view.unread and is_read(review.key):
            continue
        if view.unchecked and not has_unchecked(review):
            continue
        if query and (index is None or not index.matches(review, query)):
            continue
        out.append(review)
    return out


def unknown_names(views: Mapping[str, View], tags: Iterable[str]) -> list[tuple[str, str]]:
    """(view, tag) pairs for tags no loaded review has: the view is kept (the tag may
    come with the next digest), the reader is told. Verdicts are checked with the config."""
    known = set(tags)
    return [(view.name, tag) for view in views.values() for tag in sorted(view.tags) if tag not in known]


def known_verdict(verdict: str) -> bool:
    return verdict in VERDICTS
