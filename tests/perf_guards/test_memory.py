"""Memory per review: what the reader keeps for each review it loaded, first
load (parsed by the workers) and warm (from the parse cache), measured with
tracemalloc over loading a generated corpus into the Library. The bound is
about twice today's figure: a change that doubles it fails."""

from __future__ import annotations

import asyncio
import gc
import tracemalloc
from pathlib import Path

import pytest

from tests.bench_corpus import generate
from tui.core.model import Library
from tui.load.cache import ParseCache
from tui.load.first_frame import first_library, first_part, from_cache, parse_in_background

REVIEWS = 3_000
FIRST_LOAD_BYTES = 2_000
WARM_BYTES = 1_500
"""Bytes kept a review, at most: ~1,050 after a first load and ~780 warm today
(Review, key, location, body reference, title, tags; the bodies stay in the
cache's files, ~1,800 B a review more when the reader held them). A change
that doubles either fails."""


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("memory") / "entries"
    generate(folder, REVIEWS, seed=3, per_file=10)
    return folder


def _load(folder: Path, cache: ParseCache) -> Library:
    """As the app loads: the first part, the cache's answers, the rest parsed by the workers."""
    hits, rest, missing = first_part([folder], cache)
    library = first_library(hits, missing)
    cached, misses = from_cache(rest, cache)
    library.apply(cached)
    asyncio.run(parse_in_background(misses, cache, library.apply))
    return library


def _kept_per_review(folder: Path, cache_file: Path) -> float:
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        cache = ParseCache(cache_file)
        library = _load(folder, cache)
        gc.collect()
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(library.reviews) == REVIEWS and not library.all_problems()
    cache.save()
    return kept / REVIEWS


def test_memory_per_review_first_load_and_warm(corpus: Path, tmp_path: Path) -> None:
    cache_file = tmp_path / "cache" / "parse.bin"
    first = _kept_per_review(corpus, cache_file)
    warm = _kept_per_review(corpus, cache_file)
    assert first < FIRST_LOAD_BYTES, first
    assert warm < WARM_BYTES, warm
