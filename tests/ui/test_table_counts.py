"""The sidebar's counts from the library's table and a read mask
(`tui.core.readmask`) are the sidebar's own (`tui.ui.sidebar.SidebarCounts`):
for a fresh count, with mutes and views, from a saved table as a warm start
reads it, and followed mark by mark they equal a recount."""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest

from tests.bench_corpus import generate, generated_library
from tests.mark_walk import MarkWalk
from tui import __version__
from tui.core.marks import LOG_MAX, Marks
from tui.core.model import Library
from tui.core.readmask import ReadMask, TableCounts
from tui.core.row_filters import view_members
from tui.core.rows import Rows
from tui.core.search import SearchIndex
from tui.core.table import ReviewTable
from tui.core.views import View
from tui.load.cache import ParseCache
from tui.load.library import load_library
from tui.load.parse import load_paths
from tui.load.table_file import from_saved, save_table
from tui.store.state import ReadState
from tui.ui.sidebar import SidebarCounts

VIEWS = {
    "deep": View("deep", tags=frozenset({"kernels", "rocm"}), verdicts=frozenset({"deep"})),
    "todo": View("todo", unchecked=True),
    "quick": View("quick", verdicts=frozenset({"quick"}), unread=True),
    "rocm-todo": View("rocm-todo", tags=frozenset({"rocm"}), unchecked=True, unread=True),
}
UNCHECKED = frozenset(name for name, view in VIEWS.items() if view.unchecked)


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return generated_library(tmp_path_factory.mktemp("corpus"), 400, seed=3)


def sidebar(library: Library, state: Marks, mute: frozenset[str], views: dict[str, View]) -> list[tuple]:
    """The sidebar's rows counted from scratch from the marks themselves."""
    fresh = Marks()
    fresh.reviews = dict(state.reviews)
    rows = SidebarCounts().rows(library, fresh, views, mute, SearchIndex())
    return [(row.tag, row.unread, row.total, row.dim) for row in rows]


def member_rows(library: Library, table: ReviewTable, mute: frozenset[str]) -> dict[str, Rows]:
    """The views' members as the sidebar works them out, as rows of the table."""
    counts = SidebarCounts()
    members = {name: counts.members(name, library, VIEWS, mute, SearchIndex()) or [] for name in VIEWS}
    return {name: Rows(sorted(table.rows_of(r.key for r in found))) for name, found in members.items()}


def table_rows(counts: TableCounts) -> list[tuple]:
    return [tuple(row) for row in counts.rows()]


def _some_read(library: Library, rng: random.Random, share: float) -> Marks:
    state = Marks()
    for review in library.reviews:
        if rng.random() < share:
            state.set_read(review.key, True)
        if review.checklist and rng.random() < share / 2:  # some all checked, some in part
            for item in review.checklist[: None if rng.random() < 0.5 else 1]:
                state.set_checked(review.key, item.key, True)
    state.set_read("not/here#1", True)  # a key the library does not hold
    return state


def test_view_members_on_rows_are_the_sidebars(library: Library) -> None:
    table = library.table()
    index = SearchIndex()
    reviews = library.reviews

    def answer(rows: Rows, query_terms: tuple[str, ...]) -> Rows:
        found = index.answer([reviews[row] for row in rows], query_terms)
        return Rows(sorted(table.rows_of(review.key for review in found)))

    views = {**VIEWS, "searched": View("searched", search="kernel", tags=frozenset({"rocm", "docs"}))}
    for mute in (frozenset(), frozenset({"rocm"}), frozenset(sorted(library.tags)[:3])):
        muted = TableCounts(table, Marks(), mute).muted
        counts = SidebarCounts()
        for name, view in views.items():
            expected = counts.members(name, library, views, mute, index)
            assert expected is not None
            got = view_members(table, view, muted, answer)
            assert [table.key(row) for row in got] == [review.key for review in expected], (name, mute)
    assert any(view_members(table, view, bytes(table.n), answer) for view in views.values())


@pytest.mark.parametrize("share", [0.0, 0.3, 1.0])
def test_a_fresh_count_is_the_sidebars(library: Library, share: float) -> None:
    rng = random.Random(1)
    state = _some_read(library, rng, share)
    table = library.table()
    assert len(library.repos) > 1  # the Repos section is counted too
    for mute in (frozenset(), frozenset({"rocm"}), frozenset(sorted(library.tags)[:3])):
        counts = TableCounts(table, state, mute, member_rows(library, table, mute), UNCHECKED)
        assert table_rows(counts) == sidebar(library, state, mute, VIEWS)
        assert tuple(counts.all()) == sidebar(library, state, mute, VIEWS)[0]


def test_a_mute_that_hides_a_whole_repo(tmp_path: Path) -> None:
    """A repo whose every review is muted is not listed; a tag hidden whole by another's mute is, at 0."""
    entries = tmp_path / "entries"
    entries.mkdir()
    (entries / "a.yaml").write_text(
        "repo: o/a\nentries:\n"
        "  - {title: one, pr: 1, tags: [ci, x], verdict: deep, summary: s}\n"
        "  - {title: two, pr: 2, tags: [ci], verdict: skim, summary: s}\n",
        encoding="utf-8",
    )
    (entries / "b.yaml").write_text(
        "repo: o/b\nentries:\n  - {title: three, pr: 3, tags: [docs, x], verdict: quick, summary: s}\n",
        encoding="utf-8",
    )
    result = load_paths([entries])
    library = Library.build(result.files, result.problems)
    state = Marks()
    state.set_read("o/a#1", True)
    state.set_read("o/b#3", True)
    for mute in (frozenset({"ci"}), frozenset({"docs"}), frozenset({"ci", "docs"}), frozenset()):
        counts = TableCounts(library.table(), state, mute)
        assert table_rows(counts) == sidebar(library, state, mute, {})


@pytest.mark.parametrize("seed", range(4))
def test_counts_followed_mark_by_mark_equal_a_recount(library: Library, tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    walk = MarkWalk(rng, ReadState(tmp_path / "state.json"))
    table = library.table()
    mute = frozenset({"rocm"}) if seed % 2 else frozenset()
    views = member_rows(library, table, mute)
    counts = TableCounts(table, walk.state, mute, views, UNCHECKED)
    checks = 0
    for step in range(250):
        walk.step(library.reviews, step)
        if rng.random() < 0.5:
            counts.follow(walk.state)
            expected = sidebar(library, walk.state, mute, VIEWS)
            assert table_rows(counts) == expected
            assert table_rows(TableCounts(table, walk.state, mute, views, UNCHECKED)) == expected
            checks += 1
    counts.follow(walk.state)
    assert table_rows(counts) == sidebar(library, walk.state, mute, VIEWS)
    assert checks > 80


def test_a_mark_is_followed_without_a_recount(library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    state = _some_read(library, random.Random(2), 0.3)
    counts = TableCounts(library.table(), state)
    first = counts.all()
    review = next(r for r in library.reviews if not state.is_read(r.key))
    state.set_read(review.key, True)
    monkeypatch.setattr(type(state), "read_set", property(lambda self: pytest.fail("recounted")))
    monkeypatch.setattr(TableCounts, "_count", lambda self: pytest.fail("recounted"))
    counts.follow(state)
    assert counts.all().unread == first.unread - 1
    monkeypatch.undo()
    assert table_rows(counts) == sidebar(library, state, frozenset(), {})


def test_a_long_log_starts_anew_and_is_counted_again(library: Library) -> None:
    state = Marks()
    table = library.table()
    counts = TableCounts(table, state)
    mask = counts.mask
    epoch = state.epoch
    for n in range(LOG_MAX + 1):
        state.set_read(library.reviews[n % len(library.reviews)].key, n % 3 == 0)
    assert state.epoch != epoch and ReadMask(table, state).changed() == []
    counts.follow(state)
    assert counts.mask is not mask  # made anew
    assert table_rows(counts) == sidebar(library, state, frozenset(), {})


def test_counts_from_a_saved_table_are_a_fresh_parses(tmp_path: Path) -> None:
    """A warm start's counts from the table saved after the last start equal those of
    the library a fresh parse of the same files gives."""
    corpus = tmp_path / "corpus"
    files = generate(corpus, 150, seed=8)
    shutil.copy(files[3], corpus / "aa-copy.yaml")  # duplicates: skipped in both
    cache_path = tmp_path / "cache" / "parse-cache"
    load_library([corpus], ParseCache(cache_path, version_key=__version__))  # parses, saves the cache
    cache = ParseCache(cache_path, version_key=__version__)
    warm = load_library([corpus], cache)
    assert save_table(warm.table(), cache, [corpus])
    saved = from_saved(cache_path, __version__, [corpus])
    assert saved is not None
    result = load_paths([corpus])
    fresh = Library.build(result.files, result.problems)
    state = _some_read(fresh, random.Random(4), 0.4)
    for mute in (frozenset(), frozenset({"docs"})):
        counts = TableCounts(saved, state, mute, member_rows(fresh, saved, mute), UNCHECKED)
        assert table_rows(counts) == sidebar(fresh, state, mute, VIEWS)
