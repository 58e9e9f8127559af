"""`quick_class_setup`: a Textual widget class is set up from what its bases
hold, not by walking every one of them again.

When a `DOMNode` subclass is made, Textual's `DOMNode.__init_subclass__` finds
its reactives by scanning the `__dict__` of every class in its MRO, and its
compute methods by `dir(cls)`: Widget, DOMNode and MessagePump hold ~600
names, so every widget or screen class costs ~100-170 µs, and a start makes
~70 of them (40 as `textual.app` is imported, 31 of the reader's): ~12 ms of
every start. Here each class's own reactives and compute names are read once,
when the class is made, and a new class merges its bases' in its MRO's order,
exactly as Textual does; the rest (CSS type names, merged bindings, the
inherit flags) is set as Textual sets it, by its own `_css_bases` and
`_merge_bindings`.

Installed as this module is imported, which the `tui.ui` package does first
(tui/ui/__init__.py imports this package, whose first import it is), before
Textual's own widget classes are made: they are set up this way too.

A reactive or compute method set on a class after a subclass of it was made
is not seen by later subclasses; Textual sets neither after a class is made,
and neither does the reader.

(Replaces Textual's private `DOMNode.__init_subclass__`, whose class attributes
`_reactives` and `_computes` it fills; textual is pinned exactly, and
tests/perf_guards/test_class_setup.py fails if what it makes differs from
Textual's for any widget class.)
"""

from __future__ import annotations

import weakref
from typing import Any

from textual.dom import DOMNode
from textual.reactive import Reactive

TEXTUAL_INIT_SUBCLASS = DOMNode.__dict__["__init_subclass__"]
"""Textual's own, kept for the tests to compare with."""

COMPUTE_PREFIXES = ("_compute_", "compute_")

_own: weakref.WeakKeyDictionary[type, tuple[dict[str, Reactive[Any]], frozenset[str]]] = (
    weakref.WeakKeyDictionary()
)
"""Each class's own reactives and compute names, read from its `__dict__`."""

made_before: int | None = None
"""How many DOMNode subclasses existed when this was installed (None: not yet):
each of those was set up by Textual's code, the slow way."""


def own_parts(cls: type) -> tuple[dict[str, Reactive[Any]], frozenset[str]]:
    """The reactives and compute names `cls` itself defines (not its bases')."""
    parts = _own.get(cls)
    if parts is None:
        names = cls.__dict__
        parts = (
            {name: value for name, value in names.items() if isinstance(value, Reactive)},
            frozenset(name.lstrip("_")[8:] for name in names if name.startswith(COMPUTE_PREFIXES)),
        )
        _own[cls] = parts
    return parts


def _init_subclass(
    cls: type[DOMNode],
    inherit_css: bool = True,
    inherit_bindings: bool = True,
    inherit_component_classes: bool = True,
) -> None:
    super(DOMNode, cls).__init_subclass__()
    reactives: dict[str, Reactive[Any]] = {}
    computes: set[str] = set()
    for base in reversed(cls.__mro__):
        own_reactives, own_computes = own_parts(base)
        reactives.update(own_reactives)
        computes |= own_computes
    cls._reactives = reactives
    cls._inherit_css = inherit_css
    cls._inherit_bindings = inherit_bindings
    cls._inherit_component_classes = inherit_component_classes
    bases = cls._css_bases(cls)
    cls._css_type_name = bases[0].__name__
    cls._merged_bindings = cls._merge_bindings()
    cls._css_type_names = frozenset(base.__name__ for base in bases)
    cls._computes = frozenset(computes)


def _subclasses(cls: type[DOMNode]) -> int:
    subclasses: list[type[DOMNode]] = cls.__subclasses__()
    return sum(1 + _subclasses(sub) for sub in subclasses)


def quick_class_setup() -> None:
    """Set up every DOMNode subclass made from now on the quick way."""
    global made_before
    if made_before is None:
        made_before = _subclasses(DOMNode)
        DOMNode.__init_subclass__ = classmethod(_init_subclass)  # type: ignore[assignment, method-assign]


quick_class_setup()  # on import: the package's next modules make widget classes
