"""A time limit for tests of code that would hang without a bound (alias bombs, pipes)."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


class Hung(BaseException):
    """Not an Exception: the loader turns every Exception into a problem, and
    this must reach the test instead."""


@contextlib.contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Fail instead of hanging; a blocking open of a pipe is interrupted too."""

    def expired(signum: int, frame: object) -> None:
        raise Hung(f"took longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
