"""The pair index (`tui.core.search_pairs`) says exactly which texts hold each
pair, and a search with it answers what the plain scan answers: a term of
two indexed characters from memory, a longer one among the texts holding
its pairs."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reviews import bundled, review
from tests.search_scan import plain_search as plain
from tui.core.model import Review
from tui.core.search import SearchIndex, review_fields, terms
from tui.core.search_pairs import ALPHABET, CHUNK, PAIRS, pairs_of
from tui.core.search_widths import SEP, split

# Indexed characters, their neighbours in Latin-1 and beyond, the separator.
CHARS = list("abz09_ ") + list("-.AÀàÿé\n") + list("调度量") + [SEP, "\u212a", "😀"]
texts_st = st.text(alphabet=st.sampled_from(CHARS), max_size=30)


def held(pairs: dict[str, int], size: int, pair: str) -> list[int]:
    bits = pairs[pair]
    return [n for n in range(size) if bits >> (size - 1 - n) & 1]


def index_of(texts: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for _ in pairs_of(texts, out, piece=3):
        assert not out  # filled once, at the end
    return out


@settings(max_examples=200)
@given(st.lists(texts_st, max_size=12))
def test_each_pair_is_set_for_exactly_the_texts_that_hold_it(texts: list[str]) -> None:
    latins = [split(text.lower())[0] for text in texts]  # as kept: Latin-1 parts (some whole)
    pairs = index_of(latins)
    assert set(pairs) == set(PAIRS)
    for pair in PAIRS:
        assert held(pairs, len(latins), pair) == [n for n, text in enumerate(latins) if pair in text]


def test_pairs_across_blocks_of_texts_are_in_the_lists_order() -> None:
    rng = random.Random(2)
    texts = ["".join(rng.choices(ALPHABET + " 调-", k=rng.randint(0, 12))) for _ in range(2 * CHUNK + 37)]
    pairs = index_of(texts)
    for pair in [*rng.sample(PAIRS, 60), "ab", "__", "z9"]:
        assert held(pairs, len(texts), pair) == [n for n, text in enumerate(texts) if pair in text], pair


def prepared(reviews: list[Review]) -> SearchIndex:
    index = SearchIndex()
    for _ in index.prepare(reviews, piece=8):
        pass
    for _ in index.index_pairs(reviews, piece=8):
        pass
    return index


def typed(query: str) -> list[str]:
    forward = [query[:n] for n in range(1, len(query) + 1)]
    return forward + forward[-2::-1]


def test_a_terms_second_character_is_answered_from_the_index() -> None:
    reviews = list(bundled().reviews)
    index = prepared(reviews)
    for asked in ("kv", "fp", "_m", "8b", "qz"):
        assert index.work(reviews, terms(asked)) == 0, asked  # no text read
        assert index.select(reviews, terms(asked)) == plain(reviews, asked), asked


def test_with_the_index_every_query_typed_and_erased_is_answered_as_the_plain_scan() -> None:
    reviews = list(bundled().reviews)
    texts = ["\n".join(review_fields(r)).lower() for r in reviews]
    rng = random.Random(4)
    queries = ["fused_moe", "kv cache", "fp8量化", "forward_hip", "cuda graph", "pr 1", "a-b", "k"]
    for _ in range(40):
        text = rng.choice(texts)
        start = rng.randrange(len(text))
        queries.append(text[start : start + rng.randint(2, 7)])
    index = prepared(reviews)
    for query in queries:
        if not query.split():
            continue
        for asked in typed(query):
            if rng.random() < 0.5:
                for _ in index.steps(reviews, terms(asked), piece=5):
                    pass
            assert index.select(reviews, terms(asked)) == plain(reviews, asked), asked


@settings(max_examples=60, deadline=None)
@given(st.lists(texts_st, min_size=1, max_size=25), st.data())
def test_random_reviews_with_the_index_answer_as_the_plain_scan(
    titles: list[str], data: st.DataObject
) -> None:
    reviews = [review(title or "x", key=n, summary=title[::-1] or "s") for n, title in enumerate(titles)]
    index = prepared(reviews)
    lowered = [title.lower() for title in titles]
    for _ in range(6):
        text = data.draw(st.sampled_from(lowered))
        start = data.draw(st.integers(0, max(0, len(text) - 1)))
        query = text[start : start + data.draw(st.integers(1, 5))] or data.draw(st.sampled_from(PAIRS))
        if query.split():
            for asked in typed(query):
                assert index.select(reviews, terms(asked)) == plain(reviews, asked), asked


def second_characters(reviews: list[Review]) -> list[str]:
    """Terms of three characters or more whose first two are an indexed pair
    held by several reviews: their third character extends a pair's answer."""
    words = {w for r in reviews for w in "\n".join(review_fields(r)).lower().split() if len(w) >= 4}
    return sorted(w[:5] for w in words if w[0] in ALPHABET and w[1] in ALPHABET)[::7][:25]


def test_a_character_typed_after_a_pair_tests_no_more_than_the_pairs_answer_from_where_it_is() -> None:
    reviews = list(bundled().reviews)
    index = prepared(reviews)
    checked = 0
    for word in second_characters(reviews):
        for _ in index.steps(reviews, terms(word[0])):
            pass
        for _ in index.steps(reviews, terms(word[:2])):  # answered from the pairs
            pass
        for _ in index.place(reviews, terms(word[:2])):  # then placed, after its frame
            pass
        held = len(index.select(reviews, terms(word[:2])))
        for n in range(3, len(word) + 1):
            # Each extended term is tested once a text, where its shorter term
            # begins (work 1 each), among the previous answer's matches only:
            # looked for from each text's start it would weigh 4 a candidate.
            assert index.work(reviews, terms(word[:n])) <= held, word[:n]
            scan = index.scan(reviews, terms(word[:n]))
            assert scan.candidates <= held, word[:n]
            for _ in index.steps(reviews, terms(word[:n])):
                pass
            for _ in index.place(reviews, terms(word[:n])):
                pass
            assert index.select(reviews, terms(word[:n])) == plain(reviews, word[:n])
            held = len(index.select(reviews, terms(word[:n])))
        checked += held > 0
    assert checked >= 5


def test_a_character_typed_while_a_pairs_places_are_found_is_answered_as_the_plain_scan() -> None:
    reviews = list(bundled().reviews)
    index = prepared(reviews)
    rng = random.Random(6)
    for word in second_characters(reviews):
        for asked in typed(word):
            placing = index.place(reviews, terms(asked), piece=3)
            for _ in range(rng.randrange(4)):  # the places found in part: the next key came
                next(placing, None)
            assert index.select(reviews, terms(asked)) == plain(reviews, asked), asked
            scan = index.scan(reviews, terms(asked + "q"))
            scan.advance(rng.randrange(1, 9))  # a scan left running, narrowed by the next key
