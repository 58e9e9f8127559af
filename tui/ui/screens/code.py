"""The code view and the diff view: a ref's file at its line, what the PR changed.

Screens only draw and post messages: the reader (which owns the clone) opens
the editor and loads diffs off its event loop, then pushes a `DiffScreen`.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Label

from tui.i18n import words
from tui.ui.screens.base import TranslatedBindings
from tui.ui.widgets.code_view import CodeFile, CodeView, language_for
from tui.ui.widgets.key_bar import KeyBar

_CSS = """
CodeScreen, DiffScreen { layout: vertical; }
CodeScreen > #code-title, DiffScreen > #diff-title {
    height: 1; width: 1fr; padding: 0 1; background: $panel; text-style: bold;
}
CodeScreen > CodeView, DiffScreen > CodeView { height: 1fr; }
"""


class CodeScreen(TranslatedBindings, Screen[None]):
    DEFAULT_CSS = _CSS

    BINDINGS = [
        Binding("e", "editor", "Editor", id="code.editor", tooltip="Open this file at this line in $EDITOR"),
        Binding("d", "diff", "Diff", id="code.diff", tooltip="What the PR changed in this file"),
        Binding("D", "pr_diff", "PR diff", id="code.pr-diff", tooltip="The whole PR's diff, file by file"),
        Binding("escape,q", "back", "Back", id="code.back", tooltip="Back to the review"),
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

    def __init__(self, file: CodeFile) -> None:
        super().__init__()
        self.file = file

    @property
    def code_view(self) -> CodeView:
        return self.query_one(CodeView)

    def title_text(self) -> str:
        return self.file.title()

    def compose(self) -> ComposeResult:
        yield Label(Content(self.title_text()), id="code-title")
        yield CodeView(self.file.text, language_for(self.file.path), self.file.line)
        yield KeyBar()

    def on_mount(self) -> None:
        self.code_view.focus()

    def action_editor(self) -> None:
        if self.file.absolute is None:
            self.notify(
                words().code_read_only.format(path=self.file.path, commit=self.file.commit or ""),
                markup=False,
            )
            return
        self.post_message(self.OpenEditor(self.file.absolute, self.file.line or 1))

    def action_diff(self) -> None:
        self.post_message(self.ShowDiff(self.file.path))

    def action_pr_diff(self) -> None:
        self.post_message(self.ShowDiff(None))

    def action_back(self) -> None:
        self.dismiss()


class DiffScreen(TranslatedBindings, Screen[None]):
    """A diff, coloured, one file after another; `n`/`p` jump between files."""

    DEFAULT_CSS = _CSS

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
