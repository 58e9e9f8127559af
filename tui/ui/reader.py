"""The reader's screen: the tag list, the review list and the review, the
filter, status, search and key bars; their messages and the keys that act on
them. Its state and what the panes are given are in `tui.ui.panes`; the search
keys in `tui.ui.search_keys`, the mark keys in `tui.ui.mark_keys`, refs and the
code pane in `tui.ui.ref_keys`, the views, mutes and `read_on_open` in
`tui.ui.view_keys`.

Widgets post messages up to this screen; it answers by changing the marks (and
saving them) and by pushing fresh data down. Nothing below it touches the disk.
What to do is decided elsewhere and wired here: what the panes show in
`tui.ui.presenting`, searching and filtering in `tui.core.search` and
`tui.core.filters`, what a mark does in `tui.core.marking` (undone in
`tui.core.undo`), hand-offs to other programs in `tui.ui.handover`. Files are
read by `tui.ui.loads`, which hands what it read to `library`, `deliver`
and `apply_updates`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path

from textual.app import ComposeResult

from tui.core.filters import labels, marks_narrow
from tui.core.model import FileUpdate, Library, Problem
from tui.i18n import words
from tui.ui import presenting
from tui.ui.bindings import READER_BINDINGS
from tui.ui.look_ahead import LookAhead
from tui.ui.marks_sync import MarksSync
from tui.ui.panes import PANES
from tui.ui.search_keys import SearchKeys
from tui.ui.view_keys import ViewKeys
from tui.ui.widgets.code_pane import CodePane
from tui.ui.widgets.covered import CoveredColumn, CoveredRow
from tui.ui.widgets.filter_bar import FilterBar
from tui.ui.widgets.key_bar import KeyBar
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.search_bar import SearchBar
from tui.ui.widgets.status_bar import StatusBar
from tui.ui.widgets.tag_list import TagList

NARROW = 72
"""Below this many columns one pane is shown at a time."""


class ReaderScreen(SearchKeys, LookAhead, ViewKeys):  # ViewKeys is a MarkKeys, LookAhead a RefKeys
    BINDINGS = READER_BINDINGS  # see tui/ui/bindings.py
    COMMANDS = ViewKeys.COMMANDS  # the views and the mutes in the palette

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield FilterBar(id="filter-bar")
        with CoveredRow(id="main"):
            with CoveredColumn(id="sidebar"):
                yield TagList(id="tags")
                yield ReviewList(id="reviews")
            yield ReviewView(id="review")
            yield CodePane(id="code")  # in the review's place while a ref is open
        keys = KeyBar()
        yield SearchBar(in_place_of=keys, id="search-bar")
        yield keys

    def on_mount(self) -> None:
        """Show the first files (the App read them as it mounted, before this
        screen was composed) with what the marks say. The review list has
        focus: MainScreen.AUTO_FOCUS."""
        self.query_one("#tags").border_title = words().tags
        self.query_one("#reviews").border_title = words().reviews
        self.search_bar.clear_key = self.key_for("search.cancel")
        self.review_view.hint_keys = {
            "read": self.key_for("review.read"),
            "problems": self.key_for("problems"),
        }
        self.state.load()
        self.saver.wake = partial(asyncio.get_running_loop().call_soon_threadsafe, self.saved)
        self._refresh_all()
        self._warn()
        self.marks_sync = MarksSync(self)  # a shared state folder: marks from other machines
        self.call_after_refresh(self.marks_sync.start)
        self.call_after_refresh(self.state.materialize)  # marks read from a copy: made after the first frame

    def on_unmount(self) -> None:
        self.marks_sync.stop()

    def resized(self, width: int) -> None:
        self.set_class(width < NARROW, "-narrow")
        self._sync_reading()

    # -- files read --------------------------------------------------------------

    def deliver(self, updates: Mapping[Path, FileUpdate | None], problems: Sequence[Problem] = ()) -> None:
        """More of the first load: files the first frame did not show, and
        problems found since (files and folders skipped in folders listed later)."""
        position = self.review_list.position_of(self.current_key)
        self.library.add_problems(problems)
        self.library.apply(updates, compare=False)  # what changed is told for reloads only
        self._refresh_all(fallback=position)

    def from_table(self, library: Library) -> None:
        """Every file, as the saved table has them (`tui.core.table_library`):
        counted and listed from the table until its index is made (`indexed`)."""
        position = self.review_list.position_of(self.current_key)
        self.library = library
        self._refresh_all(fallback=position)

    def indexed(self) -> None:
        """The table's `Review` index is made: the counts and the list are the
        library's from now on, drawn again so no key pays for the change."""
        self._refresh_all(fallback=self.review_list.position_of(self.current_key))

    def apply_updates(self, updates: dict[Path, FileUpdate | None]) -> None:
        """Swap in fresh file contents, keeping the reader's place."""
        position = self.review_list.position_of(self.current_key)
        reloaded = self.library.apply(updates)
        self.search_index.retain(self.library.reviews)
        self.sidebar.forget()  # a view's search reads bodies, which may have changed
        self._refresh_all(fallback=position)
        self.call_after_refresh(self.rank_library)
        if reloaded.added or reloaded.updated:
            self.news_arrived([*reloaded.added, *reloaded.updated])
        if reloaded:
            self.notify(
                presenting.describe_reload(reloaded),
                title=words().reloaded,
                severity="warning" if reloaded.problem_files else "information",
                timeout=4,
                markup=False,
            )

    def marks_arrived(self, machines: set[str]) -> None:
        """Marks from other machines were merged: redraw in place, and say whose."""
        if machines:
            self._refresh_all(relist=marks_narrow(self.filters))
            self.notify(
                words().marks_arrived.format(machines=", ".join(sorted(machines))),
                title=words().state,
                timeout=3,
                markup=False,
            )
        self._warn()

    # -- messages up -------------------------------------------------------------

    def on_tag_list_chosen(self, message: TagList.Chosen) -> None:
        self.filters = self.filters.choose(message.tag, self.views)

    def on_tag_list_opened(self, message: TagList.Opened) -> None:
        self.filters = self.filters.choose(message.tag, self.views)
        self._focus_pane("reviews")

    def on_review_list_chosen(self, message: ReviewList.Chosen) -> None:
        if message.key != self.review_list.key:
            return  # overtaken: the list has moved on since (a jump, or keys typed fast)
        self.current_key = message.key

    def on_review_list_opened(self, message: ReviewList.Opened) -> None:
        self.current_key = message.key
        self._focus_pane("review")

    def on_review_view_item_toggled(self, message: ReviewView.ItemToggled) -> None:
        self.set_checked(message.review_key, message.item_key, message.checked)

    def on_descendant_focus(self) -> None:
        focused = self.focused
        if focused is not None and focused.id in PANES:
            self.pane = focused.id

    # -- moving ------------------------------------------------------------------

    def jump_to_review(self, key: str, *, focus: bool = True) -> None:
        """Show a review from anywhere (the palette, the to-do view); filters
        that would hide it are cleared first."""
        if key not in self.library.by_key:
            return
        self.settle_search()  # the whole list: is it listed?
        if key not in self.review_list:
            self._reset_filters()
        self._go_to(key)
        if focus:
            self._focus_pane("review")

    def cycle_pane(self, step: int) -> None:
        index = PANES.index(self.pane) if self.pane in PANES else 1
        self._focus_pane(PANES[(index + step) % len(PANES)])

    def action_step_back(self) -> None:
        """Escape: out of the search box, the review, the list; a search is cleared on the way."""
        if self.search_bar.display:
            self._clear_search()
        elif self.pane == "review":
            self._focus_pane("reviews")
        elif self.pane == "reviews" and self.filters.query:
            self._clear_search()
        elif self.pane == "reviews":
            self._focus_pane("tags")

    def action_next_unread(self, step: int) -> None:
        """The next unread review in the list, which is in reading order (deep
        reads first, then quick, skim, skip); past the end, round again."""
        self.settle_search()
        self._current_review()
        reviews = self.review_list.reviews
        if not reviews:
            self.notify(words().no_unread, timeout=3, markup=False)
            return
        start = self.review_list.position_of(self.current_key)
        for offset in range(1, len(reviews) + 1):
            review = reviews[(start + step * offset) % len(reviews)]
            if review.key != self.current_key and not self.state.is_read(review.key):
                self._go_to(review.key)
                return
        self.notify(words().no_unread, timeout=3, markup=False)

    # -- filters -----------------------------------------------------------------

    def action_toggle_unread_only(self) -> None:
        self.filters = self.filters._replace(unread=not self.filters.unread)

    def action_toggle_unchecked(self) -> None:
        self.filters = self.filters._replace(unchecked=not self.filters.unchecked)

    def action_cycle_verdict(self) -> None:
        self.filters = self.filters.next_verdict()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The clear-filter and match keys only while there is something to clear or
        match; search only where `/` is not a character being typed."""
        if action == "clear_filters":
            return self.filters.active
        if action == "next_match":
            return bool(self.filters.terms)
        if action == "search":
            # `/` is a priority key (see tui/ui/bindings.py); in the search box it is typed.
            return not self.search_bar.typing
        return True

    def action_clear_filters(self) -> None:
        self._reset_filters()
        self.search_bar.close()

    # -- other views -------------------------------------------------------------

    def action_toggle_keys(self) -> None:
        if self.query("HelpPanel"):
            self.app.action_hide_help_panel()
        else:
            self.app.action_show_help_panel()

    def action_show_problems(self) -> None:
        from tui.ui.screens.problems import ProblemsScreen

        self.app.push_screen(ProblemsScreen(self.library.all_problems()))

    def action_show_todo(self) -> None:
        """Open actions and caveats of the reviews listed (the tag's, as filtered)."""
        from tui.ui.screens.todo import TodoScreen

        self.settle_search()
        labels_now = labels(self.filters)
        scope = " · ".join(labels_now) if labels_now else words().scope_all
        self.app.push_screen(
            TodoScreen(
                list(self.review_list.reviews), self.checked, scope, self.set_checked, self.jump_to_review
            )
        )
