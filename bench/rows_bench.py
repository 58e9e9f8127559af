"""The sidebar's counts and the filters on a table's rows against today's, at a warm 100,000.

    python bench/rows_bench.py CORPUS [--work DIR] [--repeat 25]

Uses `bench/table_bench.py`'s work folder (its parse cache, saved table and
state of every key marked, a third read: run that first, or this fills it as
`columns_proto.warm_library` does and saves the table). In one process,
collector off, CPU ms (`process_time`), medians of `--repeat`:

- counts: `tui.ui.sidebar.SidebarCounts.rows` on the library (made anew: the
  groups and the tally) against `tui.core.readmask.TableCounts` on the saved
  table (the key -> row lookup made first and counted apart), with no state
  and with that state; then a mark (`set_read` of one key) followed by each;
- filters: `tui.core.filters.select` on the library's reviews (with the
  reader's `LibraryRanks` made) against `tui.core.row_filters.select_rows` on
  the table's rows and the read mask, for the keys that filter: `u`, `v`
  (deep), `t`, a view's sets, the biggest tag with `u`.

Both sides' answers are checked to be the same (counts row by row, the
filters' keys in order).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

import columns_proto  # noqa: E402  # bench/ is scripts: imported from its folder


def timed(action: Callable[[], object], repeat: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(repeat):
        began = time.process_time()
        result = action()
        times.append(time.process_time() - began)
    return statistics.median(times) * 1000, result


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--work", type=Path, default=Path("/tmp/table-work"))
    parser.add_argument("--repeat", type=int, default=25)
    args = parser.parse_args()
    from tui import __version__
    from tui.core.filters import Filters, has_unchecked, select
    from tui.core.marks import Marks, checked_items
    from tui.core.model import ALL_TAG
    from tui.core.order import LibraryRanks
    from tui.core.readmask import TableCounts
    from tui.core.row_filters import select_rows
    from tui.core.rows import Rows
    from tui.core.search import SearchIndex
    from tui.load.table_file import from_saved, save_table
    from tui.ui.sidebar import SidebarCounts

    corpus, work = args.corpus.resolve(), args.work
    library, cache, state_path = columns_proto.warm_library(corpus, work)
    table = from_saved(work / "parse-cache", __version__, [corpus])
    if table is None:
        assert save_table(library.table(), cache, [corpus])
        table = from_saved(work / "parse-cache", __version__, [corpus])
        assert table is not None
    gc.disable()
    big = columns_proto._load_state(state_path)
    index = SearchIndex()
    repeat = args.repeat
    print(f"{table.n:,} reviews; CPU ms, medians of {repeat}")
    began = time.process_time()
    table.position(table.key(0))
    print(f"  the table's key -> row lookup, once: {(time.process_time() - began) * 1000:.1f}")
    for what, state in (("no state", Marks()), ("a state of every key, a third read", big)):
        ms_a, rows_a = timed(lambda s=state: SidebarCounts().rows(library, s, {}, frozenset(), index), repeat)
        ms_b, counts = timed(lambda s=state: TableCounts(table, s), repeat)
        assert [(r.tag, r.unread, r.total) for r in rows_a] == [r[:3] for r in counts.rows()]
        sidebar = SidebarCounts()
        sidebar.rows(library, state, {}, frozenset(), index)
        unread = [r.key for r in library.reviews if not state.is_read(r.key)][: 2 * repeat]
        keys_a, keys_b = unread[:repeat], unread[repeat:]  # each side marks keys of its own, unread

        def mark_sidebar(
            s: Marks = state, counted: SidebarCounts = sidebar, keys: list[str] = keys_a
        ) -> object:
            s.set_read(keys.pop(), True)
            return counted.rows(library, s, {}, frozenset(), index)

        def mark_table(s: Marks = state, counted: TableCounts = counts, keys: list[str] = keys_b) -> object:
            s.set_read(keys.pop(), True)
            counted.follow(s)
            return counted.rows()

        mark_a, _ = timed(mark_sidebar, repeat)
        mark_b, after_b = timed(mark_table, repeat)
        # The table's counts, followed through both sides' marks, are a recount's.
        assert [
            (r.tag, r.unread, r.total) for r in SidebarCounts().rows(library, state, {}, frozenset(), index)
        ] == [r[:3] for r in after_b]
        print(f"\n{what}:")
        print(f"  counts anew: SidebarCounts.rows {ms_a:.1f}, TableCounts {ms_b:.1f}")
        print(
            f"  a mark, then the counts: SidebarCounts {mark_a:.2f}, TableCounts.follow + rows {mark_b:.2f}"
        )
    state = big
    counts = TableCounts(table, state)
    reviews = library.reviews
    ranks = LibraryRanks()
    ranks.of(reviews)
    marked = {key: library.by_key[key] for key in state.marked_set if key in library.by_key}
    done = set()
    for key, review in marked.items():
        if review.checks and not has_unchecked(review, checked_items(state, review)):
            done.add(table.position(key))
    biggest = next(iter(library.tags))
    cases = {
        "u on All": Filters(unread=True),
        "v (deep) on All": Filters(verdict="deep"),
        "t on All": Filters(unchecked=True),
        "a view's sets (2 tags, 2 verdicts)": Filters(
            tag="\x00view:v", tags=frozenset(list(library.tags)[1:3]), verdicts=frozenset({"deep", "skim"})
        ),
        f"the biggest tag ({biggest}) with u": Filters(tag=biggest, unread=True),
    }
    print("\nfilters (the state above):")
    for name, filters in cases.items():
        source = library.under(filters.tag) if not filters.tag.startswith("\x00") else reviews
        rows = table.under(filters.tag) if not filters.tag.startswith("\x00") else Rows.every(table.n)
        ms_a, got_a = timed(
            lambda f=filters, s=source: select(
                s,
                f,
                is_read=state.is_read,
                read_keys=state.read_set,
                checked=lambda review: checked_items(state, review),
                index=index,
                marked=marked if f.unchecked else None,
                ranks=ranks.ready(reviews),
            ),
            repeat,
        )
        ms_b, got_b = timed(
            lambda f=filters, r=rows: select_rows(table, r, f, read=counts.mask.mask, done=done), repeat
        )
        assert [r.key for r in got_a] == [table.key(row) for row in got_b], name  # type: ignore[union-attr]
        print(f"  {name:40s} select {ms_a:6.2f}  select_rows {ms_b:6.2f}  ({len(got_b):,} listed)")  # type: ignore[arg-type]
    assert ALL_TAG
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
