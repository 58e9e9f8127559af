"""`tui.core.row_filters.select_rows` lists the rows `tui.core.filters.select`
lists as reviews, for every filter and their combinations, under All, Unread,
a tag, a repo and a view's members, with marks, checks, the open review kept
and a search."""

from __future__ import annotations

import random

import pytest

from tests.bench_corpus import generate
from tui.core.filters import Filters, has_unchecked, repo_key, select, view_key
from tui.core.marks import Marks, checked_items
from tui.core.model import ALL_TAG, UNREAD_TAG, VERDICTS, Library
from tui.core.readmask import ReadMask
from tui.core.row_filters import select_rows
from tui.core.rows import Rows
from tui.core.search import SearchIndex
from tui.core.table import ReviewTable
from tui.load.parse import load_paths

NO_CHECKLIST = """repo: o/plain
entries:
  - {title: kernel fix without a checklist, pr: 1, tags: [rocm], verdict: deep, summary: s}
  - {title: another without one, pr: 2, tags: [docs], verdict: skim, summary: s}
  - {title: a third, pr: 3, tags: [rocm, docs], verdict: quick, summary: s}
"""


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    folder = tmp_path_factory.mktemp("corpus")
    generate(folder, 400, seed=6)
    (folder / "plain.yaml").write_text(NO_CHECKLIST, encoding="utf-8")
    result = load_paths([folder])
    library = Library.build(result.files, result.problems)
    assert any(not review.checks for review in library.reviews)
    return library


def _marks(library: Library, rng: random.Random) -> Marks:
    state = Marks()
    for review in library.reviews:
        if rng.random() < 0.3:
            state.set_read(review.key, True)
        if review.checklist and rng.random() < 0.2:
            items = review.checklist if rng.random() < 0.5 else review.checklist[:1]
            for item in items:
                state.set_checked(review.key, item.key, True)
    return state


def _done(table: ReviewTable, library: Library, state: Marks) -> set[int]:
    """The marked rows whose every checklist item is checked, as the reader would work them out."""
    out = set()
    for key in state.marked_set:
        row = table.position(key)
        if row is None:
            continue
        review = library.by_key[key]
        if review.checks and not has_unchecked(review, checked_items(state, review)):
            out.add(row)
    return out


def _random_filters(library: Library, rng: random.Random) -> Filters:
    tag = rng.choice([ALL_TAG, UNREAD_TAG, *sorted(library.tags)[:6], repo_key(library.repos[0])])
    filters = Filters(tag=tag)
    if tag.startswith("\x00repo:"):
        filters = filters._replace(repos=frozenset({library.repos[0]}))
    if rng.random() < 0.2:  # a view's sets
        filters = filters._replace(
            tag=view_key("v"),
            tags=frozenset(rng.sample(sorted(library.tags), 2)) if rng.random() < 0.7 else frozenset(),
            verdicts=frozenset(rng.sample(VERDICTS, 2)) if rng.random() < 0.5 else frozenset(),
            repos=frozenset(rng.sample(library.repos, 1)) if rng.random() < 0.3 else frozenset(),
        )
    return filters._replace(
        verdict=rng.choice([None, None, *VERDICTS]),
        unread=rng.random() < 0.4,
        unchecked=rng.random() < 0.4,
        query=rng.choice(["", "", "", "kernel", "fix ro"]),
    )


def _source(library: Library, filters: Filters) -> list:
    return library.under(filters.tag) if not filters.tag.startswith("\x00") else library.reviews


@pytest.mark.parametrize("seed", range(5))
def test_rows_are_selects_reviews(library: Library, seed: int) -> None:
    rng = random.Random(seed)
    table = library.table()
    state = _marks(library, rng)
    mask = ReadMask(table, state).mask
    done = _done(table, library, state)
    index = SearchIndex()
    reviews = library.reviews
    marked = {key: library.by_key[key] for key in state.marked_set if key in library.by_key}

    def answer(rows: Rows, query_terms: tuple[str, ...]) -> Rows:
        found = index.answer([reviews[row] for row in rows], query_terms)
        return Rows(sorted(table.rows_of(review.key for review in found)))

    plain = [review.key for review in reviews if not review.checks]
    tested = 0
    for _ in range(160):
        filters = _random_filters(library, rng)
        keep = rng.choice([None, rng.choice(reviews).key, rng.choice(plain)])
        source = _source(library, filters)
        expected = select(
            source,
            filters,
            is_read=state.is_read,
            read_keys=state.read_set,
            checked=lambda review: checked_items(state, review),
            index=index,
            keep=keep,
            marked=marked if filters.unchecked else None,
        )
        rows = table.under(filters.tag) if not filters.tag.startswith("\x00") else Rows.every(table.n)
        got = select_rows(
            table,
            rows,
            filters,
            read=mask,
            done=done,
            keep=table.position(keep) if keep is not None else None,
            answer=answer,
        )
        assert [table.key(row) for row in got] == [review.key for review in expected], filters
        tested += bool(expected)
    assert tested > 40


def test_no_filter_is_the_rows_themselves(library: Library) -> None:
    table = library.table()
    rows = table.under(ALL_TAG)
    assert select_rows(table, rows, Filters(), read=bytes(table.n)) is rows


def test_a_verdict_no_parser_makes(library: Library) -> None:
    table = library.table()
    assert len(select_rows(table, Rows.every(table.n), Filters(verdict="odd"), read=bytes(table.n))) == 0
