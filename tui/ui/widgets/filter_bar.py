"""One line under the status bar: what narrows the list (the tag, verdict,
unread, unchecked and search filters), how many reviews pass, and the key
that clears them all; "none" and the count when nothing does.

The line is always there: a line that came and went with the filters (a tag
switch from or to All) would move every pane below by a row, laying the whole
screen out and drawing it again, the slowest kind of tag switch, and a jolt
for the reader."""

from __future__ import annotations

from typing import Literal

from textual.content import Content
from textual.widgets import Static

from tui.i18n import words

SearchState = Literal["counting", "searching"]
"""What a search running shows instead of the count: see `FilterBar.show`."""


class FilterBar(Static):
    _shown: list[tuple[str, str] | str] | None = None

    def show(
        self, labels: list[str], query: str, count: int, clear_key: str, state: SearchState | None = None
    ) -> None:
        """Show the filters, or that there are none. `query` is the user's search text.
        `state`: "counting" while a search has listed its first matches only (the
        count is at least `count`), "searching" while it has not listed any yet."""
        filtering = bool(labels or query.strip())
        self.set_class(filtering, "-filtering")  # its colour says a filter is on
        parts: list[tuple[str, str] | str] = [(f"{words().filter}: ", "bold")]
        if not filtering:
            parts.append((words().filter_none, "$text-muted"))
        for n, label in enumerate(labels):
            if n:
                parts.append((" · ", "$text-muted"))
            parts.append((label, "bold $warning"))
        if query.strip():
            if labels:
                parts.append((" · ", "$text-muted"))
            parts += [("/", "$text-muted"), (query.strip(), "bold reverse")]
        if state == "searching":
            parts += ["  ", (words().search_searching, "italic $text-muted")]
        elif state == "counting":
            parts += ["  ", (words().search_counting.format(n=f"{count:,}"), "italic $text-muted")]
        else:
            parts += ["  ", (words().plural(words().shown_count, count), "$text-muted")]
        if filtering and clear_key:
            parts += ["   ", (words().filter_clear_hint.format(key=clear_key), "$text-muted italic")]
        if parts == self._shown:
            return  # relisted as it was (a mark under a filter): the line is left alone
        self._shown = parts
        self.update(Content.assemble(*parts), layout=False)  # one line, fixed size: no layout needed
