"""What `r`, `R` and checking an item do to the read state, without Textual.

Reading or checking a review also records the version the reader saw (its
fingerprint), which is how a later change to it shows as news; markings that
`z` undoes are recorded first. The reader saves and redraws after each.
"""

from __future__ import annotations

from collections.abc import Sequence

from tui.core.changes import fingerprint
from tui.core.marks import Marks, changes
from tui.core.model import SECTIONS, Review
from tui.core.undo import ReadUndo


def toggle_read(state: Marks, undo: ReadUndo, review: Review) -> None:
    """Toggle read; a review updated since it was read is marked read again,
    as the reader has now seen the new version."""
    updated = changes(state, review) is not None
    read = updated or not state.is_read(review.key)
    undo.record(state, [review.key])
    state.set_read(review.key, read)
    if read:
        state.set_seen(review.key, fingerprint(review))


def mark_read(state: Marks, undo: ReadUndo, reviews: Sequence[Review]) -> None:
    """Mark every one of `reviews` read, as one marking for undo."""
    undo.record(state, [r.key for r in reviews])
    for review in reviews:
        state.set_read(review.key, True)
        state.set_seen(review.key, fingerprint(review))


def set_checked(state: Marks, review: Review, item_key: str, value: bool) -> None:
    """Check or uncheck an item against its text now (a check made on other text
    does not count); the first mark on a review records the version seen."""
    item = next((i for s in SECTIONS for i in review.items(s) if i.key == item_key), None)
    state.set_checked(review.key, item_key, value, item.digest if item else None)
    if state.seen(review.key) is None:
        state.set_seen(review.key, fingerprint(review))
