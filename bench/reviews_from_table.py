"""What a `Library` of `Review`s made from the saved table costs, at a warm 100,000.

    python bench/reviews_from_table.py [--work /tmp/table-work] [--rounds 3]

A route for a warm start that keeps the reader on `Review` lists: map the
saved table (`tui.load.table_file`), then make every row's `Review` and the
library's index (`reviews`, `by_key`, `tags`, `files` in file order) from its
columns, in bulk (each column to a list first: a `memoryview` read element by
element costs twice as much), instead of `rest` + `from_cache` + `_index`.
Prints CPU ms per step, one fresh process per round (the collector off).
Needs a work folder `bench/table_bench.py` filled (its parse cache and table).
"""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def once(work: Path) -> None:
    from tui import __version__
    from tui.core.model import Location, Review
    from tui.core.table import ENCODING
    from tui.load.cache_format import CachedBody
    from tui.load.table_file import read_saved

    gc.disable()
    T = [time.process_time()]

    def mark():
        T.append(time.process_time())

    saved = read_saved(work / "parse-cache", __version__)
    assert saved is not None, "no saved table: run bench/table_bench.py with this --work first"
    mark()
    table = saved.table()
    c = table.columns
    n = c.n
    at = c.title_at.tolist()
    raw = bytes(c.titles)
    text = raw.decode(*ENCODING)
    if len(text) == len(raw):
        titles = list(map(text.__getitem__, map(slice, at[:-1], at[1:])))
    else:
        titles = [str(raw[a:b], *ENCODING) for a, b in pairwise(at)]
    keys = table.keys()
    repos = list(map(c.repos.__getitem__, c.repo_of.tolist()))
    verdicts = list(map(c.verdicts.__getitem__, c.verdict_of.tolist()))
    mark()
    names = c.tags
    fa = c.tag_flat_at.tolist()
    flat = c.tag_flat.tolist()
    seen = {}

    def tags_of(a, b, flat=flat, seen=seen, names=names):
        k = tuple(flat[a:b])
        t = seen.get(k)
        if t is None:
            t = seen[k] = tuple(map(names.__getitem__, k))
        return t

    tags = list(map(tags_of, fa[:-1], fa[1:]))
    mark()
    paths = [Path(f) for f in c.files]
    new = tuple.__new__
    file_of = c.file_of.tolist()
    locs = [
        new(Location, (paths[f], line, column))
        for f, line, column in zip(file_of, c.line.tolist(), c.column.tolist(), strict=True)
    ]
    NO_PR = -(1 << 63)
    prs = [None if p == NO_PR else p for p in c.pr.tolist()]
    b = saved.bodies
    sources = b.sources
    bodies = [
        new(CachedBody, (sources[s], o, ln, st, en, loc))
        for s, o, ln, st, en, loc in zip(
            b.source_of.tolist(),
            b.block_at.tolist(),
            b.block_length.tolist(),
            b.start.tolist(),
            b.end.tolist(),
            locs,
            strict=True,
        )
    ]
    mark()
    R = Review.__new__
    reviews = []
    ap = reviews.append
    for ti, re_, ve, ta, lo, pr, ch, ke, bo in zip(
        titles, repos, verdicts, tags, locs, prs, c.checks.tolist(), keys, bodies, strict=True
    ):
        r = R(Review)
        r.title = ti
        r.repo = re_
        r.verdict = ve
        r.tags = ta
        r.location = lo
        r.pr = pr
        r.checks = ch
        r.key = ke
        r._body = None
        r._blob = bo
        ap(r)
    mark()
    by_key = dict(zip(keys, reviews, strict=True))
    tr = c.tag_rows.tolist()
    tra = c.tag_rows_at.tolist()
    get = reviews.__getitem__
    tagd = {name: list(map(get, tr[tra[t] : tra[t + 1]])) for t, name in enumerate(names)}
    mark()
    line = c.line.tolist()
    col = c.column.tolist()
    order = sorted(range(n), key=lambda r: (file_of[r] << 40) | (line[r] << 20) | col[r])
    files = {p: [] for p in paths}
    for r in order:
        files[paths[file_of[r]]].append(reviews[r])
    mark()
    assert len(by_key) == n and len(tagd) == len(names) and sum(map(len, files.values())) == n
    names_ = ["read", "cols", "tags", "locs+bodies", "reviews", "by_key+tags", "files"]
    print(
        " ".join(f"{k} {1e3 * (b - a):.1f}" for k, a, b in zip(names_, T[:-1], T[1:], strict=True)),
        f"total {1e3 * (T[-1] - T[0]):.1f}",
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/table-work"))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--once", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.once:
        once(args.work)
        return 0
    for _ in range(args.rounds):
        command = [sys.executable, __file__, "--work", str(args.work), "--once"]
        print(subprocess.run(command, check=True, capture_output=True, text=True).stdout, end="")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
