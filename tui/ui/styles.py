"""The stylesheet's rules kept from one start to the next (`tui.ui.patches.kept_styles`)
in the cache folder (`tui.store.style_copy`): a start whose sources, theme and
versions are the last one's takes its rules from there instead of parsing them.

A start with nothing kept yet (the first, or one with an empty cache folder)
takes them from the copy shipped in the package (`python -m tui.ui.ship_styles`
writes it): rules parsed with the default theme's variables, their sources
named by where they sit in Textual's package or the reader's, and placed
where those packages are installed here."""

from __future__ import annotations

import os
from pathlib import Path

import textual
from textual.css.stylesheet import Stylesheet

import tui
from tui.store import style_copy
from tui.ui.patches.kept_styles import (
    KeptStylesheet,
    Rules,
    dump_rules,
    load_rules,
    shipped_versions,
    variables_of,
    versions,
)


def kept(sheet: Stylesheet, path: Path, shipped: Path | None = None) -> KeptStylesheet:
    """A stylesheet in place of the App's new `sheet`, with the rules kept at
    `path`, else those shipped at `shipped`."""
    variables = variables_of(sheet)
    data = style_copy.read(path, style_copy.key(variables, versions()))
    rules = None if data is None else load_rules(data)
    if rules is None and shipped is not None:
        data = style_copy.read(shipped, style_copy.key(variables, shipped_versions()))
        portable_rules = None if data is None else load_rules(data)
        rules = None if portable_rules is None else placed(portable_rules)
    return KeptStylesheet(variables=variables, kept=rules)


def keep(sheet: Stylesheet, path: Path) -> None:
    """Keep `sheet`'s rules at `path` for the next start, if it parsed any it was not given."""
    if isinstance(sheet, KeptStylesheet) and (rules := sheet.kept_rules()) is not None:
        style_copy.write(path, style_copy.key(sheet.variables, versions()), dump_rules(rules))


def ship(sheet: KeptStylesheet, path: Path) -> int:
    """Write every rule `sheet` parsed or took, its sources named portably, at
    `path` as the shipped copy; how many sources it holds."""
    rules = portable(sheet.used_rules())
    style_copy.write(path, style_copy.key(sheet.variables, shipped_versions()), dump_rules(rules))
    return len(rules)


def _roots() -> dict[str, str]:
    """Where each package whose sources can be shipped is installed here, by its name."""
    return {
        "textual": os.path.dirname(os.path.abspath(textual.__file__ or "")),
        "tui": os.path.dirname(os.path.abspath(tui.__file__ or "")),
    }


def portable(rules: Rules) -> Rules:
    """`rules` with each source's path (its `read_from`) made `<package>/…`,
    relative to Textual's or the reader's package; a source from anywhere
    else (a user's file) is left out."""
    roots = _roots()
    moved: Rules = {}
    for key, found in rules.items():
        css, (where, name), *rest = key
        for package, root in roots.items():
            if where.startswith(root + os.sep):
                moved[(css, (f"<{package}>{where[len(root) :]}", name), *rest)] = found
                break
    return moved


def placed(rules: Rules) -> Rules:
    """`portable`'s rules with each source's path where its package is installed here."""
    roots = _roots()
    moved: Rules = {}
    for key, found in rules.items():
        css, (where, name), *rest = key
        package, _, inside = where.partition(">")
        root = roots.get(package[1:]) if package.startswith("<") else None
        if root is not None:
            moved[(css, (root + inside, name), *rest)] = found
    return moved
