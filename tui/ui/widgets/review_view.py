"""The selected review, drawn with the line API.

The review is laid out once per width into styled lines; `render_line` only
slices them, so scrolling costs a screenful. Text goes through our own line
breaker (`tui.core.wrap`) so Chinese wraps between characters, never mid-character.
A cursor moves over the checklist (focus items and read-order steps), then the
notes (actions and caveats); `space` checks the item or note under it (a note as
the to-do view does) and `enter` opens its ref, the widget posting a message for
each: the screen owns state.

Search terms are highlighted when the review is laid out (one review, so that
is cheap); `match_lines` lists the lines holding a match, and `goto_match`
steps through them for `n` / `N`, marking the current one with `›` in the
margin.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip

from tui.core.changes import ReviewChanges
from tui.core.model import NOTES, Item, Review
from tui.ui.patches.lines import KeptLines
from tui.ui.widgets.review_ahead import Ahead
from tui.ui.widgets.review_blocks import Shown
from tui.ui.widgets.review_layout import Line, ReviewLayout
from tui.ui.widgets.scrolling import Pane, set_virtual_size
from tui.ui.widgets.to_screen import post_to_screen


class ReviewView(Pane, can_focus=True):
    """Title, verdict, tags, summary, focus items, checklist, actions, caveats."""

    COMPONENT_PREFIX = "review-view"

    COMPONENT_CLASSES = {
        "review-view--title",
        "review-view--meta",
        "review-view--verdict-deep",
        "review-view--verdict-quick",
        "review-view--verdict-skim",
        "review-view--verdict-skip",
        "review-view--tag",
        "review-view--note",
        "review-view--heading",
        "review-view--code",
        "review-view--ref",
        "review-view--focus",
        "review-view--focus-bar",
        "review-view--box",
        "review-view--checked",
        "review-view--cursor",
        "review-view--read",
        "review-view--unread",
        "review-view--dim",
        "review-view--banner",
        "review-view--stale",
        "review-view--badge",
        "review-view--match",
        "review-view--match-current",
    }

    BINDINGS = [
        Binding(
            "j,down",
            "cursor(1)",
            "Next item",
            id="review.next",
            tooltip="Move to the next checklist item or note",
            show=False,
        ),
        Binding(
            "k,up",
            "cursor(-1)",
            "Previous item",
            id="review.previous",
            tooltip="Move to the previous checklist item or note",
            show=False,
        ),
        Binding(
            "space",
            "toggle_item",
            "Check",
            id="review.toggle",
            tooltip="Check or uncheck the item or note under the cursor",
        ),
        Binding(
            "pagedown",
            "page(1)",
            "Page down",
            id="review.page-down",
            tooltip="Scroll a page down",
            show=False,
        ),
        Binding("pageup", "page(-1)", "Page up", id="review.page-up", tooltip="Scroll a page up", show=False),
        Binding(
            "enter",
            "open_ref",
            "Open ref",
            id="review.open-ref",
            tooltip="Open the item's code ref in the code view (again: its next ref)",
        ),
        Binding("home,g", "edge(-1)", "Top", id="review.top", tooltip="Scroll to the top", show=False),
        Binding("end,G", "edge(1)", "Bottom", id="review.bottom", tooltip="Scroll to the bottom", show=False),
    ]

    class ItemToggled(Message):
        """The reader checked or unchecked a checklist item or a note."""

        def __init__(self, review_key: str, item_key: str, checked: bool) -> None:
            super().__init__()
            self.review_key, self.item_key, self.checked = review_key, item_key, checked

    class RefOpened(Message):
        """`enter` on an item or note: open its ref (`place` is its section,
        `index` its position there)."""

        def __init__(self, review_key: str, place: str, index: int) -> None:
            super().__init__()
            self.review_key, self.place, self.index = review_key, place, index

    cursor: reactive[int] = reactive(0, layout=False, init=False)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.review: Review | None = None
        self.checked: frozenset[str] = frozenset()
        self.read = False
        self.changes: ReviewChanges | None = None
        self.hint_keys: dict[str, str] = {}  # key names shown in hints, after remapping
        self.stale = False
        self.checklist: tuple[Item, ...] = ()
        self.stops: tuple[Item, ...] = ()  # where the cursor goes: the checklist, then the notes
        self._lines: list[Line] = []
        self._item_rows: dict[int, tuple[int, int]] = {}
        self._layout_width = -1
        self.terms: tuple[str, ...] = ()
        self.resolved_refs: frozenset[str] = frozenset()  # ref texts found in the clone: marked
        self.match_lines: list[int] = []
        self.current_match: int | None = None  # index into match_lines
        self._lay_out = ReviewLayout(self.style_of)
        self._laid_out: tuple[Review | None, Shown | None, int] = (None, None, -1)  # review, shown, width
        self._ahead = Ahead()  # reviews laid out ahead

    # -- data in ---------------------------------------------------------------

    def show(
        self,
        review: Review | None,
        checked: frozenset[str],
        read: bool,
        *,
        changes: ReviewChanges | None = None,
        stale: bool = False,
    ) -> None:
        """Show a review; keep scroll and cursor when it is the same review
        (a reload, or a new mark), so the reader keeps their place."""
        same = review is not None and self.review is not None and review.key == self.review.key
        cursor_key = self._cursor_key() if same else None
        self.review, self.checked, self.read = review, checked, read
        self.changes, self.stale = changes, stale
        self.checklist = review.checklist if review else ()
        self.stops = self.checklist + tuple(item for s in NOTES for item in review.items(s)) if review else ()
        if not same:
            self.scroll_to(0, 0, animate=False, immediate=True)
            self.set_reactive(ReviewView.cursor, 0)
            self.current_match = None
            self._relayout()
            return
        if review is self._laid_out[0] and self._shown() == self._laid_out[1]:
            return  # nothing it shows changed (a filter key relists around it): no layout, no repaint
        # Same review: keep the cursor on its item and that item at the same
        # height on screen, even if lines were added or removed above it.
        anchor = self._item_rows.get(self.cursor, (None, None))[0]
        offset = None if anchor is None else anchor - self.scroll_offset.y
        if cursor_key is not None:
            keys = [item.key for item in self.stops]
            index = keys.index(cursor_key) if cursor_key in keys else self.cursor
            self.set_reactive(ReviewView.cursor, min(index, max(0, len(keys) - 1)))
        self._relayout()
        start = self._item_rows.get(self.cursor, (None, None))[0]
        if offset is not None and start is not None and start - offset != self.scroll_offset.y:
            self.scroll_to(y=max(0, start - offset), animate=False, immediate=True)

    def set_refs(self, texts: frozenset[str]) -> None:
        """Mark these refs (found in the user's clone) as ones `enter` opens."""
        if texts == self.resolved_refs:
            return
        self.resolved_refs = texts
        if self._layout_width >= 0:
            self._relayout()

    def set_terms(self, terms: tuple[str, ...], *, now: bool = True) -> None:
        """Highlight these search terms (none: no highlighting). `now` False:
        only take them, for a review about to be shown (`show` lays it out
        with them); a later call lays out a review still laid out without them.
        The same review laid out for new terms redraws only the lines on
        screen that changed: most of its lines have no match."""
        laid = self._laid_out[1]
        if terms == self.terms and (laid is None or laid.terms == terms):
            return
        if terms != self.terms:
            self.terms = terms
            self.current_match = None
        if now and self._layout_width >= 0:
            self._relayout(redraw_changed=True)

    @property
    def cursor_place(self) -> tuple[str, int] | None:
        """The item or note under the cursor as (section, its position in the section)."""
        item = self.cursor_item
        if item is None or self.review is None:
            return None
        before = sum(1 for stop in self.stops[: self.cursor] if stop.section == item.section)
        return item.section, before

    @property
    def cursor_item(self) -> Item | None:
        """The checklist item or note under the cursor."""
        if 0 <= self.cursor < len(self.stops):
            return self.stops[self.cursor]
        return None

    def _cursor_key(self) -> str | None:
        item = self.cursor_item
        return item.key if item is not None else None

    # -- layout ----------------------------------------------------------------

    def _relayout(self, *, redraw_changed: bool = False) -> None:
        """Lay the review out again; `redraw_changed`: redraw only the lines on
        screen that changed if the review and the width are as before."""
        width = self.scrollable_content_region.width
        if width <= 0 and not self.size:
            # Not laid out yet (the first review is shown from on_mount): wrapping at
            # width 0 would cost a pass and paint a frame one character wide.
            # on_resize lays it out at the real width.
            self._layout_width = -1
            self._lines, self._item_rows, self.match_lines = [], {}, []
            self._laid_out = (None, None, -1)
            return
        self._layout_width = width
        shown = self._shown()
        before = self._lines if redraw_changed and self._laid_out[::2] == (self.review, width) else None
        self._laid_out = (self.review, shown, width)
        laid = self._ahead.take(self.review, shown, width) or self._lay_out.lay_out(self.review, shown, width)
        self._lines, self._item_rows, self.match_lines = laid
        if self.current_match is not None and self.current_match >= len(laid.match_lines):
            self.current_match = None
        set_virtual_size(self, Size(width, len(laid.lines)))
        if before is None or len(before) != len(laid.lines):
            self.refresh()
            return
        top = self.scroll_offset.y
        marks = {self._mark_drawn, self._mark_row()}  # the current match's `›`, had it moved
        for row in range(top, min(len(laid.lines), top + self.scrollable_content_region.height)):
            if laid.lines[row] != before[row] or (len(marks) > 1 and row in marks):
                self.refresh_lines(row)

    def lay_out_ahead(
        self,
        review: Review,
        checked: frozenset[str],
        read: bool,
        *,
        changes: ReviewChanges | None = None,
        stale: bool = False,
        refs: frozenset[str] | None = None,
    ) -> None:
        """Lay out a review `show` may be asked for next (the list's next row,
        its next page) as `show` would, and style its first screenful, so that
        the key that shows it finds both done. For idle time: ~2-5 ms."""
        width = self._layout_width
        if width < 0 or review is self.review:
            return
        shown = self._shown()._replace(checklist=review.checklist, checked=checked, read=read)
        shown = shown._replace(
            changes=changes, stale=stale, refs=self.resolved_refs if refs is None else refs
        )
        if self._ahead.has(review, shown, width):
            return
        laid = self._lay_out.lay_out(review, shown, width)
        self._ahead.add(review, shown, width, laid)
        self._style_ahead(laid.lines, 0, 0 if self.has_focus else None, None)  # where `show` puts them

    def open_ahead(self) -> None:
        """Style the review shown as it is drawn once the pane has the focus
        (`enter`: its cursor's lines), in the look it has now: what lies
        between the borders is then kept, and `enter` only borders it anew."""
        if self._layout_width >= 0 and not self.has_focus:
            current = None if self.current_match is None else self.match_lines[self.current_match]
            self._style_ahead(self._lines, self.scroll_offset.y, self.cursor, current)

    def _style_ahead(self, lines: list[Line], top: int, cursor: int | None, current: int | None) -> None:
        """A screenful of `lines` from `top`, styled now (`KeptLines.style_ahead`)."""
        cache, width = self._styles_cache, self._layout_width
        if isinstance(cache, KeptLines):
            height = self.scrollable_content_region.height
            cache.style_ahead(
                self, [self._strip(lines, top + y, 0, width, cursor, current) for y in range(height)]
            )

    def _shown(self) -> Shown:
        return Shown(
            self.checklist,
            self.checked,
            self.read,
            self.changes,
            self.stale,
            self.hint_keys,
            self.terms,
            self.resolved_refs,
            self.app.no_color,
        )

    def on_resize(self, event: events.Resize) -> None:
        if self.scrollable_content_region.width != self._layout_width:
            self._relayout()

    def notify_style_update(self) -> None:
        """Lay out again only if a style the lines were built with changed: focus
        moving to or from the pane restyles it too (its border), and re-wrapping
        the review then would be wasted work on every enter and escape."""
        super().notify_style_update()
        self.refresh()

    def restyled(self) -> None:
        self._ahead.clear()  # laid out in the old styles
        if self._layout_width >= 0:
            self._relayout()

    # -- drawing ---------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width, scroll_x, scroll_y = self.placed()
        if self._layout_width < 0 and width > 0:
            # The first frame is drawn before the Resize event reaches us: lay out
            # now so it shows the review rather than an empty pane.
            self._relayout()
        current = self._mark_drawn = self._mark_row()
        return self._strip(
            self._lines, scroll_y + y, scroll_x, width, self.cursor if self.has_focus else None, current
        )

    _mark_drawn: int | None = None
    """The line drawn as the current match when the pane was last drawn."""

    def _mark_row(self) -> int | None:
        """The line marked as the current match."""
        return None if self.current_match is None else self.match_lines[self.current_match]

    def _strip(
        self, lines: list[Line], row: int, scroll_x: int, width: int, cursor: int | None, current: int | None
    ) -> Strip:
        """Line `row` of `lines` as drawn: `cursor`, the item drawn under the
        cursor (None: none, the pane unfocused); `current`, the line marked as
        the current match."""
        if row >= len(lines):
            return Strip.blank(width, self.style_of(None))
        line = lines[row]
        segments = line.segments
        if line.item is not None and line.item == cursor:
            # The cursor's background across the line but on the matches, which keep theirs.
            over = self.cursor_over()
            used = sum(segment.cell_length for segment in segments)
            pad = Segment(" " * max(0, scroll_x + width - used), line.fill or self.style_of(None))
            segments = [
                segment if n in line.matches else Segment(segment.text, (segment.style or Style()) + over)
                for n, segment in enumerate([*segments, pad])
            ]
        if current == row and segments:
            marker = Segment("›", self.style_of("match-current"))
            segments = [marker, *Strip(segments).crop(1, Strip(segments).cell_length)]
        return Strip(segments).crop_extend(scroll_x, scroll_x + width, line.fill or self.style_of(None))

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def watch_cursor(self) -> None:
        self._reveal_cursor()
        self.refresh()

    def _reveal_cursor(self) -> None:
        if self.cursor not in self._item_rows:
            return
        start, end = self._item_rows[self.cursor]
        height = self.scrollable_content_region.height
        top = self.scroll_offset.y
        if start < top:
            self.scroll_to(y=max(0, start - 1), animate=False)
        elif end > top + height:
            self.scroll_to(y=min(start - 1, end - height + 1), animate=False)

    # -- search matches ----------------------------------------------------------

    def goto_match(self, step: int) -> bool:
        """Move to the next (1) or previous (-1) line with a match; from none,
        the first or the last. False when there is no such line."""
        if not self.match_lines:
            return False
        if self.current_match is None:
            target = 0 if step > 0 else len(self.match_lines) - 1
        else:
            target = self.current_match + step
        if not 0 <= target < len(self.match_lines):
            return False
        self.current_match = target
        line = self.match_lines[target]
        item = self._lines[line].item
        moved = item is not None and item != self.cursor
        if item is not None and moved:
            self.set_reactive(ReviewView.cursor, item)
        height = self.scrollable_content_region.height
        top = self.scroll_offset.y
        if not top <= line < top + height:
            self.scroll_to(y=max(0, line - max(1, height // 3)), animate=False, immediate=True)
            self.refresh()
        elif moved and self.has_focus:
            self.refresh()  # the cursor's lines too
        else:  # the `›` alone moved
            for row in {self._mark_drawn, line}:
                if row is not None:
                    self.refresh_lines(row)
        return True

    # -- actions ---------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        """Move over checklist items and notes; past the first or last, scroll the text."""
        target = self.cursor + step
        if not self.stops or not 0 <= target < len(self.stops):
            self.scroll_relative(y=step, animate=False)
            return
        self.cursor = target

    def action_page(self, direction: int) -> None:
        self.scroll_relative(y=direction * max(1, self.scrollable_content_region.height - 1), animate=False)

    def action_edge(self, direction: int) -> None:
        if direction < 0:
            self.scroll_home(animate=False)
            if self.stops:
                self.cursor = 0
        else:
            self.scroll_end(animate=False)
            if self.stops:
                self.cursor = len(self.stops) - 1

    def action_toggle_item(self) -> None:
        item = self.cursor_item
        if self.review is None or item is None:
            self.app.bell()
            return
        post_to_screen(self, self.ItemToggled(self.review.key, item.key, item.key not in self.checked))

    def action_open_ref(self) -> None:
        place = self.cursor_place
        if self.review is None or place is None:
            self.app.bell()
            return
        post_to_screen(self, self.RefOpened(self.review.key, *place))

    def on_click(self, event: events.Click) -> None:
        """A click on an item's box (a note's mark) toggles it; elsewhere on it moves the cursor."""
        row = self.scroll_offset.y + event.y
        if not 0 <= row < len(self._lines):
            return
        line = self._lines[row]
        if line.item is None:
            return
        self.cursor = line.item
        if event.x < line.box_end:
            self.action_toggle_item()
