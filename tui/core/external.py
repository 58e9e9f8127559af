"""Handing things to other programs (browser, editor, clipboard), without Textual.

Only the decisions live here: which URLs may be opened, what editor command
to run, what to copy. The app does the handing over.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import urlsplit

from tui.core.model import Item, Review
from tui.core.text import code_refs

DEFAULT_EDITOR = "vi"

CopyTurn = tuple[str, str, int]
"""The review key, item key and ref index copied last."""


def openable(url: str | None) -> bool:
    """Only http and https URLs with a host are opened: an entry file could
    otherwise point the browser at `file:`, `javascript:` or a local program."""
    if not url or any(c.isspace() or ord(c) < 32 for c in url):
        return False
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)


# Editors known to take `--` (the end of options), and where their `+LINE` goes:
# vim, neovim and emacs read every word after `--` as a file name, so `+LINE`
# comes first; nano reads `+LINE` from the words getopt left (so after `--`,
# whatever getopt's mode); helix takes `+N` then `--` (since 23.10; older ones
# open a buffer named `+N`). Other editors get no `--`: some would open a file
# named `--`. Their path is absolute, so it cannot look like an option anyway.
LINE_THEN_END = frozenset({
    "vi", "vim", "vim.basic", "vim.tiny", "vim.nox", "vim.gtk3", "view", "gvim", "nvim",
    "emacs", "emacs-nox", "hx", "helix",
})  # fmt: skip
END_THEN_LINE = frozenset({"nano", "rnano"})


def editor_command(environ: Mapping[str, str], path: Path, line: int) -> list[str]:
    """`$VISUAL`, else `$EDITOR`, else vi, opened at `line` of `path`.

    The file name comes from an entry folder: it is passed absolute, so a name
    such as `-c:!cmd` or `+cmd` is never read as an option or a command, and
    after `--` where the editor is known to take it."""
    editor = environ.get("VISUAL") or environ.get("EDITOR") or DEFAULT_EDITOR
    try:
        words = shlex.split(editor)
    except ValueError:  # an unbalanced quote: take it as plain words
        words = editor.split()
    words = words or [DEFAULT_EDITOR]
    target = os.path.abspath(path)
    at = f"+{max(1, line)}"
    name = os.path.basename(words[0])
    if name in LINE_THEN_END:
        return [*words, at, "--", target]
    if name in END_THEN_LINE:
        return [*words, "--", at, target]
    return [*words, at, target]


def refs(item: Item) -> list[str]:
    """An item's code refs: its `refs`, then the backticked spans of its text, once each."""
    return list(dict.fromkeys([*item.refs, *code_refs(item.text)]))


def what_to_copy(
    review: Review | None, item: Item | None, turn: CopyTurn | None
) -> tuple[str | None, CopyTurn | None]:
    """The text to copy and the turn to remember: `item`'s first code ref, or
    its next one when `turn` says its previous one was just copied (an item
    may name several refs and `c` steps through them); with no ref, the PR URL."""
    item_refs = refs(item) if item is not None else []
    if review is not None and item is not None and item_refs:
        index = turn[2] + 1 if turn and turn[:2] == (review.key, item.key) else 0
        index %= len(item_refs)
        return item_refs[index], (review.key, item.key, index)
    if review is not None and review.link:
        return review.link, turn
    return None, turn
