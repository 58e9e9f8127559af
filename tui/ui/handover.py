"""Carrying out the App's hand-offs to the browser, the clipboard and an editor.

`tui.core.external` decides, without Textual, which URLs may be opened, what editor
command runs and what is copied; here the App does it and tells the reader how
it went, so its actions stay one-line wrappers. Imported on the first `o`, `c`
or `e`, not at start-up.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import SuspendNotSupported

from tui.core import external
from tui.core.external import CopyTurn
from tui.core.model import Item, Review
from tui.i18n import words

if TYPE_CHECKING:
    from textual.app import App


def open_pr(app: App[None], review: Review | None) -> None:
    """The review's PR in the browser, if its link is one a browser may safely open."""
    url = review.link if review else None
    if not url:
        app.notify(words().no_link, severity="warning", timeout=4, markup=False)
    elif not external.openable(url):
        app.notify(words().bad_link.format(url=url), severity="warning", timeout=6, markup=False)
    else:
        app.open_url(url)
        app.notify(words().opening.format(url=url), timeout=3, markup=False)


def copy(app: App[None], review: Review | None, item: Item | None, turn: CopyTurn | None) -> CopyTurn | None:
    """Copy what `external.what_to_copy` chooses; returns the turn to pass next time."""
    text, turn = external.what_to_copy(review, item, turn)
    if text is None:
        app.notify(words().nothing_to_copy, severity="warning", timeout=4, markup=False)
        return turn
    app.copy_to_clipboard(text)
    app.notify(words().copied.format(text=text), timeout=3, markup=False)
    return turn


def edit(app: App[None], review: Review) -> None:
    """The review's entry file in $VISUAL / $EDITOR, at its line; the app is
    suspended meanwhile, and hot reload picks up what was saved."""
    edit_file(app, review.location.path, review.location.line)


def edit_file(app: App[None], path: Path, line: int) -> None:
    """`path` in $VISUAL / $EDITOR at `line` (an entry file, or a ref's file in
    the user's clone), the app suspended meanwhile."""
    if not path.is_file():
        app.notify(words().no_file.format(path=path), severity="warning", timeout=6, markup=False)
        return
    command = external.editor_command(os.environ, path, line)
    try:
        with handed_over(app):
            result = subprocess.run(command, check=False)
    except SuspendNotSupported:
        app.notify(words().cannot_suspend, severity="warning", timeout=6, markup=False)
        return
    except OSError as exc:
        app.notify(
            words().editor_failed.format(editor=command[0], error=exc.strerror or exc),
            severity="error",
            timeout=8,
            markup=False,
        )
        return
    if result.returncode:
        app.notify(
            words().editor_exit.format(editor=command[0], code=result.returncode),
            severity="warning",
            timeout=6,
            markup=False,
        )


def handed_over(app: App[None]) -> AbstractContextManager[object]:
    """The terminal handed to another program: `App.suspend()`. Headless (in
    tests) there is no terminal to hand over, so the program just runs."""
    if app.is_headless:
        return contextlib.nullcontext()
    return app.suspend()
