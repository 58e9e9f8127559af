"""The theme a start begins with: the one chosen last time (`ui.json`), if
Textual has it; and the next one chosen, remembered there."""

from __future__ import annotations

from pathlib import Path

from textual import constants
from textual.app import App
from textual.theme import BUILTIN_THEMES

from tui.i18n import words
from tui.store import uistate


def remembered_theme(ui_path: Path | None) -> tuple[str, str | None]:
    """The theme to start with: the one chosen last time if Textual has it, else
    Textual's default (TEXTUAL_THEME or textual-dark); and the name of a chosen
    theme that is not available, to warn about."""
    remembered = uistate.load(ui_path).get("theme")
    if not remembered:
        return constants.DEFAULT_THEME, None
    if remembered in BUILTIN_THEMES:
        return remembered, None
    return constants.DEFAULT_THEME, remembered


def follow_choice(app: App[None], unknown: str | None, ui_path: Path | None) -> None:
    """The remembered theme is in use already (`remembered_theme`): say if the
    one remembered (`unknown`) was not available, and remember the next one chosen."""
    if unknown:
        app.notify(words().theme_unknown.format(theme=unknown), severity="warning", timeout=8, markup=False)

    def remember(theme: object) -> None:
        name = getattr(theme, "name", None)
        if isinstance(name, str) and uistate.load(ui_path).get("theme") != name:
            uistate.save(ui_path, theme=name)

    app.theme_changed_signal.subscribe(app, remember)
