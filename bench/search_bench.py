"""Search as you type in one process, without Textual: CPU time a key of the
key bench's search phase (`key_phases.QUERIES`, typed a character at a time
and erased again) costs `SearchIndex` at N reviews, and what it keeps.

    python bench/search_bench.py [--corpus DIR | --reviews 100000] [--root CHECKOUT]

`--root`: the checkout whose `tui` is measured (default: this one), so the
same script measures an older one (`--root /work/main`). The corpus is loaded
from a parse cache filled by a first, untimed load (in a temporary folder).
Then, each timed on its own: the texts made (`prepare` where the checkout has
it, else what the first search makes), every key's search (`steps` to the end,
then `select`, as the reader does), and tracemalloc of what the index keeps
(a second pass, traced). Where the checkout scans in pieces (`SearchIndex.scan`),
also what a key costs until the list's first page (`PAGE` matches, or the
answer if smaller) is found, as the reader's key does before its frame. Not a
test; CPU time, so a busy machine matters less.
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

BENCH = Path(__file__).resolve().parent
PAGE = 20
"""Rows of the review list's page at 120 x 40 (two lines a review)."""
PIECE = 512
"""Candidates a piece tests (`tui.ui.search_keys.SCAN_PIECE`)."""


def typed(query: str) -> tuple[list[str], list[str]]:
    forward = [query[:n] for n in range(1, len(query) + 1)]
    return forward, [*forward[-2::-1], ""]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, help="an existing corpus folder (read only)")
    parser.add_argument("--reviews", type=int, default=100_000, help="else one written with make_corpus")
    parser.add_argument("--root", type=Path, default=BENCH.parent, help="the checkout to measure")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    sys.path.insert(1, str(BENCH))
    from key_phases import QUERIES

    from tui.core.search import SearchIndex, terms
    from tui.load.cache import ParseCache
    from tui.load.discover import discover
    from tui.load.library import load_library

    tmp = Path(tempfile.mkdtemp(prefix="prdigest-search-"))
    corpus = args.corpus
    if corpus is None:
        from make_corpus import generate

        corpus = tmp / "corpus"
        generate(corpus, args.reviews, seed=0)
    paths, _ = discover([corpus])
    for _ in range(2):  # the first fills the parse cache
        cache = ParseCache(tmp / "cache.bin", version_key="search-bench")
        cache.load()
        library = load_library(paths, cache)
    reviews = library.reviews
    gc.collect()
    gc.disable()

    first_rows_ms: list[float] = []

    def run(index: SearchIndex) -> tuple[float, list[float], list[float], float]:
        started = time.process_time()
        if hasattr(index, "prepare"):
            for _ in index.prepare(reviews):
                pass
        else:
            index.select(reviews, terms("\x00"))  # the first search: every text made
        made = time.process_time() - started
        forward_ms, back_ms = [], []
        first_ms = 0.0
        for query in QUERIES:
            forward, back = typed(query)
            for asked, out in [(q, forward_ms) for q in forward] + [(q, back_ms) for q in back]:
                wanted = terms(asked)
                started = time.process_time()
                if hasattr(index, "scan") and wanted and out is forward_ms:
                    scan = index.scan(reviews, wanted)
                    while not scan.done and len(scan.found) < PAGE:
                        scan.advance(PIECE)
                    first_rows_ms.append((time.process_time() - started) * 1000)
                for _ in index.steps(reviews, wanted):
                    pass
                index.select(reviews, wanted)
                out.append((time.process_time() - started) * 1000)
            first_ms = first_ms or forward_ms[0]
        return made, forward_ms, back_ms, first_ms

    made, forward_ms, back_ms, _ = run(SearchIndex())
    first_rows = list(first_rows_ms)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    index = SearchIndex()
    run(index)
    gc.collect()
    kept, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"{args.root}: {len(reviews):,} reviews")
    print(f"texts made (prepare, or the first search): {made:.2f} s CPU")
    for name, values in (("a character typed", forward_ms), ("backspace", back_ms)):
        print(
            f"{name}: {len(values)} keys, CPU p50 {statistics.median(values):.1f} ms, "
            f"p95 {p95(values):.1f} ms, max {max(values):.1f} ms, total {sum(values):.0f} ms"
        )
    if first_rows:
        print(
            f"a character typed, until its first {PAGE} rows: CPU p50 {statistics.median(first_rows):.1f} ms, "
            f"p95 {p95(first_rows):.1f} ms, max {max(first_rows):.1f} ms"
        )
    print(
        f"kept by the index after the queries (tracemalloc): {(kept - base) / 1e6:.1f} MB, "
        f"traced peak {(peak - base) / 1e6:.1f} MB; process peak RSS (untraced pass) {rss:.0f} MB"
    )
    del index
    return 0


if __name__ == "__main__":
    sys.exit(main())
