"""What a `tui.core.table.ReviewTable` must answer: what its library answers."""

from __future__ import annotations

from collections import Counter

from tui.core.model import ALL_TAG, UNREAD_TAG, VERDICTS, Library
from tui.core.rows import Rows
from tui.core.table import ReviewTable


def assert_same(table: ReviewTable, library: Library) -> None:
    """Every answer of `table` is the library's."""
    reviews = library.reviews
    assert table.n == len(table) == len(reviews)
    assert [table.key(i) for i in range(table.n)] == [r.key for r in reviews]
    assert table.keys() == [r.key for r in reviews]
    assert [table.title(i) for i in range(table.n)] == [r.title for r in reviews]
    assert [table.tags_of(i) for i in range(table.n)] == [r.tags for r in reviews]
    assert [(table.repo(i), table.verdict(i), table.pr(i), table.checks(i)) for i in range(table.n)] == [
        (r.repo, r.verdict, r.pr, r.checks) for r in reviews
    ]
    assert [table.location(i) for i in range(table.n)] == [r.location for r in reviews]
    made = [table.review(i) for i in range(table.n)]
    assert made == reviews  # location and everything the reader sees, the body too
    assert [table.is_stale(i) for i in range(table.n)] == [library.is_stale(r) for r in reviews]
    for row, review in enumerate(reviews):
        assert table.position(review.key) == row
    assert table.position("no/such#1") is None
    keys = [r.key for r in reviews]
    assert table.rows_of([*keys[::-2], "no/such#1"]) == list(range(len(keys)))[::-2]
    # Tags: the sidebar's order, each tag's reviews in reading order, the counts.
    assert table.tags == tuple(library.tags)
    for tag, under in library.tags.items():
        assert [reviews[row].key for row in table.tag_rows(tag)] == [r.key for r in under]
        assert table.tag_count(tag) == len(under) == len(table.under(tag))
        assert list(table.under(tag)) == list(table.tag_rows(tag))
    assert table.tag_rows("no such tag") == Rows() and table.tag_count("no such tag") == 0
    assert list(table.under(ALL_TAG)) == list(table.under(UNREAD_TAG)) == list(range(len(reviews)))
    # Repos and verdicts.
    assert table.repos == tuple(library.repos)
    assert table.repo_counts() == {repo: Counter(r.repo for r in reviews)[repo] for repo in library.repos}
    for repo in library.repos:
        assert table.repo_count(repo) == sum(1 for r in reviews if r.repo == repo)
    for verdict in {*VERDICTS, *(r.verdict for r in reviews)}:
        rows = table.verdict_rows(verdict)
        assert [reviews[row].key for row in rows] == [r.key for r in reviews if r.verdict == verdict]
        assert table.verdict_count(verdict) == len(rows)
    # Files, stale files, problems and duplicates.
    assert table.files == tuple(sorted(library.files, key=lambda path: path.parts))
    for path in library.files:
        assert [reviews[row].key for row in table.file_rows(path)] == [
            r.key for r in reviews if r.location.path == path
        ]
    assert table.stale == frozenset(library.stale)
    assert list(table.duplicates) == library.duplicates
    assert table.all_problems() == library.all_problems()
    assert table.problem_count == library.problem_count
