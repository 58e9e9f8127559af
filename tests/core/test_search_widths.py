"""A search text kept split by width (`tui.core.search_widths`) finds exactly
what the text in its order finds: for every term (Latin-1, wide, of both
widths, case-folded as `str.lower` does, spanning a boundary of runs), on
random texts, on the bundled digest and on the Chinese corpus, checked
against a plain `in` over the texts."""

from __future__ import annotations

import gc
import os
import random
from array import array
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.reviews import bundled, review
from tests.search_scan import plain_search as plain
from tui.core.model import Item, Review
from tui.core.search import SearchIndex, review_fields, terms
from tui.core.search_widths import BOTH, LATIN, SEP, WIDE, holds, joined, matching, split, width

REPO = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("PRDIGEST_CORPORA") or REPO.parent / "shared" / "corpora")
CORPUS = CORPORA / "wrap_corpus_zh.txt"

# Latin-1 (with its own upper case: "À", "ÿ"), wide, case folding that changes
# width or length ("İ", "ẞ", "Σ", "K" the Kelvin sign lowers to "k"), the separator itself.
CHARS = list("ab c_-8\n`àÀÿ") + list("调度缓存量化，") + ["İ", "ẞ", "Σ", "ς", "\u212a", "😀", SEP, "\u3000"]
texts_st = st.text(alphabet=st.sampled_from(CHARS), max_size=40)


def pieces(text: str) -> list[str]:
    """Terms a query could hold that occur in `text`: its substrings split at whitespace."""
    out = []
    for start in range(len(text)):
        for end in range(start + 1, min(len(text), start + 6) + 1):
            out.extend(text[start:end].split())
    return out


@given(texts_st)
def test_a_text_put_back_from_its_parts_is_itself(text: str) -> None:
    latin, wide = split(text)
    assert joined(latin, wide) == text
    assert latin.isascii() or max(latin, default="\0") <= "\xff" or latin is wide


@settings(max_examples=300)
@given(texts_st, st.data())
def test_a_term_is_held_where_the_text_in_order_holds_it(text: str, data: st.DataObject) -> None:
    lowered = text.lower()
    parts = split(lowered)
    here = pieces(lowered)
    asked = data.draw(st.lists(st.sampled_from(here) if here else st.just("a"), max_size=4))
    asked += data.draw(st.lists(texts_st.map(str.lower), max_size=3))
    for query in asked:
        for term in terms(query):
            assert holds(parts, term) == (term in lowered), (lowered, term)


def test_terms_across_a_boundary_of_widths() -> None:
    """A term of both widths is found where the runs meet, and only there."""
    text = "fp8量化 for kv缓存; 量化fp8"
    parts = split(text)
    assert parts == ("fp8" + SEP + " for kv" + SEP + "; " + SEP + "fp8", "量化" + SEP + "缓存" + SEP + "量化")
    for term in ("fp8量化", "8量", "kv缓存", "量化fp8", "化fp", "化fp8", "v缓"):
        assert holds(parts, term), term
    for term in ("fp8缓存", "kv量化", "8 量", "化f8", "fp8fp8", "量化缓存"):
        assert not holds(parts, term), term
    assert [width(term) for term in ("fp8", "àÿ", "量化", "fp8量化", "i̇")] == [LATIN, LATIN, WIDE, BOTH, BOTH]


@settings(max_examples=150)
@given(st.lists(texts_st.map(str.lower), min_size=1, max_size=12), st.data())
def test_matching_finds_what_in_finds_with_the_places_of_the_term(
    texts: list[str], data: st.DataObject
) -> None:
    here = [term for text in texts for term in pieces(text)] or ["a"]
    rest = tuple(data.draw(st.lists(st.sampled_from(here), min_size=1, max_size=3, unique=True)))
    split_texts = [split(text) for text in texts]
    found = matching(
        rest,
        list(range(len(texts))),
        [latin for latin, _ in split_texts],
        [wide for _, wide in split_texts],
        array("i", range(len(texts))),
        array("i", [0]) * len(texts),
    )
    assert found.reviews == [n for n, text in enumerate(texts) if all(term in text for term in rest)]
    assert list(found.places) == found.reviews
    last = rest[-1]
    for n, latin, wide, start in zip(found.reviews, found.texts, found.wides, found.starts, strict=True):
        assert (latin, wide) == split_texts[n]
        if len(last) > 1:  # a place is kept: where the term first occurs in its width's part
            part = joined(latin, wide) if width(last) == BOTH else (latin, wide)[width(last)]
            assert start == part.find(last) >= 0


def typed(query: str) -> list[str]:
    forward = [query[:n] for n in range(1, len(query) + 1)]
    return forward + forward[-2::-1]


def answers_are_plain(reviews: list[Review], queries: list[str], rng: random.Random) -> None:
    """Every query typed and erased a character at a time (run in pieces or at
    once) is answered as the plain scan answers it."""
    index = SearchIndex()
    for query in queries:
        for asked in typed(query):
            if rng.random() < 0.5:
                for _ in index.steps(reviews, terms(asked), piece=5):
                    pass
            assert index.select(reviews, terms(asked)) == plain(reviews, asked), asked
    for one in reviews[:20]:
        for query in queries:
            assert index.matches(one, terms(query)) == (one in plain([one], query))


def boundary_queries(texts: list[str], rng: random.Random, count: int) -> list[str]:
    """Substrings of `texts` around where Latin-1 meets wide, and within runs."""
    out = []
    for _ in range(count):
        text = rng.choice(texts)
        meets = [n for n in range(1, len(text)) if (text[n - 1] <= "\xff") != (text[n] <= "\xff")]
        at = rng.choice(meets) if meets and rng.random() < 0.6 else rng.randrange(len(text))
        start = max(0, at - rng.randint(0, 4))
        query = text[start : at + rng.randint(1, 4)]
        if query.split():
            out.append(query)
    return out


def test_the_bundled_digest_is_answered_as_the_plain_scan() -> None:
    reviews = list(bundled().reviews)
    texts = ["\n".join(review_fields(r)) for r in reviews]
    rng = random.Random(7)
    queries = [
        "fp8",
        "fp8量化",
        "cuda graph",
        "调度",
        "KV",
        "kv缓存",
        "moe 专家",
        "PR",
        *boundary_queries(texts, rng, 40),
    ]
    answers_are_plain(reviews, queries, rng)


@cache
def zh_paragraphs() -> tuple[str, ...]:
    if not CORPUS.is_file():
        pytest.skip(
            f"the Chinese corpus is not at {CORPUS} (shared/ beside the repository, or PRDIGEST_CORPORA)"
        )
    return tuple(line for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip())


def test_the_chinese_corpus_is_answered_as_the_plain_scan() -> None:
    paragraphs = zh_paragraphs()
    rng = random.Random(3)
    reviews = []
    for key in range(300):
        chosen = rng.sample(paragraphs, 3)
        focus = (Item("focus", chosen[1], refs=(chosen[2][:20],)),)
        reviews.append(review(chosen[0][:60], key=key, summary=chosen[0], focus=focus))
    queries = [
        "llama",
        "LlamaFactory",
        "模型",
        "gpu+cpu",
        "4090级",
        "（中文）",
        *boundary_queries(list(paragraphs), rng, 60),
    ]
    answers_are_plain(reviews, queries, rng)


def test_texts_made_for_a_waiting_scan_are_whole_until_prepare_splits_them() -> None:
    """A scan that makes the texts it reaches keeps them whole (no split in
    the key's wait); `prepare` splits them later, in pieces, while queries go
    on being typed and a scan runs: every answer meanwhile is the plain one."""
    rng = random.Random(11)
    reviews = [
        review(f"t{n} 调度 fp8量化", key=n, summary=rng.choice(["kv缓存 命中", "KV cache", "图捕获，fp8"]))
        for n in range(200)
    ]
    index = SearchIndex()
    assert index.select(reviews, terms("fp8量")) == plain(reviews, "fp8量")
    assert all(index.parts(one)[0] is index.parts(one)[1] for one in reviews)  # whole
    running = index.scan(reviews, terms("kv缓"))
    running.advance(8)
    steps = index.prepare(reviews, piece=4)
    for asked in [*typed("fp8量化"), *typed("kv缓存 命"), *typed("t1 图")]:
        for _ in range(rng.randint(0, 3)):
            next(steps, None)
        assert index.select(reviews, terms(asked)) == plain(reviews, asked), asked
    for _ in steps:
        pass
    running.finish()
    assert list(running.found) == plain(reviews, "kv缓")
    for one in reviews:
        latin, wide = index.parts(one)
        assert latin is not wide and (latin, wide) == split(index.text(one))
    for asked in typed("kv缓存 命中"):
        assert index.select(reviews, terms(asked)) == plain(reviews, asked), asked


def test_prepare_ends_its_work_when_a_scan_began_looking_up_the_texts_first() -> None:
    """A first search made every text and began looking them up in the list's
    order, in pieces, before `prepare` got there: `prepare` still answers the
    first characters ahead and splits the texts (it gave up on both when it
    found that look begun and not yet done), and every answer stays plain."""
    rng = random.Random(5)
    reviews = [
        review(f"t{n} 调度 fp8量化", key=n, summary=rng.choice(["kv缓存 命中", "KV cache", "图捕获，fp8"]))
        for n in range(600)
    ]
    index = SearchIndex()
    running = index.scan(reviews, terms("kv"), first=4)
    while len(index) < len(reviews):
        running.advance(32)  # makes the texts it reaches, then the rest's
    for _ in range(2):
        running.advance(32)  # its look at the texts in order: begun, not done
    assert not running.done
    for _ in index.prepare(reviews, piece=4):
        pass
    assert all(index.work(reviews, (char,)) == 0 for char in SearchIndex.PREPARED)
    for one in reviews:
        latin, wide = index.parts(one)
        assert latin is not wide and (latin, wide) == split(index.text(one))
    running.finish()
    assert list(running.found) == plain(reviews, "kv")
    for asked in [*typed("kv缓存 命中"), *typed("fp8量化"), "t1 图", "调度"]:
        assert index.select(reviews, terms(asked)) == plain(reviews, asked), asked


def test_once_split_no_whole_text_is_kept() -> None:
    """The texts a first search made whole are kept by what it answered (in
    full) and by another list's texts in order; once `prepare` has split
    them, nothing the index keeps holds a whole one (each would stay in
    memory beside its split one), and every answer stays plain."""
    rng = random.Random(7)
    reviews = [
        review(f"t{n} 调度 fp8量化", key=n, summary=rng.choice(["kv缓存 命中", "KV cache", "图捕获，fp8"]))
        for n in range(300)
    ]
    some = reviews[::3]
    index = SearchIndex()
    for asked in ("kv", "kv缓", "调度"):
        assert index.select(reviews, terms(asked)) == plain(reviews, asked)
        assert index.select(some, terms(asked)) == plain(some, asked)
    wholes = [index.parts(one)[0] for one in reviews]
    for one in reviews:
        assert index.parts(one)[1] is index.parts(one)[0]  # whole
    for _ in index.prepare(reviews, piece=4):
        pass
    gc.collect()  # (lists of them left in reference cycles: garbage)
    held = []
    for n in range(0, len(wholes), 15):
        held.extend(ref for ref in gc.get_referrers(wholes[n]) if ref is not wholes)
    assert held == []
    for asked in [*typed("kv缓存 命中"), *typed("调度"), "t1 图"]:
        assert index.select(reviews, terms(asked)) == plain(reviews, asked), asked
        assert index.select(some, terms(asked)) == plain(some, asked), asked
