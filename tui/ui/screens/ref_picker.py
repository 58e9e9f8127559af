"""A ref that names several places: a small list to choose one from.

Dismissed with the index of the place chosen, or None (escape). The places
are `path:line` as git found them: drawn as plain text, never markup.
"""

from __future__ import annotations

from collections.abc import Sequence

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from tui.i18n import words
from tui.ui.screens.base import TranslatedBindings
from tui.ui.widgets.key_bar import KeyBar


class RefPicker(TranslatedBindings, ModalScreen[int | None]):
    DEFAULT_CSS = """
    RefPicker { align: center middle; }
    RefPicker > #picker-box {
        width: 80%; max-width: 100; height: auto; max-height: 80%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    RefPicker #picker-title { height: auto; text-style: bold; padding: 0 0 1 0; }
    RefPicker #picker-list { height: auto; max-height: 20; border: none; }
    """

    BINDINGS = [
        Binding("escape,q", "close", "Close", id="picker.close", tooltip="Close the list, open nothing"),
        Binding("j", "list_move('cursor_down')", "Down", id="picker.down", tooltip="Next place", show=False),
        Binding("k", "list_move('cursor_up')", "Up", id="picker.up", tooltip="Previous place", show=False),
    ]

    def __init__(self, ref: str, places: Sequence[str]) -> None:
        super().__init__()
        self.ref = ref
        self.places = list(places)

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-box"):
            title = words().ref_picker_title.format(ref=self.ref, n=len(self.places))
            yield Label(Content(title), id="picker-title")
            options = [Option(Content(place), id=str(n)) for n, place in enumerate(self.places)]
            yield OptionList(*options, id="picker-list", markup=False)
        yield KeyBar()  # this list's keys, not the reader's under it

    def on_mount(self) -> None:
        listing = self.query_one(OptionList)
        listing.highlighted = 0 if self.places else None
        listing.focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(int(event.option.id or 0))

    def action_close(self) -> None:
        self.dismiss(None)

    async def action_list_move(self, action: str) -> None:
        await self.query_one(OptionList).run_action(action)
