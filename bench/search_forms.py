"""Forms of the search's texts at N reviews, in one process: what each holds in
memory and what looking for a term missing from many texts costs in it (the
cost of a term's second character, `sc` after `s`: every text that lacks it
is read to its end). CPU time, best of 3.

    python bench/search_forms.py [--corpus DIR]

Forms: the index's texts (`str`, one a review: UCS-2 here, every review has
Chinese); the same as UTF-8 `bytes`; one text joined per chunk of 4,096
reviews, looked for with `str.find` from match to match and each match's review
found by bisect (no call a review); and the texts split by width, a review's
Latin-1 runs (UCS-1) apart from its wider ones, each term looked for in its
width's part only (a term holds no whitespace, so it lies within a run of one
width; a term of both widths would need the text in its order too). Not a
test.
"""

from __future__ import annotations

import argparse
import bisect
import gc
import re
import sys
import tempfile
import time
from collections.abc import Callable
from itertools import repeat
from pathlib import Path

BENCH = Path(__file__).resolve().parent
TERMS = ("sc", "fu", "pi", "调度", "缓存")
CHUNK = 4096


def best_ms(work: Callable[[], object]) -> float:
    times = []
    for _ in range(3):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return min(times) * 1000


def joined_finds(chunks: list[tuple[str, list[int]]], term: str) -> list[int]:
    """The reviews (by number) whose text holds `term`, from one joined text a chunk."""
    found: list[int] = []
    base = 0
    for text, starts in chunks:
        at = text.find(term)
        while at >= 0:
            row = bisect.bisect_right(starts, at) - 1
            found.append(base + row)
            nxt = starts[row + 1] if row + 1 < len(starts) else len(text)
            at = text.find(term, nxt)
        base += len(starts)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("/tmp/c100k"))
    args = parser.parse_args()
    sys.path.insert(0, str(BENCH.parent))
    from tui.core.search import SearchIndex
    from tui.load.cache import ParseCache
    from tui.load.discover import discover
    from tui.load.library import load_library

    gc.disable()
    tmp = Path(tempfile.gettempdir()) / "prdigest-search-forms"
    tmp.mkdir(exist_ok=True)
    paths, _ = discover([args.corpus])
    cache = ParseCache(tmp / "cache.bin", version_key="search-forms")
    cache.load()
    reviews = load_library(paths, cache).reviews
    index = SearchIndex()
    texts = [index.text(review) for review in reviews]
    encoded = [text.encode() for text in texts]
    chunks = []
    for start in range(0, len(texts), CHUNK):
        part = texts[start : start + CHUNK]
        offsets, at = [], 0
        for text in part:
            offsets.append(at)
            at += len(text) + 1
        chunks.append(("\x00".join(part), offsets))
    wide_run = re.compile("[^\x00-\xff]+")
    latin_run = re.compile("[\x00-\xff]+")
    latin = ["\n".join(latin_run.findall(text)) for text in texts]
    wide = ["\n".join(wide_run.findall(text)) for text in texts]

    def megabytes(values: list) -> float:
        return sum(map(sys.getsizeof, values)) / 1e6

    print(f"{len(texts):,} reviews, {sum(map(len, texts)) / 1e6:.1f} M characters")
    print(
        f"str: {megabytes(texts):.1f} MB; UTF-8 bytes: {megabytes(encoded):.1f} MB; joined: "
        f"{sum(sys.getsizeof(text) for text, _ in chunks) / 1e6:.1f} MB; by width: Latin-1 "
        f"{megabytes(latin):.1f} MB ({sum(map(len, latin)) / 1e6:.1f} M chars) + wide {megabytes(wide):.1f} MB"
    )
    print("term | reviews with it | str.find a text | UTF-8 bytes.find | joined, bisect | its width's part")
    for term in TERMS:
        plain = [n for n, place in enumerate(map(str.find, texts, repeat(term))) if place >= 0]
        assert joined_finds(chunks, term) == plain
        part = latin if term.isascii() else wide
        assert [n for n, place in enumerate(map(str.find, part, repeat(term))) if place >= 0] == plain
        print(
            f"{term} | {len(plain):,} | {best_ms(lambda term=term: list(map(str.find, texts, repeat(term)))):.1f} ms"
            f" | {best_ms(lambda term=term: list(map(bytes.find, encoded, repeat(term.encode())))):.1f} ms"
            f" | {best_ms(lambda term=term: joined_finds(chunks, term)):.1f} ms"
            f" | {best_ms(lambda term=term, part=part: list(map(str.find, part, repeat(term)))):.1f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
