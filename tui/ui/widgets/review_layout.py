"""A review laid out as lines, what `ReviewView` draws: its blocks
(`review_blocks`) wrapped at a width by our own line breaker (`tui.core.wrap`,
so Chinese wraps between characters) and styled as the pane styles them."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import NamedTuple

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style

from tui.core.model import Review
from tui.core.search import MATCH
from tui.core.wrap import wrap
from tui.ui.widgets.review_blocks import Runs, Shown, review_blocks


class Line(NamedTuple):
    segments: list[Segment]
    item: int | None
    fill: Style | None
    box_end: int = 0  # cells up to the end of the checkbox, for mouse clicks
    matches: frozenset[int] = frozenset()  # indexes of segments drawn as search matches


class Laid(NamedTuple):
    lines: list[Line]
    rows: dict[int, tuple[int, int]]  # an item's first line and the line after its last
    match_lines: list[int]


class ReviewLayout:
    """Lays reviews out for one pane, whose `style_of` styles the runs."""

    def __init__(self, style_of: Callable[[Hashable], Style]) -> None:
        self.style_of = style_of
        self._wrapped: dict[tuple, list] = {}  # (runs, width) -> wrapped lines

    def lay_out(self, review: Review | None, shown: Shown, width: int) -> Laid:
        lines: list[Line] = []
        rows: dict[int, tuple[int, int]] = {}
        match_lines: list[int] = []
        for block in review_blocks(review, shown):
            for _ in range(block.gap_before):
                lines.append(Line([], None, None))
            fill = Style(bgcolor=self.style_of(block.fill).bgcolor) if block.fill else None
            prefix_width = sum(cell_len(text) for text, _ in block.prefix)
            indent: Runs = [(" " * prefix_width, None)]
            if block.prefix and block.prefix[0][1] == "focus-bar":
                indent = [block.prefix[0], (" " * (prefix_width - cell_len(block.prefix[0][0])), None)]
            start = len(lines)
            for n, line in enumerate(self._wrap(block.runs, width - prefix_width - 1)):
                runs = (block.prefix if n == 0 else indent) + line
                segments = [self._segment(text, style, fill) for text, style in runs]
                matches = frozenset(i for i, (_, style) in enumerate(runs) if is_match(style))
                if matches:
                    match_lines.append(len(lines))
                lines.append(Line(segments, block.item, fill, prefix_width, matches))
            if block.item is not None:
                rows[block.item] = (start, len(lines))
        return Laid(lines, rows, match_lines)

    def _wrap(self, runs: list[tuple[str, Hashable]], width: int) -> list:
        """`wrap`, remembered: a mark, a focus move or a reload lays the same
        review out again, and wrapping is most of what that costs."""
        key = (tuple(runs), width)
        lines = self._wrapped.get(key)
        if lines is None:
            if len(self._wrapped) > 4096:
                self._wrapped.clear()
            lines = self._wrapped[key] = wrap(runs, width, keep_whole={"code", "ref"})
        return lines

    def _segment(self, text: str, style: Hashable, fill: Style | None) -> Segment:
        rich_style = self.style_of(style)
        if fill is not None:
            rich_style = fill + rich_style
        return Segment(text, rich_style)


def is_match(style: Hashable) -> bool:
    return isinstance(style, tuple) and len(style) == 2 and style[1] == MATCH
