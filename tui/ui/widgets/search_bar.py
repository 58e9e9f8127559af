"""The search box: `/` opens it, typing searches as you type, enter opens the
first match, escape clears. It posts messages; the app searches.

While open it takes the key bar's row, as the prompts of less, vim, newsboat
and lazygit take their bottom line: the panes keep their size, so opening and
closing the box redraws that row (and the focus change), not the screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message

from tui.i18n import words
from tui.ui.widgets.to_screen import post_to_screen

if TYPE_CHECKING:
    from textual.widget import Widget
    from textual.widgets import Input


class SearchBar(Horizontal):
    FIXED_SIZE = True
    """It and what it holds are sized by the stylesheet alone: the layout that
    first shows it is its only one (tui.ui.patches.OneFrameScreen)."""

    BINDINGS = [
        Binding(
            "escape", "cancel", "Clear", id="search.cancel", tooltip="Clear the search and close the box"
        ),
    ]

    class Changed(Message):
        def __init__(self, query: str) -> None:
            super().__init__()
            self.query = query

    class Submitted(Message):
        def __init__(self, query: str) -> None:
            super().__init__()
            self.query = query

    class Cancelled(Message):
        pass

    def __init__(self, *, in_place_of: Widget | None = None, id: str | None = None) -> None:
        """`in_place_of`: the one-row widget (the key bar) hidden while the box shows."""
        super().__init__(id=id)
        self._input: Input | None = None
        self._in_place_of = in_place_of
        self.clear_key = "esc"
        """How the key that clears is shown, after any remapping (the screen sets
        it): the placeholder names it, as the key bar is hidden while typing."""

    @property
    def input(self) -> Input:
        """The box. Not mounted for the first frame (an Input costs a few
        milliseconds to mount and style): `prepare` mounts it once the files are
        loaded, or the first `/` does."""
        if self._input is None:
            from textual.widgets import Label

            from tui.ui.patches import quiet_input

            self._input = quiet_input()(placeholder=self._placeholder(), id="search-input")
            self.mount(Label("/", id="search-prompt", markup=False), self._input)
            # Told as the value is set, in the key's own turn: `Input.Changed`
            # reaches the screen three message hops later, after the screen
            # has drawn the box, so the list it selects took a second frame.
            self.watch(self._input, "value", self._value_changed, init=False)
        return self._input

    def _placeholder(self) -> str:
        return words().search_placeholder.format(clear=self.clear_key)

    def prepare(self) -> None:
        if self.is_attached:  # not when the app is quitting already
            self.input  # noqa: B018 (mounts it)

    @property
    def typing(self) -> bool:
        """The box has focus: keys are text. (Its `has_focus` is set a message later,
        too late for a key queued behind the one that focused it.)"""
        return self._input is not None and self.screen.focused is self._input

    def open(self, query: str) -> None:
        """Show the box and focus it now, not after a refresh: keys typed right
        after the `/` (a paste, a fast typist, tmux send-keys) are already queued,
        and the App hands each to whatever has focus when it reads it."""
        self._show(True)
        box = self.input
        box.placeholder = self._placeholder()
        box.value = query
        box.cursor_position = len(query)
        if box.is_mounted:
            self.screen.set_focus(box)
        else:  # the first `/` came before `prepare`
            box.focus()

    def close(self) -> None:
        if self.display:  # Textual lays the screen out on every set, changed or not
            self._show(False)

    def _show(self, shown: bool) -> None:
        """Both in one turn: one layout, in which nothing else moves."""
        self.display = shown
        if self._in_place_of is not None:
            self._in_place_of.display = not shown

    def _value_changed(self, value: str) -> None:
        if self.display:
            post_to_screen(self, self.Changed(value))

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()  # told by `_value_changed` already

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        post_to_screen(self, self.Submitted(event.value))

    def action_cancel(self) -> None:
        post_to_screen(self, self.Cancelled())
