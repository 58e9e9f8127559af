"""The key hints at the bottom of a screen, drawn as one line.

Textual's `Footer` mounts a widget per key and recomposes itself on every
bindings change: each focus change, each filter toggled. At 10,000 reviews
that recompose (mount, style, lay out ~15 widgets) was most of the CPU an
enter, escape or tag switch cost. This bar draws the same hints as one strip
and redraws only when the hints it shows have changed.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget


class KeyHint(NamedTuple):
    key: str
    """The key pressed when the hint is clicked."""
    display: str
    description: str
    enabled: bool
    tooltip: str


class KeyBar(Widget, can_focus=False):
    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"key-bar--key", "key-bar--description", "key-bar--hover", "key-bar--divider"}
    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        & > .key-bar--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .key-bar--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        & > .key-bar--hover {
            background: $block-hover-background;
        }
        & > .key-bar--divider {
            color: $foreground 20%;
        }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.hints: tuple[KeyHint, ...] = ()
        self.palette: KeyHint | None = None
        self._spans: list[tuple[int, int, KeyHint]] = []  # x from, x to, hint: where clicks land
        self._hover: KeyHint | None = None

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.call_after_refresh(self._bindings_changed, self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: object) -> None:
        if not self.is_attached:
            return
        hints, palette = self._collect()
        if (hints, palette) != (self.hints, self.palette):
            self.hints, self.palette = hints, palette
            self.refresh()

    def _collect(self) -> tuple[tuple[KeyHint, ...], KeyHint | None]:
        """The shown bindings, one per action (the first key bound to it), as the
        footer would: in the order the screen reports them."""
        app = self.app
        active = self.screen.active_bindings
        seen: set[str] = set()
        hints: list[KeyHint] = []
        for _node, binding, enabled, tooltip in active.values():
            if not binding.show or binding.action in seen:
                continue
            seen.add(binding.action)
            hints.append(self._hint(binding, enabled, tooltip))
        palette = None
        if app.ENABLE_COMMAND_PALETTE and app.COMMAND_PALETTE_BINDING in active:
            _node, binding, enabled, tooltip = active[app.COMMAND_PALETTE_BINDING]
            palette = self._hint(binding, enabled, tooltip)
        return tuple(hints), palette

    def _hint(self, binding: Binding, enabled: bool, tooltip: str) -> KeyHint:
        return KeyHint(
            binding.key,
            self.app.get_key_display(binding),
            binding.description,
            enabled,
            tooltip or binding.tooltip or binding.description,
        )

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return 1

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        if y or width <= 0:
            return Strip.blank(width, base)
        key_style = self.get_component_rich_style("key-bar--key")
        text_style = self.get_component_rich_style("key-bar--description")
        hover = self.get_component_rich_style("key-bar--hover", partial=True)
        dim = Style(dim=True)

        def parts(hint: KeyHint, key: str, description: str) -> list[Segment]:
            extra = (hover if hint == self._hover else Style()) + (Style() if hint.enabled else dim)
            out = [Segment(key, key_style + extra)]
            if hint.description:
                out.append(Segment(description, text_style + extra))
            return out

        right: list[Segment] = []
        if (palette := self.palette) is not None:
            # As the footer draws it: a divider, then the key and its word, unpadded.
            divider = self.get_component_rich_style("key-bar--divider")
            right = [
                Segment("▏", divider),
                *parts(palette, palette.display, f" {palette.description}"),
                Segment(" ", Style(bgcolor=base.bgcolor)),
            ]
        right_width = sum(cell_len(segment.text) for segment in right)
        if right_width > width:
            right, right_width = [], 0
        room = width - right_width
        spans: list[tuple[int, int, KeyHint]] = []
        left: list[Segment] = []
        x = 0
        for hint in self.hints:
            segments = parts(hint, f" {hint.display} ", f"{hint.description} ")
            end = x + sum(cell_len(segment.text) for segment in segments)
            if x >= room:
                break
            spans.append((x, min(end, room), hint))
            left += segments
            x = end
        if right:
            spans.append((room, width, self.palette))  # type: ignore[arg-type]  # `right` holds the palette's hint
        self._spans = spans
        line = Strip(left).crop_extend(0, room, Style(bgcolor=base.bgcolor))
        return Strip.join([line, Strip(right)]) if right else line

    def _hint_at(self, x: int) -> KeyHint | None:
        for start, end, hint in self._spans:
            if start <= x < end:
                return hint
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        hint = self._hint_at(event.x)
        if hint != self._hover:
            self._hover = hint
            self.tooltip = hint.tooltip if hint else None
            self.refresh()

    def on_leave(self, event: events.Leave) -> None:
        if self._hover is not None:
            self._hover = None
            self.refresh()

    def on_click(self, event: events.Click) -> None:
        hint = self._hint_at(event.x)
        if hint is None:
            return
        event.stop()
        if hint.enabled:
            self.app.simulate_key(hint.key)
        else:
            self.app.bell()
