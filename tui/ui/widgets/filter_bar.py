"""One line under the status bar: what narrows the list (the tag, verdict,
unread, unchecked and search filters), how many reviews pass, and the key
that clears them all; "none" and the count when nothing does.

The line is always there: a line that came and went with the filters (a tag
switch from or to All) would move every pane below by a row, laying the whole
screen out and drawing it again, the slowest kind of tag switch, and a jolt
for the reader.

It changes on every filter key and every character typed in the search box
(the count), so it draws its one line itself (the line API), from component
styles kept as rich styles: as a `Static` of `Content` with theme variables
(`$text-muted`) each change cost ~1 ms of the key's frame, the variables
resolved and the text laid out through a visual."""

from __future__ import annotations

from typing import ClassVar, Literal

from rich.segment import Segment
from textual.strip import Strip
from textual.widget import Widget

from tui.i18n import words
from tui.ui.patches import ComponentsStyledOnce
from tui.ui.widgets.kept_styles import KeptStyles

SearchState = Literal["counting", "searching"]
"""What a search running shows instead of the count: see `FilterBar.show`."""

_Run = tuple[str, str | None]
"""Text and the component class it is drawn in (None: the line's own style)."""


class FilterBar(KeptStyles, ComponentsStyledOnce, Widget):
    COMPONENT_PREFIX = "filter-bar"
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "filter-bar--label",
        "filter-bar--muted",
        "filter-bar--filter",
        "filter-bar--query",
        "filter-bar--note",
    }

    _shown: tuple[_Run, ...] = ()
    _drawn: tuple[int, Strip] | None = None
    """The line drawn, and the width it was drawn at."""

    @property
    def plain(self) -> str:
        """The line's text."""
        return "".join(text for text, _ in self._shown)

    def show(
        self, labels: list[str], query: str, count: int, clear_key: str, state: SearchState | None = None
    ) -> None:
        """Show the filters, or that there are none. `query` is the user's search text.
        `state`: "counting" while a search has listed its first matches only (the
        count is at least `count`), "searching" while it has not listed any yet."""
        filtering = bool(labels or query.strip())
        self.set_class(filtering, "-filtering")  # its colour says a filter is on
        runs: list[_Run] = [(f"{words().filter}: ", "label")]
        if not filtering:
            runs.append((words().filter_none, "muted"))
        for n, label in enumerate(labels):
            if n:
                runs.append((" · ", "muted"))
            runs.append((label, "filter"))
        if query.strip():
            if labels:
                runs.append((" · ", "muted"))
            runs += [("/", "muted"), (query.strip(), "query")]
        if state == "searching":
            runs += [("  ", None), (words().search_searching, "note")]
        elif state == "counting":
            runs += [("  ", None), (words().search_counting.format(n=f"{count:,}"), "note")]
        else:
            runs += [("  ", None), (words().plural(words().shown_count, count), "muted")]
        if filtering and clear_key:
            runs += [("   ", None), (words().filter_clear_hint.format(key=clear_key), "note")]
        shown = tuple(runs)
        if shown == self._shown:
            return  # relisted as it was (a mark under a filter): the line is left alone
        self._shown, self._drawn = shown, None
        self.refresh()  # one line, fixed size: no layout needed

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.style_of(None)
        if y:
            return Strip.blank(width, base)
        drawn = self._drawn
        if drawn is None or drawn[0] != width:
            segments = [Segment(text, self.style_of(name)) for text, name in self._shown]
            drawn = self._drawn = (width, Strip(segments).adjust_cell_length(width, base))
        return drawn[1]

    def restyled(self) -> None:
        self._drawn = None
