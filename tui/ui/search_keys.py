"""The search keys of the reader's screen: the search box's messages (typing
searches as you type, enter opens the first match, escape clears), `/` and
`n` / `N`. Searching itself is `tui.core.search`'s; the filters hold the query.

A character that would search many texts (the first characters of a query at
100,000 reviews, or the first search, which reads every review's text) is
searched off the key: in an async worker, in slices of a few milliseconds with
the loop free in between, so the box shows the character in the key's own
frame and the list follows when the search is done. A newer character, enter,
escape or a filter change overtakes it. A short search runs at once, as before.
"""

from __future__ import annotations

import asyncio
import time

from tui.i18n import words
from tui.ui.panes import PANES, ReaderPanes
from tui.ui.widgets.search_bar import SearchBar

SEARCH_AT_ONCE = 30_000
"""Work (`SearchIndex.work`, which gives what its units cost) a key may do
before its frame; more is searched off the key. Done at once, the results
are in the key's frame; off the key, they come a frame later at best (the
frame timer's next tick, up to 17 ms after the box's frame), so a search of
a few milliseconds is better done at once."""

SLICE_S = 0.004
"""Searching off the key: the longest stretch before the loop is let go."""

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
"""...and how long it is let go: long enough for a key's messages to pass
from the App to the widget that answers it and for the frame after them."""


class SearchKeys(ReaderPanes):
    def on_search_bar_changed(self, message: SearchBar.Changed) -> None:
        self.search_turn += 1
        query = message.query
        source, rest = self._source_and_filters(self.filters._replace(query=query))
        if self.search_index.work(source, rest.terms) <= SEARCH_AT_ONCE:
            self.filters = self.filters._replace(query=query)
            return
        turn = self.search_turn

        async def search() -> None:  # a function, not a coroutine: none is made if overtaken first
            await self._search_off_the_key(query, rest.terms, source, turn)

        self.run_worker(
            search,  # type: ignore[arg-type]  # Textual types a coroutine function as Coroutine[None, None, T]
            group="search",
            exclusive=True,
            exit_on_error=False,
        )

    async def _search_off_the_key(self, query: str, wanted: tuple[str, ...], source: list, turn: int) -> None:
        drawn = asyncio.Event()
        self.call_after_refresh(drawn.set)
        await drawn.wait()  # the box's frame first: its character, then the search
        if turn != self.search_turn:
            return
        before = self.filters
        started = time.perf_counter()
        for _ in self.search_index.steps(source, wanted):
            if time.perf_counter() - started > SLICE_S:
                await asyncio.sleep(0)  # a frame, a key
                if turn != self.search_turn:
                    return
                started = time.perf_counter()
        if turn == self.search_turn and self.filters == before:
            self.filters = self.filters._replace(query=query)  # answered from memory now

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
        self.run_worker(
            self._prepare_search,  # type: ignore[arg-type]  # as in on_search_bar_changed
            group="search-texts",
            exclusive=True,
            exit_on_error=False,
        )

    async def _prepare_search(self) -> None:
        library = self.library.reviews
        started = time.perf_counter()
        for _ in self.search_index.prepare(self._unmuted()):  # All's list: the one most searched
            if time.perf_counter() - started > PREPARE_SLICE_S:
                await asyncio.sleep(PREPARE_PAUSE_S)
                if self.library.reviews is not library:
                    return  # a reload: a search makes the texts it lacks
                started = time.perf_counter()

    def on_search_bar_submitted(self, message: SearchBar.Submitted) -> None:
        """Enter: close the box, keep the search, open the first match."""
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
        bar = self.search_bar
        refocus = bar.display
        bar.close()
        self.filters = self.filters._replace(query="")
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
