"""An OptionList whose rows are laid out for its current width.

OptionList wraps prompts with Textual's word wrap, which pushes a whole run of
Chinese to the next line. Rows here are wrapped by `tui.wrap` instead, so they
are rebuilt when the width changes; that costs one pass over the rows on a
resize, never on a key press.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from textual import events
from textual.content import Content
from textual.geometry import Size
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..wrap import Line, line_width, truncate, wrap


def wrapped(
    runs: Sequence[tuple[str, Hashable]],
    width: int,
    indent: int = 0,
    right: Sequence[tuple[str, str]] = (),
) -> list[Line]:
    """Wrap runs with a hanging indent; `right` is set flush right on the last line."""
    lines = wrap(runs, max(1, width - indent))
    out: list[Line] = [lines[0]] + [[(" " * indent, ""), *line] for line in lines[1:]]
    if right:
        tail_width = line_width(list(right))
        if tail_width > width:  # a figure wider than the row: cut it rather than overflow
            text = truncate("".join(text for text, _ in right), width)
            right, tail_width = [(text, right[0][1])], line_width([(text, "")])
        last = out[-1]
        used = line_width(last)
        if used + tail_width + 1 <= width:
            out[-1] = [*last, (" " * (width - used - tail_width), ""), *right]
        else:
            out.append([(" " * max(0, width - tail_width), ""), *right])
    return out


def to_content(lines: list[Line]) -> Content:
    parts: list[tuple[str, str] | str] = []
    for n, line in enumerate(lines):
        if n:
            parts.append("\n")
        parts.extend((text, str(style or "")) for text, style in line)
    return Content.assemble(*parts)


def _lines(option: Option) -> int:
    prompt = option.prompt
    return (prompt.plain if isinstance(prompt, Content) else str(prompt)).count("\n")


def _same_shape(old: Sequence[Option], new: Sequence[Option]) -> bool:
    """Same ids, same heights, same enabled rows."""
    return len(old) == len(new) and all(
        a.id == b.id and a.disabled == b.disabled and _lines(a) == _lines(b)
        for a, b in zip(old, new, strict=True)
    )


class FittedList(OptionList):
    """Subclasses supply rows through `build_options(width)`; this keeps them fitted."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self._fitted_width = -1

    @property
    def row_width(self) -> int:
        return max(1, self.scrollable_content_region.width - 1)

    def build_options(self, width: int) -> list[Option]:
        raise NotImplementedError

    def _selected_id(self) -> str | None:
        option = self.highlighted_option
        return option.id if option is not None else None

    def refit(self, selected: str | None, fallback: int = 0, *, width: int | None = None) -> None:
        """Rebuild every row at the current width (or `width`), keeping `selected`
        highlighted (or, when it is gone, the row at `fallback`)."""
        self._fitted_width = self.row_width if width is None else width
        options = self.build_options(self._fitted_width)
        with self.prevent(OptionList.OptionHighlighted):
            if _same_shape(self.options, options):
                # New counts in the same rows: swap the prompts in place. `set_options`
                # would scroll to the top and, the list's height being auto, lay out the
                # whole screen on every mark.
                changed = False
                for old, new in zip(self.options, options, strict=True):
                    if old.prompt is not new.prompt:
                        old._set_prompt(new.prompt)
                        changed = True
                if changed:
                    self._clear_caches()
            else:
                self.set_options(options)
            ids = [option.id for option in options]
            if selected is not None and selected in ids:
                self.highlighted = ids.index(selected)
            elif options and not options[0].disabled:
                self.highlighted = max(0, min(fallback, len(options) - 1))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        styles = self.styles
        gutter = styles.scrollbar_size_vertical if styles.scrollbar_gutter == "stable" else 0
        row_width = width - gutter - 1
        if row_width > 0 and not self.size and self._fitted_width != row_width:
            # The first layout measures us before any Resize: fit the rows to the
            # width being laid out, or the first frame shows them one character a
            # line. (`width` includes the scrollbar's room; with a stable gutter it
            # is known now, otherwise on_resize refits if a scrollbar shows.)
            self.refit(self._selected_id(), width=row_width)
        # Rich raises when asked to wrap at width 0; a squeezed list measures at 1.
        return super().get_content_height(container, viewport, max(1, width))

    def on_resize(self, event: events.Resize) -> None:
        if self.row_width != self._fitted_width:
            self.refit(self._selected_id())
