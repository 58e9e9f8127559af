"""Textual only here: the App, its screens and widgets.

Before any of them, and before Textual's own widget classes (which
`textual.app` makes as it is imported), the private-API patches are in place:
widget classes are then set up the quick way (tui/ui/patches/class_setup.py)."""

import tui.ui.patches  # noqa: F401  # imported for its effect, first
