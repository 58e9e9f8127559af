"""The reviews laid out ahead of being shown (`ReviewView.lay_out_ahead`),
kept by what they were laid out for."""

from __future__ import annotations

from collections.abc import Iterator

from tui.core.model import Review
from tui.ui.widgets.review_blocks import Shown
from tui.ui.widgets.review_layout import Laid


class Ahead:
    """Reviews laid out ahead, the newest last: `KEPT` of them (those around
    the list's cursor). One is used only for the same review object, what it
    shows of the reader's marks and search (`Shown`) and width."""

    KEPT = 6

    def __init__(self) -> None:
        self._kept: list[tuple[Review, Shown, int, Laid]] = []

    def has(self, review: Review, shown: Shown, width: int) -> bool:
        return any(r is review and w == width and s == shown for r, s, w, _ in self._kept)

    def add(self, review: Review, shown: Shown, width: int, laid: Laid) -> None:
        self._kept = [*self._kept[-(self.KEPT - 1) :], (review, shown, width, laid)]

    def take(self, review: Review | None, shown: Shown, width: int) -> Laid | None:
        """Its layout, if laid out ahead for this (no longer kept then)."""
        for n, (kept, kept_shown, kept_width, laid) in enumerate(self._kept):
            if kept is review and kept_width == width and kept_shown == shown:
                del self._kept[n]
                return laid
        return None

    def clear(self) -> None:
        self._kept = []

    def __iter__(self) -> Iterator[tuple[Review, Shown, int, Laid]]:
        return iter(self._kept)
