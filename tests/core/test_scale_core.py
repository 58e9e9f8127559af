"""Core paths that stay off O(N) per key at 100,000 reviews give the answers
a plain pass would: the search's memory of recent answers, the verdict run,
the unread pass, a search leaving bodies packed. (The checklist size a packed
review knows is checked where it is made: tests/load/test_cache_checks.py.)"""

from __future__ import annotations

import random
from pathlib import Path

from tui.core.filters import Filters, select
from tui.core.model import Item, Library, Location, Review
from tui.core.search import SearchIndex, terms

WORDS = ("调度", "scheduler", "缓存", "kv-cache", "注意力", "moe", "fp8", "测试")


def _library(tmp_path: Path, count: int = 400) -> Library:
    rng = random.Random(5)
    files: dict[Path, list[Review]] = {}
    for n in range(count):
        path = tmp_path / f"r{n // 10:03}.yaml"
        text = " ".join(rng.sample(WORDS, 3))
        focus = tuple(Item("focus", f"{rng.choice(WORDS)} {k}") for k in range(rng.randrange(0, 3)))
        review = Review(
            f"title {n} {rng.choice(WORDS)}", "o/r", rng.choice(("deep", "quick", "skim", "skip")), text,
            (rng.choice(("a", "b")),), Location(path, n + 1, 1), pr=n + 1, focus=focus,
        )  # fmt: skip
        packed = Review.packed(
            review.title, review.repo, review.verdict, review.tags, review.location, review.pr,
            review.blob, review.checks,
        )  # fmt: skip
        files.setdefault(path, []).append(packed)
    return Library.build(files)


def _plain(reviews: list[Review], filters: Filters, read: set[str], index: SearchIndex) -> list[Review]:
    query = filters.terms
    return [
        r
        for r in reviews
        if (filters.verdict is None or r.verdict == filters.verdict)
        and (not filters.unread or r.key not in read)
        and (not query or all(t in index.text(r) for t in query))
        and (not filters.unchecked or len(r.checklist) > 0)
    ]


def test_filters_and_search_as_typed_answer_as_one_plain_pass(tmp_path: Path) -> None:
    library = _library(tmp_path)
    read = {r.key for r in library.reviews[::7]}
    index, plain_index = SearchIndex(), SearchIndex()
    typed = [
        "s",
        "sc",
        "sche",
        "scheduler",
        "scheduler 调",
        "scheduler 调度",
        "scheduler 调",
        "sche",
        "",
        "f",
        "fp8",
    ]
    for query in typed:
        for verdict in (None, "deep", "skip"):
            for unread in (False, True):
                for tag in ("a", "b"):
                    filters = Filters(
                        tag=tag, verdict=verdict, unread=unread, unchecked=verdict == "skip", query=query
                    )
                    got = select(
                        library.under(tag), filters, is_read=read.__contains__, checked=lambda r: frozenset(),
                        index=index, read_keys=read,
                    )  # fmt: skip
                    assert got == _plain(library.under(tag), filters, read, plain_index), (
                        query,
                        verdict,
                        unread,
                    )


def test_a_search_leaves_packed_bodies_packed(tmp_path: Path) -> None:
    library = _library(tmp_path, 50)
    index = SearchIndex()
    assert index.select(library.reviews, terms("title"))
    assert all(r._body is None for r in library.reviews)


def test_text_without_backticks_is_what_code_spans_show() -> None:
    from hypothesis import given
    from hypothesis import strategies as st

    from tui.core.text import code_spans, without_backticks

    @given(st.text(alphabet="`ab \n\\1调", max_size=30))
    def check(text: str) -> None:
        assert without_backticks(text) == "".join(run for run, _ in code_spans(text))

    check()
