"""The App: bindings, layout and the wiring between model, state and widgets.

Widgets post messages up; the app answers them by changing state (and saving
it) and by pushing fresh data down. Nothing below the app touches the disk.
"""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Footer

from . import __version__, words
from .cache import ParseCache, stamp
from .loader import load_updates, plan_reload, split_roots
from .loading import first_load, parse_in_background
from .model import ALL_TAG, UNREAD_TAG, FileUpdate, Library, Problem, Review, ReviewChanges, compare
from .screens.problems import ProblemsScreen
from .state import ReadState
from .widgets.review_list import ReviewList, ReviewRow
from .widgets.review_view import ReviewView
from .widgets.status_bar import StatusBar
from .widgets.tag_list import TagCount, TagList

NARROW = 72
"""Below this many columns one pane is shown at a time."""

PANES = ("tags", "reviews", "review")

RELOAD_CHUNK = 64
"""Files parsed per trip to a thread when applying a change; quitting waits for one chunk at most."""


def _binding(key: str, action: str, description: str, id: str, tooltip: str, **kw: object) -> Binding:
    return Binding(key, action, description, id=id, tooltip=tooltip, **kw)  # type: ignore[arg-type]


class PrDigestApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "prdigest-tui"

    BINDINGS = [
        _binding("q", "quit", "Quit", "quit", "Quit prdigest-tui"),
        _binding(
            "tab", "cycle_pane(1)", "Next pane", "pane.next", "Focus the next pane", show=False, priority=True
        ),
        _binding(
            "shift+tab",
            "cycle_pane(-1)",
            "Previous pane",
            "pane.previous",
            "Focus the previous pane",
            show=False,
            priority=True,
        ),
        _binding("r", "toggle_read", "Read", "review.read", "Mark the selected review read or unread"),
        _binding("u", "toggle_unread_only", "Unread only", "filter.unread", "Show only unread reviews"),
        _binding("p", "show_problems", "Problems", "problems", "List problems found in entry files"),
        _binding("question_mark", "toggle_keys", "Keys", "help", "Show or hide all keys", key_display="?"),
        _binding("escape", "back", "Back", "back", "Back to the review list", show=False),
    ]

    current_tag: reactive[str] = reactive(ALL_TAG, init=False)
    current_key: reactive[str | None] = reactive(None, init=False)
    unread_only: reactive[bool] = reactive(False, init=False)
    pane: reactive[str] = reactive("reviews", init=False)

    def __init__(
        self,
        paths: list[Path],
        state_path: Path | None,
        *,
        watch: bool = True,
        cache_path: Path | None = None,
    ) -> None:
        super().__init__()
        self.paths = paths
        self.cache = ParseCache(cache_path, version_key=__version__)
        self.loading: tuple[int, int] | None = None  # files parsed, files to parse
        self.folders, self.files = split_roots(paths)
        self.state = ReadState(state_path)
        self.library = Library()
        self.watching = watch
        self._stop_watch = asyncio.Event()
        self._pending: set[Path] = set()
        self._applying = False
        self.reloads = 0  # applied reloads, for tests and benchmarks

    # -- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        with Horizontal(id="main"):
            with Vertical(id="sidebar"):
                yield TagList(id="tags")
                yield ReviewList(id="reviews")
            yield ReviewView(id="review")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tags").border_title = words.TAGS
        self.query_one("#reviews").border_title = words.REVIEWS
        self.state.load()
        hits, misses, missing = first_load(self.paths, self.cache)
        problems: dict[Path, list[Problem]] = {}
        for problem in missing:
            problems.setdefault(problem.location.path, []).append(problem)
        for path, update in hits.items():
            if update.problems:
                problems[path] = update.problems
        self.library = Library.build({path: u.reviews for path, u in hits.items()}, problems)
        self._refresh_all()
        self.query_one(ReviewList).focus()
        self._warn()
        self.load_rest(misses)

    @work(exclusive=True, group="load", exit_on_error=False)
    async def load_rest(self, misses: list[Path]) -> None:
        """Parse what the cache did not have, then start watching for changes."""
        if misses:
            self.loading = (0, len(misses))
            self._refresh_status()

            def progress(done: int, total: int) -> None:
                self.loading = (done, total)
                self._refresh_status()

            await parse_in_background(misses, self.cache, self._deliver, progress)
            self.loading = None
            self._refresh_status()
        # Loaded reviews live until quit: keep the collector from walking them again and again.
        gc.freeze()
        self._save_cache()
        if self.watching:
            self.watch_entries()

    def _deliver(self, updates: dict[Path, FileUpdate]) -> None:
        position = self.query_one(ReviewList).position_of(self.current_key)
        self.library.apply(updates)
        self._refresh_all(fallback=position)

    @work(thread=True, exclusive=True, group="cache", exit_on_error=False)
    def _save_cache(self) -> None:
        self.cache.save()

    def on_unmount(self) -> None:
        self._stop_watch.set()

    def on_resize(self, event: events.Resize) -> None:
        self.screen_stack[0].set_class(event.size.width < NARROW, "-narrow")

    # -- data down ---------------------------------------------------------------

    def _checked(self, review: Review) -> frozenset[str]:
        return self.state.checked(review.key, {item.key: item.digest for item in review.checklist})

    def _changes(self, review: Review) -> ReviewChanges | None:
        """What changed since the reader read or checked this review, if anything."""
        if not self.state.touched(review.key):
            return None
        seen = self.state.seen(review.key)
        if seen is None:
            return None
        return compare(seen, review) or None

    def _tag_counts(self) -> list[TagCount]:
        """Unread/total per tag, from the read reviews only: marks are few, reviews many."""
        read_per_tag: dict[str, int] = {}
        read_all = 0
        for key in self.state.read_keys():
            review = self.library.by_key.get(key)
            if review is None:
                continue
            read_all += 1
            for tag in review.tags:
                read_per_tag[tag] = read_per_tag.get(tag, 0) + 1
        total = len(self.library.reviews)
        counts = [TagCount(ALL_TAG, total - read_all, total), TagCount(UNREAD_TAG, total - read_all, total)]
        for tag, reviews in self.library.tags.items():
            counts.append(TagCount(tag, len(reviews) - read_per_tag.get(tag, 0), len(reviews)))
        return counts

    def _visible(self) -> list[Review]:
        reviews = self.library.under(self.current_tag)
        if self.unread_only or self.current_tag == UNREAD_TAG:
            # The open review stays listed after it is marked read, so the
            # list does not jump under the reader's cursor.
            reviews = [r for r in reviews if not self.state.is_read(r.key) or r.key == self.current_key]
        return reviews

    def _row(self, review: Review) -> ReviewRow:
        checked = self._checked(review)
        done = sum(1 for item in review.checklist if item.key in checked)
        return ReviewRow(
            review,
            self.state.is_read(review.key),
            done,
            len(review.checklist),
            updated=self._changes(review) is not None,
            stale=self.library.is_stale(review),
        )

    def _refresh_all(self, fallback: int = 0) -> None:
        """Redraw from the model and state. A review or tag that is gone is
        replaced by a neighbour: the row at `fallback` in the list."""
        if self.current_key not in self.library.by_key:
            self.set_reactive(PrDigestApp.current_key, None)
        if self.current_tag not in (ALL_TAG, UNREAD_TAG) and self.current_tag not in self.library.tags:
            self.set_reactive(PrDigestApp.current_tag, ALL_TAG)
        self.query_one(TagList).show_counts(self._tag_counts(), self.current_tag)
        self._refresh_list(fallback)
        self._refresh_status()

    def _refresh_list(self, fallback: int = 0) -> None:
        empty = words.NO_REVIEWS_UNREAD if self.unread_only else words.NO_REVIEWS
        reviews = self._visible()
        key = self.query_one(ReviewList).show_reviews(reviews, self._row, self.current_key, empty, fallback)
        if key != self.current_key:
            self.current_key = key
        else:
            self._refresh_review()

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
            changes=self._changes(review),
            stale=self.library.is_stale(review),
        )

    def _refresh_status(self) -> None:
        read = sum(1 for key in self.state.read_keys() if key in self.library.by_key)
        unread = len(self.library.reviews) - read
        self.query_one(StatusBar).show(
            self.library.repos,
            len(self.library.reviews),
            unread,
            len(self.library.all_problems()),
            words.UNREAD if self.unread_only else "",
            self.loading,
        )
        self.query_one("#reviews").border_subtitle = words.UNREAD if self.unread_only else ""

    def watch_current_tag(self) -> None:
        self._refresh_list()

    def watch_current_key(self) -> None:
        self._refresh_review()

    def watch_unread_only(self) -> None:
        self._refresh_list()
        self._refresh_status()

    def watch_pane(self, pane: str) -> None:
        self.screen_stack[0].set_class(pane == "review", "-reading")

    # -- messages up -------------------------------------------------------------

    def on_tag_list_chosen(self, message: TagList.Chosen) -> None:
        self.current_tag = message.tag

    def on_tag_list_opened(self, message: TagList.Opened) -> None:
        self.current_tag = message.tag
        self._focus_pane("reviews")

    def on_review_list_chosen(self, message: ReviewList.Chosen) -> None:
        self.current_key = message.key

    def on_review_list_opened(self, message: ReviewList.Opened) -> None:
        self.current_key = message.key
        self._focus_pane("review")

    def on_review_view_item_toggled(self, message: ReviewView.ItemToggled) -> None:
        review = self.library.by_key.get(message.review_key)
        if review is None:
            return
        item = next((i for i in review.checklist if i.key == message.item_key), None)
        self.state.set_checked(review.key, message.item_key, message.checked, item.digest if item else None)
        if self.state.seen(review.key) is None:
            self.state.set_seen(review.key, review.fingerprint())
        self._save()

    def on_descendant_focus(self) -> None:
        focused = self.focused
        if focused is not None and focused.id in PANES:
            self.pane = focused.id

    # -- hot reload --------------------------------------------------------------

    @work(exclusive=True, group="watch", exit_on_error=False)
    async def watch_entries(self) -> None:
        from .watch import watch, watch_roots

        def notice(text: str) -> None:
            self.notify(text, title="Watching", severity="warning", timeout=8, markup=False)

        roots = watch_roots(self.folders, self.files)
        async for changed in watch(roots, self._stop_watch, notice):
            self._pending |= changed
            if not self._applying:
                self.apply_pending()

    @work(group="reload", exit_on_error=False)
    async def apply_pending(self) -> None:
        """Apply changes until none are pending; changes that arrive meanwhile
        are folded into the next round, so a burst becomes one or two refreshes."""
        self._applying = True
        try:
            while self._pending:
                changed, self._pending = self._pending, set()
                load, drop = plan_reload(changed, self.folders, self.files, self.library.files)
                updates: dict[Path, FileUpdate | None] = load_updates([], drop)
                for start in range(0, len(load), RELOAD_CHUNK):
                    chunk = load[start : start + RELOAD_CHUNK]
                    updates.update(await asyncio.to_thread(load_updates, chunk))
                if updates:
                    self.apply_updates(updates)
                    self.cache.forget(drop)
                    for path, update in updates.items():
                        if update is not None:
                            self.cache.put(path, stamp(path), update)
            self._save_cache()
        finally:
            self._applying = False

    def apply_updates(self, updates: dict[Path, FileUpdate | None]) -> None:
        """Swap in fresh file contents, keeping the reader's place."""
        position = self.query_one(ReviewList).position_of(self.current_key)
        changes = self.library.apply(updates)
        self.reloads += 1
        self._refresh_all(fallback=position)
        if changes:
            severity = "warning" if changes.problem_files else "information"
            self.notify(changes.describe(), title="Reloaded", severity=severity, timeout=4, markup=False)

    # -- actions -----------------------------------------------------------------

    def _focus_pane(self, pane: str) -> None:
        self.pane = pane
        self.call_after_refresh(self.query_one(f"#{pane}").focus)

    def action_cycle_pane(self, step: int) -> None:
        if self.screen is not self.screen_stack[0]:
            (self.screen.focus_next if step > 0 else self.screen.focus_previous)()
            return
        index = PANES.index(self.pane) if self.pane in PANES else 1
        self._focus_pane(PANES[(index + step) % len(PANES)])

    def action_back(self) -> None:
        if self.pane == "review":
            self._focus_pane("reviews")
        elif self.pane == "reviews":
            self._focus_pane("tags")

    def action_toggle_read(self) -> None:
        """Toggle read; on a review updated since it was read, mark it read again."""
        review = self.library.by_key.get(self.current_key) if self.current_key else None
        if review is None:
            self.bell()
            return
        updated = self._changes(review) is not None
        read = updated or not self.state.is_read(review.key)
        self.state.set_read(review.key, read)
        if read:
            self.state.set_seen(review.key, review.fingerprint())
        self._save()

    def action_toggle_unread_only(self) -> None:
        self.unread_only = not self.unread_only

    def action_show_problems(self) -> None:
        self.push_screen(ProblemsScreen(self.library.all_problems()))

    def action_toggle_keys(self) -> None:
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def _save(self) -> None:
        """Persist and redraw; marks merged from another instance redraw too."""
        self.state.save()
        self._refresh_all()
        self._warn()

    def _warn(self) -> None:
        for warning in self.state.warnings:
            self.notify(warning, title="State", severity="warning", timeout=10, markup=False)
        self.state.warnings.clear()
