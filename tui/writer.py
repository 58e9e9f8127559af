"""How soon Textual's writer thread gets a frame to the terminal.

Textual draws a frame on the main thread and hands its text to a thread of its
own, which writes it out. That thread needs the GIL three times a frame (to take
the text, after writing it, after flushing), and while the main thread runs
Python code CPython hands the GIL over only every switch interval: 5 ms by
default. So a frame drawn while the main thread goes on working reaches the
terminal up to ~15 ms late. Right after the first frame it goes on loading
(PrDigestApp.on_ready): the first frame reached the terminal 9.4 ms after it
was drawn (median of 15 runs in a pseudo-terminal; a bare Textual app, whose
main thread has less to do then: 3.7 ms). With 1 ms it took 0.6 ms.

The interval only matters while another thread waits for the GIL: the writer,
or the thread saving the parse cache (then it and the main thread take turns
more often, each a little slower). Garbage collection and other long C calls
still hold a frame back; see tui/collector.py.
"""

from __future__ import annotations

import sys

SWITCH_S = 0.001
"""The switch interval while the reader runs."""


def quicken() -> float:
    """Set the switch interval to `SWITCH_S`; the one it replaces, for `restore`."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_S)
    return before


def restore(before: float) -> None:
    sys.setswitchinterval(before)
