"""Undo for read marks (`r`, `R`), without Textual.

Before a marking, the app records each review's read mark and the fingerprint
it was read at; `undo` puts them back. Marks are merged between instances by
time, newest winning, so an undone mark is written as a new mark with the old
value (a mark back-dated to its old time would lose to the one on disk).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tui.core.marks import Marks

LIMIT = 100
"""Markings remembered; older ones are forgotten."""


@dataclass(frozen=True)
class Previous:
    read: bool
    seen: dict[str, object] | None


class ReadUndo:
    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._stack: list[dict[str, Previous]] = []

    def __len__(self) -> int:
        return len(self._stack)

    def record(self, state: Marks, keys: Iterable[str]) -> None:
        """Remember how these reviews are marked now, before they change."""
        snapshot = {key: Previous(state.is_read(key), state.seen(key)) for key in keys}
        if not snapshot:
            return
        self._stack.append(snapshot)
        del self._stack[: -self.limit]

    def undo(self, state: Marks) -> list[str]:
        """Restore the last recorded marks; returns the review keys restored."""
        if not self._stack:
            return []
        snapshot = self._stack.pop()
        for key, previous in snapshot.items():
            state.set_read(key, previous.read)
            if previous.seen is not None:
                state.set_seen(key, previous.seen)
        return list(snapshot)
