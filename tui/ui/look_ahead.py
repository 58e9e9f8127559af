"""The reviews around the list's cursor laid out ahead, in idle time.

A key that moves the review list's cursor (j/k, a page key) shows another
review: its layout (wrapping every block) and the Textual styling of its
screenful of new lines were most of that key's frame at 100,000 reviews
(~2-3 ms and ~35 lines at ~0.2 ms). Once a key's frame is drawn, the
reviews the next key would show (the next and previous rows, a page on and
back) are laid out and styled one a turn of the loop
(`ReviewView.lay_out_ahead`), as long as the cursor stays and the list or
the review has the focus; the key that shows one finds it done. What is
shown is the same either way: a review laid out ahead is used only for the
same marks, search terms, refs and width.
"""

from __future__ import annotations

from functools import partial

from tui.core.marks import changes
from tui.ui.ref_keys import RefKeys, openable

LOOK_AHEAD = True
"""Lay out the reviews around the cursor in idle time (off: each when shown)."""

REST_AFTER_S = 0.05
"""The review the cursor moves to next if it goes on as it went is laid out
right after the key's frame; the others once no key came for this long: a
held key (30 a second) pays for the one its next press shows, not four."""


class LookAhead(RefKeys):
    _row_before: int | None = None

    def watch_current_key(self) -> None:
        super().watch_current_key()
        listing = self.review_list
        row, before = listing.highlighted, self._row_before
        self._row_before = row
        if row is None or not listing.reviews or not LOOK_AHEAD:
            return
        step = 1 if before is None else row - before
        on = 1 if step >= 0 else -1
        going_on = listing.paged(on) if abs(step) > 1 else row + on  # a page key's next press: a page on
        rows = [going_on, row + on, row - on, listing.paged(on), listing.paged(-on)]
        count = len(listing.reviews)
        wanted = list(dict.fromkeys(n for n in rows if 0 <= n < count and n != row))
        self.call_after_refresh(self._look_ahead, self.current_key, wanted)

    def _look_ahead(self, key: str | None, rows: list[int]) -> None:
        """Lay out the first of `rows` (the list's), then the rest, one a
        turn, after `REST_AFTER_S`."""
        listing, view = self.review_list, self.review_view
        if not rows or key != self.current_key or not self.is_attached:
            return
        if self.focused is not listing and self.focused is not view:
            return  # typing in the search box: its scan has the idle time
        if rows[0] >= len(listing.reviews):
            return
        review = listing.reviews[rows[0]]
        view.lay_out_ahead(
            review,
            self.checked(review),
            self.state.is_read(review.key),
            changes=changes(self.state, review),
            stale=self.library.is_stale(review),
            refs=openable(self.clones.refs_of(review) or self.clones.last_of(review.key)),
        )
        if len(rows) > 1:
            self.set_timer(REST_AFTER_S, partial(self._look_ahead, key, rows[1:]))
