"""The reviews under the selected tag, drawn with the line API.

Each review takes two lines (read mark and title; verdict, progress and flags),
so row y of the list is review y // 2 and nothing is laid out for rows that
are not on screen: ten thousand reviews cost what a screenful costs. Rows are
described on demand by a function the app passes down (`describe`), which
reads marks; the list never touches state itself.

While a search is on, matches are highlighted in the drawn rows only: a title
that matches is highlighted; a review that matches elsewhere shows the first
match in context on its second line.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import NamedTuple

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.strip import Strip

from tui.core.model import Review
from tui.core.order import Ranks, position
from tui.core.row_reviews import RowReviews
from tui.core.search import review_fields, snippet, split_runs
from tui.core.wrap import truncate
from tui.i18n import words
from tui.ui.patches.lines import KeptLines
from tui.ui.presenting import ReviewRow
from tui.ui.widgets.cursor_list import CursorList
from tui.ui.widgets.scrolling import set_virtual_size
from tui.ui.widgets.to_screen import post_to_screen

ROW_HEIGHT = 2

KEPT_ROWS = 256
"""Rows kept drawn across relists (a few screenfuls): a filter toggled, a view
or tag chosen again lists many of the rows it listed before."""


class _Drawn(NamedTuple):
    strip: Strip
    matches: frozenset[int]  # indexes of the segments drawn as search matches


class _Parts:
    """Segments of a line being built, remembering which are search matches."""

    def __init__(self, match: Style, base: Style) -> None:
        self.match = match
        self.base = base  # never None: NO_COLOR's filter (Monochrome) fails on a None style
        self.segments: list[Segment] = []
        self.matches: set[int] = set()

    def add(self, text: str, style: Style | None) -> None:
        self.segments.append(Segment(text, style or self.base))

    def add_runs(self, runs: list[tuple[str, Hashable]]) -> None:
        """Runs from `split_runs`: matched pieces, styled (style, MATCH), get the match style."""
        for text, style in runs:
            if isinstance(style, tuple):
                self.matches.add(len(self.segments))
                self.segments.append(Segment(text, style[0] + self.match))
            else:
                self.segments.append(Segment(text, style or self.base))  # type: ignore[arg-type]  # a Style, or None

    @property
    def width(self) -> int:
        return sum(segment.cell_length for segment in self.segments)

    def draw(self, width: int, pad: Style) -> _Drawn:
        return _Drawn(Strip(self.segments).adjust_cell_length(width, pad), frozenset(self.matches))


class ReviewList(CursorList):
    """Reviews in reading order; highlighting previews, enter opens."""

    COMPONENT_PREFIX = "review-list"

    COMPONENT_CLASSES = {
        "review-list--mark",
        "review-list--title",
        "review-list--title-read",
        "review-list--title-muted",
        "review-list--repo",
        "review-list--meta",
        "review-list--done",
        "review-list--updated",
        "review-list--stale",
        "review-list--cursor",
        "review-list--cursor-blurred",
        "review-list--empty",
        "review-list--verdict-deep",
        "review-list--verdict-quick",
        "review-list--verdict-skim",
        "review-list--verdict-skip",
        "review-list--match",
        "review-list--snippet",
    }

    BINDINGS = [
        Binding("j,down", "move(1)", "Down", id="reviews.down", tooltip="Next review", show=False),
        Binding("k,up", "move(-1)", "Up", id="reviews.up", tooltip="Previous review", show=False),
        Binding(
            "pagedown", "page(1)", "Page down", id="reviews.page-down", tooltip="A page down", show=False
        ),
        Binding("pageup", "page(-1)", "Page up", id="reviews.page-up", tooltip="A page up", show=False),
        Binding(
            "home,g", "edge(-1)", "First", id="reviews.first", tooltip="Go to the first review", show=False
        ),
        Binding("end,G", "edge(1)", "Last", id="reviews.last", tooltip="Go to the last review", show=False),
        Binding("enter", "open", "Open", id="reviews.open", tooltip="Read the highlighted review"),
    ]

    class Chosen(Message):
        """The highlighted review changed (None when the list is empty)."""

        def __init__(self, key: str | None) -> None:
            super().__init__()
            self.key = key

    class Opened(Message):
        """Enter (or a second click) on a review: read it."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.reviews: Sequence[Review] = ()
        self.describe: Callable[[Review], ReviewRow] | None = None
        self.empty = ""
        self.terms: tuple[str, ...] = ()
        self._index: dict[str, int] | None = {}
        self._ranks: Ranks | None = None
        self._cache: dict[int, tuple[_Drawn, _Drawn]] = {}
        self._kept: dict[tuple[object, ...], tuple[Review, tuple[_Drawn, _Drawn]]] = {}
        """Rows drawn, by what they were drawn from (`_drawn_key`), newest last:
        the same row after a relist is the same strips, not new ones the
        screen then has to style, filter and cut again."""

    # -- data in -----------------------------------------------------------------

    def show_reviews(
        self,
        reviews: Sequence[Review],
        describe: Callable[[Review], ReviewRow],
        selected: str | None,
        empty: str,
        fallback: int = 0,
        terms: tuple[str, ...] = (),
        ranks: Ranks | None = None,
    ) -> str | None:
        """Replace the rows, keeping `selected` highlighted when it is still listed,
        else the row at `fallback`. Returns the key now highlighted. `terms` are
        the search terms to highlight. `ranks`, if given, rank a list of which
        `reviews` is a part in its order: a review is found in them by bisection."""
        before = self.highlighted
        self.reviews, self.describe, self.empty, self.terms = reviews, describe, empty, terms
        self._ranks = ranks
        self._index = None  # made when first asked for: a relist of 100,000 reviews need not
        self._cache.clear()
        if before is not None and before < len(reviews) and reviews[before].key == selected:
            index: int | None = before  # still where it was: the usual case while files load
        elif (found := self._find(selected)) is not None:
            index = found
        elif reviews:
            index = max(0, min(fallback, len(reviews) - 1))
        else:
            index = None
        self.set_reactive(ReviewList.highlighted, index)
        set_virtual_size(self, Size(self.size.width, self._virtual_height()))
        self.reveal()
        self.refresh()
        return self.key

    def highlighted_line(self) -> int | None:
        """The pane line the highlighted row starts on (None: none highlighted)."""
        if self.highlighted is None or self.highlighted >= self.row_count():
            return None
        return self.row_lines(self.highlighted)[0] - self.scroll_offset.y

    def hold_highlighted_at(self, line: int) -> None:
        """Scroll so that the highlighted row starts on pane line `line` (as
        near as the list's ends allow): where it was before a relist, so the
        rows around it stay put. (Called after a relist, which redraws it all.)"""
        if self.highlighted is None or self.highlighted >= self.row_count():
            return
        self.scroll_to(
            y=max(0, self.row_lines(self.highlighted)[0] - line), animate=False, immediate=True, force=True
        )

    def redraw_rows(self) -> None:
        """The same reviews, described again (their marks changed)."""
        self._cache.clear()
        self.refresh()

    @property
    def key(self) -> str | None:
        if self.highlighted is None or not self.reviews:
            return None
        return self.reviews[self.highlighted].key

    @property
    def positions(self) -> dict[str, int]:
        """Where each listed review is, by key."""
        if self._index is None:
            reviews = self.reviews
            self._index = dict(zip(self.keys, range(len(reviews)), strict=True))
        return self._index

    def _find(self, key: object) -> int | None:
        """Where `key` is listed: by bisection given ranks, else one scan in C,
        without building `positions` (~15 ms at 100,000 reviews) for the one
        answer a relist needs."""
        if not isinstance(key, str):
            return None
        if self._ranks is None:
            if self._index is not None:
                return self._index.get(key)
            if isinstance(self.reviews, RowReviews):  # a table's rows: by the table's key lookup
                return self.reviews.find(key)
        return position(self.reviews, key, self._ranks)

    def __contains__(self, key: object) -> bool:
        return self._find(key) is not None

    def position_of(self, key: str | None) -> int:
        """Where `key` is listed, or 0."""
        found = self._find(key)
        return 0 if found is None else found

    @property
    def keys(self) -> list[str]:
        if isinstance(self.reviews, RowReviews):
            return self.reviews.keys()  # no `Review` made for them
        return [review.key for review in self.reviews]

    @property
    def rows(self) -> list[ReviewRow]:
        """Every row, described now (for tests and tools; drawing is lazy)."""
        assert self.describe is not None or not self.reviews
        return [self.describe(review) for review in self.reviews]  # type: ignore[misc]  # set with the reviews

    # -- drawing -----------------------------------------------------------------

    def _row_strips(self, index: int, width: int) -> tuple[_Drawn, _Drawn]:
        cached = self._cache.get(index)
        if cached is not None and cached[0].strip.cell_length == width:
            return cached
        drawn = self._cache[index] = self._drawn(self.reviews[index], width)
        return drawn

    def _drawn(self, review: Review, width: int) -> tuple[_Drawn, _Drawn]:
        assert self.describe is not None
        row = self.describe(review)
        # By the review object (not its key: a reload's new version is drawn
        # anew), what the row says of it, the width, the search and the words.
        key = (id(row.review), row[1:], width, self.terms, id(words()))
        kept = self._kept.pop(key, None)
        drawn = kept[1] if kept is not None and kept[0] is row.review else self._draw_row(row, width)
        self._kept[key] = (row.review, drawn)
        if len(self._kept) > KEPT_ROWS:
            del self._kept[next(iter(self._kept))]
        return drawn

    def draw_ahead(self, reviews: Sequence[Review], selected: str | None, ranks: Ranks | None) -> None:
        """Draw and style now the rows a relist to `reviews` would show (a
        filter key's: `selected` kept highlighted if listed, else the first
        row, then `reveal`), so that its frame finds them done: a screenful
        of rows never shown before cost ~5-10 ms of a `v` at 100,000
        reviews. For idle time (tui.ui.look_ahead). The highlighted row is
        left: the cursor's look is drawn at the frame."""
        width, height = self.scrollable_content_region.width, self.scrollable_content_region.height
        cache = self._styles_cache
        if (
            not reviews
            or self.describe is None
            or width <= 0
            or height <= 0
            or not isinstance(cache, KeptLines)
        ):
            return
        found = position(reviews, selected, ranks) if selected is not None else None
        index = 0 if found is None else found
        top = max(0, min(self.scroll_offset.y, len(reviews) * ROW_HEIGHT + 1 - height))  # the scroll kept
        top = self.revealed_top(index, top, height)
        contents: list[Strip] = []
        for row in range(top // ROW_HEIGHT, min(len(reviews), -(-(top + height) // ROW_HEIGHT))):
            if row != index:
                contents.extend(drawn.strip for drawn in self._drawn(reviews[row], width))
        cache.style_ahead(self, contents)

    def _draw_row(self, row: ReviewRow, width: int) -> tuple[_Drawn, _Drawn]:
        review = row.review
        match, base = self.style_of("match"), self.style_of(None)
        first = _Parts(match, base)
        first.add("  " if row.read else "● ", self.style_of("mark"))
        title_style = self.style_of("title-muted" if row.muted else "title-read" if row.read else "title")
        runs, found = split_runs([(truncate(review.title, max(0, width - 2)), title_style)], self.terms)
        first.add_runs(runs)
        verdict = words().verdict_words.get(review.verdict, review.verdict)
        second = _Parts(match, base)
        second.add("  ", None)
        second.add(verdict, self.style_of(f"verdict-{review.verdict}"))
        if row.total:
            done = row.done == row.total
            second.add(f"  {row.done}/{row.total}", self.style_of("done" if done else "meta"))
        if row.updated:
            second.add(f"  ✱ {words().updated}", self.style_of("updated"))
        if row.stale:
            second.add(f"  ⚠ {words().stale}", self.style_of("stale"))
        if row.repo:  # the digest has several repos
            second.add(f"  {truncate(row.repo, max(0, width - second.width - 2))}", self.style_of("repo"))
        if self.terms and not found:
            self._snippet(second, review, width - second.width)
        return first.draw(width, base), second.draw(width, base)

    def _snippet(self, parts: _Parts, review: Review, room: int) -> None:
        """The first match outside the title, in context, to fit in `room` cells."""
        if room < 8:
            return
        for text in review_fields(review)[1:]:
            found = snippet(text, self.terms, room)
            if found is not None:
                style = self.style_of("snippet")
                parts.add("  ⌕ ", style)
                runs, _ = split_runs([(truncate(found[0], room - 4), style)], self.terms)
                parts.add_runs(runs)
                return

    def render_line(self, y: int) -> Strip:
        width, _, top = self.placed()
        row_y = top + y
        index, part = divmod(row_y, ROW_HEIGHT)
        base = self.style_of(None)
        if not self.reviews:
            if row_y == 0 and self.empty:
                return Strip(
                    [Segment(truncate(self.empty, width), self.style_of("empty"))]
                ).adjust_cell_length(width, base)
            return Strip.blank(width, base)
        if index >= len(self.reviews):
            return Strip.blank(width, base)
        drawn = self._row_strips(index, width)[part]
        if index != self.highlighted:
            return drawn.strip
        # The cursor's background on all but the matches, which keep theirs.
        over = self.cursor_over("cursor" if self.has_focus else "cursor-blurred")
        return Strip(
            [
                segment if n in drawn.matches else Segment(segment.text, (segment.style or Style()) + over)
                for n, segment in enumerate(drawn.strip)
            ],
            width,
        )

    def sized(self) -> None:
        """Resized, in the layout's frame (see `StyledPane._size_updated`): the
        content height may change with the height (`_virtual_height`)."""
        set_virtual_size(self, Size(self.outer_size.width, self._virtual_height()))  # as on_resize sets it
        super().sized()

    def on_resize(self, event: events.Resize) -> None:
        self._cache.clear()
        set_virtual_size(self, Size(event.size.width, self._virtual_height()))

    def restyled(self) -> None:
        self._cache.clear()
        self._kept.clear()

    def _virtual_height(self) -> int:
        """The rows' lines, and a blank one after them if the list's height would
        otherwise stop scrolling on a row's second line: scrolled to its end (G),
        a list with an odd number of lines showed only half of its top row."""
        lines = max(1, len(self.reviews)) * ROW_HEIGHT
        overflow = lines - self.scrollable_content_region.height
        return lines + 1 if overflow > 0 and overflow % ROW_HEIGHT else lines

    # -- rows, for CursorList ----------------------------------------------------

    def row_count(self) -> int:
        return len(self.reviews)

    def line_count(self) -> int:
        return len(self.reviews) * ROW_HEIGHT

    def row_lines(self, index: int) -> tuple[int, int]:
        return index * ROW_HEIGHT, (index + 1) * ROW_HEIGHT

    def row_at(self, line: int) -> int:
        return line // ROW_HEIGHT

    def chosen(self) -> None:
        post_to_screen(self, self.Chosen(self.key))

    def action_open(self) -> None:
        key = self.key
        if key is not None:
            post_to_screen(self, self.Opened(key))
