"""The search keys of the reader's screen: the search box's messages (typing
searches as you type, enter opens the first match, escape clears), `/` and
`n` / `N`. Searching itself is `tui.core.search`'s; the filters hold the query.
"""

from __future__ import annotations

from tui.i18n import words
from tui.ui.panes import PANES, ReaderPanes
from tui.ui.widgets.search_bar import SearchBar


class SearchKeys(ReaderPanes):
    def on_search_bar_changed(self, message: SearchBar.Changed) -> None:
        self.filters = self.filters._replace(query=message.query)

    def on_search_bar_submitted(self, message: SearchBar.Submitted) -> None:
        """Enter: close the box, keep the search, open the first match."""
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
        bar = self.search_bar
        refocus = bar.display
        bar.close()
        self.filters = self.filters._replace(query="")
        if refocus:
            self._focus_pane(self.pane if self.pane in PANES else "reviews")

    def action_search(self) -> None:
        self.search_bar.open(self.filters.query)

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
