"""Every problem in the user's files, as file:line:column: message."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from tui.core.model import Problem
from tui.i18n import words
from tui.ui.screens.base import TranslatedModal, css_file
from tui.ui.widgets.key_bar import KeyBar


class ProblemsScreen(TranslatedModal):
    DEFAULT_CSS = css_file("problems.tcss")

    BINDINGS = [
        Binding("escape,q,p", "dismiss", "Close", id="problems.close", tooltip="Close the problems view"),
        Binding(
            "j", "list_move('cursor_down')", "Down", id="problems.down", tooltip="Next problem", show=False
        ),
        Binding(
            "k", "list_move('cursor_up')", "Up", id="problems.up", tooltip="Previous problem", show=False
        ),
    ]

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__()
        self.problems = problems

    def compose(self) -> ComposeResult:
        with Vertical(id="problems-box"):
            title = f"{words().problems} ({len(self.problems)})"
            yield Label(Content(title), id="problems-title")
            options = [
                Option(
                    Content.assemble(
                        (str(problem.location), "bold $error"), (": ", ""), (problem.message, "")
                    ),
                    id=str(n),
                )
                for n, problem in enumerate(self.problems)
            ] or [Option(Content(words().no_problems), disabled=True)]
            yield OptionList(*options, id="problems-list", markup=False)
        yield KeyBar()  # this view's keys, not the reader's under it

    async def action_list_move(self, action: str) -> None:
        await self.query_one(OptionList).run_action(action)
