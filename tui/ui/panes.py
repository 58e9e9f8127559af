"""The reader's screen, its state and its panes: what is chosen (the filters,
the review, the pane with focus), what the panes are given to show, and moving
the focus and the selection. `tui.ui.reader.ReaderScreen` adds the keys and
messages that change them, with the search keys (`tui.ui.search_keys`) and the
mark keys (`tui.ui.mark_keys`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from textual.content import Content
from textual.reactive import reactive

from tui.core.filters import (
    REPO_PREFIX,
    VIEW_PREFIX,
    Filters,
    Narrowed,
    is_real_tag,
    labels,
    marks_narrow,
    prepare_unchecked,
    select,
)
from tui.core.marks import changes, checked_items
from tui.core.model import ALL_TAG, UNREAD_TAG, Library, Review
from tui.core.order import LibraryRanks
from tui.core.search import SearchIndex
from tui.core.table import ReviewTable
from tui.core.table_library import TableLibrary
from tui.core.views import View, unmuted
from tui.i18n import words
from tui.store.saver import StateSaver
from tui.store.state import ReadState
from tui.ui import presenting
from tui.ui.screens.base import MainScreen
from tui.ui.sidebar import SidebarCounts
from tui.ui.table_rows import TableRows
from tui.ui.widgets.filter_bar import FilterBar, SearchState
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.search_bar import SearchBar
from tui.ui.widgets.status_bar import StatusBar
from tui.ui.widgets.tag_list import TagList

PANES = ("tags", "reviews", "review")
"""The panes, in the order tab visits them."""


class ReaderPanes(MainScreen):
    # repaint=False: a reactive on a screen repaints all of it when it changes;
    # the watchers below refresh just the panes the change touches.
    filters: reactive[Filters] = reactive(Filters(), init=False, repaint=False)
    current_key: reactive[str | None] = reactive(None, init=False, repaint=False)
    pane: reactive[str] = reactive("reviews", init=False, repaint=False)

    def __init__(self, state: ReadState, key_for: Callable[[str], str]) -> None:
        """`key_for`: how the key bound to a binding id is shown, after the user's keymap."""
        super().__init__(id="_default")
        self.state = state
        self.saver = StateSaver(state)  # saves off the loop: a held lock never freezes it
        self.key_for = key_for
        self.library = Library()
        self.search_index = SearchIndex()
        self.load_progress: tuple[int, int] | None = None  # files parsed, files to parse
        # From the config (`ViewKeys.configure`); the mutes change from the palette too.
        self.views: dict[str, View] = {}
        self.mute: frozenset[str] = frozenset()
        self.read_on_open: frozenset[str] = frozenset()
        self.sidebar = SidebarCounts()
        self.table_rows = TableRows()  # the counts and the list while a table's index is made
        self.search_turn = 0  # the search box's changes so far: see tui.ui.search_keys
        self.search_prepared: bool | None = None  # texts made ahead: None until the load ends
        self._unmuted_list: tuple[list[Review], frozenset[str], list[Review]] | None = None
        # The library's reading order by key (made once everything is loaded:
        # `rank_library`) and the filters' recent answers: see tui.core.order.
        self.ranks = LibraryRanks()
        self.narrowed = Narrowed()
        self._narrowed_for: list[Review] | None = None

    # Typed accessors for the panes.
    @property
    def tag_list(self) -> TagList:
        return self.query_one(TagList)

    @property
    def review_list(self) -> ReviewList:
        return self.query_one(ReviewList)

    @property
    def review_view(self) -> ReviewView:
        return self.query_one(ReviewView)

    @property
    def search_bar(self) -> SearchBar:
        return self.query_one(SearchBar)

    @property
    def filter_bar(self) -> FilterBar:
        return self.query_one(FilterBar)

    # -- data down ---------------------------------------------------------------

    def checked(self, review: Review) -> frozenset[str]:
        return checked_items(self.state, review)

    def _visible(self, found: list[Review] | None = None, under: Filters | None = None) -> Sequence[Review]:
        """The reviews listed: one pass over the tag's reviews. The open review
        stays listed after it is marked read or checked, so the list does not
        jump under the reader's cursor. `found`: the first matches of a search
        still running (tui.ui.search_keys), to pass the other filters. `under`:
        the filters to list by, if not the screen's (what a key would list:
        tui.ui.look_ahead)."""
        under = self.filters if under is None else under
        table = self._table_pending()
        if table is not None and found is None:
            listed = self.table_rows.listed(table, self.state, under, self.views, self.mute, self.current_key)
            if listed is not None:
                return listed
        source, filters = self._source_and_filters(under)
        reviews = self.library.reviews  # made now, if a table's index was not yet (a search)
        if self._narrowed_for is not reviews:  # what was kept narrowed the library before
            self.narrowed.clear()
            self._narrowed_for = reviews
        if found is not None:
            source, filters = found, filters._replace(query="")
        return select(
            source,
            filters,
            is_read=self.state.is_read,
            read_keys=self.state.read_set,
            marked=self._marked() if under.unchecked else None,
            checked=self.checked,
            index=self.search_index,
            keep=self.current_key,
            ranks=self.ranks.ready(reviews),
            kept=self.narrowed if found is None else None,
        )

    def _table_pending(self) -> ReviewTable | None:
        """The library's table while its `Review` index is not made yet (a start
        from the saved table): the counts and the list are then the table's."""
        library = self.library
        return library.pending if isinstance(library, TableLibrary) else None

    def _marked(self) -> dict[str, Review]:
        """The reviews listed with an item mark, by key."""
        by_key = self.library.by_key
        return {key: by_key[key] for key in self.state.marked_set if key in by_key}

    def _source_and_filters(self, filters: Filters | None = None) -> tuple[list[Review], Filters]:
        """What `select` starts from and what it has left to do. Under a view
        whose tags, verdicts, repos and search are as it set them, its members
        (worked out once per library by the sidebar) are all that passes
        those: a view key costs what its unread and unchecked filters cost.
        `filters`: the filters to list by, if not the screen's own yet."""
        filters = self.filters if filters is None else filters
        if not filters.tag.startswith(VIEW_PREFIX):
            return self._source(filters.tag), filters
        name = filters.tag.removeprefix(VIEW_PREFIX)
        view = self.views.get(name)
        if view is None or (view.tags, view.verdicts, view.repos) != (
            filters.tags,
            filters.verdicts,
            filters.repos,
        ):
            return self._source(filters.tag), filters
        if view.search and filters.query != view.search:
            return self._source(filters.tag), filters
        members = self.sidebar.members(name, self.library, self.views, self.mute, self.search_index)
        if members is None:
            return self._source(filters.tag), filters
        rest = filters._replace(tags=frozenset(), verdicts=frozenset(), repos=frozenset())
        return members, rest._replace(query="") if view.search else rest

    def _source(self, tag: str | None = None) -> list[Review]:
        """The reviews under the tag (the screen's, or `tag`), before the other filters."""
        tag = self.filters.tag if tag is None else tag
        # Muted reviews are listed under their own tags only.
        return self.library.under(tag) if is_real_tag(tag) else self._unmuted()

    def _unmuted(self) -> list[Review]:
        """Every review less the muted, the same list object until the library or
        the mutes change: the search remembers its recent answers per list, and
        a copy each key made a query typed further test every review again."""
        reviews, mute = self.library.reviews, self.mute
        if not mute:
            return reviews
        kept = self._unmuted_list
        if kept is None or kept[0] is not reviews or kept[1] != mute:
            kept = self._unmuted_list = (reviews, mute, unmuted(reviews, mute))
        return kept[2]

    def settle_search(self) -> None:
        """Finish a search still scanning (tui.ui.search_keys): the list is used whole."""

    def _row(self, review: Review) -> presenting.ReviewRow:
        return presenting.review_row(self.library, self.state, review, self.mute)

    def sidebar_rows(self) -> list[presenting.TagCount]:
        """All, Unread, the views, the tags and the repos, with their counts."""
        table = self._table_pending()
        if table is not None:
            rows = self.table_rows.sidebar(table, self.state, self.views, self.mute)
            if rows is not None:
                self.sidebar.all = rows[0]  # the status bar's counts
                return rows
        return self.sidebar.rows(self.library, self.state, self.views, self.mute, self.search_index)

    def _listed_in_sidebar(self, key: str) -> bool:
        if key in (ALL_TAG, UNREAD_TAG) or key in self.library.tags:
            return True
        if key.startswith(REPO_PREFIX):
            return len(self.library.repos) > 1 and key.removeprefix(REPO_PREFIX) in self.library.repos
        return not is_real_tag(key)  # a view: the config's, there for the whole run

    def _refresh_all(self, fallback: int = 0, *, relist: bool = True) -> None:
        """Redraw from the model and the marks. A review or tag that is gone is
        replaced by a neighbour: the row at `fallback` in the list. With
        `relist` False (only marks changed, and no filter depends on them) the
        same reviews stay listed and only their rows and the review are redrawn."""
        if relist:
            # Reviews that gained a `pr:`; the generator asks for a table's index
            # only when there are marks under titles to adopt.
            self.state.adopt_title_marks(_every(self.library))
        if self.current_key not in self.library.by_key:
            self.set_reactive(ReaderPanes.current_key, None)
            relist = True
        if not self._listed_in_sidebar(self.filters.tag):
            self.set_reactive(ReaderPanes.filters, self.filters.choose(ALL_TAG, self.views))
            relist = True
        self.tag_list.show_counts(self.sidebar_rows(), self.filters.tag)
        if relist:
            self._refresh_list(fallback)
        else:
            self.review_list.redraw_rows()
            self._refresh_review()
        self.refresh_status()

    def _refresh_list(self, fallback: int = 0, found: list[Review] | None = None) -> None:
        """`found`: list the first matches of a search still running, its count marked so."""
        filters = self.filters
        if filters.narrowing or filters.tag == UNREAD_TAG:
            empty = words().no_reviews_filtered.format(key=self.key_for("filter.clear"))
        else:
            empty = words().no_reviews
        terms = filters.terms
        listing = self.review_list
        key = listing.show_reviews(
            self._visible(found),
            self._row,
            self.current_key,
            empty,
            fallback,
            terms=terms,
            ranks=None if self._table_pending() is not None else self.ranks.ready(self.library.reviews),
        )
        view = self.review_view
        if key != self.current_key:
            view.set_terms(terms, now=False)  # not the review shown until now: the next is laid out with them
            self.current_key = key
            view.set_terms(terms)  # laid out with them already, unless no other review was shown
        else:
            view.set_terms(terms)
            self._refresh_review()
        self._refresh_filter_bar(state=None if found is None else "counting")

    def rank_library(self) -> None:
        """Rank the library's reading order now (~10 ms at 100,000 reviews), in a
        quiet moment after a load or a reload rather than in the next key: the
        filters and the review list find reviews by it (tui.core.order)."""
        self.ranks.of(self.library.reviews)
        self._prepare_unchecked()

    def _prepare_unchecked(self) -> None:
        """The unchecked filter's pass over a whole list (~12-18 ms each at
        100,000 reviews), worked out in that quiet moment for the lists it
        starts from unnarrowed: every review (`t` under All) and each unchecked
        view's members, one list a turn of the loop. Choosing such a view in
        the tags pane was the slowest tag switch."""
        reviews = self.library.reviews
        if self._narrowed_for is not reviews:
            self.narrowed.clear()
            self._narrowed_for = reviews
        sources = [self._unmuted()]  # what `_source` gives All
        for name, view in self.views.items():
            if view.unchecked and not view.unread:  # unread first makes a new list each key
                members = self.sidebar.members(name, self.library, self.views, self.mute, self.search_index)
                if members is not None:  # what `_source_and_filters` starts the view from
                    sources.append(members)
        self._prepare_next(reviews, sources)

    def _prepare_next(self, reviews: list[Review], sources: Sequence[Sequence[Review]]) -> None:
        if self.library.reviews is not reviews or self._narrowed_for is not reviews:
            return  # the library changed meanwhile: its own ranking prepares its lists
        prepare_unchecked(sources[0], self.narrowed)
        if len(sources) > 1:
            self.call_after_refresh(self._prepare_next, reviews, sources[1:])

    def _refresh_review(self) -> None:
        review = self.library.by_key.get(self.current_key) if self.current_key else None
        view = self.review_view
        if review is None:
            view.show(None, frozenset(), False)
            return
        view.show(
            review,
            self.checked(review),
            self.state.is_read(review.key),
            changes=changes(self.state, review),
            stale=self.library.is_stale(review),
        )

    def refresh_status(self) -> None:
        counts = self.sidebar.all  # muted reviews are not counted: see tui.ui.sidebar
        self.query_one(StatusBar).show(
            self.library.repos,
            counts.total,
            counts.unread,
            self.library.problem_count,
            self.load_progress,
        )
        # The list's own filters under it (its tag is the one highlighted above it).
        narrowing = labels(self.filters._replace(tag=ALL_TAG))
        self.query_one("#reviews").border_subtitle = Content(" · ".join(narrowing))  # tag names: never markup

    def _refresh_filter_bar(self, filters: Filters | None = None, state: SearchState | None = None) -> None:
        """`filters`: a search's, before they are the screen's; `state`: see `FilterBar.show`."""
        filters = self.filters if filters is None else filters
        self.filter_bar.show(
            labels(filters), filters.query, len(self.review_list.reviews), self.key_for("filter.clear"), state
        )
        self.refresh_bindings()  # the clear and next-match keys come and go with the filters

    def watch_filters(self, old: Filters, new: Filters) -> None:
        self._refresh_list()
        if new.query != old.query:
            self.review_view.goto_match(1)
        if new._replace(query="") != old._replace(query=""):
            self.refresh_status()

    def watch_current_key(self) -> None:
        self._refresh_review()

    def watch_pane(self, pane: str) -> None:
        self._sync_reading()

    def _sync_reading(self) -> None:
        """`-reading` swaps the panes on narrow terminals only. Toggling a screen
        class restyles every widget, so wide terminals never toggle it."""
        self.set_class(self.has_class("-narrow") and self.pane == "review", "-reading")

    # -- moving ------------------------------------------------------------------

    def _focus_pane(self, pane: str) -> None:
        """Focus now, so the focus and what the key changed show in one frame;
        but a pane that the narrow layout shows only once `-reading` is applied,
        or one under another screen, is focused after the next refresh."""
        self.pane = pane
        widget = self.query_one(f"#{pane}")
        if self.app.screen is self and not self.has_class("-narrow"):
            self.set_focus(widget)
        else:
            self.call_after_refresh(widget.focus)

    def _go_to(self, key: str) -> None:
        """Select the review `key` in the list (it must be listed) and show it now."""
        listing = self.review_list
        index = listing.position_of(key)
        if listing.reviews and listing.reviews[index].key == key:
            with listing.prevent(ReviewList.Chosen):
                listing.highlighted = index
        self.current_key = key

    def _current_review(self) -> Review | None:
        """The review the keys act on: the one highlighted in the list. A key typed
        right after `j` can arrive before the list's Chosen message does, so the
        list is asked, not the message's last news."""
        key = self.review_list.key
        if key is not None and key != self.current_key:
            self.current_key = key
        return self.library.by_key.get(self.current_key) if self.current_key else None

    def _reset_filters(self) -> None:
        """Every filter off and the tag back to All, with one redraw."""
        self.search_turn += 1  # a search still running is not wanted any more
        self.set_reactive(ReaderPanes.filters, Filters())
        self._refresh_all()

    # -- marks -------------------------------------------------------------------

    def _save(self) -> None:
        """Save (off the loop: `saved` follows) and redraw.

        Unless a filter depends on marks, the same reviews stay listed: only
        their rows, the open review and the counts are drawn again (filtering
        and listing every review again is most of what a mark would cost).
        """
        self.saver.request_save()
        self._refresh_all(relist=marks_narrow(self.filters))
        self._warn()

    def saved(self) -> None:
        """A save finished off the loop: show its warnings, redraw for marks it merged."""
        if self.saver.collect():
            self._refresh_all(relist=marks_narrow(self.filters))
        self._warn()

    def _warn(self) -> None:
        for warning in self.state.warnings:
            self.notify(warning, title=words().state, severity="warning", timeout=10, markup=False)
        self.state.warnings.clear()


def _every(library: Library) -> Iterator[Review]:
    """The library's reviews, asked for when first iterated."""
    yield from library.reviews
