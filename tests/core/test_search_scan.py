"""A search run in pieces (`tui.core.search_scan`), as typing at 100,000
reviews runs it: at every piece what it found is the first part of the plain
scan's answer, a query typed further mid-scan narrows what is known (the part
scanned from its matches, the rest from its candidates), and every answer in
the end is the plain scan's."""

from __future__ import annotations

import random

import pytest

from tests.bench_corpus import generated_library
from tests.search_scan import plain_search as plain
from tui.core.model import Library, Review
from tui.core.search import SearchIndex, terms


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return generated_library(tmp_path_factory.mktemp("corpus") / "c", 600, seed=5)


def keys(reviews: object) -> list[str]:
    return [review.key for review in reviews]  # type: ignore[attr-defined]


def test_what_a_scan_found_so_far_is_the_answers_first_part(corpus: Library) -> None:
    index = SearchIndex()
    source = corpus.reviews
    place_of = {id(review): n for n, review in enumerate(source)}
    for query in ("s", "sc", "调度", "kv cache", "zzz"):
        answer = plain(source, query)
        scan = index.scan(source, terms(query))
        pieces = 0
        while not scan.advance(17):
            pieces += 1
            if scan.making:
                continue
            found = list(scan.found)
            assert keys(found) == keys(answer[: len(found)]), query
            # ...and every match before the next candidate: the list's first rows are final.
            assert len(found) == sum(1 for review in answer if place_of[id(review)] < scan.place)
        assert pieces > 1 and keys(scan.found) == keys(answer)
        assert index.work(source, terms(query)) == 0  # remembered, as a search done at once
        assert keys(index.select(source, terms(query))) == keys(answer)


def test_a_query_typed_further_mid_scan_goes_on_from_what_it_knows(corpus: Library) -> None:
    index = SearchIndex()
    source = corpus.reviews
    index.select(source, terms("s"))
    first = index.scan(source, terms("sc"))
    while len(first.found) < 20:
        first.advance(8)
    assert not first.done
    left = len(source) - first.place  # at most: what it has not tested
    further = index.scan(source, terms("sch"))
    assert further is not first and not first.done
    # Its matches so far, and its candidates not tested yet: no more.
    assert further.candidates <= len(first.found) + left
    fresh = SearchIndex()
    fresh.select(source, terms("s"))
    assert further.candidates < fresh.scan(source, terms("sch")).candidates  # not from "s" again
    further.finish()
    assert keys(further.found) == keys(plain(source, "sch"))
    assert keys(index.select(source, terms("sch"))) == keys(plain(source, "sch"))


def test_select_finishes_the_scan_running(corpus: Library) -> None:
    index = SearchIndex()
    source = corpus.reviews
    scan = index.scan(source, terms("ca"))
    scan.advance(50)
    scan.advance(50)
    assert not scan.done
    assert index.scan(source, terms("ca")) is scan  # the same query: the same scan
    assert keys(index.select(source, terms("ca"))) == keys(plain(source, "ca"))
    assert scan.done


TYPED = ("fused_moe", "kv cache", "调度器", "缓存 fp8", "scheduler", "tool")


@pytest.mark.parametrize("seed", range(6))
def test_typing_over_running_scans_ends_with_the_plain_answers(corpus: Library, seed: int) -> None:
    """Each character starts (or narrows) a scan that is left after a random
    number of pieces; backspaces and a query typed again come in between."""
    rng = random.Random(seed)
    index = SearchIndex()
    source: list[Review] = corpus.reviews
    for query in rng.sample(TYPED, 4):
        asked = [query[:n] for n in range(1, len(query) + 1)]
        asked += [query[:n] for n in range(len(query) - 1, 0, -1)][: rng.randrange(4)]
        for typed in asked:
            if not terms(typed):
                continue
            scan = index.scan(source, terms(typed))
            for _ in range(rng.randrange(6)):
                if scan.advance(rng.choice((1, 5, 40, 300))):
                    break
            if not scan.making:
                answer = plain(source, typed)
                assert keys(scan.found) == keys(answer[: len(scan.found)]), typed
        assert keys(index.select(source, terms(typed))) == keys(plain(source, typed)), typed
    for typed in ("s", "sc", "kv", "kv c", "调", "调度"):  # answers kept or made now, all plain
        assert keys(index.select(source, terms(typed))) == keys(plain(source, typed)), typed


@pytest.mark.parametrize("first", [1, 20, 10_000])
def test_with_texts_missing_the_first_matches_come_in_the_lists_order(corpus: Library, first: int) -> None:
    """No text made yet (the first search of a session): the candidates are
    tested in the list's order, each text made as it is reached, until `first`
    matches are found; then the rest's texts are made (file order) and tested.
    At every piece what it found is the plain answer's start."""
    source = corpus.reviews
    place_of = {id(review): n for n, review in enumerate(source)}
    for query in ("s", "调度", "kv cache", "zzz"):
        index = SearchIndex()
        answer = plain(source, query)
        scan = index.scan(source, terms(query), first=first)
        assert not scan.texts_made
        while not scan.advance(64):
            found = list(scan.found)
            assert keys(found) == keys(answer[: len(found)]), query
            assert len(found) == sum(1 for review in answer if place_of[id(review)] < scan.place)
            if not scan.making and not scan.texts_made:  # still in the list's order
                assert len(index) <= scan.place + 1  # only the texts it reached (and no more)
        assert keys(scan.found) == keys(answer), query
        assert len(index) == len(source)
        assert keys(index.select(source, terms(query))) == keys(plain(source, query))
    index = SearchIndex()
    scan = index.scan(source, terms("s"), first=20)
    while len(scan.found) < 20:
        scan.advance(64)
    assert len(index) < len(source) // 4  # the first rows before most texts are made


def test_a_scan_with_texts_missing_narrowed_and_finished_is_plain(corpus: Library) -> None:
    source = corpus.reviews
    for stop in (0, 3, 40, 200):
        index = SearchIndex()
        scan = index.scan(source, terms("s"), first=10)
        for _ in range(stop):
            scan.advance(64)
        further = index.scan(source, terms("sc"), first=10)
        assert further is not scan
        for _ in range(stop // 2):
            further.advance(64)
        more = index.scan(source, terms("sch"), first=10)
        more.finish()
        assert keys(more.found) == keys(plain(source, "sch")), stop
        assert keys(index.select(source, terms("sc"))) == keys(plain(source, "sc")), stop
        assert keys(index.select(source, terms("s"))) == keys(plain(source, "s")), stop


def test_a_term_typed_further_among_other_kept_answers_tests_only_their_and(corpus: Library) -> None:
    """`scz` after `sc`, say, with one-character answers kept (`prepare`):
    looked for from where `sch` was found, in its entries that every kept
    answer it narrows has, taken as reached (not copied first)."""
    source = corpus.reviews
    index = SearchIndex()
    for _ in index.prepare(source):
        pass
    answers = index.scan(source, terms("a")).answers
    shorter = "sc"
    index.select(source, terms(shorter))
    for longer in (shorter + char for char in "zqxjvwykbgfpmu"):
        among = answers.answer((shorter,)) & answers.answer((longer[-1],))
        if among != answers.answer((shorter,)):  # narrowed by its last character's answer too
            break
    else:
        pytest.fail("no term typed further is narrowed by a character's answer in this corpus")
    scan = index.scan(source, terms(longer))
    assert scan.candidates == among.bit_count() < len(index.select(source, terms(shorter)))
    while not scan.advance(7):
        found = list(scan.found)
        assert keys(found) == keys(plain(source, longer)[: len(found)])
    assert keys(scan.found) == keys(plain(source, longer))
