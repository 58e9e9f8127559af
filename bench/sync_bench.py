"""What a shared state folder costs: a mark saved with 100,000 marks saved, a
folder of 10 machines' files read at start, and marks arriving from another
machine; next to the single state file doing the same.

    python bench/sync_bench.py [--dir DIR] [--saves 300] [--runs 5]

A "mark" is a review read or an item checked; every review touched also has its
`seen` record (the version read, as `r` and `space` write it), which is most of
the bytes. Each machine's file: 1,000 reviews x (1 read + 9 items) = 10,000
marks + 1,000 seen records, over the same reviews on every machine. Saves are
fsynced on the file system of `--dir` (default: a temporary folder).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui.core.clock import Stamp
from tui.core.marks import Mark, ReviewMarks, Seen
from tui.store import journal
from tui.store.machine import Machine
from tui.store.shared import SharedState
from tui.store.state import ReadState

FIELDS = ("title", "verdict", "verdict_note", "summary", "tags", "url", "date")
SECTIONS = ("focus", "read_order", "actions", "caveats")


def fingerprint(rng: random.Random) -> dict[str, object]:
    return {
        "fields": {name: f"{rng.getrandbits(64):016x}" for name in FIELDS},
        "items": {
            s: [[f"{s}:{rng.getrandbits(32):08x}", f"{rng.getrandbits(64):016x}"]] * 3 for s in SECTIONS
        },
    }


def marks(machine: str, reviews: int, items: int, seed: int) -> dict[str, ReviewMarks]:
    rng = random.Random(seed)
    out: dict[str, ReviewMarks] = {}
    t = 1.7e9 + seed
    for n in range(reviews):
        m = out[f"vllm-project/vllm#{n}"] = ReviewMarks()
        t += rng.random()
        m.read = Mark(rng.random() < 0.7, Stamp(t, 0, machine))
        m.seen = Seen(fingerprint(rng), Stamp(t, 1, machine))
        for i in range(items):
            m.items[f"focus:{i:08x}"] = Mark(rng.random() < 0.5, Stamp(t + i / 1000, 0, machine), f"{i:016x}")
    return out


def write_machine(folder: Path, name: str, reviews: dict[str, ReviewMarks]) -> None:
    data = journal.header_line(journal.Header(name, name)) + journal.mark_lines(reviews)
    (folder / f"{name}.marks").write_bytes(data)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def bench_saves(root: Path, saves: int) -> None:
    folder = root / "saves"
    folder.mkdir()
    write_machine(folder, "me", marks("me", 10_000, 9, 1))  # 100,000 marks saved
    state = SharedState(folder, Machine("me", "me"), lock_dir=root / "locks")
    state.load()
    print(
        f"own file: {journal.count_marks(state.reviews):,} marks, {(folder / 'me.marks').stat().st_size / 1e6:.1f} MB"
    )
    keys = list(state.reviews)
    rng = random.Random(7)
    times = []
    for _ in range(saves):
        key = rng.choice(keys)
        start = time.perf_counter()
        state.set_checked(key, f"focus:{rng.randrange(9):08x}", rng.random() < 0.5)
        state.absorb(state.write(state.snapshot(), 2.0))  # what the saver runs, all of it
        times.append((time.perf_counter() - start) * 1000)
        assert not state.unsaved and state.failure is None
    print(
        f"folder: a mark saved with 100,000 saved: p50 {pct(times, 50):.2f} ms, p95 {pct(times, 95):.2f} ms, "
        f"max {max(times):.2f} ms ({saves} saves, each fsynced)"
    )
    single = ReadState(root / "single.json")
    single.reviews = marks("", 1000, 9, 1)  # 10,000 marks
    single.save()
    times = []
    for _ in range(min(saves, 20)):
        start = time.perf_counter()
        single.set_read(rng.choice(list(single.reviews)), rng.random() < 0.5)
        single.save()
        times.append((time.perf_counter() - start) * 1000)
    print(
        f"single file: a mark saved with 10,000 saved: p50 {pct(times, 50):.1f} ms, p95 {pct(times, 95):.1f} ms"
    )


def bench_start(root: Path, runs: int) -> None:
    folder = root / "start"
    folder.mkdir()
    for n in range(10):
        write_machine(folder, f"machine{n}", marks(f"machine{n}", 1000, 9, 100 + n))
    size = sum(p.stat().st_size for p in folder.iterdir())
    for collector in ("on", "off"):
        times = []
        for _ in range(runs):
            state = SharedState(folder, Machine("reader", "reader"), lock_dir=root / "locks")
            gc.collect()
            if collector == "off":
                gc.disable()  # as at the reader's start (tui.runtime)
            start = time.perf_counter()
            state.load()
            times.append((time.perf_counter() - start) * 1000)
            gc.enable()
            assert not state.warnings
        print(
            f"folder read at start, 10 machines x 10,000 marks ({size / 1e6:.1f} MB), gc {collector}: "
            f"median {statistics.median(times):.0f} ms, min {min(times):.0f} ms ({runs} runs)"
        )
    state = SharedState(folder, Machine("reader", "reader"), lock_dir=root / "locks")
    state.load()
    other = SharedState(folder, Machine("machine3", "machine3"), lock_dir=root / "locks3")
    other.reviews = {}
    times = []
    for n in range(50):
        other.set_read(f"vllm-project/vllm#{n}", True)
        other.absorb(other.write(other.snapshot(), 2.0))
        start = time.perf_counter()
        state.take(state.poll())
        times.append((time.perf_counter() - start) * 1000)
    print(f"a mark arriving from another machine (poll + take, 11 files there): p50 {pct(times, 50):.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--dir", type=Path, help="where to write (default: a temporary folder)")
    parser.add_argument("--saves", type=int, default=300)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        root = Path(tmp)
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, in {root}")
        bench_saves(root, args.saves)
        bench_start(root, args.runs)


if __name__ == "__main__":
    main()
