"""The search keys of the reader's screen: the search box's messages (typing
searches as you type, enter opens the first match, escape clears), `/` and
`n` / `N`. Searching itself is `tui.core.search`'s; the filters hold the query.

A character whose answer is not in memory is scanned in the list's order
(`tui.core.search_scan`), a piece at a time, as fzf's and lazygit's filters
do: in the key's own turn for up to `SLICE_S`. A search done by then is listed
whole in the key's frame. One that is not (a term's second character at
100,000 reviews, or the first search, which makes the texts it reaches in the
list's order) lists what it found once that fills the list's page, as soon as
its pace says it will not be done in time: the key's frame shows the
character and the first rows (the first matches in the list's order: nothing
later can come before them), its count marked as still counting; the rest is
scanned in an async worker, in slices of `SLICE_S` with the loop free in
between, until the count and the scrollbar are whole. A term so rare that its
first page is not found in time shows "searching", and its rows once they are.
When the open review matches and lies further down the list than the key's
scan can reach in time (it stays selected, so the rows listed must reach it),
the key's frame lists it and the matches after it instead, as the whole answer
will show them (it at the top of the pane); the whole answer keeps it on that
line.
A newer character narrows the scan from where it is; enter, moving out of the
box, or anything that lists the reviews again finishes it at once; escape or a
filter change drops it.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Sequence

from textual import events

from tui import runtime
from tui.core.filters import Filters
from tui.core.model import Review
from tui.core.order import position
from tui.core.search_scan import Scan
from tui.i18n import words
from tui.ui import async_work
from tui.ui.panes import PANES, ReaderPanes
from tui.ui.widgets.review_list import ROW_HEIGHT
from tui.ui.widgets.search_bar import SearchBar

SEARCH_AT_ONCE = 0
"""Work (`SearchIndex.work`) a key does at once with no time bound: an answer
from memory. Any other search is scanned under the key's time budget, not by
its estimate, which can be off severalfold (a term typed further that does
not begin where the shorter one did is looked for again in Python's loop)."""

SLICE_S = 0.004
"""Scanning in pieces: the longest stretch before the loop is let go."""

FIRST_ROWS_S: float | None = None
"""What a key may spend finding its first rows before its frame: `SLICE_S`
unless set."""

KEY_PIECES: int | None = None
"""The most pieces a key scans once its first rows are found (None: as many
as `SLICE_S` allows)."""

SCAN_PIECE = 512
"""Candidates a piece of a scan tests (~0.5 ms at most: a term looked for to
the end of a review's text) or, while texts are missing, 32 times the texts
it makes."""

YOUNG_AFTER = 10_000
"""Matches from which a scan's whole answer has the young generations collected
right after its frame (`runtime.collect_young`), not inside the next key's:
three lists of that many entries cost a young collection ~2-5 ms to walk."""

NEAR_SHARE = 0.25
"""The least share of a key's time (`SLICE_S`) it spends looking for the matches
after the open review (its rows, when the scan cannot reach it in time): they
are near it as a rule, ~1-2 µs a review tested."""

NEAR_TESTS = 64
"""Reviews tested between two looks at the clock, looking for them."""

PREPARE_AFTER_S = 2.0
"""How long after the load the search's texts start to be made: the load's
own work (saving the cache, starting the watcher) and its peak memory are
over by then, and the ~180 MB of texts at 100,000 reviews are not part of
it. A search before that makes the texts it needs itself."""

PREPARE_AHEAD_MAX = 20_000
"""The most reviews whose texts are made ahead, after the load, unasked: ~1.8 KB
of text a review, ~36 MB at this size. A larger library makes them when the
search box is first opened instead, so a reader who never searches does not
hold ~180 MB at 100,000 reviews for it."""

PREPARE_SLICE_S = 0.002
"""Making the search's texts after the load: the longest stretch before the
loop is let go (a key pressed meanwhile waits at most this)."""

PREPARE_PAUSE_S = 0.001
"""...and how long it is let go, at least: a key that came meanwhile is
answered and drawn before the next stretch (`runtime.input_first`)."""


class Typing:
    """A query typed whose scan is still running: the filters it sets, those
    it replaces, and what its first rows wait for."""

    __slots__ = ("after", "before", "library", "page", "scan", "selected_at", "shown", "turn")

    def __init__(self, scan: Scan[Review], after: Filters, before: Filters, turn: int) -> None:
        self.scan, self.after, self.before, self.turn = scan, after, before, turn
        self.library: list[Review] = []
        self.page = 1  # matches that fill the list's page
        self.selected_at: int | None = None  # the open review's place, if it matches: listed first
        self.shown = False  # its first rows are listed (the screen's filters are `after`)

    def first_rows(self) -> bool:
        """Found enough matches to list: a page, and the open review if it matches."""
        scan = self.scan
        if self.selected_at is not None and scan.place <= self.selected_at:
            return False
        return len(scan.found) >= self.page


def _reaches_in_time(scan: Scan[Review], at: int, start: int, spent: float, time_left: float) -> bool:
    """Will `scan` pass the list's place `at` in `time_left`, at the pace it
    went from place `start` in `spent`?"""
    went = scan.place - start
    return went > 0 and spent * (at - scan.place) <= time_left * went


def _done_in_time(scan: Scan[Review], left: int, spent: float, time_left: float) -> bool:
    """Will `scan` be done in `time_left`, at the pace it tested candidates in
    `spent` (`left` of them then)? Not while texts are made."""
    tested = left - scan.candidates
    return scan.texts_made and tested > 0 and spent * scan.candidates <= time_left * tested


class SearchKeys(ReaderPanes):
    search_typing: Typing | None = None
    search_window = False
    """The list shows the open review's rows alone (`_show_first_rows`)."""

    def on_search_bar_changed(self, message: SearchBar.Changed) -> None:
        self.search_turn += 1
        after = self.filters._replace(query=message.query)
        source, rest = self._source_and_filters(after)
        if self.search_index.work(source, rest.terms) <= SEARCH_AT_ONCE:
            pending, self.search_typing = self.search_typing, None
            if pending is not None or self.filters != after:  # (`/` tells the query it opens with)
                self._list_by(after)
            return
        page = self.review_list.scrollable_content_region.height // ROW_HEIGHT + 1
        typing = self.search_typing = Typing(
            self.search_index.scan(source, rest.terms, first=page), after, self.filters, self.search_turn
        )
        typing.library = self.library.reviews
        typing.page = page
        selected = self.library.by_key.get(self.current_key) if self.current_key else None
        if selected is not None and self.search_index.matches(selected, rest.terms):
            # It stays selected (None: not in the tag's list, muted).
            typing.selected_at = position(source, selected.key, self.ranks.ready(self.library.reviews))
        scan = typing.scan
        started = time.perf_counter()
        budget = SLICE_S if FIRST_ROWS_S is None else FIRST_ROWS_S
        deadline = started + budget
        left, start, at = scan.candidates, scan.place, typing.selected_at
        pieces = 0
        while not scan.done and (now := time.perf_counter()) < deadline:
            spent, time_left = now - started, deadline - now
            out_of_pieces = KEY_PIECES is not None and pieces >= KEY_PIECES
            if typing.first_rows() and (out_of_pieces or not _done_in_time(scan, left, spent, time_left)):
                break  # the first rows now, the rest off the key: two frames either way
            if (
                pieces
                and at is not None
                and scan.place <= at
                and (out_of_pieces or not _reaches_in_time(scan, at, start, spent, time_left))
            ):
                break  # the open review not reached in time: its rows instead (below)
            scan.advance(SCAN_PIECE)
            pieces += 1
        if scan.done:
            self._typed(typing)
            return
        if typing.first_rows():
            self._show_first_rows(typing)
        elif at is not None and (
            near := self._near_selected(
                source, at, rest.terms, typing.page, max(deadline, time.perf_counter() + budget * NEAR_SHARE)
            )
        ):
            self._show_first_rows(typing, near)
        else:
            self._refresh_filter_bar(after, "searching")

        async_work.start(self, functools.partial(self._scan_off_the_key, typing), "search", exclusive=True)

    def _live(self, typing: Typing) -> bool:
        return (
            typing is self.search_typing
            and typing.turn == self.search_turn
            and typing.library is self.library.reviews
            and self.filters in (typing.before, typing.after)
        )

    async def _scan_off_the_key(self, typing: Typing) -> None:
        drawn = asyncio.Event()
        self.call_after_refresh(drawn.set)
        await drawn.wait()  # the key's frame first
        scan = typing.scan
        while self._live(typing) and not scan.done:
            started = time.perf_counter()
            while not scan.advance(SCAN_PIECE) and time.perf_counter() - started < SLICE_S:
                pass
            if not scan.done and not typing.shown and typing.first_rows():
                self._show_first_rows(typing)
            await runtime.input_first()  # a frame, a key (and its frame)
        self._typed(typing)

    def _near_selected(
        self, source: Sequence[Review], at: int, terms: tuple[str, ...], page: int, deadline: float
    ) -> list[Review] | None:
        """The open review (`source[at]`, a match) and the matches after it: the
        rows the whole answer shows from it on, `page` of them (fewer at the
        list's end); None if they are not found by the deadline."""
        near = [source[at]]
        matches = self.search_index.matches
        end = len(source)
        place = at + 1
        while len(near) < page and place < end and time.perf_counter() < deadline:
            for review in source[place : place + NEAR_TESTS]:
                if matches(review, terms):
                    near.append(review)
            place += NEAR_TESTS
        return near[:page] if len(near) >= page or place >= end else None

    def _show_first_rows(self, typing: Typing, near: list[Review] | None = None) -> None:
        """List the matches found so far, the count marked as still counting;
        or `near`, the open review's rows (`_near_selected`)."""
        typing.shown = True
        new_query = typing.after.query != self.filters.query
        self.set_reactive(ReaderPanes.filters, typing.after)  # not watched: that would finish the scan
        self._refresh_list(found=list(typing.scan.found) if near is None else near)
        self.search_window = near is not None
        if new_query:
            self.review_view.goto_match(1)

    def _refresh_list(self, fallback: int = 0, found: list[Review] | None = None) -> None:
        """After the open review's rows were listed alone (`_show_first_rows`),
        the next list keeps it on its line, and so the rows after it: no jump
        when the whole answer comes."""
        line = self.review_list.highlighted_line() if self.search_window else None
        self.search_window = False
        super()._refresh_list(fallback, found)
        if line is not None and self.review_list.key == self.current_key:
            self.review_list.hold_highlighted_at(line)

    def _typed(self, typing: Typing) -> None:
        """The scan is done (or is finished now): list its whole answer."""
        if not self._live(typing):
            return
        self.search_typing = None
        typing.scan.finish()
        self._list_by(typing.after)
        if len(typing.scan.found) >= YOUNG_AFTER:
            self.call_after_refresh(runtime.collect_young)  # its answer's lists: old before the next key

    def _list_by(self, filters: Filters) -> None:
        if self.filters == filters:
            self._refresh_list()  # its first rows were listed: now all of them
        else:
            self.filters = filters

    def settle_search(self) -> None:
        """Finish a scan still running now: its whole answer is needed (the
        list is about to be used, or the query kept)."""
        if self.search_typing is not None:
            self._typed(self.search_typing)

    def _focus_pane(self, pane: str) -> None:
        self.settle_search()  # moving into the list: all of it
        super()._focus_pane(pane)

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if self.search_typing is not None and event.widget is self.search_bar._input:
            self.settle_search()  # a click elsewhere

    def prepare_search(self) -> None:
        """Make every review's search text in the background once the files
        are loaded, so that the first character typed does not read every
        review's body (~1.4 s at 100,000). Past `PREPARE_AHEAD_MAX` reviews,
        only once the search box opens (`action_search`)."""
        self.search_prepared = False
        if len(self.library.reviews) <= PREPARE_AHEAD_MAX:
            self.set_timer(PREPARE_AFTER_S, self._start_preparing)

    def _start_preparing(self) -> None:
        if self.search_prepared:
            return
        self.search_prepared = True
        async_work.start(self, self._prepare_search, "search-texts", exclusive=True)

    async def _prepare_search(self) -> None:
        library = self.library.reviews
        started = time.perf_counter()
        for _ in self.search_index.prepare(self._unmuted()):  # All's list: the one most searched
            if time.perf_counter() - started > PREPARE_SLICE_S:
                runtime.collect_newest()  # (the split's new pairs: see there)
                await runtime.input_first(PREPARE_PAUSE_S)
                if self.library.reviews is not library:
                    return  # a reload: a search makes the texts it lacks
                started = time.perf_counter()
        runtime.settled()  # the texts live until a reload: out of every collection's walk

    def on_search_bar_submitted(self, message: SearchBar.Submitted) -> None:
        """Enter: close the box, keep the search, open the first match."""
        self.settle_search()
        self.search_turn += 1
        self.filters = self.filters._replace(query=message.query)
        self.search_bar.close()
        listing = self.review_list
        if not self.filters.terms:
            self._focus_pane("reviews")
            return
        if not listing.reviews:
            self.notify(words().no_matches, severity="warning", timeout=4, markup=False)
            self._focus_pane("reviews")
            return
        self._go_to(listing.reviews[0].key)
        self.review_view.current_match = None
        self.review_view.goto_match(1)
        self._focus_pane("review")

    def on_search_bar_cancelled(self, message: SearchBar.Cancelled) -> None:
        self._clear_search()

    def _clear_search(self) -> None:
        self.search_turn += 1
        self.search_typing = None
        bar = self.search_bar
        refocus = bar.display
        bar.close()
        self.filters = self.filters._replace(query="")
        self._refresh_filter_bar()  # "searching" gone, had the filters not changed
        if refocus:
            self._focus_pane(self.pane if self.pane in PANES else "reviews")

    def action_search(self) -> None:
        self.search_bar.open(self.filters.query)
        if self.search_prepared is False:  # None: the load is not done yet
            self.call_after_refresh(self._start_preparing)  # after the box's frame

    def action_next_match(self, step: int) -> None:
        """The next (or previous) line with a match in the review; past its last,
        the next matching review's first (round the list again at its end)."""
        if not self.filters.terms:
            self.notify(words().no_search.format(key=self.key_for("search")), timeout=3, markup=False)
            return
        self.settle_search()
        self._current_review()
        view = self.review_view
        if view.goto_match(step):
            return
        reviews = self.review_list.reviews
        if not reviews:
            self.notify(words().no_matches, severity="warning", timeout=3, markup=False)
            return
        start = self.review_list.position_of(self.current_key)
        for offset in range(1, len(reviews) + 1):
            self._go_to(reviews[(start + step * offset) % len(reviews)].key)
            view.current_match = None  # from its first match (or, going back, its last)
            if view.goto_match(step):
                return
        self.app.bell()
