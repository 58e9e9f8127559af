"""A hybrid logical clock: the order of the reader's marks, whatever the wall clock says.

Marks merge newest-wins (between two readers, and, later, between machines). By
wall-clock time alone, a mark stamped in the future (a clock NTP stepped back,
another machine's clock ahead) would beat every mark made after it: `r` would do
nothing. A hybrid logical clock stamps with the wall clock while it moves
forward, and otherwise with the newest stamp it has seen plus a counter, so:

- a stamp from `now()` is later than every stamp before it from `now()` and every
  stamp given to `observe()`;
- while the wall clock is ahead of everything seen, stamps are wall-clock time
  (`wall`), with `count` 0.

Pure: no disk, no global state. The wall clock is a parameter, so tests (and a
sync across machines) can give it any clock.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import NamedTuple


class Stamp(NamedTuple):
    """When a mark was made, and where. Ordered as a tuple: `wall`, then
    `count`, then `machine`, so two machines' marks made at the same instant
    are still ordered, the same way on every machine."""

    wall: float
    """Seconds since the epoch: the wall clock's, or the newest seen when that was later."""
    count: int = 0  # type: ignore[assignment]  # a field named as tuple.count is: the stamp's counter
    """Stamps made at the same `wall` before this one (0 while the wall clock leads)."""
    machine: str = ""
    """The machine that made the mark, in a shared state folder; "" in a single state file."""


ZERO = Stamp(float("-inf"), 0)


class HybridClock:
    """Stamps, each later than every stamp made or observed before it."""

    def __init__(self, wall: Callable[[], float] = time.time, machine: str = "") -> None:
        self._wall = wall
        self._last = ZERO
        self.machine = machine
        """Put in every stamp made: the tie-breaker between machines."""

    @property
    def last(self) -> Stamp:
        """The newest stamp made or observed (`ZERO` before any)."""
        return self._last

    def now(self) -> Stamp:
        """A stamp for something happening now: later than all before it."""
        wall = self._wall()
        last = self._last
        if wall > last.wall:
            self._last = Stamp(wall, 0, self.machine)
        else:
            self._last = Stamp(last.wall, last.count + 1, self.machine)
        return self._last

    def observe(self, stamp: Stamp) -> None:
        """A stamp read from elsewhere (the state file, another reader): every
        stamp made from now on is later than it."""
        if stamp > self._last:
            self._last = stamp
