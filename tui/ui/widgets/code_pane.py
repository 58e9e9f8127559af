"""The code view inside the reader: a ref's file in place of the review pane.

Mounted once, hidden, beside the review pane; opening a ref loads the file
into its `CodeView` and swaps the two (`tui.ui.ref_keys`), so `enter` costs a
frame, not a pushed screen, and the review pane keeps its scroll and cursor
while it is covered. The pane only draws and posts messages: the reader
opens the editor, checks the item and loads diffs.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Label

from tui.ui.widgets.code_view import CodeFile, CodeView, language_for
from tui.ui.widgets.to_screen import post_to_screen


class PaneCodeView(CodeView, inherit_bindings=False):
    """A code view whose `space` is the reader's (check the item or note), as in the review pane."""

    BINDINGS = [
        # The ids of `CodeView`'s keys: a keymap moves them in both (space is the pane's check key).
        Binding("j,down", "scroll_down", "Down", show=False, id="code.down", tooltip="One line down"),
        Binding("k,up", "scroll_up", "Up", show=False, id="code.up", tooltip="One line up"),
        Binding(
            "pagedown,f", "page_down", "Page down", show=False, id="code.page-down", tooltip="One page down"
        ),
        Binding("b,pageup", "page_up", "Page up", show=False, id="code.page-up", tooltip="One page up"),
        Binding("g,home", "scroll_home", "Top", show=False, id="code.top", tooltip="To the first line"),
        Binding("G,end", "scroll_end", "Bottom", show=False, id="code.bottom", tooltip="To the last line"),
    ]


class CodePane(Vertical):
    DEFAULT_CSS = """
    CodePane { width: 1fr; min-width: 20; border: round $accent; }
    CodePane > #code-title { height: 1; width: 1fr; padding: 0 1; background: $panel; text-style: bold; }
    CodePane > PaneCodeView { height: 1fr; }
    """

    BINDINGS = [
        Binding("e", "editor", "Editor", id="code.editor", tooltip="Open this file at this line in $EDITOR"),
        Binding("d", "diff", "Diff", id="code.diff", tooltip="What the PR changed in this file"),
        Binding("D", "pr_diff", "PR diff", id="code.pr-diff", tooltip="The whole PR's diff, file by file"),
        Binding(
            "space",
            "check",
            "Check",
            id="code.check",
            tooltip="Check or uncheck the item or note this file was opened from",
        ),
        Binding("escape", "back", "Back", id="code.back", tooltip="Back to the review"),
    ]

    class OpenEditor(Message):
        """Open `path` (absolute) at `line` in the user's editor."""

        def __init__(self, path: str, line: int) -> None:
            super().__init__()
            self.path, self.line = path, line

    class ShowDiff(Message):
        """Show what the PR changed in `path`, or in every file when None."""

        def __init__(self, path: str | None) -> None:
            super().__init__()
            self.path = path

    class CheckItem(Message):
        """Check or uncheck the item the file was opened from."""

    class Closed(Message):
        """Back to the review."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.file: CodeFile | None = None
        self.note = ""  # after the title: which item it was opened from, checked or not

    def compose(self) -> ComposeResult:
        yield Label(id="code-title", markup=False)
        yield PaneCodeView("")

    @property
    def code_view(self) -> PaneCodeView:
        return self.query_one(PaneCodeView)

    def show_file(self, file: CodeFile, note: str = "") -> None:
        self.file = file
        self.code_view.load(file.text, language_for(file.path), file.line)
        self.set_note(note)

    def set_note(self, note: str) -> None:
        self.note = note
        title = self.file.title() if self.file else ""
        self.query_one("#code-title", Label).update(Content(f"{title}  {note}" if note else title))

    def action_editor(self) -> None:
        if self.file is not None:
            post_to_screen(self, self.OpenEditor(self.file.absolute or "", self.file.line or 1))

    def action_diff(self) -> None:
        if self.file is not None:
            post_to_screen(self, self.ShowDiff(self.file.path))

    def action_pr_diff(self) -> None:
        post_to_screen(self, self.ShowDiff(None))

    def action_check(self) -> None:
        post_to_screen(self, self.CheckItem())

    def action_back(self) -> None:
        post_to_screen(self, self.Closed())
