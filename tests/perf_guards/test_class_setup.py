"""Widget classes are set up the quick way, and what that makes is what
Textual's own `DOMNode.__init_subclass__` makes (tui.ui.patches.class_setup)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import textual.widgets
from textual.dom import DOMNode
from textual.reactive import reactive, var
from textual.screen import Screen
from textual.widget import Widget

from tui.ui.app import PrDigestApp
from tui.ui.patches import class_setup
from tui.ui.reader import ReaderScreen

SETUP = ("_reactives", "_computes", "_css_type_name", "_css_type_names", "_inherit_css", "_inherit_bindings")


def every_subclass(cls: type[DOMNode]) -> list[type[DOMNode]]:
    found: list[type[DOMNode]] = []
    for sub in cls.__subclasses__():
        found += [sub, *every_subclass(sub)]
    return found


def bindings(cls: type[DOMNode]) -> dict[str, list[Any]]:
    return {key: list(found) for key, found in cls._merged_bindings.key_to_bindings.items()}


def set_up_by_textual(cls: type[DOMNode]) -> dict[str, Any]:
    """What Textual's own code makes of `cls`, which is then put back as it was."""
    kept = {name: cls.__dict__[name] for name in (*SETUP, "_merged_bindings", "_inherit_component_classes")}
    try:
        class_setup.TEXTUAL_INIT_SUBCLASS.__func__(  # type: ignore[attr-defined]
            cls,
            inherit_css=cls._inherit_css,
            inherit_bindings=cls._inherit_bindings,
            inherit_component_classes=cls._inherit_component_classes,
        )
        return {**{name: getattr(cls, name) for name in SETUP}, "bindings": bindings(cls)}
    finally:
        for name, value in kept.items():
            setattr(cls, name, value)


def set_up_now(cls: type[DOMNode]) -> dict[str, Any]:
    return {**{name: getattr(cls, name) for name in SETUP}, "bindings": bindings(cls)}


def test_it_is_in_place_before_any_widget_class_is_made() -> None:
    """In a process started as the reader starts (the command line's modules,
    then the App's), every widget class, Textual's too, is set up the quick way."""
    code = (
        "import sys, tui.cli\n"
        "assert 'textual.widget' not in sys.modules, 'the command line made widget classes'\n"
        "import tui.ui.app\n"
        "from textual.dom import DOMNode\n"
        "from tui.ui.patches import class_setup\n"
        "print(class_setup.made_before, DOMNode.__init_subclass__.__func__ is class_setup._init_subclass)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "True"]


def test_every_widget_class_is_set_up_as_textual_sets_it_up() -> None:
    assert PrDigestApp and textual.widgets.__all__
    for name in textual.widgets.__all__:  # Textual's widgets are made on first use
        getattr(textual.widgets, name)
    classes = every_subclass(DOMNode)
    assert ReaderScreen in classes and len(ReaderScreen.__mro__) > 12  # its key layers: many bases
    assert len(classes) > 100
    for cls in classes:
        assert set_up_now(cls) == set_up_by_textual(cls), cls


def test_reactives_and_computes_follow_the_bases_order() -> None:
    class Counts(Widget):
        total = reactive(0)
        shown = var("a")

        def compute_total(self) -> int:
            return 1

    class Labels(Widget):
        shown = var("b")
        hidden = reactive(False)

        def _compute_hidden(self) -> bool:
            return True

    class Both(Counts, Labels):
        extra = reactive(2)

    class Screened(Both, Screen[None]):
        total = var(5)

    for cls in (Counts, Labels, Both, Screened):
        assert set_up_now(cls) == set_up_by_textual(cls), cls
    assert Both._reactives["shown"] is Counts.__dict__["shown"]  # the first base wins, as in the MRO
    assert Screened._reactives["total"] is Screened.__dict__["total"]
    assert Both._computes == {"total", "hidden"}
    assert {"extra", "hidden", "shown", "total"} <= Screened._reactives.keys()
