"""One line under the status bar, shown while anything narrows the list:
the tag, verdict, unread, unchecked and search filters, how many reviews
pass, and the key that clears them all."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from .. import words


class FilterBar(Static):
    def show(self, labels: list[str], query: str, count: int, clear_key: str) -> None:
        """Show the filters (hidden when there are none). `query` is the user's search text."""
        self.display = bool(labels or query.strip())
        if not self.display:
            return
        parts: list[tuple[str, str] | str] = [(f"{words.FILTER}: ", "bold")]
        for n, label in enumerate(labels):
            if n:
                parts.append((" · ", "$text-muted"))
            parts.append((label, "bold $warning"))
        if query.strip():
            if labels:
                parts.append((" · ", "$text-muted"))
            parts += [("/", "$text-muted"), (query.strip(), "bold reverse")]
        parts += ["  ", (words.plural(words.SHOWN_COUNT, count), "$text-muted")]
        if clear_key:
            parts += ["   ", (words.FILTER_CLEAR_HINT.format(key=clear_key), "$text-muted italic")]
        self.update(Content.assemble(*parts), layout=False)  # one line, fixed size: no layout needed
