"""The App: bindings, layout and the wiring between model, state and widgets.

Widgets post messages up; the app answers them by changing state (and saving
it) and by pushing fresh data down. Nothing below the app touches the disk.
"""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Footer

from . import words
from .loader import load_paths
from .model import ALL_TAG, UNREAD_TAG, Library, Review
from .screens.problems import ProblemsScreen
from .state import ReadState
from .widgets.review_list import ReviewList, ReviewRow
from .widgets.review_view import ReviewView
from .widgets.status_bar import StatusBar
from .widgets.tag_list import TagCount, TagList

NARROW = 72
"""Below this many columns one pane is shown at a time."""

PANES = ("tags", "reviews", "review")


class PrDigestApp(App[None]):
    CSS_PATH = "app.tcss"
    TITLE = "prdigest-tui"

    BINDINGS = [
        Binding("q", "quit", "Quit", id="quit", tooltip="Quit prdigest-tui"),
        Binding(
            "tab",
            "cycle_pane(1)",
            "Next pane",
            id="pane.next",
            tooltip="Focus the next pane",
            show=False,
            priority=True,
        ),
        Binding(
            "shift+tab",
            "cycle_pane(-1)",
            "Previous pane",
            id="pane.previous",
            tooltip="Focus the previous pane",
            show=False,
            priority=True,
        ),
        Binding(
            "r", "toggle_read", "Read", id="review.read", tooltip="Mark the selected review read or unread"
        ),
        Binding(
            "u", "toggle_unread_only", "Unread only", id="filter.unread", tooltip="Show only unread reviews"
        ),
        Binding(
            "p", "show_problems", "Problems", id="problems", tooltip="List problems found in entry files"
        ),
        Binding("?", "toggle_keys", "Keys", id="help", tooltip="Show or hide all keys"),
        Binding("escape", "back", "Back", id="back", tooltip="Back to the review list", show=False),
    ]

    current_tag: reactive[str] = reactive(ALL_TAG, init=False)
    current_key: reactive[str | None] = reactive(None, init=False)
    unread_only: reactive[bool] = reactive(False, init=False)
    pane: reactive[str] = reactive("reviews", init=False)

    def __init__(self, paths: list[Path], state_path: Path | None) -> None:
        super().__init__()
        self.paths = paths
        self.state = ReadState(state_path)
        self.library = Library()

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
        result = load_paths(self.paths)
        self.library = Library.build(result.files, result.problems)
        self._refresh_all()
        self.query_one(ReviewList).focus()
        self._warn()

    def on_resize(self, event: events.Resize) -> None:
        self.screen_stack[0].set_class(event.size.width < NARROW, "-narrow")

    # -- data down ---------------------------------------------------------------

    def _tag_counts(self) -> list[TagCount]:
        is_read = self.state.is_read
        unread_all = sum(1 for r in self.library.reviews if not is_read(r.key))
        counts = [
            TagCount(ALL_TAG, unread_all, len(self.library.reviews)),
            TagCount(UNREAD_TAG, unread_all, len(self.library.reviews)),
        ]
        for tag, reviews in self.library.tags.items():
            counts.append(TagCount(tag, sum(1 for r in reviews if not is_read(r.key)), len(reviews)))
        return counts

    def _visible(self) -> list[Review]:
        reviews = self.library.under(self.current_tag)
        if self.unread_only or self.current_tag == UNREAD_TAG:
            # The open review stays listed after it is marked read, so the
            # list does not jump under the reader's cursor.
            reviews = [r for r in reviews if not self.state.is_read(r.key) or r.key == self.current_key]
        return reviews

    def _row(self, review: Review) -> ReviewRow:
        checked = self.state.checked(review.key)
        done = sum(1 for item in review.checklist if item.key in checked)
        return ReviewRow(review, self.state.is_read(review.key), done, len(review.checklist))

    def _refresh_all(self) -> None:
        self.query_one(TagList).show_counts(self._tag_counts(), self.current_tag)
        self._refresh_list()
        self._refresh_status()

    def _refresh_list(self) -> None:
        empty = words.NO_REVIEWS_UNREAD if self.unread_only else words.NO_REVIEWS
        rows = [self._row(r) for r in self._visible()]
        key = self.query_one(ReviewList).show_rows(rows, self.current_key, empty)
        if key != self.current_key:
            self.current_key = key
        else:
            self._refresh_review()

    def _refresh_review(self) -> None:
        review = self.library.by_key.get(self.current_key) if self.current_key else None
        key = review.key if review else ""
        self.query_one(ReviewView).show(review, self.state.checked(key), self.state.is_read(key))

    def _refresh_status(self) -> None:
        unread = sum(1 for r in self.library.reviews if not self.state.is_read(r.key))
        self.query_one(StatusBar).show(
            self.library.repos,
            len(self.library.reviews),
            unread,
            len(self.library.all_problems()),
            words.UNREAD if self.unread_only else "",
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
        self.state.set_checked(message.review_key, message.item_key, message.checked)
        self._save()

    def on_descendant_focus(self) -> None:
        focused = self.focused
        if focused is not None and focused.id in PANES:
            self.pane = focused.id

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
        if not self.current_key:
            self.bell()
            return
        self.state.set_read(self.current_key, not self.state.is_read(self.current_key))
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
