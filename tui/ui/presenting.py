"""What the panes are given, worked out from the library and the read marks.

No Textual here: the App asks these functions and passes what they return down
to its widgets, which never read the state themselves; so the numbers a pane
shows can be checked without running an app.
"""

from __future__ import annotations

from typing import NamedTuple

from tui import words
from tui.core.model import (
    ALL_TAG,
    SECTIONS,
    UNREAD_TAG,
    Library,
    LibraryChanges,
    Review,
    ReviewChanges,
    compare,
)
from tui.store.state import ReadState


class TagCount(NamedTuple):
    """A tag's line in the tag list (hashable: the list keeps drawn lines by it)."""

    tag: str
    unread: int
    total: int


class ReviewRow(NamedTuple):
    """A review's two lines in the review list."""

    review: Review
    read: bool
    done: int
    total: int
    updated: bool = False  # changed since the reader read it
    stale: bool = False  # its file is broken; this is the last good version


def checked(state: ReadState, review: Review) -> frozenset[str]:
    """Checked item keys of every section; a check made on other text does not count."""
    marked = state.checked(review.key)
    if not marked:
        return marked  # nothing checked: no need to hash the items
    digests = {item.key: item.digest for section in SECTIONS for item in review.items(section)}
    return state.checked(review.key, digests)


def changes(state: ReadState, review: Review) -> ReviewChanges | None:
    """What changed since the reader read or checked this review, if anything."""
    if not state.touched(review.key):
        return None
    seen = state.seen(review.key)
    if seen is None:
        return None
    return compare(seen, review) or None


def tag_counts(library: Library, state: ReadState) -> list[TagCount]:
    """Unread/total per tag, from the read reviews only: marks are few, reviews many."""
    read_per_tag: dict[str, int] = {}
    read_all = 0
    for key in state.read_keys():
        review = library.by_key.get(key)
        if review is None:
            continue
        read_all += 1
        for tag in review.tags:
            read_per_tag[tag] = read_per_tag.get(tag, 0) + 1
    total = len(library.reviews)
    counts = [TagCount(ALL_TAG, total - read_all, total), TagCount(UNREAD_TAG, total - read_all, total)]
    for tag, reviews in library.tags.items():
        counts.append(TagCount(tag, len(reviews) - read_per_tag.get(tag, 0), len(reviews)))
    return counts


def review_row(library: Library, state: ReadState, review: Review) -> ReviewRow:
    done_keys = checked(state, review)
    done = sum(1 for item in review.checklist if item.key in done_keys)
    return ReviewRow(
        review,
        state.is_read(review.key),
        done,
        len(review.checklist),
        updated=changes(state, review) is not None,
        stale=library.is_stale(review),
    )


def unread_count(library: Library, state: ReadState) -> int:
    """Reviews not read; marks kept for reviews no longer loaded do not count."""
    read = sum(1 for key in state.read_keys() if key in library.by_key)
    return len(library.reviews) - read


def describe_reload(changes: LibraryChanges) -> str:
    """What a reload did, in the UI's words."""
    parts = []
    if changes.updated:
        parts.append(words.plural(words.RELOAD_UPDATED, len(changes.updated)))
    if changes.added:
        parts.append(words.CHANGE_ADDED_N.format(n=len(changes.added)))
    if changes.removed:
        parts.append(words.CHANGE_REMOVED_N.format(n=len(changes.removed)))
    if changes.problem_files:
        parts.append(words.plural(words.RELOAD_PROBLEM_FILES, len(changes.problem_files)))
    return words.LIST_SEP.join(parts)
