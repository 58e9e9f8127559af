"""Every key of ours can be remapped (`keymap:` names binding ids) and says
what it does in both languages: each binding has an id, a tooltip, and words
in the English and Chinese tables."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from textual.binding import Binding
from textual.dom import DOMNode

import tui.ui
from tui import i18n
from tui.ui.app import PrDigestApp
from tui.ui.keymap import binding_ids, binding_owners


def our_bindings() -> list[tuple[str, Binding]]:
    found = []
    for module_info in pkgutil.walk_packages(tui.ui.__path__, "tui.ui."):
        module = importlib.import_module(module_info.name)
        for name, owner in inspect.getmembers(module, inspect.isclass):
            if not issubclass(owner, DOMNode) or owner.__module__ != module.__name__:
                continue
            for binding in owner.__dict__.get("BINDINGS", []):
                assert isinstance(binding, Binding), (name, binding)  # never a bare tuple: no id
                found.append((f"{module.__name__}.{name}", binding))
    return found


def test_every_binding_of_ours_has_an_id_a_tooltip_and_words() -> None:
    bindings = our_bindings()
    assert len(bindings) > 50
    remappable = binding_ids(binding_owners(PrDigestApp))
    for language in ("en", "zh"):
        i18n.choose(language)
        table = i18n.words().bindings
        for owner, binding in bindings:
            if owner.endswith(".Pane"):
                continue  # Textual's own scroll keys, as ScrollableContainer has them
            assert binding.id and binding.tooltip, (owner, binding.key)
            assert binding.id in remappable, (owner, binding.id)
            assert binding.id in table, (language, owner, binding.id)
