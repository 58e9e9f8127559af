"""Cold first paint, two checkouts interleaved, with no parse cache.

    python bench/cold_paint_ab.py A_DIR B_DIR [--corpus DIR] [--rounds 4] [--drop]

Each DIR is a checkout with its own `.venv`. Before every run (the bare app,
then A and B, in turn first) the files a start reads are taken out of the page
cache: with `posix_fadvise(DONTNEED)` on every file under Python's standard
library, both checkouts' `.venv` and `tui`, `bench/` and the corpus (a proxy
that leaves the rest of the machine's page cache alone, and needs no root), or
with `--drop` the whole page cache (`startup.py`'s cold case; root). Recorded:
wall time from spawn to the first paint (under a pty, as `startup.py`), the
reader's own CPU at that moment, and the ratio to the bare app's cold paint in
the same round. Timings are never pass/fail.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from first_paint_ab import cpu_s
from startup import BENCH, Stream, _quit, _read, _spawn, app_checkpoints, child_env, drop_caches, end_pty


def evict(trees: list[Path]) -> int:
    """Take every file under `trees` out of the page cache; how many."""
    count = 0
    for tree in trees:
        for folder, _, names in os.walk(tree):
            for name in names:
                try:
                    fd = os.open(os.path.join(folder, name), os.O_RDONLY | os.O_NOFOLLOW)
                except OSError:
                    continue
                try:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                    count += 1
                finally:
                    os.close(fd)
    return count


def paint(argv: list[str], cwd: Path, env: dict[str, str], bare: bool) -> tuple[float, float]:
    """Seconds from spawn to the first paint, and the reader's CPU then."""
    stream = Stream({"paint": ("hello",)} if bare else app_checkpoints(10**9), {})
    pid, fd = _spawn(argv, cwd, env)
    started = time.perf_counter()
    try:
        while "paint" not in stream.reached and time.perf_counter() - started < 60:
            chunk = _read(fd, 0.02)
            if chunk:
                stream.feed(chunk, time.perf_counter() - started)
            elif chunk == b"":
                break
        if "paint" not in stream.reached:
            raise RuntimeError(f"{argv}: no paint; screen tail: {stream.tail()!r}")
        cpu = cpu_s(pid)
        _quit(pid, fd, b"\x11" if bare else b"q")
    finally:
        end_pty(pid, fd)
    return stream.reached["paint"], cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--corpus", type=Path, default=Path("/tmp/c100k"))
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--drop", action="store_true", help="drop the whole page cache (root)")
    args = parser.parse_args()
    sides = {"A": args.a.resolve(), "B": args.b.resolve()}
    trees = [Path(sys.base_prefix) / "lib", args.corpus.resolve(), BENCH]
    trees += [side / sub for side in sides.values() for sub in (".venv", "tui")]
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-cold-ab-"))
    (tmp / "empty").mkdir()
    env = child_env(tmp)
    runs: dict[str, list[tuple[float, float]]] = {}

    def cold(argv: list[str], bare: bool) -> tuple[float, float]:
        home = tmp / "cache"
        shutil.rmtree(home, ignore_errors=True)
        if not (args.drop and drop_caches()):
            evict(trees)
        return paint(argv, tmp / "empty", {**env, "XDG_CACHE_HOME": str(home)}, bare)

    try:
        for n in range(args.rounds):
            bare = cold([sys.executable, str(BENCH / "bare_app.py")], True)
            runs.setdefault("bare", []).append(bare)
            for side in ("A", "B") if n % 2 == 0 else ("B", "A"):
                exe = str(sides[side] / ".venv" / "bin" / "prdigest-tui")
                argv = [
                    exe,
                    "--lang",
                    "en",
                    "--no-watch",
                    "--state",
                    str(tmp / "state.json"),
                    str(args.corpus),
                ]
                run = cold(argv, False)
                runs.setdefault(side, []).append(run)
                print(
                    f"round {n + 1} {side}: paint {run[0]:.3f} s (CPU {run[1]:.3f}), bare {bare[0]:.3f} s, "
                    f"{run[0] / bare[0]:.2f}×",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"A = {sides['A']}\nB = {sides['B']}\n")
    print("| | cold paint (median) | its CPU | ÷ the bare app's cold paint, same round (median) |")
    print("|---|---:|---:|---:|")
    for side, values in runs.items():
        ratios = [run[0] / bare[0] for run, bare in zip(values, runs["bare"], strict=True)]
        print(
            f"| {side} | {statistics.median(v[0] for v in values):.3f} s "
            f"| {statistics.median(v[1] for v in values):.3f} s | {statistics.median(ratios):.2f}× |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
