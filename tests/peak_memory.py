"""The peak of Python's allocations over a block: a bound on work that does not
depend on the machine's speed or load, as a time limit would."""

from __future__ import annotations

import contextlib
import tracemalloc
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def peak_memory() -> Iterator[Callable[[], int]]:
    """`with peak_memory() as peak: ...`, then `peak()`: the most bytes held at once
    inside the block, above what was held when it began."""
    peak = 0
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        yield lambda: peak
        peak = tracemalloc.get_traced_memory()[1] - before
    finally:
        tracemalloc.stop()
