"""The reader's key bindings, apart from the classes that answer them.

Every binding has an id (a user's keymap names it, `tui.ui.keymap` checks it) and
a tooltip. Descriptions here are the English fallback: the key bar and key
panel show `words().binding_text(id)` in the UI's language (see
tui/ui/screens/base.py). The key bar keeps to the everyday keys; `x` and `n` join
it while a filter or a search is on (see `ReaderScreen.check_action`). Every key
is in the key panel (`?`) and, by name, in the command palette.

`KEYS` lists them all, in the order the key bar shows them. Most belong to the
reader's screen (`READER_BINDINGS`); the App keeps the priority keys that also
work in the to-do and problems views (`APP_BINDINGS`): tab, shift+tab and the
palette. (Textual stops a modal screen's key chain at the modal, so the other
keys never reached those views anyway.)
"""

from __future__ import annotations

from textual.binding import Binding, BindingType


def _binding(
    key: str,
    action: str,
    description: str,
    id: str,
    tooltip: str,
    *,
    show: bool = True,
    priority: bool = False,
    key_display: str | None = None,
) -> Binding:
    """A binding whose id and tooltip cannot be forgotten: both are positional."""
    return Binding(
        key,
        action,
        description,
        id=id,
        tooltip=tooltip,
        show=show,
        priority=priority,
        key_display=key_display,
    )


KEYS: list[Binding] = [
    _binding("q", "app.quit", "Quit", "quit", "Quit prdigest-tui"),
    _binding(
        "tab", "cycle_pane(1)", "Next pane", "pane.next", "Focus the next pane", show=False, priority=True
    ),
    _binding(
        "shift+tab",
        "cycle_pane(-1)",
        "Previous pane",
        "pane.previous",
        "Focus the previous pane",
        show=False,
        priority=True,
    ),
    _binding("r", "toggle_read", "Read", "review.read", "Mark the selected review read or unread"),
    _binding("u", "toggle_unread_only", "Unread only", "filter.unread", "Show only unread reviews"),
    _binding("p", "show_problems", "Problems", "problems", "List problems found in entry files"),
    _binding("question_mark", "toggle_keys", "Keys", "help", "Show or hide all keys", key_display="?"),
    _binding("escape", "step_back", "Back", "back", "Back to the review list", show=False),
    # A priority key, so a search typed fast goes to the box: see SearchBar.open.
    _binding(
        "slash", "search", "Search", "search", "Search titles, text and code refs", show=False, priority=True
    ),
    _binding("n", "next_match(1)", "Next match", "search.next", "Go to the next search match"),
    _binding(
        "N",
        "next_match(-1)",
        "Previous match",
        "search.previous",
        "Go to the previous search match",
        show=False,
    ),
    _binding("v", "cycle_verdict", "Verdict", "filter.verdict", "Show one verdict only", show=False),
    _binding(
        "t",
        "toggle_unchecked",
        "Unchecked",
        "filter.unchecked",
        "Show only reviews with unchecked items",
        show=False,
    ),
    _binding("x", "clear_filters", "Clear filter", "filter.clear", "Clear every filter and the search"),
    _binding(
        "right_square_bracket",
        "next_unread(1)",
        "Next unread",
        "unread.next",
        "Go to the next unread review, deep reads first",
        show=False,
    ),
    _binding(
        "left_square_bracket",
        "next_unread(-1)",
        "Previous unread",
        "unread.previous",
        "Go to the previous unread review",
        show=False,
    ),
    _binding("R", "mark_all_read", "All read", "tag.read", "Mark every review listed read", show=False),
    _binding("z", "undo", "Undo", "undo", "Undo the last marking (r or R)", show=False),
    _binding("a", "show_todo", "To do", "actions", "All open actions and items, across reviews", show=False),
    _binding(
        "o", "open_pr", "Open PR", "pr.open", "Open the review's pull request in the browser", show=False
    ),
    _binding("c", "copy", "Copy", "copy", "Copy the code ref under the cursor, or the PR URL", show=False),
    _binding("e", "edit", "Edit", "edit", "Open the review's entry file in $EDITOR", show=False),
    *(
        _binding(
            str(n),
            f"choose_view({n})",
            f"View {n}",
            f"view.{n}",
            f"Show the reviews of saved view {n} (views: in the config)",
            show=False,
        )
        for n in range(1, 10)
    ),
    _binding(
        "ctrl+p",
        "command_palette",
        "palette",
        "palette",
        "Open the command palette",
        show=False,
        priority=True,
    ),
]

APP_LEVEL = frozenset({"pane.next", "pane.previous", "palette"})
APP_BINDINGS: list[BindingType] = [binding for binding in KEYS if binding.id in APP_LEVEL]
READER_BINDINGS: list[BindingType] = [binding for binding in KEYS if binding.id not in APP_LEVEL]
