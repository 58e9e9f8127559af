"""`KeptStyles`: a line-API widget's component styles kept as rich styles
until the stylesheet or the widget's own look changes them.

`rich_style` and `get_component_rich_style` walk every ancestor each call,
and a widget that draws its own lines asks for the same few styles on every
line: `style_of` keeps them until `notify_style_update` finds one changed.
Focus coming and going restyles a pane (its border) without changing any of
them, so then nothing drawn from them is dropped; a theme switch changes
them all."""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.style import Style

if TYPE_CHECKING:
    from textual.widget import Widget

    _Mixin = Widget
else:
    _Mixin = object  # a Widget base here would hide the widget's own bases' CSS from Textual


class KeptStyles(_Mixin):
    """A widget's component styles kept (`style_of`): mixed in before the
    widget's Textual class (Textual takes default CSS from the first base
    that is a widget)."""

    COMPONENT_PREFIX: ClassVar[str] = ""
    """The component classes' prefix: "review-list" for `review-list--title`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._styles: dict[Hashable, Style] = {}

    def _fresh_style(self, name: Hashable) -> Style:
        if name is None:
            return self.rich_style
        if isinstance(name, tuple):
            return self.style_of(name[0]) + self.style_of(name[1])
        return self.get_component_rich_style(f"{self.COMPONENT_PREFIX}--{name}")

    def style_of(self, name: Hashable) -> Style:
        """The full style of component class `name` (None: the widget's own),
        kept; a pair (a, b) is a's style with b's on top."""
        style = self._styles.get(name)
        if style is None:
            style = self._styles[name] = self._fresh_style(name)
        return style

    _kept_for: tuple[object, Style, bool] | None = None
    """What the kept styles were last found to follow (`_styled_by`)."""

    def _styled_by(self) -> tuple[object, Style, bool]:
        """What every kept style follows: the stylesheet's rules (a theme parses
        them anew; the component classes are styled only then, see
        tui/ui/patches.StyledPane), the widget's own style (its colours, and
        its ancestors' backgrounds under it) and NO_COLOR."""
        return self.app.stylesheet.rules_map, self.rich_style, self.app.no_color

    def styles_changed(self) -> bool:
        """Whether a kept style is not what the stylesheet says now (true
        before any is kept: nothing was drawn with the current ones). Focus
        coming and going restyles a pane and changes none of what they
        follow: then the ~12 component styles are not worked out again to
        compare (~2 ms an enter or escape)."""
        now, before = self._styled_by(), self._kept_for
        self._kept_for = now
        if not self._styles:
            return True
        if before is not None and now[0] is before[0] and now[1:] == before[1:]:
            return False
        return any(
            style != self._fresh_style(name)
            for name, style in self._styles.items()
            if not isinstance(name, tuple)
        )

    def restyled(self) -> None:
        """The kept styles changed and were dropped: drop what was drawn with them."""

    def notify_style_update(self) -> None:
        super().notify_style_update()
        if self.styles_changed():
            self._styles.clear()
            self.restyled()
