"""`tui.core.row_reviews.RowReviews`: a table's rows as the `Review` list the
review list draws from, equal to the library's lists, with no `Review` made
but for the rows read."""

from __future__ import annotations

import pytest

from tests.bench_corpus import generated_library
from tui.core.model import ALL_TAG, Library
from tui.core.row_reviews import RowReviews
from tui.core.rows import Rows


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return generated_library(tmp_path_factory.mktemp("corpus"), 300, seed=9)


def test_the_rows_are_the_librarys_lists(library: Library) -> None:
    table = library.table()
    every = RowReviews(table, table.under(ALL_TAG))
    assert len(every) == len(library.reviews)
    assert list(every) == library.reviews
    assert every.keys() == [review.key for review in library.reviews]
    for tag, under in list(library.tags.items())[:8]:
        listed = RowReviews(table, table.under(tag))
        assert list(listed) == under
        assert [listed[i] for i in range(len(listed))] == under
        assert list(listed[2:7]) == under[2:7] and isinstance(listed[2:7], RowReviews)
        for at, review in enumerate(under):
            assert listed.find(review.key) == at
            assert review in listed
        outside = next(r for r in library.reviews if tag not in r.tags)
        assert listed.find(outside.key) is None and outside not in listed
    assert every.find("no/such#1") is None and "no/such#1" not in every


def test_only_the_rows_read_are_made(library: Library, monkeypatch: pytest.MonkeyPatch) -> None:
    table = library.table()
    made: list[int] = []
    review = table.review

    def counted(i: int) -> object:
        made.append(i)
        return review(i)

    monkeypatch.setattr(table, "review", counted)
    listed = RowReviews(table, Rows(range(10, 200)))
    assert len(listed) == 190 and listed.find(table.key(50)) == 40
    assert len(listed.keys()) == 190
    assert made == []
    assert listed[5].key == table.key(15)
    assert made == [15]


def test_an_empty_list(library: Library) -> None:
    listed = RowReviews(library.table(), Rows())
    assert len(listed) == 0 and list(listed) == [] and listed.keys() == []
