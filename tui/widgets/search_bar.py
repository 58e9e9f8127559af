"""The search box: `/` opens it, typing searches as you type, enter opens the
first match, escape clears. It posts messages; the app searches."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.widgets import Input, Label

from .. import words


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

    def compose(self) -> ComposeResult:
        yield Label("/", id="search-prompt", markup=False)
        yield Input(placeholder=words.SEARCH_PLACEHOLDER, id="search-input")

    @property
    def input(self) -> Input:
        return self.query_one(Input)

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
            self.post_message(self.Changed(event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted(event.value))

    def action_cancel(self) -> None:
        self.post_message(self.Cancelled())
