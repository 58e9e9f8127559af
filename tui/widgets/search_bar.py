"""The search box: `/` opens it, typing searches as you type, enter opens the
first match, escape clears. It posts messages; the app searches."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message

from .. import words
from .to_app import post_to_app

if TYPE_CHECKING:
    from textual.widgets import Input


class SearchBar(Horizontal):
    BINDINGS = [
        Binding(
            "escape", "cancel", "Clear", id="search.cancel", tooltip="Clear the search and close the box"
        ),
    ]

    @dataclass
    class Changed(Message):
        query: str

    @dataclass
    class Submitted(Message):
        query: str

    class Cancelled(Message):
        pass

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._input: Input | None = None

    @property
    def input(self) -> Input:
        """The box, mounted the first time search opens: most sessions never
        search, and an Input costs a few milliseconds of start-up to mount and style."""
        if self._input is None:
            from textual.widgets import Input, Label

            self._input = Input(placeholder=words.SEARCH_PLACEHOLDER, id="search-input")
            self.mount(Label("/", id="search-prompt", markup=False), self._input)
        return self._input

    def open(self, query: str) -> None:
        self.display = True
        self.input.placeholder = words.SEARCH_PLACEHOLDER
        self.input.value = query
        self.input.cursor_position = len(query)
        self.input.focus()

    def close(self) -> None:
        self.display = False

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        if self.display:
            post_to_app(self, self.Changed(event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        post_to_app(self, self.Submitted(event.value))

    def action_cancel(self) -> None:
        post_to_app(self, self.Cancelled())
