"""What the panes are given, worked out from the library and the read marks.

No Textual here: the reader asks these functions and passes what they return
down to its widgets, which never read the marks themselves; so the numbers a
pane shows can be checked without running an app.
"""

from __future__ import annotations

from typing import NamedTuple

from tui.core.changes import ReviewChanges
from tui.core.marks import Marks, changes, checked_items
from tui.core.model import SECTIONS, Library, LibraryChanges, Review
from tui.i18n import words


class TagCount(NamedTuple):
    """A tag's line in the tag list (hashable: the list keeps drawn lines by it)."""

    tag: str  # the sidebar's key: a tag, All, Unread, a view or a repo (tui.core.filters)
    unread: int
    total: int
    dim: bool = False  # a muted tag
    heading: str = ""  # a section's heading, drawn above its first row


class ReviewRow(NamedTuple):
    """A review's two lines in the review list."""

    review: Review
    read: bool
    done: int
    total: int
    updated: bool = False  # changed since the reader read it
    stale: bool = False  # its file is broken; this is the last good version
    muted: bool = False  # it has a muted tag: listed (dimmed) only under its tags
    repo: str = ""  # its repo, when the digest has several


def review_row(
    library: Library, state: Marks, review: Review, mute: frozenset[str] = frozenset()
) -> ReviewRow:
    done_keys = checked_items(state, review)
    # An item's key hashes its text: with nothing checked (most rows) there is nothing to count.
    done = sum(1 for item in review.checklist if item.key in done_keys) if done_keys else 0
    return ReviewRow(
        review,
        state.is_read(review.key),
        done,
        len(review.checklist),
        updated=changes(state, review) is not None,
        stale=library.is_stale(review),
        muted=bool(mute) and not mute.isdisjoint(review.tags),
        repo=review.repo if len(library.repos) > 1 else "",
    )


def describe_reload(changes: LibraryChanges) -> str:
    """What a reload did, in the UI's words."""
    parts = []
    if changes.updated:
        parts.append(words().plural(words().reload_updated, len(changes.updated)))
    if changes.added:
        parts.append(words().change_added_n.format(n=len(changes.added)))
    if changes.removed:
        parts.append(words().change_removed_n.format(n=len(changes.removed)))
    if changes.problem_files:
        parts.append(words().plural(words().reload_problem_files, len(changes.problem_files)))
    return words().list_sep.join(parts)


def describe_changes(changes: ReviewChanges, review: Review) -> list[tuple[str, str]]:
    """(what, how) pairs in the UI's words, e.g. ("Summary", "edited"), ("Focus on", "1 added")."""
    out = [(words().field_name(name), words().change_edited) for name in changes.fields]
    for section in SECTIONS:
        keys = {item.key for item in review.items(section)}
        parts = []
        if added := len(changes.added & keys):
            parts.append(words().change_added_n.format(n=added))
        if edited := len(changes.edited & keys):
            parts.append(words().change_edited_n.format(n=edited))
        if removed := changes.removed.get(section, 0):
            parts.append(words().change_removed_n.format(n=removed))
        if parts:
            out.append((words().field_name(section), words().list_sep.join(parts)))
    return out
