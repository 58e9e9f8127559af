"""The save thread's work when a warm start's parse-cache save rewrites the
main file (one file parsed again), at 100,000 reviews: the cache's save
(which now notes where each file's bodies went), then the table pointed
there (`save_library_table(..., placed)`); next to what it was: the refusal
then, and on the next start the table saved from the cache as it was.

    python bench/table_placed.py CORPUS_COPY --work DIR [--rounds 3]

CORPUS_COPY has one file edited each round (a copy of `/tmp/c100k`). CPU is
`time.thread_time` of the thread that does the work (the save thread's);
the loop's share is the snapshot (`dict(library.files)`, as `Loads.save_cache`
takes it). The placement notes' own cost: `saved_records` into /dev/null,
with and without them, on the same entries. Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _timed(work, *args):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.thread_time()
    answer = work(*args)
    return answer, (time.perf_counter() - wall) * 1000, (time.thread_time() - cpu) * 1000


def _snapshot(library):  # type: ignore[no-untyped-def]
    return dict(library.files), dict(library.problems)


def main(argv: list[str] | None = None) -> int:
    from tui import __version__
    from tui.load.cache import ParseCache
    from tui.load.cache_format import Placed, saved_records
    from tui.load.first_frame import first_library, first_part, from_cache, parse_now
    from tui.load.library import load_library
    from tui.load.table_file import from_saved, save_library_table, table_path

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    cache_path = args.work / "parse-cache"

    def cache() -> ParseCache:
        return ParseCache(cache_path, version_key=__version__)

    def unsaved(c: ParseCache):  # type: ignore[no-untyped-def]
        hits, later, missing = first_part([args.corpus], c)
        more, misses = from_cache(later, c)
        hits.update(more)
        hits.update(parse_now(misses, c))
        return first_library(hits, missing)

    if not cache_path.exists():
        load_library([args.corpus], cache())  # parses (slow, once), then saves the cache
    files = sorted(args.corpus.rglob("*.yaml"))
    rows: dict[str, list[float]] = {}

    def note(name: str, value: float) -> None:
        rows.setdefault(name, []).append(value)

    for n in range(args.rounds):
        path = files[n * 7]
        path.write_text(path.read_text(encoding="utf-8").replace("title: ", "title: E ", 1), encoding="utf-8")
        c = cache()
        library = unsaved(c)
        snapshot, wall, cpu = _timed(_snapshot, library)
        note("loop: the snapshot (CPU ms)", cpu)
        entries = list(c._fresh.items())
        for label, placed in (("without", None), ("with", Placed())):
            with open("/dev/null", "wb") as sink:
                _, wall, cpu = _timed(sink.writelines, saved_records(entries, __version__, set(), 0, placed))
            note(f"saved_records {label} the placement notes (CPU ms)", cpu)
        table_path(cache_path).unlink(missing_ok=True)
        placed, wall, cpu = _timed(c.save)
        note("thread: cache save, main file rewritten (wall ms)", wall)
        note("thread: cache save, main file rewritten (CPU ms)", cpu)
        refused, wall, cpu = _timed(save_library_table, *snapshot, c, [args.corpus])
        assert not refused
        note("thread: table, as before: refused (CPU ms)", cpu)
        ok, wall, cpu = _timed(save_library_table, *snapshot, c, [args.corpus], placed)
        assert ok
        note("thread: table pointed where the save put the bodies (wall ms)", wall)
        note("thread: table pointed where the save put the bodies (CPU ms)", cpu)
        table = from_saved(cache_path, __version__, [args.corpus])
        assert table is not None and table.n == len(library.reviews)
        assert table.review(5).summary == library.reviews[5].summary
        # Before: the next start's save (nothing rewritten) saved the table from the cache's bodies.
        c2 = cache()
        library2 = unsaved(c2)
        assert c2.save() is None
        table_path(cache_path).unlink()
        ok, wall, cpu = _timed(save_library_table, *_snapshot(library2), c2, [args.corpus])
        assert ok
        note("thread: table on the next start, as before (CPU ms)", cpu)
    print("| what | median | runs |")
    print("|---|---:|---|")
    for name, values in rows.items():
        print(f"| {name} | {statistics.median(values):.1f} | {', '.join(f'{v:.1f}' for v in values)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
