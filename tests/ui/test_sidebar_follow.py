"""The sidebar's counts followed mark by mark (`tui.ui.sidebar._Tally`) are the
counts a recount gives, whatever happens between two asks: marks, undo, marks
merged from another instance, a state read anew, a reload, mutes, views."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.bench_corpus import generated_library
from tests.mark_walk import MarkWalk
from tui.core.marks import LOG_MAX, Marks
from tui.core.model import Library
from tui.core.search import SearchIndex
from tui.core.views import View
from tui.store.state import ReadState
from tui.ui.sidebar import SidebarCounts

VIEWS = {
    "deep": View("deep", tags=frozenset({"kernels", "rocm"}), verdicts=frozenset({"deep"})),
    "todo": View("todo", unchecked=True),
    "quick": View("quick", verdicts=frozenset({"quick"}), unread=True),
}


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return generated_library(tmp_path_factory.mktemp("corpus"), 400, seed=3)


def recount(library: Library, state: Marks, mute: frozenset[str], index: SearchIndex) -> list:
    """The rows counted from scratch, from the marks themselves (not the sets the state keeps)."""
    fresh = Marks()
    fresh.reviews = dict(state.reviews)
    return SidebarCounts().rows(library, fresh, VIEWS, mute, index)


@pytest.mark.parametrize("seed", range(6))
def test_counts_followed_equal_a_recount(library: Library, tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    walk = MarkWalk(rng, ReadState(tmp_path / "state.json"))
    index = SearchIndex()
    counts = SidebarCounts()
    mute: frozenset[str] = frozenset()
    current = library
    checks = 0
    for step in range(300):
        action = rng.random()
        if action < 0.8:
            walk.step(current.reviews, step)
        elif action < 0.88:
            mute = frozenset(rng.sample(sorted(current.tags), rng.randint(0, 2)))
        elif action < 0.95:  # a reload: a file gone, or back
            files = dict(library.files)
            for path in rng.sample(sorted(files), 3):
                del files[path]
            current = rng.choice([library, Library.build(files, [])])
        else:
            counts.forget()  # the views changed
        if rng.random() < 0.5:  # asked after some changes only, as the screen does
            assert counts.rows(current, walk.state, VIEWS, mute, index) == recount(
                current, walk.state, mute, index
            )
            checks += 1
    assert counts.rows(current, walk.state, VIEWS, mute, index) == recount(current, walk.state, mute, index)
    assert checks > 100


def test_counts_follow_a_mark_without_a_recount(library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    """After the first count, a mark is followed from the log: no pass over the read keys."""
    state = Marks()
    for review in library.reviews[::3]:
        state.set_read(review.key, True)
    counts = SidebarCounts()
    index = SearchIndex()
    first = counts.rows(library, state, VIEWS, frozenset(), index)
    review = library.reviews[1]
    state.set_read(review.key, True)
    monkeypatch.setattr(type(state), "read_set", property(lambda self: pytest.fail("recounted")))
    rows = counts.rows(library, state, VIEWS, frozenset(), index)
    assert rows[0].unread == first[0].unread - 1
    monkeypatch.undo()
    assert rows == recount(library, state, frozenset(), index)


def test_a_long_log_starts_anew_and_is_counted_again(library: Library) -> None:
    state = Marks()
    counts = SidebarCounts()
    index = SearchIndex()
    counts.rows(library, state, VIEWS, frozenset(), index)
    epoch = state.epoch
    for n in range(LOG_MAX + 1):
        review = library.reviews[n % len(library.reviews)]
        state.set_read(review.key, n % 3 == 0)
    assert state.epoch != epoch and state.changed_since(epoch, 0) is None
    assert counts.rows(library, state, VIEWS, frozenset(), index) == recount(
        library, state, frozenset(), index
    )
