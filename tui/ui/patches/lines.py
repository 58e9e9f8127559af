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
`render_line` reads of the styles and colours, `_frame_of`) is the strip styled
for it last time, and so its filtered strip and its cuts (kept on that strip
by Textual) are too. Top and bottom borders, padding rows and outline rows go
to Textual as before.

A line with the same segments in another look of its borders alone (focus
coming or going changes their colour) is not styled anew either: what lies
between its borders is kept too (`inner`), and put between this look's
borders (taken from the first line of the frame that Textual styled). Only
for a plain look: no tint, outline or opacity, which change the whole line.

(Overrides and calls the private `StylesCache.render_line`; textual is pinned
exactly, and tests/ui/test_kept_lines.py fails if this stops working or if
the screen ever differs from one drawn with nothing kept.)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from rich.segment import Segment
from rich.terminal_theme import TerminalTheme
from textual._styles_cache import StylesCache
from textual.color import Color
from textual.content import Content
from textual.css.styles import StylesBase
from textual.geometry import Size, Spacing
from textual.strip import Strip
from textual.style import Style

if TYPE_CHECKING:
    from textual.widget import Widget

_Label = tuple[Content, Color, Color, Style] | None
_Args = tuple[StylesBase, int, Size, Size, Spacing, Color, Color]
"""`render_line`'s arguments before the content's callback..."""
_Rest = tuple[_Label, _Label, float, TerminalTheme, bool]
"""... and after it."""


class _Frame(NamedTuple):
    """What every content line of one `render` shares (they differ in the
    line alone)."""

    first: int
    """The first line that is no border, padding or outline row."""
    end: int
    """The end of those lines."""
    gutter_top: int
    content_height: int
    look: tuple[object, ...]
    """Everything `StylesCache.render_line` reads to style a content line."""
    inner_look: tuple[object, ...] | None
    """What it reads to style what lies between the borders; None when the
    borders are not simply put on either side (a tint, an outline, opacity)."""
    sides: tuple[int, int]
    """How many segments the left and right borders add (0 or 1 each)."""


class KeptLines(StylesCache):
    """Styled content lines kept by their segments and look, the last used
    last, `KEPT` of them (two looks of a pane's lines, focused or not, and a
    few pages more)."""

    KEPT = 320

    def __init__(self) -> None:
        super().__init__()
        self.kept: dict[Hashable, Strip] = {}
        """Styled lines by (content segments, cell length, look)."""
        self.inner: dict[Hashable, tuple[Segment, ...]] = {}
        """What lies between a styled line's borders, by (content segments,
        cell length, inner look)."""
        self.styled = 0
        """How many content lines Textual styled: for tests."""
        self.bordered = 0
        """How many were kept insides put between new borders: for tests."""

    def forget(self) -> None:
        """Drop every kept line (Textual's `clear`, which every full refresh
        calls, leaves them: the next frame finds what it can among them)."""
        self.kept.clear()
        self.inner.clear()
        self.clear()

    _frame: _Frame | None = None
    """`_frame_of` the `render` running."""
    _borders: tuple[tuple[Segment, ...], tuple[Segment, ...]] | None = None
    """This render's left and right borders, from a line Textual styled in it."""

    def render(self, *args: Any, **kwargs: Any) -> list[Strip]:
        """Textual's, with `_frame` worked out once for all the lines it draws."""
        self._frame = self._borders = None
        try:
            return super().render(*args, **kwargs)
        finally:
            self._frame = self._borders = None

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
        frame = self._frame
        if frame is None:
            frame = self._frame = _frame_of(
                styles,
                size,
                content_size,
                padding,
                base_background,
                background,
                opacity,
                ansi_theme,
                native_ansi,
            )
        content_y = y - frame.gutter_top
        if not (frame.first <= y < frame.end and 0 <= content_y < frame.content_height):
            return super().render_line(*args, render_content_line, *rest)
        content = render_content_line(content_y)
        segments = tuple(content)
        key = (segments, content.cell_length, frame.look)
        try:
            hash(key)
        except TypeError:  # a segment's control codes in a list: not kept
            return super().render_line(*args, lambda _y: content, *rest)
        kept = self.kept
        strip = kept.pop(key, None)
        if strip is None:
            strip = self._styled(content, key, frame, args, rest)
        kept[key] = strip  # the last used last
        if len(kept) > self.KEPT:
            del kept[next(iter(kept))]
        return strip

    def style_ahead(self, widget: Widget, contents: Sequence[Strip]) -> None:
        """Style `contents`, the content lines `widget` would draw from its
        top, in its look now, and keep them (and their filtered strips) for a
        frame to come: what a key will show next (the next review) is styled
        in idle time, not in the key's frame. Lines kept already are left."""
        base_background, background = widget.background_colors
        styles, app = widget.styles, widget.app
        size, content_size, padding = widget.region.size, widget.content_region.size, styles.padding
        looks = (base_background, background, widget.opacity, app.ansi_theme, app.native_ansi_color)
        frame = _frame_of(styles, size, content_size, padding, *looks)
        rest = (None, None, widget.opacity, app.ansi_theme, app.native_ansi_color)
        filters = widget.get_line_filters()
        kept = self.kept
        self._borders = None
        try:
            for n, content in enumerate(contents[: min(frame.content_height, frame.end - frame.first)]):
                key = (tuple(content), content.cell_length, frame.look)
                try:
                    if key in kept:
                        continue
                except TypeError:  # a segment's control codes in a list: not kept
                    continue
                args = (
                    styles,
                    frame.gutter_top + n,
                    size,
                    content_size,
                    padding,
                    base_background,
                    background,
                )
                strip = kept[key] = self._styled(content, key, frame, args, rest)
                for line_filter in filters:
                    strip = strip.apply_filter(line_filter, background)  # kept on the strip by Textual
                if len(kept) > self.KEPT:
                    del kept[next(iter(kept))]
        finally:
            self._borders = None

    def _styled(
        self,
        content: Strip,
        key: tuple[tuple[Segment, ...], int, tuple[object, ...]],
        frame: _Frame,
        args: _Args,
        rest: _Rest,
    ) -> Strip:
        """A content line not kept in this look: its kept inside between this
        look's borders, or styled by Textual (and its inside kept)."""
        if frame.inner_look is None:
            self.styled += 1
            return super().render_line(*args, lambda _y: content, *rest)
        inner_key = (key[0], key[1], frame.inner_look)
        inner, borders = self.inner.pop(inner_key, None), self._borders
        if inner is not None and borders is not None:
            self.bordered += 1
            strip = Strip([*borders[0], *inner, *borders[1]], frame.look[0])  # type: ignore[arg-type]  # the width
        else:
            self.styled += 1
            strip = super().render_line(*args, lambda _y: content, *rest)
            line = list(strip)
            left, right = frame.sides
            inner = tuple(line[left : len(line) - right])
            self._borders = tuple(line[:left]), tuple(line[len(line) - right :])
        self.inner[inner_key] = inner
        if len(self.inner) > self.KEPT:
            del self.inner[next(iter(self.inner))]
        return strip


def _frame_of(
    styles: StylesBase,
    size: Size,
    content_size: Size,
    padding: Spacing,
    base_background: Color,
    background: Color,
    opacity: float,
    ansi_theme: TerminalTheme,
    native_ansi: bool,
) -> _Frame:
    """Where the content lines are, as `StylesCache.render_line` decides it,
    and what it reads to style one: the borders' and outlines' kinds and
    colours, the padding's sides, the colours under and of the widget, text
    opacity, tint, hatch, opacity and the ANSI colours."""
    height = size.height
    border, outline, gutter = styles.border, styles.outline, styles.gutter
    (border_top, _), (border_right, _), (border_bottom, _), (border_left, _) = border
    (outline_top, _), _, (outline_bottom, _), _ = outline
    pad_top, _, pad_bottom, _ = padding
    first = 1 if border_top or outline_top else 0
    if pad_top:
        first = max(first, gutter.top)
    end = height - 1 if border_bottom or outline_bottom else height
    if pad_bottom:
        end = min(end, height - gutter.bottom)
    hatch = styles.hatch if styles.has_rule("hatch") else None
    tint = styles.tint
    inside = (
        content_size.width,
        padding.left,
        padding.right,
        base_background,
        background,
        styles.text_opacity,
        hatch,
        ansi_theme,
        native_ansi,
    )
    look = (size.width, *inside, border, outline, tint, opacity)
    plain = not tint.a and opacity == 1.0 and not any(kind for kind, _ in outline)
    sides = (1 if border_left else 0, 1 if border_right else 0)
    return _Frame(first, end, gutter.top, content_size.height, look, inside if plain else None, sides)
