"""The command palette's providers, named for the App's `COMMANDS`.

Textual takes a callable returning a provider class, so `tui.ui.commands`
(the providers themselves) is imported when the palette first opens: start-up
does not need it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.command import Provider


def reviews_provider() -> type[Provider]:
    from tui.ui.commands import ReviewCommands

    return ReviewCommands


def tags_provider() -> type[Provider]:
    from tui.ui.commands import TagCommands

    return TagCommands


def actions_provider() -> type[Provider]:
    from tui.ui.commands import ActionCommands

    return ActionCommands
