"""The sidebar's tags: All, Unread, then every tag with unread/total counts."""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ..filters import tag_label
from ..presenting import TagCount
from .fitted_list import FittedList, to_content, wrapped
from .to_app import post_to_app


class TagList(FittedList):
    """Tags as a virtualised list; highlighting one selects it."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", id="tags.down", tooltip="Next tag", show=False),
        Binding("k", "cursor_up", "Up", id="tags.up", tooltip="Previous tag", show=False),
    ]

    @dataclass
    class Chosen(Message):
        """The highlighted tag changed."""

        tag: str

    @dataclass
    class Opened(Message):
        """Enter on a tag: go to its reviews."""

        tag: str

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.counts: list[TagCount] = []
        self._built: dict[tuple[TagCount, int], Option] = {}

    @property
    def tags(self) -> list[str]:
        return [count.tag for count in self.counts]

    def show_counts(self, counts: list[TagCount], selected: str) -> None:
        self.counts = counts
        self.refit(selected)

    def build_options(self, width: int) -> list[Option]:
        """A row per tag; rows whose count is unchanged are reused (a mark changes
        a few counts, and wrapping every label again showed at 45 tags)."""
        built: dict[tuple[TagCount, int], Option] = {}
        options = []
        for count in self.counts:
            option = self._built.get((count, width))
            if option is None:
                label = [(tag_label(count.tag), "bold" if count.unread else "")]
                figure = [(f"{count.unread:,}/{count.total:,}", "$accent" if count.unread else "$text-muted")]
                option = Option(to_content(wrapped(label, width, 2, figure)), id=count.tag)
            built[(count, width)] = option
            options.append(option)
        self._built = built
        return options

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        if event.option.id is not None:
            post_to_app(self, self.Chosen(event.option.id))

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            post_to_app(self, self.Opened(event.option.id))
