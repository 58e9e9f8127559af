"""`KeptLines`: a widget's cache of styled lines (Textual's private
`StylesCache`) that styles a content line once per look.

Textual styles every line a widget redraws anew (`StylesCache.render_line`:
the content padded to width, the padding and the borders added, tint and
opacity applied), and the ANSI filter and the compositor's cuts at the
scrollbar then make new strips of that one: ~7 strips a line, whether or not
the line changed. Most lines of a key's frame did not: `space` redrew the
list's 21 lines for one row's count, the tag list's 12 for two counts, the
review's 35 for one box; `enter` and `escape` change the panes' border colour
and nothing inside it. Here a content line (inside the borders and padding)
drawn with the same segments, at the same size and in the same look (what
`render_line` reads of the styles and colours, `_look`) is the strip styled
for it last time, and so its filtered strip and its cuts (kept on that strip
by Textual) are too. Top and bottom borders, padding rows and outline rows go
to Textual as before.

(Overrides and calls the private `StylesCache.render_line`; textual is pinned
exactly, and tests/ui/test_kept_lines.py fails if this stops working or if
the screen ever differs from one drawn with nothing kept.)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from rich.terminal_theme import TerminalTheme
from textual._styles_cache import StylesCache
from textual.color import Color
from textual.content import Content
from textual.css.styles import StylesBase
from textual.geometry import Size, Spacing
from textual.strip import Strip
from textual.style import Style


class KeptLines(StylesCache):
    """Styled content lines kept by their segments and look, the last used
    last, `KEPT` of them (two looks of a pane's lines, focused or not, and a
    few pages more)."""

    KEPT = 320

    def __init__(self) -> None:
        super().__init__()
        self.kept: dict[Hashable, Strip] = {}
        """Styled lines by (content segments, cell length, look)."""
        self.styled = 0
        """How many content lines were styled (not found in `kept`): for tests."""

    def forget(self) -> None:
        """Drop every kept line (Textual's `clear`, which every full refresh
        calls, leaves them: the next frame finds what it can among them)."""
        self.kept.clear()
        self.clear()

    _drawing: tuple[tuple[int, int, int, int], tuple[object, ...]] | None = None
    """What `_frame` found for the lines of the `render` running."""

    def render(self, *args: Any, **kwargs: Any) -> list[Strip]:
        """Textual's, with `_frame` worked out once for all the lines it draws
        (they share every argument but the line)."""
        self._drawing = None
        try:
            return super().render(*args, **kwargs)
        finally:
            self._drawing = None

    def render_line(
        self,
        styles: StylesBase,
        y: int,
        size: Size,
        content_size: Size,
        padding: Spacing,
        base_background: Color,
        background: Color,
        render_content_line: Callable[[int], Strip],
        border_title: tuple[Content, Color, Color, Style] | None,
        border_subtitle: tuple[Content, Color, Color, Style] | None,
        opacity: float,
        ansi_theme: TerminalTheme,
        native_ansi: bool,
    ) -> Strip:
        args = (styles, y, size, content_size, padding, base_background, background)
        rest = (border_title, border_subtitle, opacity, ansi_theme, native_ansi)
        drawing = self._drawing
        if drawing is None:
            drawing = _frame(styles, size, content_size, padding, base_background, background, opacity)
            drawing = drawing[0], (*drawing[1], ansi_theme, native_ansi)
            self._drawing = drawing
        (first, end, gutter_top, content_height), look = drawing
        content_y = y - gutter_top
        if not (first <= y < end and 0 <= content_y < content_height):
            return super().render_line(*args, render_content_line, *rest)
        content = render_content_line(content_y)
        key = (tuple(content), content.cell_length, look)
        try:
            hash(key)
        except TypeError:  # a segment's control codes in a list: not kept
            return super().render_line(*args, lambda _y: content, *rest)
        kept = self.kept
        strip = kept.pop(key, None)
        if strip is None:
            self.styled += 1
            strip = super().render_line(*args, lambda _y: content, *rest)
        kept[key] = strip  # the last used last
        if len(kept) > self.KEPT:
            del kept[next(iter(kept))]
        return strip


def _frame(
    styles: StylesBase,
    size: Size,
    content_size: Size,
    padding: Spacing,
    base_background: Color,
    background: Color,
    opacity: float,
) -> tuple[tuple[int, int, int, int], tuple[object, ...]]:
    """Where the content lines are, as `StylesCache.render_line` decides it
    (the first and the end of the lines that are no border, padding or
    outline row, the top gutter, the content's height), and everything it
    reads to style one but the line itself (the look): the borders' and
    outlines' kinds and colours, the padding's sides, the colours under and
    of the widget, text opacity, tint, hatch and opacity."""
    height = size.height
    border, outline, gutter = styles.border, styles.outline, styles.gutter
    (border_top, _), _, (border_bottom, _), _ = border
    (outline_top, _), _, (outline_bottom, _), _ = outline
    pad_top, _, pad_bottom, _ = padding
    first = 1 if border_top or outline_top else 0
    if pad_top:
        first = max(first, gutter.top)
    end = height - 1 if border_bottom or outline_bottom else height
    if pad_bottom:
        end = min(end, height - gutter.bottom)
    hatch = styles.hatch if styles.has_rule("hatch") else None
    look = (
        size.width,
        content_size.width,
        padding.left,
        padding.right,
        border,
        outline,
        base_background,
        background,
        styles.text_opacity,
        styles.tint,
        hatch,
        opacity,
    )
    return (first, end, gutter.top, content_size.height), look
