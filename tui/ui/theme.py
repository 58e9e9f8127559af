"""The theme a start begins with: the one chosen last time (`ui.json`), if Textual has it."""

from __future__ import annotations

from pathlib import Path

from textual import constants
from textual.theme import BUILTIN_THEMES

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
