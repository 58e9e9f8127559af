"""The floor under a search's count at N reviews: what the fastest test CPython
has costs for each key of the key bench's search phase (`key_phases.QUERIES`,
typed a character at a time), with no Textual and no bookkeeping, and what an
exact pair index would hold.

    python bench/search_floor.py --corpus DIR [--rest-ms MS] [--pairs]

Per typed query, wall ms, best of 3 (the machine's other work kept out):
- whole: its last term tested in every review's text of its width
  (`bytes(map(operator.contains, texts, repeat(term)))`, the C loop the reader's
  scan is made of: no Python code a review);
- confirm: the same test of only the reviews that match (an oracle's candidates).
  Any index that is not exact for the term (pairs, trigrams, a Bloom filter)
  leaves at least these texts to read before the count is known, so this is
  the floor of every such design. An exact one for any term is a suffix
  array or automaton over the texts: 4 bytes or more a character.
- from places: a term typed further (`sche` after `sch`), looked for where the
  shorter one first occurs in each of its matches, as the reader's scan does
  (`str.startswith` there, `str.find` on from there where that fails), in C
  loops: the floor of the way the reader narrows (blank for a term's first
  character).
A key whose terms are the key before's (`kv ` after `kv`) is answered from
memory and not timed. Then the best case any index could make of it: keys
whose terms are one or two characters long answered free (exact character and
pair indexes), longer terms at the smaller of confirm and from places, plus
`--rest-ms` for listing the answer and drawing its frame (a backspace's whole
frame at 100,000: 5-9 ms); how many keys that leaves over one frame, and the
p95 over every key (nearest rank, as the key bench's).

`--pairs` also counts the distinct character pairs of the texts (both widths)
and what an exact pair index would hold: as bitsets over the reviews (what the
reader's answers are), and as postings (`array("I")`, 4 bytes a review a pair).
Not a test.
"""

from __future__ import annotations

import argparse
import gc
import operator
import statistics
import sys
import tempfile
import time
from itertools import compress, repeat
from pathlib import Path

BENCH = Path(__file__).resolve().parent
FRAME_MS = 16.0


def best_of(runs: int, test) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        test()
        best = min(best, time.perf_counter() - started)
    return best * 1000


def from_places(texts: list[str], places: list[int], term: str) -> int:
    """How many of `texts` hold `term`, looked for from `places` on (where a
    term it begins with first occurs in each)."""
    held = bytes(map(str.startswith, texts, repeat(term), places))
    missed = list(map(operator.not_, held))
    after = map(operator.add, compress(places, missed), repeat(1))
    found = map(str.find, compress(texts, missed), repeat(term), after)
    return held.count(1) + sum(map(operator.ge, found, repeat(0)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True, help="a corpus folder (bench/make_corpus.py)")
    parser.add_argument("--pairs", action="store_true", help="count what an exact pair index holds")
    parser.add_argument(
        "--rest-ms",
        type=float,
        default=4.0,
        help="ms the best case leaves for listing and drawing (default 4)",
    )
    args = parser.parse_args()
    sys.path[:0] = [str(BENCH.parent), str(BENCH)]
    from key_phases import QUERIES
    from startup import percentile

    from tui.core.search import SearchIndex
    from tui.core.search_widths import split
    from tui.load.cache import ParseCache
    from tui.load.discover import discover
    from tui.load.library import load_library

    tmp = Path(tempfile.mkdtemp(prefix="prdigest-floor-"))
    paths, _ = discover([args.corpus])
    for _ in range(2):  # the first fills the parse cache
        cache = ParseCache(tmp / "cache.bin", version_key="search-floor")
        cache.load()
        library = load_library(paths, cache)
    index = SearchIndex()
    texts = [index.text(review) for review in library.reviews]
    del index
    latin, wide = [], []
    for text in texts:
        one, other = split(text)
        latin.append(one)
        wide.append(other)
    gc.collect()
    gc.disable()
    print(
        f"{len(texts):,} reviews; {sum(map(len, latin)) / 1e6:.1f} M Latin-1 characters, "
        f"{sum(map(len, wide)) / 1e6:.1f} M wide (the reader's two parts)"
    )
    print(f"{'typed':18} {'whole ms':>9} {'confirm ms':>11} {'from places ms':>15} {'matches':>9}")
    wholes, confirms, placed, best = [], [], [], []
    for query in QUERIES:
        shorter: tuple[str, list[str], list[int]] | None = None  # a term, its matches, its places
        for n in range(1, len(query) + 1):
            typed = query[:n]
            if n > 1 and typed.split() == query[: n - 1].split():
                print(f"{typed!r:18} {'(the same terms as the key before: from memory)':>47}")
                best.append((typed, 0.0))
                continue
            term = typed.split()[-1]
            part = latin if term.isascii() else wide
            flags = bytes(map(operator.contains, part, repeat(term)))
            matched = list(compress(part, flags))
            whole = best_of(3, lambda part=part, term=term: bytes(map(operator.contains, part, repeat(term))))
            confirm = best_of(
                3, lambda matched=matched, term=term: bytes(map(operator.contains, matched, repeat(term)))
            )
            wholes.append(whole)
            confirms.append(confirm)
            extended = ""
            core = confirm
            if shorter is not None and term.startswith(shorter[0]) and term != shorter[0]:
                texts_of, places = shorter[1], shorter[2]
                assert from_places(texts_of, places, term) == len(matched), typed
                ms = best_of(3, lambda t=texts_of, p=places, term=term: from_places(t, p, term))
                placed.append(ms)
                extended = f"{ms:.1f}"
                core = min(core, ms)
            best.append((typed, 0.0 if len(term) <= 2 else core))
            print(f"{typed!r:18} {whole:9.1f} {confirm:11.1f} {extended:>15} {len(matched):9,}")
            shorter = (term, matched, list(map(str.find, matched, repeat(term))))
    for name, values in (("whole", wholes), ("confirm", confirms), ("from places", placed)):
        over = sum(value > FRAME_MS for value in values)
        print(
            f"{name}: {len(values)} keys timed, p50 {statistics.median(values):.1f} ms, "
            f"p95 {percentile(values, 95):.1f} ms, {over} over {FRAME_MS:.0f} ms"
        )
    frames = [core + args.rest_ms for _, core in best]
    late = [(typed, round(core, 1)) for typed, core in best if core + args.rest_ms > FRAME_MS]
    print(
        f"best case ({args.rest_ms:g} ms to list and draw): {len(late)} of {len(best)} keys over "
        f"{FRAME_MS:.0f} ms, p95 {percentile(frames, 95):.1f} ms; core ms of those: {late}"
    )
    if args.pairs:
        gc.enable()
        started = time.process_time()
        counts: dict[str, int] = {}
        for text in texts:
            for pair in {text[at : at + 2] for at in range(len(text) - 1)}:
                counts[pair] = counts.get(pair, 0) + 1
        took = time.process_time() - started
        postings = sum(counts.values())
        bitsets = len(counts) * ((len(texts) + 7) // 8)
        print(
            f"pairs: {len(counts):,} distinct, {postings / 1e6:.1f} M (pair, review) postings; "
            f"as bitsets {bitsets / 1e6:.0f} MB, as 4-byte postings {postings * 4 / 1e6:.0f} MB "
            f"(counted in {took:.0f} s CPU)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
