"""The App: layout and the wiring between model, state and widgets.

Widgets post messages up; the app answers them by changing state (and saving
it) and by pushing fresh data down. Nothing below the app touches the disk.
What to do is decided elsewhere and wired here: what the panes show in
`tui.ui.presenting`, searching and filtering in `tui.core.search` and `tui.core.filters`,
what a mark does in `tui.core.marking` (undone in `tui.core.undo`), reading files in
`tui.load.first_frame` and `tui.load.reload`, the config in `tui.store.config` and
`tui.ui.keymap`, hand-offs to other programs in `tui.core.external` and
`tui.ui.handover`. The keys are listed in `tui.ui.bindings`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from textual import constants, events, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.containers import Horizontal, Vertical
from textual.reactive import Initialize, Reactive, reactive
from textual.screen import Screen
from textual.theme import BUILTIN_THEMES

from tui import __version__, collector, words, writer
from tui.core.filters import Filters, labels, marks_narrow, select
from tui.core.model import ALL_TAG, UNREAD_TAG, FileUpdate, Library, Review
from tui.core.search import SearchIndex
from tui.load.cache import ParseCache
from tui.load.discover import split_roots
from tui.load.first_frame import (
    FirstPart,
    finish_first_part,
    first_library,
    first_part,
    from_cache,
    parse_in_background,
)
from tui.store import uistate
from tui.store.state import ReadState
from tui.ui import presenting
from tui.ui.bindings import APP_BINDINGS
from tui.ui.screens.base import MainScreen
from tui.ui.widgets.filter_bar import FilterBar
from tui.ui.widgets.key_bar import KeyBar
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.search_bar import SearchBar
from tui.ui.widgets.status_bar import StatusBar
from tui.ui.widgets.tag_list import TagList

if TYPE_CHECKING:  # imported where used: start-up does not need them
    from textual.command import Provider
    from textual.timer import Timer

    from tui.core.external import CopyTurn
    from tui.core.undo import ReadUndo
    from tui.ui.commands import PaletteAction, PaletteTag
    from tui.ui.widgets.todo_list import TodoList

NARROW = 72
"""Below this many columns one pane is shown at a time."""

CACHE_SAVE_QUIET_S = 5.0
"""After a reload, the parse cache is written once files have not changed for
this long: a save writes the whole cache (~22 MB at 10,000 reviews), and files
edited one after another (an editor's saves, a checkout) would write it again
and again. Quitting before then costs the next start a parse of those files."""

PANES = ("tags", "reviews", "review")


# The palette's providers are imported when it first opens (Textual takes a
# callable returning a provider class): start-up does not need them.
def _reviews_provider() -> type[Provider]:
    from tui.ui.commands import ReviewCommands

    return ReviewCommands


def _tags_provider() -> type[Provider]:
    from tui.ui.commands import TagCommands

    return TagCommands


def _actions_provider() -> type[Provider]:
    from tui.ui.commands import ActionCommands

    return ActionCommands


def _remembered_theme(ui_path: Path | None) -> tuple[str, str | None]:
    """The theme to start with: the one chosen last time if Textual has it, else
    Textual's default (TEXTUAL_THEME or textual-dark); and the name of a chosen
    theme that is not available, to warn about."""
    remembered = uistate.load(ui_path).get("theme")
    if not remembered:
        return constants.DEFAULT_THEME, None
    if remembered in BUILTIN_THEMES:
        return remembered, None
    return constants.DEFAULT_THEME, remembered


class PrDigestApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "prdigest-tui"
    COMMANDS = App.COMMANDS | {_reviews_provider, _tags_provider, _actions_provider}

    BINDINGS = APP_BINDINGS  # Textual reads them from the class; see tui/bindings.py

    # repaint=False: a reactive on the App repaints the whole screen when it
    # changes; the watchers below refresh just the panes the change touches.
    current_tag: reactive[str] = reactive(ALL_TAG, init=False, repaint=False)
    current_key: reactive[str | None] = reactive(None, init=False, repaint=False)
    unread_only: reactive[bool] = reactive(False, init=False, repaint=False)
    unchecked_only: reactive[bool] = reactive(False, init=False, repaint=False)
    verdict_filter: reactive[str | None] = reactive(None, init=False, repaint=False)
    query: reactive[str] = reactive("", init=False, repaint=False)
    # The remembered theme from the start (`_initial_theme`), not set on mount:
    # setting it then had Textual parse the stylesheet again and restyle every
    # widget before the first frame, ~15 ms of the start of whoever chose a theme.
    theme: Reactive[str] = Reactive(Initialize(lambda app: app._initial_theme))
    pane: reactive[str] = reactive("reviews", init=False, repaint=False)

    def __init__(
        self,
        paths: list[Path],
        state_path: Path | None,
        *,
        watch: bool = True,
        cache_path: Path | None = None,
        config_path: Path | None = None,
        ui_path: Path | None = None,
        first: FirstPart | None = None,
    ) -> None:
        """`first`: the first frame's files, planned (and maybe being parsed) by
        the command line before Textual was imported (see loading.plan_first_part);
        it brings the parse cache, so `cache_path` is then not read."""
        # Read before Textual's __init__, which builds the stylesheet's variables from the theme.
        self._initial_theme, self._unknown_theme = _remembered_theme(ui_path)
        super().__init__()
        self.paths = paths
        self.cache = first.cache if first is not None else ParseCache(cache_path, version_key=__version__)
        self._first = first
        self.loading: tuple[int, int] | None = None  # files parsed, files to parse
        self.folders, self.files = split_roots(paths)
        self.state = ReadState(state_path)
        self.library = Library()
        self.watching = watch
        self.config_path = config_path
        self.ui_path = ui_path
        self.search_index = SearchIndex()
        self._undo_marks: ReadUndo | None = None
        self.keymap: dict[str, str] = {}  # binding id -> keys, from the user's config
        self._copy_turn: CopyTurn | None = None  # what `c` copied last: again, the next ref
        self._clashes: set[frozenset[str]] = set()
        self._stop_watch = asyncio.Event()
        self._pending: set[Path] = set()
        self._applying = False
        self._rest: list[Path] = []  # files the first frame did not show
        self.reloads = 0  # applied reloads, for tests and benchmarks
        self.cache_save_quiet_s = CACHE_SAVE_QUIET_S
        self._cache_save: Timer | None = None  # the save after reloads, waiting for quiet
        self._switch_interval: float | None = None  # CPython's, while ours is set (tui.writer)

    @property
    def undo_marks(self) -> ReadUndo:
        """What `z` undoes; made (and tui.core.undo imported) at the first mark."""
        if self._undo_marks is None:
            from tui.core.undo import ReadUndo

            self._undo_marks = ReadUndo()
        return self._undo_marks

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.InputEvent):
            collector.note_input()  # full collections wait for a pause in the input
        await super().on_event(event)

    def get_default_screen(self) -> Screen:
        return MainScreen(id="_default")

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield FilterBar(id="filter-bar")
        with Horizontal(id="main"):
            with Vertical(id="sidebar"):
                yield TagList(id="tags")
                yield ReviewList(id="reviews")
            yield ReviewView(id="review")
        yield SearchBar(id="search-bar")
        yield KeyBar()

    def on_mount(self) -> None:
        self._switch_interval = writer.quicken()  # frames reach the terminal sooner
        self.query_one("#tags").border_title = words.TAGS
        self.query_one("#reviews").border_title = words.REVIEWS
        self._apply_config()
        self.query_one(ReviewView).hint_keys = {
            "read": self.key_for("review.read"),
            "problems": self.key_for("problems"),
        }
        self._follow_theme_choice()
        self.state.load()
        if self._first is not None:
            hits, rest, missing = finish_first_part(self._first)
            self._first = None
        else:
            hits, rest, missing = first_part(self.paths, self.cache)
        self.library = first_library(hits, missing)
        self._refresh_all()  # the review list has focus: MainScreen.AUTO_FOCUS
        self._warn()
        self._rest = rest

    def on_ready(self) -> None:
        """The first frame is on screen: load what it did not show. Not before:
        starting parse workers or the watcher (which imports anyio) would only
        delay it. And not after the next refresh (`call_after_refresh`): widgets
        mounted for the first frame ask for two or three more layouts, which
        held the load back ~40 ms at 10,000 reviews."""
        self.load_rest(self._rest)

    @work(exclusive=True, group="load", exit_on_error=False)
    async def load_rest(self, rest: list[Path]) -> None:
        """The files the first frame did not show: those the cache has at once,
        the others parsed in the background; then start watching for changes."""
        try:
            cached, misses = from_cache(rest, self.cache)
            if cached:
                self._deliver(cached)
            if misses:
                self.loading = (0, len(misses))
                self._refresh_status()

                def progress(done: int, total: int) -> None:
                    self.loading = (done, total)
                    self._refresh_status()

                await parse_in_background(misses, self.cache, self._deliver, progress)
                self.loading = None
                self._refresh_status()
        finally:
            collector.on_after_loading()  # `tui.cli.run` starts with it off
        self._save_cache()
        # The search box, ready for a `/` (SearchBar.prepare); after the frame
        # that shows what was just loaded, as the watcher, whose first start
        # imports watchfiles and anyio (~25 ms), which would delay it.
        self.call_after_refresh(self.query_one(SearchBar).prepare)
        if self.watching:
            self.call_after_refresh(self.watch_entries)

    def _deliver(self, updates: dict[Path, FileUpdate]) -> None:
        position = self.query_one(ReviewList).position_of(self.current_key)
        self.library.apply(updates)
        self._refresh_all(fallback=position)

    @work(thread=True, exclusive=True, group="cache", exit_on_error=False)
    def _save_cache(self) -> None:
        self.cache.save()

    def on_unmount(self) -> None:
        self._stop_watch.set()
        if self._switch_interval is not None:
            writer.restore(self._switch_interval)

    def on_resize(self, event: events.Resize) -> None:
        self.screen_stack[0].set_class(event.size.width < NARROW, "-narrow")
        self._sync_reading()

    # -- config, keymap, theme ----------------------------------------------------

    @classmethod
    def binding_ids(cls) -> set[str]:
        """Every binding id a keymap may name: the app's and every widget's and screen's."""
        from tui.ui.keymap import binding_ids, binding_owners

        return binding_ids(binding_owners(cls))

    def _apply_config(self) -> None:
        """Read the user's config; every problem in it is a warning, never fatal."""
        if self.config_path is None or not os.path.lexists(self.config_path):
            return  # the usual case: no config, and nothing (yaml, every screen's bindings) to import
        from tui.store import config
        from tui.ui.keymap import binding_ids, binding_owners, keymap_clashes

        owners = binding_owners(type(self))
        loaded = config.load(self.config_path, binding_ids(owners))
        for warning in loaded.warnings:
            self.notify(warning, title=words.CONFIG, severity="warning", timeout=12, markup=False)
        for key, ids in keymap_clashes(owners, loaded.keymap):
            self._report_clash(key, ids)
        if loaded.keymap:
            self.keymap = loaded.keymap
            self.set_keymap(loaded.keymap)

    def handle_bindings_clash(self, clashed_bindings: set[Binding], node: object) -> None:
        """Textual found a keymap clash (it calls this on every key press): say so once."""
        keys = ", ".join(sorted({binding.key for binding in clashed_bindings}))
        self._report_clash(keys, [binding.id or binding.action for binding in clashed_bindings])

    def _report_clash(self, key: str, ids: list[str]) -> None:
        clash = frozenset(ids)
        if clash in self._clashes:
            return
        self._clashes.add(clash)
        self.notify(
            words.CONFIG_CLASH.format(key=key, actions=", ".join(sorted(clash))),
            title=words.CONFIG,
            severity="warning",
            timeout=12,
            markup=False,
        )

    def _follow_theme_choice(self) -> None:
        """The remembered theme is in use already (`theme`): say if it was not
        available, and remember the next one chosen."""
        if self._unknown_theme:
            self.notify(
                words.THEME_UNKNOWN.format(theme=self._unknown_theme),
                severity="warning",
                timeout=8,
                markup=False,
            )
        self.theme_changed_signal.subscribe(self, self._remember_theme)

    def _remember_theme(self, theme: object) -> None:
        name = getattr(theme, "name", None)
        if isinstance(name, str) and uistate.load(self.ui_path).get("theme") != name:
            uistate.save(self.ui_path, theme=name)

    # -- data down ---------------------------------------------------------------

    def _checked(self, review: Review) -> frozenset[str]:
        return presenting.checked(self.state, review)

    @property
    def filters(self) -> Filters:
        return Filters(
            tag=self.current_tag,
            verdict=self.verdict_filter,
            unread=self.unread_only,
            unchecked=self.unchecked_only,
            query=self.query,
        )

    def _visible(self) -> list[Review]:
        """The reviews listed: one pass over the tag's reviews. The open review
        stays listed after it is marked read or checked, so the list does not
        jump under the reader's cursor."""
        return select(
            self.library.under(self.current_tag),
            self.filters,
            is_read=self.state.is_read,
            read_keys=self.state.read_keys(),
            checked=self._checked,
            index=self.search_index,
            keep=self.current_key,
        )

    def _row(self, review: Review) -> presenting.ReviewRow:
        return presenting.review_row(self.library, self.state, review)

    def _refresh_all(self, fallback: int = 0, *, relist: bool = True) -> None:
        """Redraw from the model and state. A review or tag that is gone is
        replaced by a neighbour: the row at `fallback` in the list. With
        `relist` False (only marks changed, and no filter depends on them) the
        same reviews stay listed and only their rows and the review are redrawn."""
        if self.current_key not in self.library.by_key:
            self.set_reactive(PrDigestApp.current_key, None)
            relist = True
        if self.current_tag not in (ALL_TAG, UNREAD_TAG) and self.current_tag not in self.library.tags:
            self.set_reactive(PrDigestApp.current_tag, ALL_TAG)
            relist = True
        self.query_one(TagList).show_counts(presenting.tag_counts(self.library, self.state), self.current_tag)
        if relist:
            self._refresh_list(fallback)
        else:
            self.query_one(ReviewList).redraw_rows()
            self._refresh_review()
        self._refresh_status()

    def _refresh_list(self, fallback: int = 0) -> None:
        filters = self.filters
        if filters.narrowing or filters.tag == UNREAD_TAG:
            empty = words.NO_REVIEWS_FILTERED.format(key=self.key_for("filter.clear"))
        else:
            empty = words.NO_REVIEWS
        reviews = self._visible()
        terms = filters.terms
        listing = self.query_one(ReviewList)
        key = listing.show_reviews(reviews, self._row, self.current_key, empty, fallback, terms=terms)
        self.query_one(ReviewView).set_terms(terms)
        if key != self.current_key:
            self.current_key = key
        else:
            self._refresh_review()
        self._refresh_filter_bar()

    def _refresh_review(self) -> None:
        review = self.library.by_key.get(self.current_key) if self.current_key else None
        view = self.query_one(ReviewView)
        if review is None:
            view.show(None, frozenset(), False)
            return
        view.show(
            review,
            self._checked(review),
            self.state.is_read(review.key),
            changes=presenting.changes(self.state, review),
            stale=self.library.is_stale(review),
        )

    def _refresh_status(self) -> None:
        self.query_one(StatusBar).show(
            self.library.repos,
            len(self.library.reviews),
            presenting.unread_count(self.library, self.state),
            self.library.problem_count,
            self.loading,
        )
        # The list's own filters under it (its tag is the one highlighted above it).
        narrowing = labels(self.filters._replace(tag=ALL_TAG))
        self.query_one("#reviews").border_subtitle = " · ".join(narrowing)

    def _refresh_filter_bar(self) -> None:
        filters = self.filters
        self.query_one(FilterBar).show(
            labels(filters),
            filters.query,
            len(self.query_one(ReviewList).reviews),
            self.key_for("filter.clear"),
        )
        self.refresh_bindings()  # the clear and next-match keys come and go with the filters

    def key_for(self, binding_id: str) -> str:
        """How the key bound to `binding_id` (an app binding) is shown, after any remapping."""
        for binding in self.BINDINGS:
            if isinstance(binding, Binding) and binding.id == binding_id:
                remapped = self.keymap.get(binding_id)
                if remapped:
                    binding = binding.with_key(remapped.split(",")[0].strip())
                return self.get_key_display(binding)
        return ""

    def watch_current_tag(self) -> None:
        self._refresh_list()
        self._refresh_status()

    def watch_current_key(self) -> None:
        self._refresh_review()

    def watch_unread_only(self) -> None:
        self._refresh_list()
        self._refresh_status()

    def watch_unchecked_only(self) -> None:
        self._refresh_list()
        self._refresh_status()

    def watch_verdict_filter(self) -> None:
        self._refresh_list()
        self._refresh_status()

    def watch_query(self) -> None:
        self._refresh_list()
        self.query_one(ReviewView).goto_match(1)

    def watch_pane(self, pane: str) -> None:
        self._sync_reading()

    def _sync_reading(self) -> None:
        """`-reading` swaps the panes on narrow terminals only. Toggling a screen
        class restyles every widget, so wide terminals never toggle it."""
        screen = self.screen_stack[0]
        screen.set_class(screen.has_class("-narrow") and self.pane == "review", "-reading")

    # -- messages up -------------------------------------------------------------

    def on_tag_list_chosen(self, message: TagList.Chosen) -> None:
        self.current_tag = message.tag

    def on_tag_list_opened(self, message: TagList.Opened) -> None:
        self.current_tag = message.tag
        self._focus_pane("reviews")

    def on_review_list_chosen(self, message: ReviewList.Chosen) -> None:
        if message.key != self.query_one(ReviewList).key:
            return  # overtaken: the list has moved on since (a jump, or keys typed fast)
        self.current_key = message.key

    def on_review_list_opened(self, message: ReviewList.Opened) -> None:
        self.current_key = message.key
        self._focus_pane("review")

    def on_review_view_item_toggled(self, message: ReviewView.ItemToggled) -> None:
        self._set_checked(message.review_key, message.item_key, message.checked)

    def on_todo_list_toggled(self, message: TodoList.Toggled) -> None:
        from tui.ui.screens.todo import TodoScreen

        self._set_checked(message.review_key, message.item_key, message.checked)
        if isinstance(self.screen, TodoScreen):
            self.screen.refresh_marks()

    def on_todo_list_go(self, message: TodoList.Go) -> None:
        from tui.ui.screens.todo import TodoScreen

        if isinstance(self.screen, TodoScreen):
            self.screen.dismiss()
        self.jump_to_review(message.review_key, focus=True)

    def _set_checked(self, review_key: str, item_key: str, value: bool) -> None:
        from tui.core import marking

        review = self.library.by_key.get(review_key)
        if review is None:
            return
        marking.set_checked(self.state, review, item_key, value)
        self._save()

    def on_search_bar_changed(self, message: SearchBar.Changed) -> None:
        self.query = message.query

    def on_search_bar_submitted(self, message: SearchBar.Submitted) -> None:
        """Enter: close the box, keep the search, open the first match."""
        self.query = message.query
        self.query_one(SearchBar).close()
        listing = self.query_one(ReviewList)
        if not self.filters.terms:
            self._focus_pane("reviews")
            return
        if not listing.reviews:
            self.notify(words.NO_MATCHES, severity="warning", timeout=4, markup=False)
            self._focus_pane("reviews")
            return
        self._go_to(listing.reviews[0].key)
        self.query_one(ReviewView).current_match = None
        self.query_one(ReviewView).goto_match(1)
        self._focus_pane("review")

    def on_search_bar_cancelled(self, message: SearchBar.Cancelled) -> None:
        self._clear_search()

    def _clear_search(self) -> None:
        bar = self.query_one(SearchBar)
        refocus = bar.display
        bar.close()
        self.query = ""
        if refocus:
            self._focus_pane(self.pane if self.pane in PANES else "reviews")

    def on_descendant_focus(self) -> None:
        focused = self.focused
        if focused is not None and focused.id in PANES:
            self.pane = focused.id

    # -- hot reload --------------------------------------------------------------

    @work(exclusive=True, group="watch", exit_on_error=False)
    async def watch_entries(self) -> None:
        from tui.load.watch import watch, watch_roots

        def notice(text: str) -> None:
            self.notify(text, title=words.WATCHING, severity="warning", timeout=8, markup=False)

        roots = watch_roots(self.folders, self.files)
        async for changed in watch(roots, self._stop_watch, notice):
            self._pending |= changed
            if not self._applying:
                self.apply_pending()

    @work(group="reload", exit_on_error=False)
    async def apply_pending(self) -> None:
        """Apply changes until none are pending; changes that arrive meanwhile
        are folded into the next round, so a burst becomes one or two refreshes."""
        from tui.load.reload import read_changes  # the parser: not needed until a file changes

        self._applying = True
        try:
            while self._pending:
                changed, self._pending = self._pending, set()
                updates = await read_changes(
                    changed, self.folders, self.files, self.library.files, self.cache
                )
                if updates:
                    self.apply_updates(updates)
            self._save_cache_when_quiet()
        finally:
            self._applying = False

    def _save_cache_when_quiet(self) -> None:
        if self._cache_save is not None:
            self._cache_save.stop()
        self._cache_save = self.set_timer(self.cache_save_quiet_s, self._save_cache, name="save parse cache")

    def apply_updates(self, updates: dict[Path, FileUpdate | None]) -> None:
        """Swap in fresh file contents, keeping the reader's place."""
        position = self.query_one(ReviewList).position_of(self.current_key)
        changes = self.library.apply(updates)
        self.search_index.retain(self.library.reviews)
        self.reloads += 1
        self._refresh_all(fallback=position)
        if changes:
            severity = "warning" if changes.problem_files else "information"
            self.notify(
                presenting.describe_reload(changes),
                title=words.RELOADED,
                severity=severity,
                timeout=4,
                markup=False,
            )

    # -- moving ------------------------------------------------------------------

    def _focus_pane(self, pane: str) -> None:
        """Focus now, so the focus and what the key changed show in one frame;
        but a pane that the narrow layout shows only once `-reading` is applied,
        or one under another screen, is focused after the next refresh."""
        self.pane = pane
        widget = self.query_one(f"#{pane}")
        main = self.screen_stack[0]
        if self.screen is main and not main.has_class("-narrow"):
            main.set_focus(widget)
        else:
            self.call_after_refresh(widget.focus)

    def _go_to(self, key: str) -> None:
        """Select the review `key` in the list (it must be listed) and show it now."""
        listing = self.query_one(ReviewList)
        index = listing.position_of(key)
        if listing.reviews and listing.reviews[index].key == key:
            with listing.prevent(ReviewList.Chosen):
                listing.highlighted = index
        self.current_key = key

    def jump_to_review(self, key: str, *, focus: bool = True) -> None:
        """Show a review from anywhere (the palette, the to-do view); filters
        that would hide it are cleared first."""
        if key not in self.library.by_key:
            return
        if key not in self.query_one(ReviewList):
            self._reset_filters()
        self._go_to(key)
        if focus:
            self._focus_pane("review")

    def jump_to_tag(self, tag: str) -> None:
        self.current_tag = tag
        self.query_one(TagList).show_counts(presenting.tag_counts(self.library, self.state), tag)
        self._focus_pane("reviews")

    def action_cycle_pane(self, step: int) -> None:
        if self.screen is not self.screen_stack[0]:
            (self.screen.focus_next if step > 0 else self.screen.focus_previous)()
            return
        index = PANES.index(self.pane) if self.pane in PANES else 1
        self._focus_pane(PANES[(index + step) % len(PANES)])

    def action_back(self) -> None:
        if self.query_one(SearchBar).display:
            self._clear_search()
        elif self.pane == "review":
            self._focus_pane("reviews")
        elif self.pane == "reviews" and self.query:
            self._clear_search()
        elif self.pane == "reviews":
            self._focus_pane("tags")

    def action_next_unread(self, step: int) -> None:
        """The next unread review in the list, which is in reading order (deep
        reads first, then quick, skim, skip); past the end, round again."""
        self._current_review()
        reviews = self.query_one(ReviewList).reviews
        if not reviews:
            self.notify(words.NO_UNREAD, timeout=3, markup=False)
            return
        start = self.query_one(ReviewList).position_of(self.current_key)
        for offset in range(1, len(reviews) + 1):
            review = reviews[(start + step * offset) % len(reviews)]
            if review.key != self.current_key and not self.state.is_read(review.key):
                self._go_to(review.key)
                return
        self.notify(words.NO_UNREAD, timeout=3, markup=False)

    # -- search ------------------------------------------------------------------

    def action_search(self) -> None:
        self.query_one(SearchBar).open(self.query)

    def action_next_match(self, step: int) -> None:
        """The next (or previous) line with a match in the review; past its last,
        the next matching review's first (round the list again at its end)."""
        if not self.filters.terms:
            self.notify(words.NO_SEARCH.format(key=self.key_for("search")), timeout=3, markup=False)
            return
        self._current_review()
        view = self.query_one(ReviewView)
        if view.goto_match(step):
            return
        reviews = self.query_one(ReviewList).reviews
        if not reviews:
            self.notify(words.NO_MATCHES, severity="warning", timeout=3, markup=False)
            return
        start = self.query_one(ReviewList).position_of(self.current_key)
        for offset in range(1, len(reviews) + 1):
            self._go_to(reviews[(start + step * offset) % len(reviews)].key)
            view.current_match = None  # from its first match (or, going back, its last)
            if view.goto_match(step):
                return
        self.bell()

    # -- filters -----------------------------------------------------------------

    def action_toggle_unread_only(self) -> None:
        self.unread_only = not self.unread_only

    def action_toggle_unchecked(self) -> None:
        self.unchecked_only = not self.unchecked_only

    def action_cycle_verdict(self) -> None:
        self.verdict_filter = self.filters.next_verdict().verdict

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The clear-filter and match keys only while there is something to clear or
        match; search only where `/` is not a character being typed."""
        if action == "clear_filters":
            return self.filters.active
        if action == "next_match":
            return bool(self.filters.terms)
        if action == "search":
            # `/` is a priority key (see tui/bindings.py); in the search box it is
            # typed, and other screens have keys of their own.
            return self.screen is self.screen_stack[0] and not self.query_one(SearchBar).typing
        return True

    def action_clear_filters(self) -> None:
        self._reset_filters()
        self.query_one(SearchBar).close()

    def _reset_filters(self) -> None:
        """Every filter off and the tag back to All, with one redraw."""
        for name, value in (
            ("unread_only", False),
            ("unchecked_only", False),
            ("verdict_filter", None),
            ("query", ""),
            ("current_tag", ALL_TAG),
        ):
            self.set_reactive(getattr(PrDigestApp, name), value)
        self._refresh_all()

    # -- marks -------------------------------------------------------------------

    def _current_review(self) -> Review | None:
        """The review the keys act on: the one highlighted in the list. A key typed
        right after `j` can arrive before the list's Chosen message does, so the
        list is asked, not the message's last news."""
        key = self.query_one(ReviewList).key
        if key is not None and key != self.current_key:
            self.current_key = key
        return self.library.by_key.get(self.current_key) if self.current_key else None

    def action_toggle_read(self) -> None:
        """Toggle read; on a review updated since it was read, mark it read again."""
        from tui.core import marking

        review = self._current_review()
        if review is None:
            self.bell()
            return
        marking.toggle_read(self.state, self.undo_marks, review)
        self._save()

    def action_mark_all_read(self) -> None:
        """Mark every review listed (the tag's, as filtered) read."""
        from tui.core import marking

        reviews = [r for r in self.query_one(ReviewList).reviews if not self.state.is_read(r.key)]
        if not reviews:
            self.notify(words.ALREADY_READ, timeout=3, markup=False)
            return
        marking.mark_read(self.state, self.undo_marks, reviews)
        self._save()
        self.notify(words.plural(words.MARKED_READ, len(reviews)), timeout=3, markup=False)

    def action_undo(self) -> None:
        restored = self.undo_marks.undo(self.state)
        if not restored:
            self.notify(words.NOTHING_TO_UNDO, timeout=3, markup=False)
            return
        self._save()
        self.notify(words.plural(words.UNDONE, len(restored)), timeout=3, markup=False)

    # -- other programs ----------------------------------------------------------

    def action_open_pr(self) -> None:
        from tui.ui import handover

        handover.open_pr(self, self._current_review())

    def action_copy(self) -> None:
        """In the review pane: the code ref of the item under the cursor (again:
        its next ref). Elsewhere, or with no ref there: the PR URL."""
        from tui.ui import handover

        review = self._current_review()
        view = self.query_one(ReviewView)
        item = view.cursor_item if self.pane == "review" and review is not None else None
        self._copy_turn = handover.copy(self, review, item, self._copy_turn)

    def action_edit(self) -> None:
        from tui.ui import handover

        review = self._current_review()
        if review is None:
            self.bell()
            return
        handover.edit(self, review)

    # -- screens -----------------------------------------------------------------

    def action_show_problems(self) -> None:
        from tui.ui.screens.problems import ProblemsScreen

        self.push_screen(ProblemsScreen(self.library.all_problems()))

    def action_show_todo(self) -> None:
        """Open actions and caveats of the reviews listed (the tag's, as filtered)."""
        labels_now = labels(self.filters)
        scope = " · ".join(labels_now) if labels_now else words.SCOPE_ALL
        from tui.ui.screens.todo import TodoScreen

        self.push_screen(TodoScreen(list(self.query_one(ReviewList).reviews), self._checked, scope))

    def action_toggle_keys(self) -> None:
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    # -- command palette -----------------------------------------------------------

    def palette_reviews(self) -> Sequence[Review]:
        return self.library.reviews

    def palette_tags(self) -> list[PaletteTag]:
        from tui.ui.commands import palette_tags

        return palette_tags(presenting.tag_counts(self.library, self.state))

    def palette_actions(self) -> list[PaletteAction]:
        from tui.ui.commands import palette_actions

        return palette_actions(self.BINDINGS, self.key_for, self.run_action)

    def action_command_palette(self) -> None:
        """Textual's palette, its prompt in the UI's language."""
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(placeholder=words.PALETTE_PLACEHOLDER, id="--command-palette"))

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's own commands, named in the UI's language."""
        for command in super().get_system_commands(screen):
            title, help_text = words.SYSTEM_COMMANDS.get(command.title, (command.title, command.help))
            yield command._replace(title=title, help=help_text)

    # -- saving ------------------------------------------------------------------

    def _save(self) -> None:
        """Persist and redraw; marks merged from another instance redraw too.

        Unless a filter depends on marks, the same reviews stay listed: only
        their rows, the open review and the counts are drawn again (at 10,000
        reviews, filtering and re-listing them was most of what a mark cost).
        """
        self.state.save()
        self._refresh_all(relist=marks_narrow(self.filters))
        self._warn()

    def _warn(self) -> None:
        for warning in self.state.warnings:
            self.notify(warning, title=words.STATE, severity="warning", timeout=10, markup=False)
        self.state.warnings.clear()
