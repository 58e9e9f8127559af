"""SIGTERM and SIGHUP end the reader as `q` does; a terminal that hangs up
never holds it.

By default either signal kills the process where it stands: the terminal is
left in the alternate screen, with mouse reporting on and echo off, and
whatever quitting does is skipped. Here they run the app's quit action on the
event loop (`loop.add_signal_handler`: the handler runs between callbacks,
never in the middle of a save), so the app shuts down as after `q`, Textual
restores the terminal and the process exits 0.

SIGHUP means the terminal is gone (a closed window, a dropped ssh
connection): every write to it fails (EIO), and the kernel sends SIGCONT
with it. Unguarded, Textual's output thread ends at the first failed write
and the app then waits forever once the thread's queue is full (30 writes: a
frame or two); and SIGCONT has Textual start a second application mode on
the dead terminal. So the driver is wrapped (`tui.ui.patches.survives_hang_up`): a write the
terminal refuses is dropped, the standard streams are pointed at /dev/null
(as on SIGHUP) and the app quits; SIGCONT resumes only after a suspend.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import os
import signal
import termios
from collections.abc import Callable
from typing import IO

from textual.app import App

_when_terminal_lost: Callable[[], object] | None = None
"""Set by `end_as_quit`: what `TerminalOutput` calls (from Textual's output thread)
when the terminal has gone."""


def end_as_quit(app: App) -> None:
    """From now on SIGTERM and SIGHUP quit `app`, and so does a terminal that
    refuses output; call it once the app runs, from its event loop. The
    handlers go when the loop closes. A SIGHUP ignored when the reader started
    (`nohup`) stays ignored."""
    global _when_terminal_lost
    loop = asyncio.get_running_loop()
    _when_terminal_lost = functools.partial(loop.call_soon_threadsafe, _quit, app)
    # Not where the loop cannot take signals (not the main thread; Windows).
    with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
        loop.add_signal_handler(signal.SIGTERM, _quit, app)
        if signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:
            loop.add_signal_handler(signal.SIGHUP, _hang_up, app)


def _quit(app: App) -> None:
    app.call_later(app.run_action, "quit")  # the action `q` is bound to


def _hang_up(app: App) -> None:
    _away_from_terminal()
    _quit(app)


class TerminalOutput:
    """The terminal, as Textual's output thread writes to it: once a write or
    flush fails, the terminal is taken as gone and the rest is dropped."""

    def __init__(self, file: IO[str]) -> None:
        self._file = file
        self._gone = False

    def write(self, text: str) -> int:
        if not self._gone:
            try:
                return self._file.write(text)
            except (OSError, ValueError):
                self._lost()
        return len(text)

    def flush(self) -> None:
        if not self._gone:
            try:
                self._file.flush()
            except (OSError, ValueError):
                self._lost()

    def _lost(self) -> None:
        self._gone = True
        _away_from_terminal()  # so that a last flush (at exit) does not fail either
        # The terminal hung up, and SIGHUP may not say so: a signal that
        # arrives while the event loop's wakeup pipe is full (a burst of keys
        # queued) is lost to asyncio, and `nohup` ignores it.
        if _when_terminal_lost is not None:
            with contextlib.suppress(RuntimeError):  # the loop has closed
                _when_terminal_lost()

    def fileno(self) -> int:
        return self._file.fileno()

    def isatty(self) -> bool:
        return self._file.isatty()


def _away_from_terminal() -> None:
    """Standard input, output and error to /dev/null where they are the
    terminal (a stream redirected to a file is left alone)."""
    try:
        null = os.open(os.devnull, os.O_RDWR)
    except OSError:
        return
    try:
        for fd in (0, 1, 2):
            if _terminal(fd):
                with contextlib.suppress(OSError):
                    os.dup2(null, fd)
    finally:
        os.close(null)


def _terminal(fd: int) -> bool:
    """A terminal, live or hung up (one that hung up answers every request with EIO)."""
    try:
        termios.tcgetattr(fd)
    except termios.error as error:
        return bool(error.args) and error.args[0] == errno.EIO
    return True
