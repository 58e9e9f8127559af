"""Our line-API panes' scroll views and scrollbars, and what they lean on in
Textual: a content height set without a layout (`set_virtual_size`),
scrollbars kept by their looks and made of lines drawn before (`KeptBar`),
component classes styled once per stylesheet (`ComponentsStyledOnce`),
scrollbars styled as they are made (`StyledPane`). See the package's index
(tui/ui/patches/__init__.py) for the tests beside each."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual.css.styles import RenderStyles
from textual.dom import DOMNode
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.widget import Widget

from tui.ui.patches.lines import KeptLines


def set_virtual_size(view: ScrollView, size: Size) -> None:
    """`Widget.virtual_size` is a reactive with `layout=True`: every change lays
    out the whole screen and repaints all of it. For our line-API panes it
    changes on nearly every key (each review has its own height, each tag its
    own list), yet the pane's own size does not move. What a layout would do for
    a `ScrollView` is refresh its scrollbars (`ScrollView._size_updated` calls
    `_scroll_update`), so this does just that, and the pane repaints alone. When
    a scrollbar appears or disappears, `_refresh_scrollbars` changes its
    `display`, and that still asks for the layout it needs."""
    if size == view.virtual_size:
        return
    view.set_reactive(ScrollView.virtual_size, size)
    if view.is_attached and view.container_size:
        view._scroll_update(size)
    else:
        view.refresh(layout=True)  # not laid out yet: let the first layout size it
    view.refresh()


class KeptBar(ScrollBar):
    """A scrollbar that keeps its last few drawings, by what it looks like,
    and draws a new one from the lines it drew before.

    Kept drawings: `/` and escape took a row from the panes and gave it back,
    and each time both panes' bars (~70 lines) were drawn anew for one of the
    same two pictures (~2-3 ms at 120x40). `looks` says what a drawing
    depends on. A drawing is kept only when each of its lines was just drawn
    (`render_line`); one handed out from here drops what Textual's own cache
    of the bar's lines holds (`_styles_cache`, private), which was drawn for
    another look.

    A new drawing (a search's count moves the thumb on most typed
    characters): a vertical bar's line is one segment of
    `ScrollBarRender.render_bar` (a blank above or below the thumb, the
    thumb, or one of its two ends), and Textual draws it the same wherever it
    is. So the bar's segments are worked out (~40 µs) and each line is the
    one Textual drew for that segment before, in the same look
    (`_content_look`); only a segment not seen yet has Textual draw the whole
    bar (`Widget._render_content` and its `_render_cache`, private), through
    Rich (~0.4-0.8 ms a bar).

    (textual is pinned exactly; tests/perf_guards/test_redraw.py, the
    snapshots and tests/ui/test_kept_bar.py, which compares every drawing
    with Textual's own, fail if this stops working.) Its lines are styled by
    `KeptLines`: a thumb that moves leaves most of them as they were."""

    KEPT = 4
    KEPT_CONTENT = 64
    """Content lines kept: a look's ~20 kinds of segment (two blanks, the
    thumb, and each of its ends' seven glyphs), for a few looks."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._styles_cache = KeptLines()
        self._content: dict[tuple[object, ...], Strip] = {}

    def looks(self) -> tuple[object, ...]:
        raise NotImplementedError

    _kept: dict[tuple[object, ...], list[Strip]] | None = None
    _drawing = False
    """Whether `render_lines` is drawing the bar anew."""
    _segments: list[Segment] | None = None
    """The drawing's segments, a line each, once its first line is asked for
    (None: drawn by Textual alone)."""
    _drawn = 0
    """How many lines of the drawing `render_line` made."""
    _textual_drew = False
    """Whether Textual drew the whole bar for the drawing."""
    _look: tuple[object, ...] = ()
    """The drawing's `_content_look`."""

    def render_lines(self, crop: Region) -> list[Strip]:
        looks = self.looks()
        key = (looks, crop, tuple(self.get_line_filters()))
        kept = self._kept if self._kept is not None else {}
        self._kept = kept
        strips = kept.pop(key, None)
        if strips is not None:
            self._styles_cache.clear()
            self.shown(looks)
        else:
            self._drawing, self._segments, self._drawn, self._textual_drew = True, None, 0, False
            try:
                strips = super().render_lines(crop)
            finally:
                self._drawing, self._segments = False, None
            if not (self._drawn == crop.height and crop == self.size.region):
                return strips
        kept[key] = strips  # the newest last
        while len(kept) > self.KEPT:
            del kept[next(iter(kept))]
        return list(strips)

    def render_line(self, y: int) -> Strip:
        if not self._drawing:
            return super().render_line(y)
        self._drawn += 1
        segments = self._segments
        if segments is None:
            segments = self._segments = self._bar_segments()
            self._look = self._content_look()
        if not 0 <= y < len(segments):  # not one segment a line: Textual's drawing
            if not self._textual_drew:
                self._render_content()
                self._textual_drew = True
            return super().render_line(y)
        look = self._look
        content = self._content.get((segments[y], look))
        if content is None:
            self._render_content()  # Textual's drawing of the whole bar
            self._textual_drew = True
            lines = self._render_cache.lines
            if len(lines) != len(segments):
                self._segments = []
                return super().render_line(y)
            for segment, line in zip(segments, lines, strict=True):
                self._content[(segment, look)] = line
            while len(self._content) > self.KEPT_CONTENT:
                del self._content[next(iter(self._content))]
            content = lines[y]
        return content

    def _bar_segments(self) -> list[Segment]:
        """The bar's lines as segments, one a line, as `ScrollBarRender`
        draws them from what `render` gives it; none for a horizontal bar, a
        renderer of another kind or a selection (drawn by Textual alone)."""
        bar = self.render()
        width, height = self.size
        if (
            not self.vertical
            or self.text_selection is not None
            or not isinstance(bar, ScrollBarRender)
            or not isinstance(bar.style, RichStyle)
        ):
            return []
        style = bar.style
        drawn = bar.render_bar(  # as ScrollBarRender.__rich_console__ calls it
            size=height,
            virtual_size=bar.virtual_size,
            window_size=bar.window_size,
            position=bar.position,
            thickness=width,
            vertical=True,
            back_color=style.bgcolor or RichColor.parse("#555555"),
            bar_color=style.color or RichColor.parse("bright_magenta"),
        )
        return list(drawn.segments)

    def _content_look(self) -> tuple[object, ...]:
        """What Textual's drawing of a line reads besides its segment."""
        return (self.size.width, self.visual_style, self.auto_links, self.link_style)

    def shown(self, looks: tuple[object, ...]) -> None:
        """A kept drawing of `looks` is on screen now."""


if TYPE_CHECKING:
    _Mixin = Widget
else:
    _Mixin = object  # a Widget base would hide the widget's own bases' CSS from Textual


class ComponentsStyledOnce(_Mixin):
    """A widget whose component classes are styled when first asked for, and
    again only when the stylesheet changes: mixed in before the widget's
    Textual class (Textual takes default CSS from the first base that is a
    widget)."""

    _components_styled_by: object = None
    """The stylesheet's rules map the component classes were last styled with."""

    def _get_component_classes(self) -> frozenset[str]:  # type: ignore[override]  # Textual's returns set[str]; callers iterate
        """The component classes Textual is to style with the widget: those
        styled so far, and only when the stylesheet changed since.

        Textual styles every component class (a throwaway DOM node for each)
        every time it styles the widget: on each focus change, so each enter
        and escape would do it for two panes' 39 classes, and leave most of
        that key's cyclic garbage; each filter key, for the filter line's 5
        (its `-filtering` class). Our component rules (app.tcss, `Pane >
        .class`) hang on the stylesheet alone, never on the widget's classes
        or state, so they are styled again only when the stylesheet's rules
        change (a theme switch parses them anew); the rest are styled when
        first drawn (`get_component_styles`): the first frame draws 27 of the
        81, and styling all of them took ~4.5 ms of every start. The colours
        they resolve to are worked out when asked for
        (`get_component_rich_style`), over the widget's background then.
        (Overrides a private Textual method and fills its private
        `_component_styles`; textual is pinned exactly, and
        tests/perf_guards/test_styles_once.py fails if this stops working.)"""
        rules = self.app.stylesheet.rules_map
        if rules is self._components_styled_by:
            return frozenset()
        self._components_styled_by = rules
        return frozenset(self._component_styles)

    def get_component_styles(self, *names: str) -> RenderStyles:
        """Textual's, with a component class not styled yet styled now (one
        not in `COMPONENT_CLASSES` is still a KeyError)."""
        styled = self._component_styles
        if not styled.keys() >= set(names) and self.is_attached:
            known = super()._get_component_classes()  # every class declared (Textual's, cached)
            for name in names:
                if name not in styled and name in known:
                    node = DOMNode(classes=name)  # as Textual's `_process_component_classes` styles one
                    node._attach(self)
                    self.app.stylesheet.apply(node, animate=False)
                    styled[name] = node.styles
        return super().get_component_styles(*names)

    def style_components_ahead(self) -> None:
        """Style the component classes now, between frames, if the stylesheet
        changed since they were styled: the rules it gains after the first
        frame (the search box's `Input`, mounted then) would otherwise be
        worked out by the widget's next restyle, in a key's frame (the
        filter line's first `-filtering`: ~1.5-5 ms of the first filter key or
        character typed). (Calls `Stylesheet._process_component_classes`,
        private; see `_get_component_classes`.)"""
        if self.is_attached and self.app.stylesheet.rules_map is not self._components_styled_by:
            self.app.stylesheet._process_component_classes(self)


class StyledPane(ComponentsStyledOnce, ScrollView):
    """A scroll view whose scrollbars are styled when Textual makes them, and
    whose component classes are styled again only when the stylesheet changes.

    Textual makes a scrollbar when it first shows (in a layout) but styles it
    only when its widget is next restyled: the first focus change then changed
    the bar's rules, laid the whole screen out and drew a second frame a frame
    timer's tick after the first (shift+tab to the tag list, at start-up).
    Styled here, the restyle finds nothing changed. The layout that makes the
    bar is asked for one more layout (its rules set), right after it.

    Its lines are styled by `KeptLines`: a content line drawn again as it was
    is not styled, filtered and cut anew."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._styles_cache = KeptLines()

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        if self._vertical_scrollbar is None:
            self._vertical_scrollbar = self._made_bar(vertical=True)
        return self._vertical_scrollbar

    @property
    def horizontal_scrollbar(self) -> ScrollBar:
        if self._horizontal_scrollbar is None:
            self._horizontal_scrollbar = self._made_bar(vertical=False)
        return self._horizontal_scrollbar

    BAR: type[ScrollBar] = ScrollBar
    """The scrollbars' class."""

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        """Tell the pane of its new size while the screen is laid out, not by
        the Resize event Textual posts after it: the list's content height
        depends on its own height (`ReviewList._virtual_height`), and set from
        the event it was drawn a second time, a frame timer's tick after the
        layout's frame (`/` and escape in the search box, which move the panes'
        bottom edge by a row). And keep the lines a change of height alone
        leaves as they were. (Overrides a private Textual method, called
        from `Screen._refresh_layout` for each widget laid out, and reads and
        fills Textual's private cache of a widget's lines, `_styles_cache`;
        textual is pinned exactly, and tests/perf_guards/test_frames.py and
        tests/ui/test_kept_answers.py fail if this stops working.)"""
        old = self._size
        lines = self._styles_cache
        kept = dict(lines._cache) if old.width == size.width and old.height != size.height else None
        dirty = set(lines._dirty_lines)
        scroll, refreshes = self.scroll_offset, self._refreshes
        resized = super()._size_updated(size, virtual_size, container_size, layout)
        if resized and self.is_attached and container_size:
            self.sized()
        if kept and resized and self.scroll_offset == scroll and self._refreshes == refreshes:
            # Only the height changed, and nothing else since these lines were
            # drawn: above the bottom edge (its border and padding) of the
            # shorter of the two sizes they are as they were. Textual dropped
            # them all; the review pane redrew ~37 lines for `/` and escape.
            above = min(old.height, size.height) - self.styles.gutter.bottom
            for y, strip in kept.items():
                if y < above and y not in dirty:
                    lines._cache[y] = strip
                    lines._dirty_lines.discard(y)
        return resized

    def sized(self) -> None:
        """The pane's new size is set, during the layout that gave it."""

    _refreshes = 0
    """How many times the pane asked to be drawn again (see `_size_updated`)."""

    def refresh(
        self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False
    ) -> Self:
        if repaint or recompose:
            self._refreshes += 1
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _made_bar(self, *, vertical: bool) -> ScrollBar:
        """A bar made as Textual makes it (`Widget.vertical_scrollbar`), but a
        `BAR`, and styled at once."""
        bar = self.BAR(
            vertical=vertical,
            name="vertical" if vertical else "horizontal",
            thickness=self.scrollbar_size_vertical if vertical else self.scrollbar_size_horizontal,
        )
        bar.display = False
        self.app._start_widget(self, bar)
        self.app.stylesheet.apply(bar)
        return bar
