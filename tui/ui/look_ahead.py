"""The reviews the next key would show, laid out ahead, in idle time.

A key that shows another review (j/k and the page keys in the review list,
j/k in the tags pane, `v`) spends most of its frame at 100,000 reviews on
that review's layout (wrapping every block) and the Textual styling of its
screenful of new lines (~2-3 ms and ~35 lines at ~0.2 ms). Once a key's
frame is drawn, the screen works out which reviews the next keys would show
and lays out and styles them (`ReviewView.lay_out_ahead`); the key that shows
one finds it done. `enter` shows the same review with the cursor on it: its
cursor's lines are styled ahead too (`ReviewView.open_ahead`).

A key that lists other reviews (`v`, a tag switch) also draws a screenful
of rows never shown before; the rows it would show are drawn and styled
ahead too (`ReviewList.draw_ahead`).

The review a press of the same key shows next (the next row after j, a page
on after a page key, the next tag after j in the tags pane, the next
verdict's list and review after `v`: ~1 ms, and ~5-10 ms for `v`) is laid
out right after the frame, with the cursor's lines for `enter`; the
others (the row the other way, a page either way, the next verdict's list)
one a turn of the loop once no key or mouse
event has come for `REST_AFTER_S`: a held key pays for the one its next
press shows, and a key that follows another (`enter` after `j`) does not
wait for a layout of the first key's look-ahead. Nothing is
looked ahead while the search box has the focus (its scan has the idle time),
nor from the review pane (its keys move its cursor, not the list's).

What is shown is the same either way: a review laid out ahead is used only
for the same review, marks, search terms, refs and width, and a styled line
only for the very segments it was styled for.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from tui.core.filters import Filters
from tui.core.marks import changes
from tui.core.model import Review
from tui.core.order import position
from tui.runtime import input_quiet_for
from tui.ui.ref_keys import RefKeys, openable

LOOK_AHEAD = True
"""Lay out the reviews the next keys would show in idle time (off: each when shown)."""

REST_AFTER_S = 0.2
"""How long no input must have come before the reviews a press of another
key would show are laid out (one a turn of the loop): longer than the gap
between two keys pressed one after the other (`j` then `enter`), so that
the second does not wait for a layout of the first's look-ahead."""

_Step = Callable[[], None]


class LookAhead(RefKeys):
    _row_before: int | None = None
    _tag_before: int | None = None
    _ahead_planned = False
    _verdict_stepped = False
    _ahead_turn = 0  # a newer plan stops the steps of an older one

    def watch_current_key(self) -> None:
        super().watch_current_key()
        self._plan_ahead()

    def watch_filters(self, old: Filters, new: Filters) -> None:
        super().watch_filters(old, new)
        self._verdict_stepped = new == old.next_verdict()  # `v`: its next press is looked ahead now
        self._plan_ahead()  # a tag switch or `v` that kept the review shown

    def _plan_ahead(self) -> None:
        if LOOK_AHEAD and not self._ahead_planned:
            self._ahead_planned = True
            self.call_after_refresh(self._look_ahead)

    def _look_ahead(self) -> None:
        """After a key's frame: the review its next press would show now, the
        rest once input is quiet."""
        self._ahead_planned = False
        self._ahead_turn += 1
        if not self.is_attached:
            return
        now, rest = self._steps()
        self._verdict_stepped = False
        for step in now:
            step()
        self._rest(self._ahead_turn, rest)

    def _steps(self) -> tuple[list[_Step], list[_Step]]:
        """What to lay out now and what once input is quiet, for the pane with
        the focus: now, what the same key pressed again shows (and, from the
        list, the cursor's lines for `enter`: ~1 ms)."""
        if self.search_bar.typing or self._table_pending() is not None:
            return [], []
        if self.focused is self.review_list:
            steps = self._list_steps()
            if self._verdict_stepped and steps:  # `v` again next: its list and review
                steps.insert(0, steps.pop())
            return [*steps[:1], self.review_view.open_ahead], steps[1:]
        if self.focused is self.tag_list:
            steps = self._tag_steps()
            return steps[:1], steps[1:]
        return [], []

    def _list_steps(self) -> list[_Step]:
        listing = self.review_list
        row, before = listing.highlighted, self._row_before
        self._row_before = row
        if row is None or not listing.reviews:
            return []
        step = 1 if before is None else row - before
        on = 1 if step >= 0 else -1
        going_on = listing.paged(on) if abs(step) > 1 else row + on  # a page key's next press: a page on
        rows = [going_on, row + on, row - on, listing.paged(on), listing.paged(-on)]
        count = len(listing.reviews)
        wanted = list(dict.fromkeys(n for n in rows if 0 <= n < count and n != row))
        steps: list[_Step] = [partial(self._row_ahead, n) for n in wanted]
        steps.append(partial(self._listed_ahead, self.filters.next_verdict()))  # `v`
        return steps

    def _tag_steps(self) -> list[_Step]:
        tags = self.tag_list
        row, before = tags.highlighted, self._tag_before
        self._tag_before = row
        if row is None or not tags.counts:
            return []
        on = 1 if before is None or row >= before else -1
        rows = [n for n in (row + on, row - on) if 0 <= n < len(tags.counts)]
        return [
            partial(self._listed_ahead, self.filters.choose(tags.counts[n].tag, self.views)) for n in rows
        ]

    def _rest(self, turn: int, steps: list[_Step]) -> None:
        """Run `steps` one a turn once input has been quiet for `REST_AFTER_S`,
        until a newer plan or the focus leaving the lists."""
        if not steps or turn != self._ahead_turn or not self.is_attached:
            return
        if self.focused is not self.review_list and self.focused is not self.tag_list:
            return
        wait = REST_AFTER_S - input_quiet_for()
        if wait > 0:
            self.set_timer(wait, partial(self._rest, turn, steps))
            return
        steps[0]()
        self.call_later(self._rest, turn, steps[1:])  # after what is waiting (a key), not a frame

    def _row_ahead(self, row: int) -> None:
        listing = self.review_list
        if row < len(listing.reviews):
            self._review_ahead(listing.reviews[row])

    def _listed_ahead(self, filters: Filters) -> None:
        """The review shown once the list is listed by `filters` (a tag
        switch, `v`): the one shown now if it is listed, else the first."""
        if filters == self.filters or self._table_pending() is not None:
            return
        listed = self._visible(under=filters)
        if not listed:
            return
        # The list is a part of the ranked list, in its order (as `ReviewList` finds).
        ranks = self.ranks.ready(self.library.reviews)
        if position(listed, self.current_key, ranks) is None:
            self._review_ahead(listed[0])
        self.review_list.draw_ahead(listed, self.current_key, ranks)

    def _review_ahead(self, review: Review) -> None:
        self.review_view.lay_out_ahead(
            review,
            self.checked(review),
            self.state.is_read(review.key),
            changes=changes(self.state, review),
            stale=self.library.is_stale(review),
            refs=openable(self.clones.refs_of(review) or self.clones.last_of(review.key)),
        )
