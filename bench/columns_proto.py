"""A prototype of `tui.core` on columns: a warm start's work after the first frame, measured.

    python bench/columns_proto.py CORPUS [--work DIR] [--rounds 7] [--python PY]

Issue 21's "all loaded and counted, warm, <= 2.0x the bare app's first paint"
leaves ~0.12 s of CPU for everything after the first frame at 100,000
reviews; main spends ~0.29 s there, most of it making 100,000 `Review`s and
indexing them. This prototype fills a parse cache and a state of 100,000 keys
(a third read) in `--work`, saves the library once as columns in two layouts
(`save_columns`: one marshal dict, titles and keys joined in one `str` each
with offsets, verdicts, repos and tags as small ints, each tag's rows, the
files' names and stamps, each body's place in the parse cache; `save_lean`:
the same laid out for `mmap`, with each tag's rows as a bit mask) and times,
in fresh processes, rounds rotating which side runs first, with that state and
with none, what a warm start must do after its first frame:

- `main`: main's real warm path (`plan_first_part`, `first_library` before the
  frame; then `FirstPart.rest`, `from_cache`, `Library.apply`, the collector off
  as `tui.cli` has it), then the reader's own counting (`SidebarCounts.rows`),
  `select` and `review_row` for the first page, the first review's body;
- `columns` and `lean`: validate (the walk, names only, and a `stat` of every
  file, against the names and stamps saved; one `fstat` of the parse cache,
  which the bodies point into), read the columns, the key -> position lookup
  (`columns` only), every tag's, repo's and All's count and unread count, a
  `Review` for each of the All list's first 40 rows (reading order: deep-read
  first, then file order, the saved order) and the first one's body.

The driver asserts that every side counts every sidebar row alike and lists
the same first page. Then, on columns: what the keys would cost at 100,000
(j/k, a tag switch, `v`, `u`, a view, a mark), each the median of 25; and
`--side pieces`: what might pay without the rewrite (the parse cache's index
as columns, read and decoded; `_index` and the sidebar's read counts as passes
in C) and a reload on columns (`MutableTable.replace_file`). CPU
(`process_time`) per step, medians; page faults; RSS once loaded.

Bench code: it imports `tui.*` freely, and the column formats here are
prototypes, not the reader's.
"""

from __future__ import annotations

import argparse
import bisect
import gc
import json
import marshal
import os
import resource
import statistics
import subprocess
import sys
import time
from array import array
from collections import Counter
from itertools import chain, compress, repeat
from operator import attrgetter, itemgetter
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tui.core.model import Library
    from tui.load.cache import ParseCache

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

FORMAT = "prdigest-tui/columns-proto"
SIDES = ("main", "columns", "lean")
NO_PR = -(1 << 63)
PAGE = 40
"""Rows of the review list a 120x40 terminal shows."""


def _cpu() -> float:
    return time.process_time()


def _faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


class Steps:
    """CPU seconds and page faults per step, in order."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.faults: dict[str, int] = {}
        self._at = (_cpu(), _faults())

    def mark(self, name: str) -> None:
        cpu, faults = _cpu(), _faults()
        self.cpu[name] = cpu - self._at[0]
        self.faults[name] = faults - self._at[1]
        self._at = (_cpu(), _faults())


# -- the columns ---------------------------------------------------------------


def _joined(strings: list[str]) -> tuple[str, bytes]:
    """One `str` and the offsets of each part in it (n + 1 of them)."""
    offsets = array("I", [0])
    at = 0
    for text in strings:
        at += len(text)
        offsets.append(at)
    return "".join(strings), offsets.tobytes()


def save_columns(library, cache_path: Path, names: list[str], stamps: list[int], out: Path) -> dict:
    """The library as columns, in its reading order, written to `out`.
    Returns what it cost (CPU s) and the file's size."""
    from tui.load.cache_format import _Body

    began = _cpu()
    reviews = library.reviews
    file_index = {name: n for n, name in enumerate(names)}
    repos = sorted({r.repo for r in reviews})
    repo_at = {repo: n for n, repo in enumerate(repos)}
    verdicts = sorted({r.verdict for r in reviews}, key=_verdict_rank)
    verdict_at = {v: n for n, v in enumerate(verdicts)}
    tags = list(library.tags)  # the sidebar's order: most reviews first
    tag_at = {tag: n for n, tag in enumerate(tags)}
    titles, title_offsets = _joined([r.title for r in reviews])
    keys = [r.key for r in reviews]
    keys_text, key_offsets = _joined(keys)
    tag_flat, tag_offsets = array("H"), array("I", [0])
    for r in reviews:
        tag_flat.extend(tag_at[t] for t in r.tags)
        tag_offsets.append(len(tag_flat))
    tag_positions, tag_position_offsets = array("I"), array("I", [0])
    position = {id(r): n for n, r in enumerate(reviews)}
    for tag in tags:
        tag_positions.extend(position[id(r)] for r in library.tags[tag])
        tag_position_offsets.append(len(tag_positions))
    sources: dict[int, int] = {}  # id(Source) -> its place in `bodies_at`
    bodies_at: list[int] = []
    block = array("Q")  # offset, length of each review's block (in its record's bodies)
    body = array("I")  # start, end of its body in the block
    source_of = array("H")
    for r in reviews:
        ref = r._blob
        assert isinstance(ref, _Body) and ref.source is not None, "a warm library: every body in the cache"
        src = ref.source
        if id(src) not in sources:
            sources[id(src)] = len(bodies_at)
            bodies_at.append(src.bodies_at)
        source_of.append(sources[id(src)])
        block.extend((ref.offset, ref.length))
        body.extend((ref.start, ref.end))
    info = os.stat(cache_path)
    doc = {
        "format": FORMAT,
        "cache": (info.st_ino, info.st_size, info.st_mtime_ns),
        "names": "\n".join(names),
        "stamps": array("q", stamps).tobytes(),
        "n": len(reviews),
        "titles": titles,
        "title_offsets": title_offsets,
        "keys": keys_text,
        "key_offsets": key_offsets,
        "repos": repos,
        "repo_of": array("B", [repo_at[r.repo] for r in reviews]).tobytes(),
        "verdicts": verdicts,
        "verdict_of": bytes(verdict_at[r.verdict] for r in reviews),
        "tags": tags,
        "tag_flat": tag_flat.tobytes(),
        "tag_offsets": tag_offsets.tobytes(),
        "tag_positions": tag_positions.tobytes(),
        "tag_position_offsets": tag_position_offsets.tobytes(),
        "file_of": array("H", [file_index[str(r.location.path)] for r in reviews]).tobytes(),
        "line": array("I", [r.location.line for r in reviews]).tobytes(),
        "column": array("H", [r.location.column for r in reviews]).tobytes(),
        "pr": array("q", [NO_PR if r.pr is None else r.pr for r in reviews]).tobytes(),
        "checks": array("H", [r.checks for r in reviews]).tobytes(),
        "bodies_at": bodies_at,
        "source_of": source_of.tobytes(),
        "block": block.tobytes(),
        "body": body.tobytes(),
        "problems": [
            (str(p.location.path), p.location.line, p.location.column, p.message)
            for p in library.all_problems()
        ],
    }
    data = marshal.dumps(doc)
    out.write_bytes(data)
    return {"save_cpu": _cpu() - began, "bytes": len(data), "doc": doc}


def _verdict_rank(verdict: str) -> int:
    from tui.core.model import verdict_rank

    return verdict_rank(verdict)


def _ints(data: bytes, code: str) -> memoryview:
    """A column, read in place (no copy, no object per value)."""
    return memoryview(data).cast(code)


class Columns:
    """The library read back: every list a column, a `Review` made for a row when asked."""

    def __init__(self, doc: dict, names: list[str], cache_fd: int) -> None:
        from tui.load.cache_format import OpenFile, Source

        self.n = doc["n"]
        self.names = names
        self.titles = doc["titles"]
        self.title_offsets = _ints(doc["title_offsets"], "I")
        self.keys_text = doc["keys"]
        self.key_offsets = _ints(doc["key_offsets"], "I")
        self.repos = doc["repos"]
        self.repo_of = doc["repo_of"]
        self.verdicts = doc["verdicts"]
        self.verdict_of = doc["verdict_of"]
        self.tags = doc["tags"]
        self.tag_flat = _ints(doc["tag_flat"], "H")
        self.tag_offsets = _ints(doc["tag_offsets"], "I")
        self.tag_positions = _ints(doc["tag_positions"], "I")
        self.tag_position_offsets = _ints(doc["tag_position_offsets"], "I")
        self.file_of = _ints(doc["file_of"], "H")
        self.line = _ints(doc["line"], "I")
        self.column = _ints(doc["column"], "H")
        self.pr = _ints(doc["pr"], "q")
        self.checks = _ints(doc["checks"], "H")
        file = OpenFile(cache_fd)
        self.sources = [Source(file, at, True) for at in doc["bodies_at"]]
        self.source_of = _ints(doc["source_of"], "H")
        self.block = _ints(doc["block"], "Q")
        self.body = _ints(doc["body"], "I")
        self.problems = doc["problems"]
        self.keys: list[str] = []
        self.position: dict[str, int] = {}
        self._paths: dict[int, Path] = {}
        # Where each verdict's reviews start and end in the reading order (it is sorted by verdict).
        of = self.verdict_of
        self.verdict_bounds = [of.find(bytes([v])) for v in range(len(self.verdicts))] + [self.n]

    def make_lookup(self) -> None:
        text = self.keys_text
        if text.count("\n") == self.n - 1 and self.n:  # no key holds a newline: split in C
            self.keys = text.split("\n") if self.n > 1 else [text]
        else:
            offsets = self.key_offsets
            self.keys = [text[offsets[i] : offsets[i + 1]] for i in range(self.n)]
        self.position = dict(zip(self.keys, range(self.n), strict=True))

    def tag_rows(self, t: int) -> memoryview:
        offsets = self.tag_position_offsets
        return self.tag_positions[offsets[t] : offsets[t + 1]]

    def review(self, i: int):
        """Row `i`'s `Review`, its body where the parse cache has it."""
        from tui.core.model import Location, Review
        from tui.load.cache_format import _Body

        new = tuple.__new__
        f = self.file_of[i]
        path = self._paths.get(f)
        if path is None:
            path = self._paths[f] = Path(self.names[f])
        location = new(Location, (path, self.line[i], self.column[i]))
        review = object.__new__(Review)
        offsets = self.title_offsets
        review.title = self.titles[offsets[i] : offsets[i + 1]]
        review.repo = self.repos[self.repo_of[i]]
        review.verdict = self.verdicts[self.verdict_of[i]]
        tags, flat, at = self.tags, self.tag_flat, self.tag_offsets
        review.tags = tuple([tags[t] for t in flat[at[i] : at[i + 1]]])
        pr = self.pr[i]
        review.pr = None if pr == NO_PR else pr
        review.checks = self.checks[i]
        review.key = (
            self.keys[i] if self.keys else self.keys_text[self.key_offsets[i] : self.key_offsets[i + 1]]
        )
        block, body = self.block, self.body
        review._body = None
        review._blob = new(
            _Body,
            (
                self.sources[self.source_of[i]],
                block[2 * i],
                block[2 * i + 1],
                body[2 * i],
                body[2 * i + 1],
                location,
            ),
        )
        return review


def walk(roots: list[Path], doc_names: str) -> list[str] | None:
    """The files as a walk finds them now (names, no `Path`s), if they are the ones saved."""
    from tui.load.discover import walk_names

    names = list(walk_names(roots, []))
    return names if "\n".join(names) == doc_names else None


def stamps_match(names: list[str], doc_stamps: bytes) -> bool:
    """Every file's size and mtime_ns as saved."""
    stamps = array("q")
    append = stamps.append
    stat = os.stat
    try:
        for name in names:
            info = stat(name)
            append(info.st_size)
            append(info.st_mtime_ns)
    except OSError:
        return False
    return stamps.tobytes() == doc_stamps


def read_columns(path: Path, cache_path: Path) -> tuple[dict, int] | None:
    fd = os.open(cache_path, os.O_RDONLY)
    info = os.fstat(fd)
    data = path.read_bytes()
    doc = marshal.loads(data)
    if doc.get("format") != FORMAT or doc["cache"] != (info.st_ino, info.st_size, info.st_mtime_ns):
        os.close(fd)
        return None
    return doc, fd


def count(columns: Columns, read_keys: list[str]) -> dict:
    """All's and every tag's count and unread count: what the sidebar and the status bar show."""
    position = columns.position
    read = bytearray(columns.n)
    found = [p for p in map(position.get, read_keys) if p is not None]
    any(map(read.__setitem__, found, repeat(1)))  # a scatter in C: __setitem__ answers None
    read_count = len(found)
    counts = {"\x00all": (columns.n - read_count, columns.n)}
    get = read.__getitem__
    for t, tag in enumerate(columns.tags):
        rows = columns.tag_rows(t)
        counts[tag] = (len(rows) - sum(map(get, rows)), len(rows))
    if len(columns.repos) > 1:
        of = columns.repo_of
        for r, repo in enumerate(columns.repos):
            total = of.count(r)
            # Read per repo: the read rows' repos, counted in C.
            counts["\x00repo:" + repo] = (total, total)
        read_repos = bytes(map(of.__getitem__, found))
        for r, repo in enumerate(columns.repos):
            total = counts["\x00repo:" + repo][1]
            counts["\x00repo:" + repo] = (total - read_repos.count(r), total)
    columns.read_mask = read  # type: ignore[attr-defined]
    return counts


# -- the sides -----------------------------------------------------------------


def _load_state(state_path: Path):
    from tui.store.state import ReadState

    state = ReadState(state_path)
    state.load()
    return state


def side_main(corpus: Path, cache_path: Path, state_path: Path) -> dict:
    from tui import __version__
    from tui.core.filters import Filters, select
    from tui.core.model import ALL_TAG
    from tui.core.search import SearchIndex
    from tui.load.cache import ParseCache
    from tui.load.first_frame import first_library, from_cache, plan_first_part
    from tui.ui.presenting import review_row
    from tui.ui.sidebar import SidebarCounts

    gc.disable()  # tui.cli: the collector off until the reader has loaded
    steps = Steps()
    state = _load_state(state_path)
    steps.mark("state load (before the frame)")
    cache = ParseCache(cache_path, version_key=__version__)
    first = plan_first_part([corpus], cache)
    library = first_library(*first.shown())
    steps.mark("first part (before the frame)")
    rest, problems = first.rest()
    steps.mark("rest")
    cached, _ = from_cache(rest, cache)
    steps.mark("from_cache")
    library.add_problems(problems)
    library.apply(cached, compare=False)
    steps.mark("apply")
    state.adopt_title_marks(library.reviews)
    sidebar = SidebarCounts()
    rows = sidebar.rows(library, state, {}, frozenset(), SearchIndex())
    steps.mark("counts")
    listed = select(
        library.under(ALL_TAG),
        Filters(),
        is_read=state.is_read,
        read_keys=state.read_keys(),
        checked=lambda review: frozenset(),
        index=SearchIndex(),
    )
    page = [review_row(library, state, review) for review in listed[:PAGE]]
    steps.mark("first page")
    opened = library.by_key[listed[0].key]
    summary = opened.summary
    steps.mark("open")
    assert page and summary is not None
    return {
        "cpu": steps.cpu,
        "faults": steps.faults,
        "rss_mb": _rss_mb(),
        "reviews": len(library.reviews),
        "all": (rows[0].unread, rows[0].total),
        "tags": {r.tag: (r.unread, r.total) for r in rows},
        "first": [r.key for r in listed[:PAGE]],
    }


def side_columns(corpus: Path, cache_path: Path, state_path: Path, columns_path: Path) -> dict:
    from tui import __version__
    from tui.load.cache import ParseCache
    from tui.load.first_frame import first_library, plan_first_part

    gc.disable()
    steps = Steps()
    state = _load_state(state_path)
    steps.mark("state load (before the frame)")
    cache = ParseCache(cache_path, version_key=__version__)
    first = plan_first_part([corpus], cache)  # the first frame as main draws it
    first_library(*first.shown())
    steps.mark("first part (before the frame)")
    read = read_columns(columns_path, cache_path)
    assert read is not None
    doc, fd = read
    steps.mark("read the file")
    names = walk([corpus], doc["names"])
    assert names is not None
    steps.mark("walk")
    assert stamps_match(names, doc["stamps"])
    steps.mark("stat")
    columns = Columns(doc, names, fd)
    steps.mark("columns")
    columns.make_lookup()
    steps.mark("lookup")
    counts = count(columns, state.read_keys())
    steps.mark("counts")
    page = [columns.review(i) for i in range(min(PAGE, columns.n))]
    rows = [(r.title, r.verdict, r.key in state.reviews, r.checks) for r in page]
    steps.mark("first page")
    summary = page[0].summary
    steps.mark("open")
    assert rows and summary is not None
    out = {
        "cpu": steps.cpu,
        "faults": steps.faults,
        "rss_mb": _rss_mb(),
        "reviews": columns.n,
        "all": counts["\x00all"],
        "tags": counts,
        "first": [r.key for r in page],
        "keys": key_costs(columns, state),
    }
    began = _cpu()
    every = every_review(columns)
    out["extra"] = {"every Review from the columns (not in the sum)": (_cpu() - began) * 1000}
    assert len(every) == columns.n
    return out


def every_review(columns: Columns) -> list:
    """A `Review` for every row, in one loop: what a cache index held as columns
    would cost `from_cache` (the 100,000 objects main makes today, from columns
    instead of from marshal's tuples)."""
    from tui.core.model import Location, Review
    from tui.load.cache_format import _Body

    new, make = tuple.__new__, object.__new__
    paths = [Path(name) for name in columns.names]
    titles, t_at = columns.titles, columns.title_offsets
    repos, repo_of = columns.repos, columns.repo_of
    verdicts, verdict_of = columns.verdicts, columns.verdict_of
    tags, flat, at = columns.tags, columns.tag_flat, columns.tag_offsets
    keys, prs, checks = columns.keys, columns.pr, columns.checks
    lines, cols, files = columns.line, columns.column, columns.file_of
    sources, source_of, block, body = columns.sources, columns.source_of, columns.block, columns.body
    shared: dict[bytes, tuple] = {}  # each distinct tag set once, as marshal's refs would share it
    out = []
    append = out.append
    for i in range(columns.n):
        location = new(Location, (paths[files[i]], lines[i], cols[i]))
        review = make(Review)
        review.title = titles[t_at[i] : t_at[i + 1]]
        review.repo = repos[repo_of[i]]
        review.verdict = verdicts[verdict_of[i]]
        positions = flat[at[i] : at[i + 1]]
        kind = positions.tobytes()
        tag_set = shared.get(kind)
        if tag_set is None:
            tag_set = shared[kind] = tuple([tags[t] for t in positions])
        review.tags = tag_set
        pr = prs[i]
        review.pr = None if pr == NO_PR else pr
        review.checks = checks[i]
        review.key = keys[i]
        review._body = None
        review._blob = new(
            _Body,
            (sources[source_of[i]], block[2 * i], block[2 * i + 1], body[2 * i], body[2 * i + 1], location),
        )
        append(review)
    return out


def _median_ms(action, times: int = 25) -> float:
    took = []
    for _ in range(times):
        began = time.perf_counter()
        action()
        took.append(time.perf_counter() - began)
    return statistics.median(took) * 1000


def key_costs(columns: Columns, state) -> dict[str, float]:
    """What each key would cost on columns (model side only: the list's and the
    review's drawing is Textual's, and the same on both sides), ms."""
    n = columns.n
    read = columns.read_mask  # type: ignore[attr-defined]
    unread = read.translate(bytes([1, 0]) + bytes(254))  # 1 where unread
    costs: dict[str, float] = {}
    cursor = [PAGE]

    def step() -> None:  # j at the bottom of the page: one new row
        i = cursor[0] % n
        cursor[0] += 1
        columns.review(i)

    costs["j/k (a new row's Review)"] = _median_ms(step, 200)
    tag = [0]

    def switch() -> None:  # the next tag: its rows, its first page
        t = tag[0] % len(columns.tags)
        tag[0] += 1
        rows = columns.tag_rows(t)
        [columns.review(i) for i in rows[:PAGE]]

    costs["tag switch (rows + first page)"] = _median_ms(switch)
    verdict = [0]

    def cycle_verdict() -> None:  # `v` under the biggest tag: a bisect per bound in its rows
        v = verdict[0] % len(columns.verdicts)
        verdict[0] += 1
        rows = columns.tag_rows(0)
        lo = bisect.bisect_left(rows, columns.verdict_bounds[v])
        hi = bisect.bisect_left(rows, columns.verdict_bounds[v + 1])
        [columns.review(i) for i in rows[lo : min(hi, lo + PAGE)]]

    costs["v under a tag (bisect + first page)"] = _median_ms(cycle_verdict)

    def unread_all() -> None:  # `u` on All: the unread rows, in C
        rows = array("I", compress(range(n), unread))
        [columns.review(i) for i in rows[:PAGE]]

    costs["u on All (compress 100,000 + first page)"] = _median_ms(unread_all)

    def unread_tag() -> None:  # `u` under the biggest tag
        tag_rows = columns.tag_rows(0)
        rows = array("I", compress(tag_rows, map(unread.__getitem__, tag_rows)))
        [columns.review(i) for i in rows[:PAGE]]

    costs["u under a tag"] = _median_ms(unread_tag)
    masks: dict[int, int] = {}

    def mask_of(t: int) -> int:  # a tag's rows as an int of one byte a row, made once
        if t not in masks:
            m = bytearray(n)
            any(map(m.__setitem__, columns.tag_rows(t), repeat(1)))
            masks[t] = int.from_bytes(m, "little")
        return masks[t]

    def view_first() -> None:
        masks.clear()
        view()

    def view() -> None:  # tags a or b, deep or quick, unread: int ops over 100 KB, then compress
        either = mask_of(1) | mask_of(2)
        span = columns.verdict_bounds[2]  # deep and quick come first in the reading order
        keep = either & int.from_bytes(unread, "little") & ((1 << (8 * span)) - 1)
        rows = array("I", compress(range(n), keep.to_bytes(n, "little")))
        [columns.review(i) for i in rows[:PAGE]]

    costs["a view, first time (two tag masks made)"] = _median_ms(view_first)
    costs["a view, again"] = _median_ms(view)

    tag_read = [0] * len(columns.tags)

    def mark_read() -> None:  # space/r: one row's mask and its tags' counts
        i = 7
        read[i] ^= 1
        for t in columns.tag_flat[columns.tag_offsets[i] : columns.tag_offsets[i + 1]]:
            tag_read[t] += 1 if read[i] else -1

    costs["a mark (mask + counts of its tags)"] = _median_ms(mark_read)

    def relist_position() -> None:  # the list's position of a key (j/k's `current_key`)
        columns.position.get(columns.keys[n // 2])

    costs["key -> position"] = _median_ms(relist_position)
    return costs


# -- the lean variant: the file mapped, columns read in place -----------------

LEAN_FORMAT = "prdigest-tui/columns-proto-lean"
ONES = bytes([0x30, 0x31]) + bytes(254)
"""A byte mask's 0 and 1 as the digits "0" and "1": `int(..., 2)` packs it into bits in C."""


def _bits(mask: bytes) -> int:
    """A mask of one byte a row as an int of one bit a row (row 0 the lowest bit)."""
    return int(mask.translate(ONES).decode()[::-1] or "0", 2)


def save_lean(doc: dict, out: Path) -> int:
    """`save_columns`' columns laid out for `mmap`: a small marshal header (the
    tables, names, problems and where each column is), then the columns, raw
    and 8-aligned; titles and keys as UTF-8 with byte offsets; and each tag's
    rows as a bit mask. Returns the file's size."""
    n = doc["n"]
    titles = doc["titles"]
    t_at = memoryview(doc["title_offsets"]).cast("I")
    encoded = [titles[t_at[i] : t_at[i + 1]].encode() for i in range(n)]
    title_bytes, title_offsets = b"".join(encoded), array("I", [0])
    for part in encoded:
        title_offsets.append(title_offsets[-1] + len(part))
    keys = doc["keys"]
    k_at = memoryview(doc["key_offsets"]).cast("I")
    key_parts = [keys[k_at[i] : k_at[i + 1]].encode() for i in range(n)]
    key_bytes, key_offsets = b"\n".join(key_parts), array("I", [0])
    for part in key_parts:
        key_offsets.append(key_offsets[-1] + len(part) + 1)  # each key's start; a newline between
    positions = memoryview(doc["tag_positions"]).cast("I")
    p_at = memoryview(doc["tag_position_offsets"]).cast("I")
    tag_bits = []
    for t in range(len(doc["tags"])):
        mask = bytearray(n)
        any(map(mask.__setitem__, positions[p_at[t] : p_at[t + 1]], repeat(1)))
        tag_bits.append(_bits(bytes(mask)).to_bytes((n + 7) // 8, "little"))
    raw = {
        "stamps": doc["stamps"],
        "titles": title_bytes,
        "title_offsets": title_offsets.tobytes(),
        "keys": key_bytes,
        "key_offsets": key_offsets.tobytes(),
        "tag_bits": b"".join(tag_bits),
        **{
            name: doc[name]
            for name in (
                "repo_of", "verdict_of", "tag_flat", "tag_offsets", "tag_positions", "tag_position_offsets",
                "file_of", "line", "column", "pr", "checks", "source_of", "block", "body",
            )
        },
    }  # fmt: skip
    sections, at, chunks = {}, 0, []
    for name, data in raw.items():
        sections[name] = (at, len(data))
        pad = -len(data) % 8
        chunks += [data, bytes(pad)]
        at += len(data) + pad
    header = marshal.dumps(
        {
            "format": LEAN_FORMAT,
            **{
                k: doc[k]
                for k in ("cache", "names", "n", "repos", "verdicts", "tags", "bodies_at", "problems")
            },
            "folders": sorted({os.path.dirname(name) for name in doc["names"].split("\n")}),
            "sections": sections,
        }
    )
    head = len(header).to_bytes(8, "little") + header
    head += bytes(-len(head) % 8)
    data = head + b"".join(chunks)
    out.write_bytes(len(head).to_bytes(8, "little") + data)
    return len(data) + 8


class LeanColumns(Columns):
    """`Columns` on a mapped file: each column a memoryview of the mapping, no copy."""

    def __init__(self, mapped, header: dict, base: int, names: list[str], cache_fd: int) -> None:
        from tui.load.cache_format import OpenFile, Source

        view = memoryview(mapped)
        sections = header["sections"]

        def raw(name: str) -> memoryview:
            at, length = sections[name]
            return view[base + at : base + at + length]

        self.n = n = header["n"]
        self.names = names
        self.title_bytes = raw("titles")
        self.title_offsets = raw("title_offsets").cast("I")
        self.key_bytes = raw("keys")
        self.key_offsets = raw("key_offsets").cast("I")
        self.repos, self.verdicts, self.tags = header["repos"], header["verdicts"], header["tags"]
        self.repo_of = raw("repo_of")
        self.verdict_of = raw("verdict_of")
        self.tag_flat = raw("tag_flat").cast("H")
        self.tag_offsets = raw("tag_offsets").cast("I")
        self.tag_positions = raw("tag_positions").cast("I")
        self.tag_position_offsets = raw("tag_position_offsets").cast("I")
        self.tag_bits = raw("tag_bits")
        self.file_of = raw("file_of").cast("H")
        self.line = raw("line").cast("I")
        self.column = raw("column").cast("H")
        self.pr = raw("pr").cast("q")
        self.checks = raw("checks").cast("H")
        file = OpenFile(cache_fd)
        self.sources = [Source(file, at, True) for at in header["bodies_at"]]
        self.source_of = raw("source_of").cast("H")
        self.block = raw("block").cast("Q")
        self.body = raw("body").cast("I")
        self.problems = header["problems"]
        self.keys = []
        self.position = {}
        self._paths = {}
        self.verdict_bounds = [_find(self.verdict_of, v) for v in range(len(self.verdicts))] + [n]

    def title(self, i: int) -> str:
        at = self.title_offsets
        return str(self.title_bytes[at[i] : at[i + 1]], "utf-8")

    def key(self, i: int) -> str:
        at = self.key_offsets
        end = at[i + 1] - 1 if i + 1 < self.n else len(self.key_bytes)
        return str(self.key_bytes[at[i] : end], "utf-8")

    def lean_counts(self, read_keys: list[str]) -> dict:
        """`count`, with the read rows as a bit mask and each tag's count one AND and a popcount."""
        n = self.n
        counts: dict[str, tuple[int, int]] = {}
        p_at = self.tag_position_offsets
        totals = [p_at[t + 1] - p_at[t] for t in range(len(self.tags))]
        if read_keys:
            wanted = set(map(str.encode, read_keys))
            mask = bytes(map(wanted.__contains__, bytes(self.key_bytes).split(b"\n")))
            read_count = mask.count(1)
            bits = _bits(mask)
            width = (n + 7) // 8
            tag_bits = self.tag_bits
            read_per_tag = [
                (bits & int.from_bytes(tag_bits[t * width : (t + 1) * width], "little")).bit_count()
                for t in range(len(self.tags))
            ]
            read_repos = bytes(compress(self.repo_of, mask))
        else:
            mask = bytes(n)
            read_count, read_per_tag, read_repos = 0, [0] * len(self.tags), b""
        counts["\x00all"] = (n - read_count, n)
        for t, tag in enumerate(self.tags):
            counts[tag] = (totals[t] - read_per_tag[t], totals[t])
        if len(self.repos) > 1:
            of = bytes(self.repo_of)
            for r, repo in enumerate(self.repos):
                total = of.count(r)
                counts["\x00repo:" + repo] = (total - read_repos.count(r), total)
        self.read_mask = bytearray(mask)  # type: ignore[attr-defined]
        return counts


def _find(column: memoryview, value: int) -> int:
    """The first row holding `value` (a verdict), or -1, found in C."""
    return bytes(column).find(bytes([value]))


def side_lean(corpus: Path, cache_path: Path, state_path: Path, lean_path: Path) -> dict:
    import mmap

    from tui import __version__
    from tui.load.cache import ParseCache
    from tui.load.first_frame import first_library, plan_first_part

    gc.disable()
    steps = Steps()
    state = _load_state(state_path)
    steps.mark("state load (before the frame)")
    cache = ParseCache(cache_path, version_key=__version__)
    first = plan_first_part([corpus], cache)
    first_library(*first.shown())
    steps.mark("first part (before the frame)")
    cache_fd = os.open(cache_path, os.O_RDONLY)
    info = os.fstat(cache_fd)
    with open(lean_path, "rb") as f:
        mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    base = int.from_bytes(mapped[:8], "little") + 8
    length = int.from_bytes(mapped[8:16], "little")
    header = marshal.loads(mapped[16 : 16 + length])
    assert header["format"] == LEAN_FORMAT
    assert header["cache"] == (info.st_ino, info.st_size, info.st_mtime_ns)
    steps.mark("map the file")
    names = walk([corpus], header["names"])
    assert names is not None
    steps.mark("walk")
    at, size = header["sections"]["stamps"]
    assert stamps_match(names, mapped[base + at : base + at + size])
    steps.mark("stat")
    folders = header["folders"]
    folder_stamps = [os.stat(folder).st_mtime_ns for folder in folders]
    assert len(folder_stamps) == len(folders)
    steps.mark("folders' stat (not counted: the walk's stand-in)")
    columns = LeanColumns(mapped, header, base, names, cache_fd)
    steps.mark("columns")
    read_keys = state.read_keys()
    steps.mark("the state's read keys")
    counts = columns.lean_counts(read_keys)
    steps.mark("counts")
    page = []
    for i in range(min(PAGE, columns.n)):
        review = _lean_review(columns, i)
        page.append(review)
    rows = [(r.title, r.verdict, r.key in state.reviews, r.checks) for r in page]
    steps.mark("first page")
    summary = page[0].summary
    steps.mark("open")
    assert rows and summary is not None
    return {
        "cpu": steps.cpu,
        "faults": steps.faults,
        "rss_mb": _rss_mb(),
        "reviews": columns.n,
        "all": counts["\x00all"],
        "tags": counts,
        "first": [r.key for r in page],
        "keys": {},
        "extra": {},
    }


def _lean_review(columns: LeanColumns, i: int):
    """Row `i`'s `Review`, its title and key decoded from the mapping."""
    from tui.core.model import Location, Review
    from tui.load.cache_format import _Body

    new = tuple.__new__
    f = columns.file_of[i]
    path = columns._paths.get(f)
    if path is None:
        path = columns._paths[f] = Path(columns.names[f])
    location = new(Location, (path, columns.line[i], columns.column[i]))
    review = object.__new__(Review)
    review.title = columns.title(i)
    review.repo = columns.repos[columns.repo_of[i]]
    review.verdict = columns.verdicts[columns.verdict_of[i]]
    tags, flat, at = columns.tags, columns.tag_flat, columns.tag_offsets
    review.tags = tuple([tags[t] for t in flat[at[i] : at[i + 1]]])
    pr = columns.pr[i]
    review.pr = None if pr == NO_PR else pr
    review.checks = columns.checks[i]
    review.key = columns.key(i)
    block, body = columns.block, columns.body
    review._body = None
    review._blob = new(
        _Body,
        (
            columns.sources[columns.source_of[i]],
            block[2 * i],
            block[2 * i + 1],
            body[2 * i],
            body[2 * i + 1],
            location,
        ),
    )
    return review


# -- pieces that might pay without the rewrite ---------------------------------


class TupleReview(tuple):
    """A review as a tuple subclass, so that `map` makes 100,000 of them in C
    (the fields as properties, as `_Body` has them): the cheapest object per
    review Python has. Measured only; the reader's `Review` has slots."""

    __slots__ = ()
    title = property(itemgetter(0))
    repo = property(itemgetter(1))
    verdict = property(itemgetter(2))
    tags = property(itemgetter(3))
    location = property(itemgetter(4))
    pr = property(itemgetter(5))
    checks = property(itemgetter(6))
    key = property(itemgetter(7))
    blob = property(itemgetter(8))


def every_review_by_maps(doc: dict) -> tuple[list, dict[str, float]]:
    """Every review from columns laid out for passes in C (titles and keys
    joined by a separator, each distinct tag set once and a column of which
    one), made with `map` and `zip` only; what each part costs, ms. The
    layout is made before the clock starts."""
    from tui.core.model import Location
    from tui.load.cache_format import _Body

    n = doc["n"]
    t_at = memoryview(doc["title_offsets"]).cast("I")
    k_at = memoryview(doc["key_offsets"]).cast("I")
    titles_text = "\x1f".join(doc["titles"][t_at[i] : t_at[i + 1]] for i in range(n))
    keys_text = "\n".join(doc["keys"][k_at[i] : k_at[i + 1]] for i in range(n))
    flat = memoryview(doc["tag_flat"]).cast("H")
    at = memoryview(doc["tag_offsets"]).cast("I")
    kinds: dict[bytes, int] = {}
    kind_of = array(
        "H" if n < 65536 else "I",
        [kinds.setdefault(bytes(flat[at[i] : at[i + 1]]), len(kinds)) for i in range(n)],
    )
    kind_table = [tuple(doc["tags"][t] for t in memoryview(kind).cast("H")) for kind in kinds]
    took: dict[str, float] = {}
    began = clock = _cpu()

    def lap(name: str) -> None:
        nonlocal clock
        now = _cpu()
        took[name] = (now - clock) * 1000
        clock = now

    paths = list(map(Path, doc["names"].split("\n")))
    titles = titles_text.split("\x1f")
    lap("titles (split)")
    keys = keys_text.split("\n")
    repos = list(map(doc["repos"].__getitem__, doc["repo_of"]))
    verdicts = list(map(doc["verdicts"].__getitem__, doc["verdict_of"]))
    tags = list(map(kind_table.__getitem__, kind_of))
    lap("keys, repos, verdicts, tag sets")
    file_of = memoryview(doc["file_of"]).cast("H")
    lines = memoryview(doc["line"]).cast("I")
    columns = memoryview(doc["column"]).cast("H")
    locations = list(
        map(
            tuple.__new__, repeat(Location), zip(map(paths.__getitem__, file_of), lines, columns, strict=True)
        )
    )
    block = memoryview(doc["block"]).cast("Q")
    body = memoryview(doc["body"]).cast("I")
    bodies = list(
        map(
            tuple.__new__,
            repeat(_Body),
            zip(repeat(None), block[0::2], block[1::2], body[0::2], body[1::2], locations),
        )
    )
    prs = memoryview(doc["pr"]).cast("q").tolist()
    if NO_PR in prs:
        prs = [None if pr == NO_PR else pr for pr in prs]
    checks = memoryview(doc["checks"]).cast("H").tolist()
    lap("locations, body references, ints")
    reviews = list(
        map(
            tuple.__new__,
            repeat(TupleReview),
            zip(titles, repos, verdicts, tags, locations, prs, checks, keys, bodies, strict=True),
        )
    )
    lap("the reviews")
    took["in all"] = (_cpu() - began) * 1000
    return reviews, took


def index_by_passes(library) -> None:
    """`Library._index` with each step a pass in C where one exists (no duplicates in this corpus)."""
    from tui.core.model import _parts

    files = library.files
    ordered = list(chain.from_iterable(map(files.__getitem__, sorted(files, key=_parts))))
    by_key = dict(zip(map(attrgetter("key"), ordered), ordered, strict=True))
    assert len(by_key) == len(ordered)
    ordered.sort(key=attrgetter("verdict"))  # deep < quick < skim < skip, as the reading order has them
    tags: dict[str, list] = {}
    for review in ordered:
        for tag in review.tags:
            tags.setdefault(tag, []).append(review)
    library.reviews, library.by_key, library.duplicates = ordered, by_key, []
    library.repos = sorted(set(map(attrgetter("repo"), ordered)))
    library.tags = dict(sorted(tags.items(), key=lambda kv: (-len(kv[1]), kv[0])))


def read_counts_by_passes(library, state) -> tuple[int, Counter, Counter]:
    """The sidebar's read counts (nothing muted) as passes in C: the read reviews, then a `Counter` each."""
    found = [review for review in map(library.by_key.get, state.read_keys()) if review is not None]
    return (
        len(found),
        Counter(chain.from_iterable(map(attrgetter("tags"), found))),
        Counter(map(attrgetter("repo"), found)),
    )


def side_pieces(corpus: Path, cache_path: Path, state_path: Path, columns_path: Path) -> dict:
    from tui import __version__
    from tui.core.search import SearchIndex
    from tui.load.cache import ParseCache
    from tui.load.library import load_library
    from tui.ui.sidebar import SidebarCounts

    gc.disable()
    out: dict[str, float] = {}
    doc = marshal.loads(columns_path.read_bytes())
    out.update(reload_costs(doc))
    reviews, took = every_review_by_maps(doc)
    assert len(reviews) == doc["n"]
    out.update({f"every Review by maps: {k}": v for k, v in took.items()})
    from tui.load.cache_format import decode_entry

    fresh = ParseCache(cache_path, version_key=__version__)
    began = _cpu()
    fresh.load()
    out["the parse cache's whole index (marshal.loads)"] = (_cpu() - began) * 1000
    entries = [(Path(name), entry) for name, entry in fresh._raw.items()]
    began = _cpu()
    decoded = [decode_entry(path, entry[1], entry[2], entry[3]) for path, entry in entries]
    out["every Review decoded from it, as from_cache does (no stat)"] = (_cpu() - began) * 1000
    assert sum(len(update.reviews) for update in decoded) >= doc["n"]
    del decoded, entries, fresh
    library = load_library([corpus], ParseCache(cache_path, version_key=__version__))
    state = _load_state(state_path)
    before = (
        list(map(id, library.reviews)),
        {t: list(map(id, r)) for t, r in library.tags.items()},
        library.repos,
    )
    for name, index in (
        ("Library._index", library._index),
        ("_index by passes in C", lambda: index_by_passes(library)),
    ):
        out[name] = _median_ms(index, 5)
        after = (
            list(map(id, library.reviews)),
            {t: list(map(id, r)) for t, r in library.tags.items()},
            library.repos,
        )
        assert after == before, name
    sidebar, search = SidebarCounts(), SearchIndex()
    rows = sidebar.rows(library, state, {}, frozenset(), search)
    out["SidebarCounts.rows (a state of 100,000 keys)"] = _median_ms(
        lambda: sidebar.rows(library, state, {}, frozenset(), search), 9
    )
    read_all, per_tag, _ = read_counts_by_passes(library, state)
    assert read_all == rows[0].total - rows[0].unread
    assert all(
        per_tag.get(row.tag, 0) == row.total - row.unread for row in rows[2:] if row.tag in library.tags
    )
    out["its read counts by passes in C"] = _median_ms(lambda: read_counts_by_passes(library, state), 9)
    return out


# -- a reload on columns ---------------------------------------------------------

ROW_COLUMNS = (
    ("repo_of", "B"), ("verdict_of", "B"), ("file_of", "H"), ("line", "I"), ("column", "H"),
    ("pr", "q"), ("checks", "H"), ("source_of", "H"),
)  # fmt: skip


class MutableTable:
    """The columns as arrays one can splice: a reload's test bed. Titles, keys
    and tag lists are (start, end) pairs into texts that only grow."""

    def __init__(self, doc: dict) -> None:
        self.n = doc["n"]
        self.cols = {name: array(code, memoryview(doc[name]).cast(code)) for name, code in ROW_COLUMNS}
        block = memoryview(doc["block"]).cast("Q")
        body = memoryview(doc["body"]).cast("I")
        self.cols.update(
            block_offset=array("Q", block[0::2]),
            block_length=array("Q", block[1::2]),
            body_start=array("I", body[0::2]),
            body_end=array("I", body[1::2]),
        )
        for name, offsets in (("title", "title_offsets"), ("key", "key_offsets"), ("tag", "tag_offsets")):
            at = memoryview(doc[offsets]).cast("I")
            self.cols[name + "_start"], self.cols[name + "_end"] = array("I", at[:-1]), array("I", at[1:])
        self.titles, self.keys_text = doc["titles"], doc["keys"]
        self.tag_flat = array("H", memoryview(doc["tag_flat"]).cast("H"))
        self.tags = doc["tags"]
        p_at = memoryview(doc["tag_position_offsets"]).cast("I")
        positions = memoryview(doc["tag_positions"]).cast("I")
        self.tag_rows = [array("I", positions[p_at[t] : p_at[t + 1]]) for t in range(len(self.tags))]
        self.n_verdicts = len(doc["verdicts"])

    def verdict_range(self, v: int) -> tuple[int, int]:
        of = self.cols["verdict_of"]
        return bisect.bisect_left(of, v), bisect.bisect_right(of, v)

    def replace_file(self, f: int, new: list[dict]) -> None:
        """File `f`'s rows replaced by `new` (its reviews in file order, each a dict
        of the row's values, `verdict_of` among them): a run per verdict, last first."""
        cols, file_of = self.cols, self.cols["file_of"]
        for v in reversed(range(self.n_verdicts)):
            lo, hi = self.verdict_range(v)
            a, b = bisect.bisect_left(file_of, f, lo, hi), bisect.bisect_right(file_of, f, lo, hi)
            rows = [row for row in new if row["verdict_of"] == v]
            if not rows and a == b:
                continue
            title_start, key_start, tag_start = len(self.titles), len(self.keys_text), len(self.tag_flat)
            self.titles += "".join(row["title"] for row in rows)
            self.keys_text += "".join(row["key"] for row in rows)
            for row in rows:
                self.tag_flat.extend(row["tags"])
            made = {name: [] for name in cols}
            for row in rows:
                for name, _ in ROW_COLUMNS:
                    made[name].append(row[name])
                for name in ("block_offset", "block_length", "body_start", "body_end"):
                    made[name].append(row[name])
                made["title_start"].append(title_start)
                title_start += len(row["title"])
                made["title_end"].append(title_start)
                made["key_start"].append(key_start)
                key_start += len(row["key"])
                made["key_end"].append(key_start)
                made["tag_start"].append(tag_start)
                tag_start += len(row["tags"])
                made["tag_end"].append(tag_start)
            for name, column in cols.items():
                column[a:b] = array(column.typecode, made[name])
            delta = len(rows) - (b - a)
            for t, tag_rows in enumerate(self.tag_rows):
                i, j = bisect.bisect_left(tag_rows, a), bisect.bisect_left(tag_rows, b)
                added = array("I", [a + k for k, row in enumerate(rows) if t in row["tags"]])
                if delta:
                    tag_rows[j:] = array("I", map(int.__add__, tag_rows[j:], repeat(delta)))
                tag_rows[i:j] = added
            self.n += delta


def reload_costs(doc: dict) -> dict[str, float]:
    """A reload of one file at 100,000 on columns: its 10 rows replaced, ms."""
    table = MutableTable(doc)
    f = table.cols["file_of"][doc["n"] // 2]
    rows = [i for i in range(table.n) if table.cols["file_of"][i] == f]

    def row_values(i: int, **changed: object) -> dict:
        cols = table.cols
        values = {name: cols[name][i] for name in cols}
        values["title"] = table.titles[cols["title_start"][i] : cols["title_end"][i]]
        values["key"] = table.keys_text[cols["key_start"][i] : cols["key_end"][i]]
        values["tags"] = list(table.tag_flat[cols["tag_start"][i] : cols["tag_end"][i]])
        values.update(changed)
        return values

    # In file order, as a parse gives them (the rows are in reading order).
    ordered = sorted(rows, key=lambda i: table.cols["line"][i])
    edit = [row_values(i, title=row_values(i)["title"] + " (edited)") for i in ordered]
    tag_rows = [rows.tobytes() for rows in table.tag_rows]
    verdicts = table.cols["verdict_of"].tobytes()
    out = {"reload, one file, an edit (same verdicts)": _median_ms(lambda: table.replace_file(f, edit), 9)}
    first = row_values(ordered[0])
    moved = [dict(first, verdict_of=(first["verdict_of"] + 1) % table.n_verdicts)] + [
        row_values(i) for i in ordered[1:]
    ]
    back = [first] + [row_values(i) for i in ordered[1:]]

    def move() -> None:  # a verdict changed, and back: the rows after it shift
        table.replace_file(f, moved)
        table.replace_file(f, back)

    out["reload, one file, a verdict changed (then back: two reloads)"] = _median_ms(move, 9)
    assert table.n == doc["n"]
    assert [rows.tobytes() for rows in table.tag_rows] == tag_rows, "each tag's rows as before"
    assert table.cols["verdict_of"].tobytes() == verdicts
    table.replace_file(f, moved)
    v = moved[0]["verdict_of"]
    lo, hi = table.verdict_range(v)
    at = [i for i in range(lo, hi) if table.cols["file_of"][i] == f]
    assert any(table.cols["line"][i] == first["line"] for i in at), (
        "the moved review is in its new verdict's run"
    )
    for t, rows in enumerate(table.tag_rows):
        assert all(
            t in table.tag_flat[table.cols["tag_start"][i] : table.cols["tag_end"][i]] for i in rows[:50]
        )
        assert list(rows) == sorted(rows)
    return out


# -- the driver ----------------------------------------------------------------


def warm_library(corpus: Path, work: Path) -> tuple[Library, ParseCache, Path]:
    """A warm parse cache of `corpus` in `work` (filled the first time), the
    library loaded from it as the reader's warm start does, and a state of
    every key in it (a third read), written the first time."""
    from tui import __version__
    from tui.load.cache import ParseCache
    from tui.load.first_frame import first_library, from_cache, plan_first_part
    from tui.load.library import load_library
    from tui.store.state import ReadState

    work.mkdir(parents=True, exist_ok=True)
    cache_path = work / "parse-cache"
    if not cache_path.exists():
        load_library([corpus], ParseCache(cache_path, version_key=__version__))
    cache = ParseCache(cache_path, version_key=__version__)
    first = plan_first_part([corpus], cache)
    library = first_library(*first.shown())
    rest, problems = first.rest()
    cached, misses = from_cache(rest, cache)
    assert not misses, "the parse cache is warm"
    library.add_problems(problems)
    library.apply(cached, compare=False)
    state_path = work / "state.json"
    if not state_path.exists():
        state = ReadState(state_path)
        for n, review in enumerate(library.reviews):  # every key marked, a third of them read
            state.set_read(review.key, n % 3 == 0)
        state.save()
    return library, cache, state_path


def setup(corpus: Path, work: Path) -> dict:
    """A warm parse cache of `corpus`, a state of 100,000 keys, the columns saved once."""
    from tui.load.discover import walk_names

    library, _, _ = warm_library(corpus, work)
    cache_path = work / "parse-cache"
    names = list(walk_names([corpus], []))
    stamps: list[int] = []
    for name in names:
        info = os.stat(name)
        stamps += [info.st_size, info.st_mtime_ns]
    saved = save_columns(library, cache_path, names, stamps, work / "columns")
    began = _cpu()
    saved["lean_bytes"] = save_lean(saved.pop("doc"), work / "lean")
    saved["lean_cpu"] = _cpu() - began
    return saved


def run_side(python: str, side: str, corpus: Path, work: Path, state: str) -> dict:
    out = subprocess.run(
        [python, __file__, str(corpus), "--work", str(work), "--side", side, "--state", state],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out)


def report(args: argparse.Namespace, corpus: Path, work: Path, state: str, what: str) -> None:
    runs: dict[str, list[dict]] = {side: [] for side in SIDES}
    for n in range(args.rounds):
        for side in SIDES[n % 3 :] + SIDES[: n % 3]:
            runs[side].append(run_side(args.python, side, corpus, work, state))
        print(f"{what}: round {n + 1}/{args.rounds}", file=sys.stderr)
    a = runs["main"][0]
    for b in (runs["columns"][0], runs["lean"][0]):
        assert a["reviews"] == b["reviews"], (a["reviews"], b["reviews"])
        assert tuple(a["all"]) == tuple(b["all"]), (a["all"], b["all"])
        assert a["first"] == b["first"], "the same first page"
        assert set(a["tags"]) - {"\x00unread"} == set(b["tags"]), "the same rows"
        for tag, counted in b["tags"].items():
            assert tuple(a["tags"][tag]) == tuple(counted), (tag, a["tags"][tag], counted)
    print(f"\n### {what}: {a['reviews']:,} reviews, All {b['all'][0]:,} unread of {b['all'][1]:,}")
    for side, results in runs.items():
        print(f"\n{side}: CPU ms per step (median of {len(results)}), page faults, RSS once loaded")
        after = []
        for step in results[0]["cpu"]:
            ms = statistics.median(r["cpu"][step] * 1000 for r in results)
            faults = statistics.median(r["faults"][step] for r in results)
            print(f"  {step:34s} {ms:7.1f} ms  {faults:8.0f} faults")
        for r in results:
            after.append(
                sum(v for k, v in r["cpu"].items() if "before" not in k and "not counted" not in k) * 1000
            )
        print(f"  {'after the first frame':34s} {statistics.median(after):7.1f} ms")
        print(f"  RSS {statistics.median(r['rss_mb'] for r in results):.0f} MB")
    for extra in runs["columns"][0]["extra"]:
        print(f"  {extra}: {statistics.median(r['extra'][extra] for r in runs['columns']):.1f} ms")
    print("\ncolumns: keys, model side, ms (median of 25 in one process; medians over the rounds)")
    for key in runs["columns"][0]["keys"]:
        print(f"  {key:44s} {statistics.median(r['keys'][key] for r in runs['columns']):8.3f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--work", type=Path, default=Path("/tmp/columns-work"))
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--side", choices=(*SIDES, "pieces"))
    parser.add_argument("--state", default="state.json", help="(a side's) state file in --work")
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    work = args.work
    if args.side == "main":
        print(json.dumps(side_main(corpus, work / "parse-cache", work / args.state)))
        return 0
    if args.side == "pieces":
        print(json.dumps(side_pieces(corpus, work / "parse-cache", work / args.state, work / "columns")))
        return 0
    if args.side == "lean":
        print(json.dumps(side_lean(corpus, work / "parse-cache", work / args.state, work / "lean")))
        return 0
    if args.side == "columns":
        print(json.dumps(side_columns(corpus, work / "parse-cache", work / args.state, work / "columns")))
        return 0
    saved = setup(corpus, work)
    print(f"columns saved: {saved['bytes'] / 2**20:.1f} MB in {saved['save_cpu'] * 1000:.0f} ms CPU")
    print(f"lean columns: {saved['lean_bytes'] / 2**20:.1f} MB, {saved['lean_cpu'] * 1000:.0f} ms more CPU")
    for state, what in (
        ("state.json", "a state of 100,000 keys, a third read"),
        ("no-state.json", "no state"),
    ):
        report(args, corpus, work, state, what)
    pieces = [run_side(args.python, "pieces", corpus, work, "state.json") for _ in range(3)]
    print("\npieces without the rewrite, CPU ms (medians, 3 processes)")
    for name in pieces[0]:
        print(f"  {name:52s} {statistics.median(p[name] for p in pieces):7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
