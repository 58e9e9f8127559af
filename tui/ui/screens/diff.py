"""The diff view: what the PR changed, in one file or in all of them.

The reader (which owns the clone) loads the diff off its event loop, then
pushes a `DiffScreen`; a ref's file itself is shown in the reader's code pane
(`tui.ui.widgets.code_pane`).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Label

from tui.ui.screens.base import TranslatedBindings
from tui.ui.widgets.code_view import CodeView
from tui.ui.widgets.key_bar import KeyBar


class DiffScreen(TranslatedBindings, Screen[None]):
    """A diff, coloured, one file after another; `n`/`p` jump between files."""

    DEFAULT_CSS = """
    DiffScreen { layout: vertical; }
    DiffScreen > #diff-title { height: 1; width: 1fr; padding: 0 1; background: $panel; text-style: bold; }
    DiffScreen > CodeView { height: 1fr; }
    """

    BINDINGS = [
        Binding("n", "next_file", "Next file", id="diff.next-file", tooltip="The next file of the diff"),
        Binding("p", "previous_file", "Previous file", id="diff.previous-file", tooltip="The previous file"),
        Binding("escape,q", "back", "Back", id="diff.back", tooltip="Back to the code"),
    ]

    def __init__(self, title: str, parts: list[tuple[str, str]]) -> None:
        """`parts` are (path, diff text) in order: one for a file's diff, all for the PR's."""
        super().__init__()
        self.title_base = title
        self.parts = parts
        text = "".join(part if part.endswith("\n") else part + "\n" for _, part in parts)
        self.text = text
        self.starts: list[int] = []  # the 1-based line each part starts at
        line = 1
        for _, part in parts:
            self.starts.append(line)
            line += part.count("\n") + (0 if part.endswith("\n") else 1)
        self.current = 0

    @property
    def code_view(self) -> CodeView:
        return self.query_one(CodeView)

    def title_text(self) -> str:
        if not self.parts:
            return self.title_base
        path = self.parts[self.current][0]
        return f"{self.title_base} · {self.current + 1}/{len(self.parts)} {path}"

    def compose(self) -> ComposeResult:
        yield Label(Content(self.title_text()), id="diff-title")
        yield CodeView(self.text, "diff", 1 if self.parts else None)
        yield KeyBar()

    def on_mount(self) -> None:
        self.code_view.focus()

    def _go(self, index: int) -> None:
        if not self.parts:
            return
        self.current = max(0, min(index, len(self.parts) - 1))
        self.code_view.target = self.starts[self.current]
        self.query_one("#diff-title", Label).update(Content(self.title_text()))

    def action_next_file(self) -> None:
        self._go(self.current + 1)

    def action_previous_file(self) -> None:
        self._go(self.current - 1)

    def action_back(self) -> None:
        self.dismiss()
