"""`KeptStylesheet`: the stylesheet's parsed rules kept from the last start.

Textual parses every CSS source (its own widgets', ours and app.tcss, 45 KB)
each time an app starts: ~16 ms of every start before the first frame, most
of it tokenizing. The rules parsed are the same from one start to the next
as long as the sources, the theme's variables, Textual and Python are: so the
rules parsed at the last start are loaded instead (~1.5 ms), and only a
source that is not among them is parsed.

`KeptStylesheet` overrides the private `Stylesheet._parse_rules` (its key:
the source's text, where it was read from, whether it is default CSS, its tie
breaker and its scope) and reads `_variables`; Textual is pinned exactly,
and tests/ui/test_kept_styles.py fails if either stops being Textual's.
The file itself is the store's (`tui.store.style_copy`); here it is bytes.

Kept rules are pickled, and read back by an unpickler that builds nothing
but Textual's own style classes (`_Unpickler.find_class`): the file lives in
the user's cache folder, and a file there that holds anything else is
ignored, not run.
"""

from __future__ import annotations

import enum
import functools
import io
import os
import pickle
import sys
from collections.abc import Mapping
from typing import Any

from textual import color as textual_color
from textual import geometry as textual_geometry
from textual.css import model as textual_model
from textual.css import scalar as textual_scalar
from textual.css import styles as textual_styles
from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet

Rules = dict[tuple, list[RuleSet]]
"""Parsed rules by `_parse_rules`'s key."""

STYLE_MODULES = ("textual.css.", "textual.layouts.")
STYLE_MODULES_EXACT = frozenset(
    {"textual.color", "textual.geometry", "rich.style", "rich.color", "rich.color_triplet"}
)
DICT_METHODS = frozenset({"get", "__contains__"})


class KeptStylesheet(Stylesheet):
    """A stylesheet that takes a source's rules from `kept` (parsed with the
    same variables at an earlier start) instead of parsing it again; it
    remembers every source it parsed or took, so what to keep for the next
    start is known (`kept_rules`)."""

    def __init__(self, *, variables: dict[str, str] | None = None, kept: Rules | None = None) -> None:
        super().__init__(variables=variables)
        self._kept: Rules = kept or {}
        self._kept_for = dict(self._variables)
        self._used: Rules = {}
        self.parsed = 0
        """Sources parsed, not taken from `kept`, while the variables were the first ones."""

    def _parse_rules(
        self,
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        if self._variables != self._kept_for:  # a theme set since: kept rules hold the old colours
            return super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
        key = (css, read_from, is_default_rules, tie_breaker, scope)
        rules = self._kept.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            if any(rule.errors for rule in rules):
                return rules  # parse() raises on these; they are never kept
            self.parsed += 1
            self._kept[key] = rules  # `parse` asks again for every source each time one is added
        self._used[key] = rules
        return rules

    def used_rules(self) -> Rules:
        """Every source's rules parsed or taken with the first variables."""
        return dict(self._used)

    def kept_rules(self) -> Rules | None:
        """The rules to keep for the next start (every source parsed or taken
        with the first variables), or None when they are all kept already."""
        return self.used_rules() if self.parsed else None

    @property
    def variables(self) -> Mapping[str, str]:
        """The variables the kept rules were parsed with."""
        return self._kept_for


def variables_of(sheet: Stylesheet) -> dict[str, str]:
    """The variables `sheet` parses with (the theme's, for the App's)."""
    return sheet._variables


STYLE_CLASS_MODULES = (textual_model, textual_styles, textual_scalar, textual_color, textual_geometry)
"""The modules that define the classes parsed rules are made of."""


def versions() -> tuple:
    """What else kept rules depend on: Python's version, and Textual's as
    installed (its classes are pickled). Textual's by the files that define
    them (path, size, modification time), not `textual.__version__`, which
    reads the package's metadata (~15 ms)."""
    installed = []
    for module in STYLE_CLASS_MODULES:
        info = os.stat(module.__file__ or "")
        installed.append((module.__file__, info.st_size, info.st_mtime_ns))
    return sys.version_info[:2], tuple(installed)


def shipped_versions() -> tuple:
    """What rules shipped with the package depend on, the same wherever Textual
    is installed: the sizes of the files that define its style classes (the
    exact pin makes them Textual 8.2.8's; another Textual's differ in size)."""
    return ("shipped", tuple(os.stat(module.__file__ or "").st_size for module in STYLE_CLASS_MODULES))


def dump_rules(rules: Rules) -> bytes:
    """`rules` as bytes for `load_rules`."""
    return pickle.dumps(rules, protocol=pickle.HIGHEST_PROTOCOL)


def load_rules(data: bytes) -> Rules | None:
    """The rules `dump_rules` wrote; None for anything else, including bytes
    that would build anything but Textual's style classes."""
    try:
        rules = _Unpickler(io.BytesIO(data)).load()
    except Exception:  # a damaged or foreign file is a miss, whatever it raises
        return None
    if not isinstance(rules, dict) or not all(
        isinstance(key, tuple)
        and isinstance(value, list)
        and all(isinstance(rule, RuleSet) for rule in value)
        for key, value in rules.items()
    ):
        return None
    return rules


class _Unpickler(pickle.Unpickler):
    """Builds only what parsed rules are made of: classes and functions
    defined in Textual's style modules, `functools.partial` (selector checks)
    and the few members `_member` gives."""

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("functools", "partial"):
            return functools.partial
        if (module, name) == ("builtins", "getattr"):
            return _member
        if module.startswith(STYLE_MODULES) or module in STYLE_MODULES_EXACT:
            found = super().find_class(module, name)
            if callable(found) and getattr(found, "__module__", None) == module:  # not a name it imported
                return found
        raise pickle.UnpicklingError(f"{module}.{name} is not part of a stylesheet")


def _member(owner: object, name: str) -> object:
    """`getattr`, for what parsed rules hold: an enum's member, or a dict's
    `get` and `__contains__` (a `Styles` keeps its rules' as methods)."""
    if isinstance(owner, type) and issubclass(owner, enum.Enum) and name in owner.__members__:
        return owner.__members__[name]
    if type(owner) is dict and name in DICT_METHODS:
        return getattr(owner, name)
    raise pickle.UnpicklingError(f"{name} is not part of a stylesheet")
