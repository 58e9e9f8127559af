"""Searching in pieces and filtering at scale, without Textual: every answer
the same as a plain scan of the texts; a search done in pieces is remembered."""

from __future__ import annotations

import random

import pytest

from tests.bench_corpus import generated_library
from tests.reviews import bundled, review
from tests.search_scan import plain_search as plain
from tui.core.filters import Filters, has_unchecked, select, with_unchecked
from tui.core.model import Item, Library, Review
from tui.core.search import SearchIndex, terms


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return generated_library(tmp_path_factory.mktemp("corpus") / "c", 600, seed=3)


QUERIES = ("s", "sc", "sch", "scheduler", "调度", "调度器", "kv cache", "fused_moe", "zzz", "缓存 fp8", "")


def test_select_is_a_plain_scan_typed_forward_and_back(corpus: Library) -> None:
    index = SearchIndex()
    for query in (*QUERIES, *reversed(QUERIES)):  # narrowing, then answers from memory
        assert index.select(corpus.reviews, terms(query)) == plain(corpus.reviews, query), query


def test_steps_then_select_answers_from_memory(corpus: Library) -> None:
    index = SearchIndex()
    source = corpus.reviews
    for query in QUERIES[:-1]:
        wanted = terms(query)
        assert index.work(source, wanted) > 0
        pieces = sum(1 for _ in index.steps(source, wanted, piece=64))
        assert pieces > 1  # in pieces, not all at once
        assert index.work(source, wanted) == 0  # remembered: select does nothing more
        assert index.select(source, wanted) == plain(source, query), query
    assert len(index) == len(source)  # every text made on the way, and kept


def test_steps_stopped_halfway_keep_their_texts_and_remember_nothing(corpus: Library) -> None:
    index = SearchIndex()
    steps = index.steps(corpus.reviews, terms("scheduler"), piece=64)
    for _ in range(6):
        next(steps)
    steps.close()
    assert 0 < len(index) < len(corpus.reviews)
    assert index.work(corpus.reviews, terms("scheduler")) > 0  # not answered
    assert index.select(corpus.reviews, terms("scheduler")) == plain(corpus.reviews, "scheduler")


def test_a_narrowed_query_tests_only_the_answers_before_it(corpus: Library) -> None:
    index = SearchIndex()
    source = corpus.reviews
    found = index.select(source, terms("调度"))
    assert 0 < len(found) < len(source)
    assert index.work(source, terms("调度器")) == len(found)
    assert index.work(list(source), terms("调度器")) > len(found)  # another list: from scratch


def test_a_recycled_review_gets_its_own_text() -> None:
    index = SearchIndex()
    first = review("alpha")
    assert index.matches(first, terms("alpha"))
    index.retain([])
    second = review("beta")
    assert index.matches(second, terms("beta")) and not index.matches(second, terms("alpha"))
    # A review dropped without `retain` stays alive in the index, so its id is
    # never another's (CPython gives a freed object's id to the next one made).
    del second
    later = [review(f"gamma {n}") for n in range(100)]
    assert not any(index.matches(r, terms("beta")) for r in later)


# -- unchecked -------------------------------------------------------------------


def _checklist(n: int, key: int) -> Review:
    return review(f"r{key}", key=key, focus=tuple(Item("focus", f"item {i}") for i in range(n)))


def test_with_unchecked_is_the_plain_filter() -> None:
    rng = random.Random(5)
    reviews = [_checklist(rng.choice((0, 0, 1, 2, 3)), key) for key in range(300)]
    checks: dict[str, frozenset[str]] = {}
    for r in rng.sample(reviews, 80):  # some checked in part, some in full, some not at all
        items = [item.key for item in r.checklist]
        checks[r.key] = frozenset(rng.sample(items, rng.randint(0, len(items))))

    def checked(r: Review) -> frozenset[str]:
        return checks.get(r.key, frozenset())

    marked = {r.key: r for r in reviews if r.key in checks}
    for keep in (None, reviews[0].key, next(r.key for r in reviews if r.checks == 0)):
        for key in [*[k for k in checks if checks[k]][:3], None]:
            keep_ = key or keep
            wanted = [r for r in reviews if r.key == keep_ or has_unchecked(r, checked(r))]
            assert with_unchecked(reviews, checked, marked, keep_) == wanted
            assert with_unchecked(reviews, checked, None, keep_) == wanted
    wanted = [r for r in reviews if has_unchecked(r, checked(r))]
    assert (
        select(
            reviews,
            Filters(unchecked=True),
            is_read=lambda k: False,
            checked=checked,
            index=SearchIndex(),
            marked=marked,
        )
        == wanted
    )


def test_the_bundled_digest_filters_the_same_with_marks_known() -> None:
    library = bundled()
    r = library.reviews[0]
    checked = {r.key: frozenset(item.key for item in r.checklist)}  # one review checked in full
    got = with_unchecked(library.reviews, lambda x: checked.get(x.key, frozenset()), {r.key: r})
    assert r not in got and len(got) == sum(1 for x in library.reviews if x.checks) - 1
