"""What a shared state folder costs: a mark saved with 100,000 marks saved, a
folder of 10 machines' files read at start, and marks arriving from another
machine; next to the single state file doing the same.

    python bench/sync_bench.py [--dir DIR] [--saves 300] [--runs 5] [--only start]

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
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tui.core.clock import Stamp
from tui.core.marks import Mark, ReviewMarks, Seen
from tui.store import journal, shared_scan
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
    times, cpu = [], []
    for _ in range(saves):
        key = rng.choice(keys)
        start, start_cpu = time.perf_counter(), time.process_time()
        state.set_checked(key, f"focus:{rng.randrange(9):08x}", rng.random() < 0.5)
        state.absorb(state.write(state.snapshot(), 2.0))  # what the saver runs, all of it
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        assert not state.unsaved and state.failure is None
    print(
        f"folder: a mark saved with 100,000 saved: p50 {pct(times, 50):.2f} ms, p95 {pct(times, 95):.2f} ms, "
        f"max {max(times):.2f} ms; CPU p50 {pct(cpu, 50):.2f} ms, p95 {pct(cpu, 95):.2f} ms "
        f"({saves} saves, each fsynced)"
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


def timed(
    runs: int, setup: Callable[[], SharedState], collector: str = "off"
) -> tuple[list[float], list[float]]:
    """Wall and CPU ms of `load()` over `runs` fresh states, gc as at the reader's start."""
    wall, cpu = [], []
    for _ in range(runs):
        state = setup()
        gc.collect()
        if collector == "off":
            gc.disable()  # as at the reader's start (tui.runtime)
        start, start_cpu = time.perf_counter(), time.process_time()
        state.load()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
        gc.enable()
        assert not state.warnings, state.warnings
    return wall, cpu


def report(what: str, times: tuple[list[float], list[float]]) -> None:
    wall, cpu = times
    print(
        f"{what}: median {statistics.median(wall):.1f} ms, min {min(wall):.1f} ms, "
        f"CPU median {statistics.median(cpu):.1f} ms ({len(wall)} runs)"
    )


def bench_start(root: Path, runs: int) -> None:
    folder = root / "start"
    folder.mkdir()
    for n in range(10):
        write_machine(folder, f"machine{n}", marks(f"machine{n}", 1000, 9, 100 + n))
    size = sum(p.stat().st_size for p in folder.iterdir())
    time.sleep(shared_scan.RACY_NS / 1e9 + 0.1)  # as at a real start: the files landed a while ago
    cache = root / "cache" / "shared-marks.marshal"

    def plain() -> SharedState:
        return SharedState(folder, Machine("reader", "reader"), lock_dir=root / "locks")

    def cached() -> SharedState:
        return SharedState(folder, Machine("reader", "reader"), lock_dir=root / "locks", cache=cache)

    def cold() -> SharedState:
        cache.unlink(missing_ok=True)
        return cached()

    what = f"folder read at start, 10 machines x 10,000 marks ({size / 1e6:.1f} MB)"
    for collector in ("on", "off"):
        report(f"{what}, no cache, gc {collector}", timed(runs, plain, collector))
    report(f"{what}, cache missing (read all, cache written), gc off", timed(runs, cold))
    cached().load()
    report(f"{what}, cache, nothing changed, gc off", timed(runs, cached))
    report(f"{what}, cache, nothing changed, gc on", timed(runs, cached, "on"))

    other = SharedState(folder, Machine("machine3", "machine3"), lock_dir=root / "locks3")
    other.load()

    def grown() -> SharedState:  # another machine saved 10 marks since (its file appended to)
        for n in range(10):
            other.set_read(f"vllm-project/vllm#{n}", not other.is_read(f"vllm-project/vllm#{n}"))
        other.absorb(other.write(other.snapshot(), 2.0))
        return cached()

    report(f"{what}, cache, one file grown by 10 marks, gc off", timed(runs, grown))

    def synced() -> SharedState:  # the same, as a sync tool brings it: a new file renamed over the old
        grown()
        data = (folder / "machine3.marks").read_bytes()
        (folder / ".machine3.marks.tmp").write_bytes(data)
        os.replace(folder / ".machine3.marks.tmp", folder / "machine3.marks")
        return cached()

    report(f"{what}, cache, one file replaced by a sync tool with 10 marks more, gc off", timed(runs, synced))

    def compacted() -> SharedState:  # rewritten by its writer: every file read again
        grown()
        other._write_whole({}, keep=True)
        return cached()

    report(f"{what}, cache, one file compacted by its writer, gc off", timed(runs, compacted))

    state = plain()
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
    parser.add_argument("--only", choices=("saves", "start"), help="run only this part")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        root = Path(tmp)
        print(f"python {sys.version.split()[0]}, {os.cpu_count()} cores, in {root}")
        if args.only != "start":
            bench_saves(root, args.saves)
        if args.only != "saves":
            bench_start(root, args.runs)


if __name__ == "__main__":
    main()
