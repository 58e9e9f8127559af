"""A warm start's work after the first frame: main's path against the saved table.

    python bench/table_bench.py CORPUS [--work DIR] [--rounds 7] [--python PY]

Fills a parse cache of its own in `--work` (default `/tmp/table-work`) and a
state of every key marked, a third read (as `bench/columns_proto.py` does),
builds the library's `tui.core.table.ReviewTable` (`from_reviews`, timed) and
saves it (`tui.load.table_file.save_table`, timed). Then, in fresh processes,
rounds alternating which side runs first, each doing the first frame's part as
main does (`plan_first_part`, `first_library`, not counted) and then, timed
(CPU, `process_time`):

- `main`: `columns_proto.side_main`: main's real warm path (`rest`,
  `from_cache`, `Library.apply`), the reader's counting (`SidebarCounts.rows`),
  the first page, the first review's body;
- `table`: `read_saved` (map, CRC, header and columns checked), `still_valid`
  (the walk and a `stat` of every file against the stamps), the table, the
  counts (`tui.core.readmask.TableCounts`: All, every tag and repo, unread
  ones against the state: the key -> row lookup, a read mask, the read rows'
  tags and repos counted), a `Review` for each of the first 40 rows, the
  first one's body.

The driver asserts both count alike and list the same first page.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

import columns_proto  # noqa: E402  # bench/ is scripts: imported from its folder

PAGE = 40
SIDES = ("main", "table")


def setup(corpus: Path, work: Path) -> dict:
    from tui.core.table import ReviewTable
    from tui.load.table_file import save_table, table_path

    library, cache, _ = columns_proto.warm_library(corpus, work)
    cache_path = work / "parse-cache"
    gc.disable()
    builds = []
    for _ in range(3):
        began = time.process_time()
        table = ReviewTable.from_reviews(library.files, library.problems, library.stale)
        builds.append(time.process_time() - began)
    began = time.process_time()
    assert save_table(table, cache, [corpus])
    saved = time.process_time() - began
    return {
        "from_reviews_ms": statistics.median(builds) * 1000,
        "save_ms": saved * 1000,
        "bytes": table_path(cache_path).stat().st_size,
    }


def side_table(corpus: Path, cache_path: Path, state_path: Path) -> dict:
    from tui import __version__
    from tui.core.readmask import TableCounts
    from tui.load.cache import ParseCache
    from tui.load.first_frame import first_library, plan_first_part
    from tui.load.table_file import read_saved

    gc.disable()
    steps = columns_proto.Steps()
    state = columns_proto._load_state(state_path)
    steps.mark("state load (before the frame)")
    cache = ParseCache(cache_path, version_key=__version__)
    first = plan_first_part([corpus], cache)
    first_library(*first.shown())
    steps.mark("first part (before the frame)")
    saved = read_saved(cache_path, __version__)
    assert saved is not None
    steps.mark("read_saved (map, CRC, checks)")
    assert saved.still_valid([corpus])
    steps.mark("still_valid (walk, stat)")
    table = saved.table()
    steps.mark("table")
    counts_made = TableCounts(table, state)  # the key -> row lookup, the read mask, the counts
    steps.mark("counts (TableCounts: key -> row, read mask)")
    counts = {row.key: (row.unread, row.total) for row in counts_made.rows()}
    page = [table.review(i) for i in range(min(PAGE, table.n))]
    shown = [(r.title, r.verdict, r.key in state.reviews, r.checks) for r in page]
    steps.mark("first page")
    summary = page[0].summary
    steps.mark("open")
    assert shown and summary is not None
    return {
        "cpu": steps.cpu,
        "faults": steps.faults,
        "rss_mb": columns_proto._rss_mb(),
        "reviews": table.n,
        "all": counts["\x00all"],
        "tags": counts,
        "first": [r.key for r in page],
    }


def run_side(python: str, side: str, corpus: Path, work: Path, state: str) -> dict:
    command = [python, __file__, str(corpus), "--work", str(work), "--side", side, "--state", state]
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def report(args: argparse.Namespace, corpus: Path, work: Path, state: str, what: str) -> None:
    runs: dict[str, list[dict]] = {side: [] for side in SIDES}
    for n in range(args.rounds):
        for side in SIDES[n % 2 :] + SIDES[: n % 2]:
            runs[side].append(run_side(args.python, side, corpus, work, state))
    a, b = runs["main"][0], runs["table"][0]
    assert a["reviews"] == b["reviews"] and tuple(a["all"]) == tuple(b["all"]), (a["all"], b["all"])
    assert a["first"] == b["first"], "the same first page"
    for tag, counted in b["tags"].items():
        assert tuple(a["tags"][tag]) == tuple(counted), (tag, a["tags"][tag], counted)
    print(f"\n### {what}: {a['reviews']:,} reviews, All {b['all'][0]:,} unread of {b['all'][1]:,}")
    for side, results in runs.items():
        print(f"\n{side}: CPU ms per step (median of {len(results)}), page faults")
        for step in results[0]["cpu"]:
            ms = statistics.median(r["cpu"][step] * 1000 for r in results)
            faults = statistics.median(r["faults"][step] for r in results)
            print(f"  {step:36s} {ms:7.1f} ms  {faults:8.0f} faults")
        after = [sum(v for k, v in r["cpu"].items() if "before" not in k) * 1000 for r in results]
        print(f"  {'after the first frame':36s} {statistics.median(after):7.1f} ms")
        print(f"  RSS once loaded {statistics.median(r['rss_mb'] for r in results):.0f} MB")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--work", type=Path, default=Path("/tmp/table-work"))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--side", choices=SIDES)
    parser.add_argument("--state", default="state.json", help="(a side's) state file in --work")
    args = parser.parse_args()
    corpus, work = args.corpus.resolve(), args.work
    if args.side == "main":
        print(json.dumps(columns_proto.side_main(corpus, work / "parse-cache", work / args.state)))
        return 0
    if args.side == "table":
        print(json.dumps(side_table(corpus, work / "parse-cache", work / args.state)))
        return 0
    saved = setup(corpus, work)
    print(
        f"from_reviews: {saved['from_reviews_ms']:.0f} ms CPU (median of 3); saved in {saved['save_ms']:.0f} ms,"
        f" {saved['bytes'] / 2**20:.1f} MB"
    )
    for state, what in (("no-state.json", "no state"), ("state.json", "a state of every key, a third read")):
        report(args, corpus, work, state, what)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
