"""A reader's marks made at random, one step at a time, for the tests that follow
counts mark by mark and compare them with a recount (the sidebar's tally, the
table's read mask): both must hold whatever a reader, an undo, another instance's
merged marks or a second start does between two asks."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tui.core import marking
from tui.core.clock import HybridClock
from tui.core.marks import Marks, ReviewMarks
from tui.core.model import SECTIONS, Review
from tui.core.undo import ReadUndo
from tui.store.state import ReadState


class MarkWalk:
    """Draws one mark a step; `state` is replaced when the walk reads it anew (a second
    start), so read it from the walk after each step."""

    def __init__(self, rng: random.Random, state: ReadState) -> None:
        self.rng = rng
        self.state = state
        self.undo = ReadUndo()

    def step(self, reviews: Sequence[Review], step: int) -> None:
        rng, state, undo = self.rng, self.state, self.undo
        review = rng.choice(reviews)
        action = rng.random()
        if action < 0.35:
            marking.toggle_read(state, undo, review)
        elif action < 0.5:
            items = [item for section in SECTIONS for item in review.items(section)]
            if items:
                marking.set_checked(state, review, rng.choice(items).key, rng.random() < 0.8)
        elif action < 0.56:  # the whole checklist: out of the unchecked views
            for item in review.checklist:
                marking.set_checked(state, review, item.key, True)
        elif action < 0.65:
            undo.undo(state)
        elif action < 0.73:
            marking.mark_read(state, undo, rng.sample(list(reviews), 20))
        elif action < 0.81:  # another instance's marks, merged by a save
            state.merge(self._other_instance(reviews))
        elif action < 0.86:
            state.set_read(f"gone/repo#{step}", True)  # a review the library does not hold
        elif action < 0.91:  # the state read anew (another start): counted again
            state.save()
            self.state = ReadState(state.path)
            self.state.load()
            self.undo = ReadUndo()
        else:
            marking.toggle_read(state, undo, review)
            marking.toggle_read(state, undo, review)  # and back: nothing changed

    def _other_instance(self, reviews: Sequence[Review]) -> dict[str, ReviewMarks]:
        """Marks another instance saved: some read or unread, some items checked."""
        rng = self.rng
        other = Marks(HybridClock())
        for review in rng.sample(list(reviews), 12):
            if rng.random() < 0.5:
                other.set_read(review.key, rng.random() < 0.6)
            items = [item for section in SECTIONS for item in review.items(section)]
            if items:
                item = rng.choice(items)
                other.set_checked(review.key, item.key, rng.random() < 0.7, item.digest)
        return other.reviews
