"""The library's reading order as ranks (`tui.core.order`) and the filters'
kept answers (`tui.core.filters.Narrowed`), without Textual: every answer the
same as the plain filters', on a generated corpus with random marks; the
library's lists are parts of its reading order, which the ranks rely on."""

from __future__ import annotations

import random
from itertools import product
from pathlib import Path

import pytest

from tests.bench_corpus import generated_library
from tests.reviews import review as made
from tui.core.filters import Filters, Narrowed, has_unchecked, repo_key, select, view_key
from tui.core.model import ALL_TAG, UNREAD_TAG, VERDICTS, Library, Review
from tui.core.order import FEW, LibraryRanks, Ranks, position
from tui.core.search import SearchIndex
from tui.core.views import unmuted


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Library:
    generated = generated_library(tmp_path_factory.mktemp("corpus") / "c", 500, seed=7)
    # And reviews without a checklist (the generated ones all have one), of every verdict.
    extra = [made(f"no checklist {n}", key=900_000 + n, verdict=VERDICTS[n % 4]) for n in range(12)]
    return Library.build({**generated.files, Path("zz/extra.yaml"): extra}, generated.problems)


def _in_order(ranks: Ranks, listed: list[Review]) -> bool:
    positions = [ranks.of[r.key] for r in listed]
    return positions == sorted(positions) and len(set(positions)) == len(positions)


def test_the_library_lists_every_tag_in_its_reading_order(corpus: Library) -> None:
    """What the ranks rely on: a tag's reviews, All, the unmuted, in the library's order."""
    ranks = Ranks(corpus.reviews)
    assert len(corpus.tags) > 3
    for tag in [*corpus.tags, ALL_TAG, UNREAD_TAG]:
        assert _in_order(ranks, corpus.under(tag)), tag
    assert _in_order(ranks, unmuted(corpus.reviews, frozenset(list(corpus.tags)[:2])))


def test_find_is_a_scan(corpus: Library) -> None:
    ranks = Ranks(corpus.reviews)
    for tag in list(corpus.tags)[:5]:
        listed = corpus.under(tag)
        for review in corpus.reviews[::7]:
            wanted = listed.index(review) if review in listed else None
            assert ranks.find(listed, review.key) == wanted
    assert ranks.find(corpus.reviews, "no such review") is None
    assert ranks.find(corpus.reviews, None) is None
    assert ranks.find([], corpus.reviews[0].key) is None


def test_position_with_ranks_or_without_is_a_scan(corpus: Library) -> None:
    ranks = Ranks(corpus.reviews)
    for tag in list(corpus.tags)[:5]:
        listed = corpus.under(tag)
        for review in corpus.reviews[::7]:
            wanted = listed.index(review) if review in listed else None
            assert position(listed, review.key, ranks) == wanted
            assert position(listed, review.key, None) == wanted
    for given in (ranks, None):
        assert position(corpus.reviews, "no such review", given) is None
        assert position(corpus.reviews, None, given) is None


def test_without_and_insert_keep_the_order(corpus: Library) -> None:
    rng = random.Random(3)
    ranks = Ranks(corpus.reviews)
    listed = corpus.under(next(iter(corpus.tags)))
    for many in (0, 1, 2, 5, len(listed) // FEW - 1, len(listed) // FEW + 1, len(listed)):
        keys = {review.key for review in rng.sample(corpus.reviews, min(many, len(corpus.reviews)))}
        keys.add("no such review")
        got = ranks.without(listed, keys)
        assert got == [review for review in listed if review.key not in keys], many
        assert got is not listed
    outside = next(review for review in corpus.reviews if review not in listed)
    got = ranks.insert(listed, outside)
    assert got == [review for review in corpus.reviews if review in listed or review is outside]


def test_library_ranks_are_made_once_per_list(corpus: Library) -> None:
    kept = LibraryRanks()
    assert kept.ready(corpus.reviews) is None  # nothing made until asked for
    ranks = kept.of(corpus.reviews)
    assert kept.of(corpus.reviews) is ranks and kept.ready(corpus.reviews) is ranks
    other = list(corpus.reviews)  # a new list: the library changed
    assert kept.ready(other) is None
    assert kept.of(other) is not ranks


def test_narrowed_reuses_an_answer_for_the_same_list_and_value() -> None:
    narrowed = Narrowed(size=2)
    calls: list[str] = []
    reviews_a: list[Review] = []
    reviews_b: list[Review] = []

    def narrow(tag: str):
        def run(reviews: object) -> list[Review]:
            calls.append(tag)
            return []

        return run

    first = narrowed.get("verdict", reviews_a, "deep", narrow("a deep"))
    assert narrowed.get("verdict", reviews_a, "deep", narrow("a deep")) is first
    assert calls == ["a deep"]
    narrowed.get("verdict", reviews_b, "deep", narrow("b deep"))  # another list (equal, not the same)
    narrowed.get("verdict", reviews_a, "skim", narrow("a skim"))  # pushes "a deep" out: size 2
    narrowed.get("verdict", reviews_a, "deep", narrow("a deep"))
    assert calls == ["a deep", "b deep", "a skim", "a deep"]
    assert len(narrowed) == 2
    narrowed.clear()
    assert len(narrowed) == 0


def _marks(corpus: Library, seed: int) -> tuple[set[str], dict[str, frozenset[str]]]:
    rng = random.Random(seed)
    read = {review.key for review in rng.sample(corpus.reviews, seed * 7 % 60)}
    checks: dict[str, frozenset[str]] = {}
    for review in rng.sample([r for r in corpus.reviews if r.checks], 40):
        items = [item.key for item in review.checklist]
        checks[review.key] = frozenset(rng.sample(items, rng.randint(0, len(items))))
    return read, checks


@pytest.mark.parametrize("seed", [1, 2, 3, 9])
def test_select_with_ranks_and_kept_answers_is_the_plain_select(corpus: Library, seed: int) -> None:
    """Every combination of the filters no mark changes and those marks change,
    with the open review kept (with or without a checklist) or not, asked twice
    (the second time from the kept answers): the same reviews as without ranks."""
    read, checks = _marks(corpus, seed)
    ranks = Ranks(corpus.reviews)
    narrowed = Narrowed()
    index = SearchIndex()
    repo = corpus.reviews[0].repo
    no_checklist = next(review for review in corpus.reviews if not review.checks)
    with_checklist = next(key for key, done in checks.items() if len(done) == corpus.by_key[key].checks)
    tag = next(iter(corpus.tags))

    def checked(review: Review) -> frozenset[str]:
        return checks.get(review.key, frozenset())

    marked = {key: corpus.by_key[key] for key in checks}
    sources = {tag: corpus.under(tag), ALL_TAG: corpus.reviews}
    sets = [Filters(), Filters(tag=repo_key(repo), repos=frozenset({repo}))]
    sets.append(Filters(tag=view_key("v"), tags=frozenset({tag}), verdicts=frozenset(VERDICTS[:2])))
    for (name, source), base, verdict, unread, unchecked, keep in product(
        sources.items(),
        sets,
        (None, *VERDICTS),
        (False, True),
        (False, True),
        (None, no_checklist.key, with_checklist, next(iter(read), None)),
    ):
        filters = base._replace(verdict=verdict, unread=unread, unchecked=unchecked)
        if base.tag == ALL_TAG:
            filters = filters._replace(tag=name)
        plain = [
            review
            for review in source
            if (verdict is None or review.verdict == verdict)
            and (not base.tags or not base.tags.isdisjoint(review.tags))
            and (not base.verdicts or review.verdict in base.verdicts)
            and (not base.repos or review.repo in base.repos)
            and (not unread or review.key == keep or review.key not in read)
            and (not unchecked or review.key == keep or has_unchecked(review, checked(review)))
        ]
        marks = {
            "is_read": read.__contains__,
            "read_keys": read,
            "marked": marked,
            "checked": checked,
            "index": index,
            "keep": keep,
        }
        for _ in range(2):
            got = select(source, filters, **marks, ranks=ranks, kept=narrowed)
            assert got == plain, (name, filters, keep)
            assert select(source, filters, **marks) == plain
