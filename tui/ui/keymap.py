"""A user's keymap checked against the bindings it may remap.

Textual takes any keymap: an id that names no binding is ignored, and a key
given to two actions of one widget silently loses one of them. The app reports
both when it reads the config instead. Imported only then (and by tests): it
imports every screen's bindings, and most readers have no config.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import KEY_NAME_REPLACEMENTS, Keys, key_to_character


def binding_owners(app: type[DOMNode]) -> tuple[type[DOMNode], ...]:
    """The app and every widget and screen whose bindings a keymap may name."""
    from tui.ui.reader import ReaderScreen
    from tui.ui.screens.diff import DiffScreen
    from tui.ui.screens.problems import ProblemsScreen
    from tui.ui.screens.ref_picker import RefPicker
    from tui.ui.screens.todo import TodoScreen
    from tui.ui.widgets.code_pane import CodePane, PaneCodeView
    from tui.ui.widgets.code_view import CodeView
    from tui.ui.widgets.review_list import ReviewList
    from tui.ui.widgets.review_view import ReviewView
    from tui.ui.widgets.search_bar import SearchBar
    from tui.ui.widgets.tag_list import TagList
    from tui.ui.widgets.todo_list import TodoList

    return (
        app,
        ReaderScreen,
        ReviewList,
        ReviewView,
        TagList,
        SearchBar,
        ProblemsScreen,
        TodoScreen,
        TodoList,
        CodePane,
        PaneCodeView,
        CodeView,
        RefPicker,
        DiffScreen,
    )


def binding_ids(owners: Iterable[type[DOMNode]]) -> set[str]:
    """Every binding id a keymap may name."""
    return {
        binding.id
        for owner in owners
        for binding in owner.BINDINGS
        if isinstance(binding, Binding) and binding.id
    }


def keymap_clashes(owners: Iterable[type[DOMNode]], keymap: Mapping[str, str]) -> list[tuple[str, list[str]]]:
    """Keys a keymap gives to two actions of one widget (or of the app): (key, ids).
    Textual would silently drop one of them."""
    clashes = []
    for owner in owners:
        by_key: dict[str, list[str]] = {}
        for binding in owner.BINDINGS:
            if not isinstance(binding, Binding) or not binding.id:
                continue
            keys = keymap.get(binding.id, binding.key)
            for bound in Binding.make_bindings([Binding(keys, binding.action)]):
                by_key.setdefault(bound.key, []).append(binding.id)
        for key, ids in by_key.items():
            if len(ids) > 1 and any(i in keymap for i in ids):
                clashes.append((key, ids))
    return clashes


MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})


def valid_key(key: str) -> bool:
    """Is `key` a key Textual can bind: "x", "X", "ctrl+f", "f5", "question_mark", "?"."""
    if not key or key != key.strip():
        return False
    if len(key) == 1:
        return key.isprintable() and not key.isspace()
    *modifiers, base = key.split("+")
    if not base or any(m not in MODIFIERS for m in modifiers):
        return False
    if len(base) == 1:
        return base.isprintable() and not base.isspace()
    names = {member.value for member in Keys}
    return (
        base in names
        or base in KEY_NAME_REPLACEMENTS.values()
        or base in ("space", "tab", "enter", "escape", "backspace")
        or key_to_character(base) is not None
    )
