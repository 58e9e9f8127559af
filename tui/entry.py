"""The console script and `python -m tui`: `status`, which a status bar runs
every few seconds, is started without importing the rest of the command line
(`tui.status_command`); every other command goes to `tui.cli`."""

from __future__ import annotations

import sys


def run() -> None:
    if sys.argv[1:2] == ["status"]:
        from tui.status_command import run as command
    else:
        from tui.cli import run as command
    command()
