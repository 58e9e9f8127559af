"""Screens whose key bar and key panel speak the UI's language.

The key bar (`tui.ui.widgets.key_bar`) and Textual's key panel draw `screen.active_bindings`: the bindings
with the descriptions written in the code. Here each is swapped for the words
of the chosen language, looked up by binding id (`words.binding_text`), when
they are asked for; key dispatch is untouched, and remapped keys (the keymap)
show as remapped.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from pathlib import Path

from textual.binding import ActiveBinding
from textual.reactive import Reactive
from textual.screen import ModalScreen
from textual.widget import Widget

from tui.i18n import words
from tui.ui.patches import OneFrameScreen


def css_file(name: str) -> str:
    """A screen's styles, from a .tcss file beside this one, for its DEFAULT_CSS.

    The to-do and problems views are opened now and then; their rules in the
    app's stylesheet would be parsed at every start. As DEFAULT_CSS they are
    parsed when the view is first opened, and only they are: a screen's
    CSS_PATH would have Textual parse the whole stylesheet again and restyle
    every widget then. (Default CSS is scoped to the screen and ranks
    below the app's stylesheet, which does not style these views.)"""
    return (Path(__file__).parent / name).read_text(encoding="utf-8")


def translated(
    bindings: dict[str, ActiveBinding], worded: Mapping[str, str] | None = None
) -> dict[str, ActiveBinding]:
    """`bindings` in the UI's words, looked up by binding id, or by the id
    `worded` gives in its place (a key whose label says its state)."""
    out = {}
    for key, active in bindings.items():
        binding = active.binding
        words_id = worded.get(binding.id, binding.id) if worded and binding.id else binding.id
        description, tooltip = words().binding_text(words_id, binding.description, binding.tooltip)
        if description != binding.description or tooltip != binding.tooltip:
            binding = dataclasses.replace(binding, description=description, tooltip=tooltip)
            active = active._replace(binding=binding, tooltip=tooltip)
        out[key] = active
    return out


class TranslatedBindings:
    @property
    def worded(self) -> Mapping[str, str]:
        """Binding ids whose words are another id's now (none by default)."""
        return {}

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        return translated(super().active_bindings, self.worded)  # type: ignore[misc]  # a mixin: super() is the Screen


class MainScreen(TranslatedBindings, OneFrameScreen):
    """The base of the reader's screen (`tui.ui.reader.ReaderScreen`)."""

    # The review list has focus at start: focusing the first focusable widget
    # (the tag list) and then the list would restyle both before the first paint.
    AUTO_FOCUS = "#reviews"

    # Textual repaints the whole screen when focus moves (`focused` repaints by
    # default), though the widgets whose :focus style changed refresh themselves.
    # On this screen focus moves with every enter and escape.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)


class TranslatedModal(TranslatedBindings, ModalScreen[None]):
    pass
