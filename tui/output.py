"""What the command line writes: cleaned as entry text is (file names in it are
escaped where they are formatted, `Location`), and a failed write
(a full disk, a closed pipe, an encoding that cannot show the text) one line
on stderr and an exit status, never a traceback.

`check`, `export` and `locate` write through `out` and `warn`; `guarded` runs
one of them.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable

from tui.core.text import clean, one_line

CANNOT_WRITE = 3
"""The exit status when the output could not be written."""


class OutputError(Exception):
    """Standard output could not take the text; the message says why, on one line."""


def out(text: str) -> None:
    """`text` to stdout, cleaned (escape sequences and control characters removed)
    and flushed, so a failure is known here and not at exit."""
    stream = sys.stdout
    try:
        stream.write(clean(text))
        stream.flush()
    except UnicodeEncodeError as exc:
        char = exc.object[exc.start]
        raise OutputError(
            f"standard output's encoding ({stream.encoding}) cannot show U+{ord(char):04X}; "
            "use a UTF-8 locale (LC_ALL=C.UTF-8) or PYTHONIOENCODING=utf-8"
        ) from exc
    except OSError as exc:
        if exc.errno == errno.EPIPE:
            raise OutputError("") from exc  # the reader at the other end left: nothing to say
        raise OutputError(f"cannot write to standard output: {exc.strerror or exc}") from exc


def warn(line: str) -> None:
    """One line to stderr, cleaned; a stderr that cannot take it is let be."""
    with contextlib.suppress(OSError, ValueError):
        print(one_line(line), file=sys.stderr, flush=True)


def guarded(prog: str, command: Callable[[], int]) -> int:
    """Run `command`; an `OutputError` becomes one line on stderr and `CANNOT_WRITE`."""
    try:
        return command()
    except OutputError as exc:
        _drop_stdout()
        if str(exc):
            warn(f"{prog}: {exc}")
        return CANNOT_WRITE


def _drop_stdout() -> None:
    """Point stdout at /dev/null: what Python flushes at exit would fail again
    (and print "Exception ignored ..."), so nothing is left to flush."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError, AttributeError):
        pass
