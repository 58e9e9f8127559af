"""The garbage collector's time while the key bench's queries are typed at N
reviews, in one process, without Textual: with and without a freeze once the
search's texts are made (`tui.runtime.settled`), every collection timed by
`gc.callbacks` (CPU time).

    python bench/search_gc.py [--corpus DIR] [--root CHECKOUT] [--runs 2]

As the reader runs it: the collector off while the library loads, what was
loaded frozen and the collector on with the runtime's thresholds
(`runtime.loaded`), the texts made (`prepare`), then each query typed a
character at a time and erased, every search finished (`scan` then `finish`
and `answer`, as the key and its worker do), with a frame's worth of cyclic
garbage after each key (3,000 self-referencing dicts: Textual leaves some) and
the runtime's full collection every tenth generation-1 one (in the reader: in a
pause, or after a frame once overdue). The two conditions alternate, each in a
fresh process. Not a test.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def one(corpus: Path, root: Path, freeze: bool) -> None:
    sys.path.insert(0, str(root.resolve()))
    sys.path.insert(1, str(BENCH))
    from key_phases import QUERIES

    from tui.core.search import SearchIndex, terms
    from tui.load.cache import ParseCache
    from tui.load.discover import discover
    from tui.load.library import load_library

    gc.disable()
    tmp = Path(tempfile.gettempdir()) / f"prdigest-search-gc-{root.resolve().name}"
    tmp.mkdir(exist_ok=True)
    paths, _ = discover([corpus])
    cache = ParseCache(tmp / "cache.bin", version_key="search-gc")
    cache.load()
    reviews = load_library(paths, cache).reviews
    gc.freeze()  # runtime.loaded()
    gc.set_threshold(700, 10, 30)
    gc.enable()
    index = SearchIndex()
    for _ in index.prepare(reviews):
        pass
    if freeze:
        gc.freeze()  # runtime.settled()
    times: dict[int, list[float]] = {0: [], 1: [], 2: []}
    began = [0.0]

    def timed(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began[0] = time.process_time()
        else:
            times[info["generation"]].append((time.process_time() - began[0]) * 1000)

    gc.callbacks.append(timed)
    started = time.process_time()
    for query in QUERIES:
        for n in [*range(1, len(query) + 1), *range(len(query) - 1, 0, -1)]:
            wanted = terms(query[:n])
            if wanted:
                scan = index.scan(reviews, wanted)
                scan.finish()
                index.answer(reviews, wanted)
            for _ in range(3000):
                frame: dict[str, object] = {}
                frame["me"] = frame
            if gc.get_count()[2] >= 10:
                gc.collect()
    typing = time.process_time() - started
    gc.callbacks.remove(timed)
    print(f"freeze={freeze} typing CPU {typing * 1000:.0f} ms")
    for generation, values in times.items():
        if values:
            print(
                f"freeze={freeze} gen{generation}: {len(values)} collections, total {sum(values):.0f} ms, "
                f"p50 {statistics.median(values):.2f}, p95 {p95(values):.2f}, max {max(values):.2f} ms"
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=Path("/tmp/c100k"))
    parser.add_argument("--root", type=Path, default=BENCH.parent, help="the checkout whose tui is used")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--one", choices=("freeze", "none"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        one(args.corpus, args.root, args.one == "freeze")
        return 0
    for _ in range(args.runs):
        for condition in ("none", "freeze"):
            command = [sys.executable, __file__, "--corpus", str(args.corpus), "--root", str(args.root)]
            subprocess.run([*command, "--one", condition], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
