"""The stylesheet's rules kept from one start to the next (`tui.ui.patches.kept_styles`)
in the cache folder (`tui.store.style_copy`): a start whose sources, theme and
versions are the last one's takes its rules from there instead of parsing them."""

from __future__ import annotations

from pathlib import Path

from textual.css.stylesheet import Stylesheet

from tui.store import style_copy
from tui.ui.patches.kept_styles import KeptStylesheet, dump_rules, load_rules, variables_of, versions


def kept(sheet: Stylesheet, path: Path) -> KeptStylesheet:
    """A stylesheet in place of the App's new `sheet`, with the rules kept at `path`."""
    variables = variables_of(sheet)
    data = style_copy.read(path, style_copy.key(variables, versions()))
    return KeptStylesheet(variables=variables, kept=None if data is None else load_rules(data))


def keep(sheet: Stylesheet, path: Path) -> None:
    """Keep `sheet`'s rules at `path` for the next start, if it parsed any it was not given."""
    if isinstance(sheet, KeptStylesheet) and (rules := sheet.kept_rules()) is not None:
        style_copy.write(path, style_copy.key(sheet.variables, versions()), dump_rules(rules))
