"""The search's memory of answers (bitsets over a list's order): every answer,
from memory, narrowed or tested, is the plain scan's, on random corpora of
Latin, Chinese and case-folding text; what is remembered is answered without
a test."""

from __future__ import annotations

import bisect
import random

import pytest

from tests.reviews import review
from tests.search_scan import plain_search as plain
from tui.core.model import Item, Review
from tui.core.search import SearchIndex, review_fields, terms
from tui.core.search_memory import ListAnswers, Picked, bits_at, bits_of, flags_of

ALPHABET = list("abcdefghkmnopst_.()") + list("调度器缓存命中率图捕获量化") + ["İ", "ß", "Σ", "ς", "K", "`"]


def words(rng: random.Random, n: int) -> str:
    return " ".join("".join(rng.choices(ALPHABET, k=rng.randint(1, 5))) for _ in range(n))


def corpus(seed: int, size: int) -> list[Review]:
    rng = random.Random(seed)
    out = []
    for key in range(size):
        focus = tuple(Item("focus", words(rng, 3), refs=(words(rng, 1),)) for _ in range(rng.randint(0, 2)))
        note = words(rng, 2) if rng.random() < 0.5 else None
        out.append(review(words(rng, 2), key=key, summary=words(rng, 4), focus=focus, verdict_note=note))
    return out


def typed(query: str) -> list[str]:
    """The queries a user asks typing `query` and erasing it again."""
    forward = [query[:n] for n in range(1, len(query) + 1)]
    return forward + forward[-2::-1]


@pytest.mark.parametrize("seed", range(6))
def test_every_answer_is_the_plain_scans_on_a_random_corpus(seed: int) -> None:
    rng = random.Random(seed)
    reviews = corpus(seed, 300)
    index = SearchIndex()
    for _ in range(12):
        text = "\n".join(review_fields(rng.choice(reviews))).lower().split("\n")
        line = rng.choice(text)
        start = rng.randrange(len(line))
        query = line[start : start + rng.randint(1, 8)]  # from a text: most have answers
        if rng.random() < 0.3:
            query += " " + words(rng, 1)  # a second term
        for asked in typed(query):
            if rng.random() < 0.5:
                for _ in index.steps(reviews, terms(asked), piece=7):
                    pass
            assert index.select(reviews, terms(asked)) == plain(reviews, asked), asked
            assert list(index.answer(reviews, terms(asked))) == plain(reviews, asked), asked


def test_terms_do_not_match_across_fields() -> None:
    one = review("alpha", summary="beta")
    index = SearchIndex()
    for query in ("ab", "alphabeta", "habe"):
        assert index.select([one], terms(query)) == plain([one], query) == [], query
    assert index.select([one], terms("alpha beta")) == [one]


def test_case_folding_as_lower_does_it() -> None:
    """ "İ" lowers to "i" and a combining dot: "istanbul" is not in "İstanbul"
    lowered, "i̇stanbul" is; "ß" and "Σ" as `str.lower` has them."""
    reviews = [review("İstanbul", key=1), review("STRASSE straße", key=2), review("ΣΟΦΟΣ", key=3)]
    index = SearchIndex()
    for query in ("İ", "i̇stan", "istanbul", "İSTANBUL", "straße", "STRASSE", "ß", "σοφοσ", "ΣΟΦΟΣ", "σ"):
        assert index.select(reviews, terms(query)) == plain(reviews, query), query
    assert index.select(reviews, terms("istanbul")) == []
    assert index.select(reviews, terms("İSTANBUL")) == [reviews[0]]


def test_a_query_typed_and_erased_is_answered_from_memory_on_the_way_back() -> None:
    reviews = corpus(1, 200)
    index = SearchIndex()
    query = "pin_memory caché"
    for asked in typed(query)[: len(query)]:
        index.select(reviews, terms(asked))
    for asked in typed(query)[len(query) :]:  # every backspace, down to one character
        assert index.work(reviews, terms(asked)) == 0, asked


def test_a_query_narrowing_two_kept_answers_tests_only_where_both_matched() -> None:
    reviews = corpus(2, 300)
    index = SearchIndex()
    a, b = index.select(reviews, terms("a")), index.select(reviews, terms("调"))
    both = [r for r in a if r in b]
    assert len(both) < min(len(a), len(b))
    assert index.work(reviews, terms("a 调")) == 0  # both terms tested already: the AND is the answer
    assert index.select(reviews, terms("a 调")) == both == plain(reviews, "a 调")
    # Only "ab", only where both matched; looked for from each text's start: 4 a test.
    assert index.work(reviews, terms("ab 调")) == 4 * len(both)
    assert index.select(reviews, terms("ab 调")) == plain(reviews, "ab 调")


def test_a_term_typed_further_is_looked_for_where_the_shorter_began() -> None:
    reviews = [review(f"x{n} ab{'c' if n % 3 else 'x'} ab{n % 2}", key=n) for n in range(60)]
    index = SearchIndex()
    found = index.select(reviews, terms("ab"))
    assert len(found) == 60
    assert index.work(reviews, terms("abc")) == len(found)  # one look a text: at "ab"
    assert index.select(reviews, terms("abc")) == plain(reviews, "abc")
    assert index.select(reviews, terms("ab1")) == plain(reviews, "ab1")  # after the first "ab"
    assert index.select(reviews, terms("abx ab0")) == plain(reviews, "abx ab0")


def test_answers_are_per_list_and_a_new_list_starts_afresh() -> None:
    reviews = corpus(3, 100)
    index = SearchIndex()
    index.select(reviews, terms("a"))
    assert index.work(reviews, terms("a")) == 0
    assert index.work(list(reviews), terms("a")) == len(reviews)  # another list object
    index.retain(reviews)  # a reload: answers are dropped with it
    assert index.work(reviews, terms("a")) == len(reviews)


def test_bitsets_spell_the_list_in_order() -> None:
    rng = random.Random(5)
    for size in (0, 1, 7, 8, 9, 1000):
        flags = bytes(rng.choice((0, 1)) for _ in range(size))
        bits = bits_of(flags)
        assert flags_of(bits, size) == flags
        assert bits_at([n for n in range(size) if flags[n]], size) == bits
    answers = ListAnswers(list("abcdef"))
    assert answers.items(bits_of(bytes([1, 0, 0, 1, 1, 0]))) == ["a", "d", "e"]
    assert answers.items(answers.every) == list("abcdef")
    assert answers.positions(bits_of(bytes([0, 1, 0, 0, 0, 1]))) == [1, 5]


def test_prepare_makes_every_text_and_the_first_search_makes_none() -> None:
    reviews = corpus(4, 150)
    index = SearchIndex()
    pieces = sum(1 for _ in index.prepare(reviews, piece=16))
    assert pieces > 1 and len(index) == len(reviews)
    assert index.work(reviews, terms("调")) == len(reviews)  # tests only: no text left to make
    assert index.select(reviews, terms("调")) == plain(reviews, "调")
    assert index.work(reviews, terms("a")) == 0  # a first character of code words: answered ahead
    assert index.select(reviews, terms("a")) == plain(reviews, "a")


@pytest.mark.parametrize("size", [0, 1, 1023, 1024, 1025, 5000])
def test_picked_reads_as_the_list_of_its_items(size: int) -> None:
    """`Picked` (an answer listed without a list of it) is, item by item and
    slice by slice, the list `compress` makes; the review list bisects it."""
    rng = random.Random(size)
    source = [f"r{n:05d}" for n in range(size)]
    for density in (0.0, 0.01, 0.5, 1.0):
        flags = bytes(rng.random() < density for _ in range(size))
        wanted = [item for item, flag in zip(source, flags, strict=True) if flag]
        picked = Picked(source, flags)
        assert len(picked) == len(wanted) and list(picked) == wanted
        for at in [*rng.sample(range(len(wanted)), min(50, len(wanted))), 0, -1, len(wanted) - 1]:
            if wanted:
                assert picked[at] == wanted[at]
        for bad in (len(wanted), -len(wanted) - 1):
            with pytest.raises(IndexError):
                picked[bad]
        for _ in range(20):
            start, stop = sorted(rng.randrange(-3, len(wanted) + 3) for _ in range(2))
            step = rng.choice((1, 1, 2, -1))
            assert picked[start:stop:step] == wanted[start:stop:step]
        if wanted:
            probe = rng.choice(wanted)
            assert bisect.bisect_left(picked, probe) == wanted.index(probe)  # as `Ranks.find` does


def test_an_answer_from_bitsets_is_a_view_of_the_list_and_the_plain_scans() -> None:
    reviews = corpus(7, 400)
    index = SearchIndex()
    for _ in index.prepare(reviews, piece=16):  # one-character answers kept as bitsets
        pass
    for query in ("a", "t", "ab", "调", "zz", "a b"):
        answer = index.answer(reviews, terms(query))
        assert list(answer) == plain(reviews, query) == index.select(reviews, terms(query)), query
        assert [answer[n] for n in range(len(answer))] == plain(reviews, query), query
    assert isinstance(index.answer(reviews, terms("t")), Picked)  # no list of it made
