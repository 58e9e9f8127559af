"""Cold loading against libyaml: is parsing entry files as fast as `yaml.load`?

    python bench/load_bench.py CORPUS_DIR [--runs 5]

libyaml alone (`yaml.load(text, Loader=yaml.CSafeLoader)` of every file, in one
process) is the floor we hold loading to: the reader does more than libyaml (a
position for every problem, text exactly as written, tags never constructed,
limits), but with both cores parsing, a cold start must not take longer than
libyaml alone would. Each figure is timed in a fresh process, page cache warm,
the cases interleaved run by run (so a busy moment hits all of them), and the
median of the runs is shown with its ratio to libyaml load:

- read bytes: every file read, nothing parsed;
- libyaml load: read + decode + `yaml.load` with CSafeLoader;
- libyaml compose: the same with `yaml.compose` (nodes only, no objects);
- `load_paths`: `tui.loader.load_paths([CORPUS_DIR])`, one process;
- 2 workers, end to end: the app's cold path, `tui.loading.parse_in_background`
  over every file with 2 worker processes into an empty `ParseCache`, from the
  call until every file is delivered: worker start-up (Python + imports), the
  marshal hand-over and the decoding in this (the UI) process included.
- pool, end to end: what a first start does (`tui.load.pool`): the workers
  started at once (`start_pool`, as the command line does before Textual is
  imported), then `parse_in_background` takes their answers; from the start
  of the workers until every file is delivered.

Each case's CPU (this process and its children: `resource.getrusage`) is
printed too: on a busy machine wall-clock times move with the load, CPU much less.

The garbage collector is off in every case, as in the parse workers and
the app's start-up.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES = {
    "read": "read bytes",
    "load": "libyaml load",
    "compose": "libyaml compose",
    "load_paths": "`load_paths`, 1 process",
    "workers": "2 workers, end to end",
    "pool": "pool, end to end",
}


def _files(corpus: Path) -> list[Path]:
    return sorted(corpus.rglob("*.yaml"))


def _child(case: str, corpus: Path) -> tuple[float, float]:
    """One timed case in this (fresh) process, wall and CPU (with children's);
    imports happen before the clock starts."""
    import asyncio
    import resource

    import yaml

    from tui.load.cache import ParseCache
    from tui.load.first_frame import parse_in_background
    from tui.load.parse import load_paths
    from tui.load.pool import start_pool

    def cpu() -> float:
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime

    files = _files(corpus)
    gc.disable()
    began = cpu()
    started = time.perf_counter()
    if case == "read":
        for path in files:
            path.read_bytes()
    elif case in ("load", "compose"):
        parse = yaml.load if case == "load" else yaml.compose
        for path in files:
            parse(path.read_bytes().decode("utf-8"), Loader=yaml.CSafeLoader)
    elif case == "load_paths":
        load_paths([corpus])
    elif case == "pool":
        delivered: dict = {}
        pool = start_pool(files, None, "")
        asyncio.run(parse_in_background(files, ParseCache(None), delivered.update, pool=pool))
        assert len(delivered) == len(files), (len(delivered), len(files))
    else:
        delivered: dict = {}
        asyncio.run(parse_in_background(files, ParseCache(None), delivered.update, workers=2))
        assert len(delivered) == len(files), (len(delivered), len(files))
    return time.perf_counter() - started, cpu() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--child", choices=CASES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child(args.child, args.corpus)))
        return
    files = _files(args.corpus)
    size = sum(p.stat().st_size for p in files)
    print(
        f"{args.corpus}: {len(files):,} files, {size / 1e6:.1f} MB, {args.runs} runs, {os.cpu_count()} CPUs"
    )
    times: dict[str, list[float]] = {case: [] for case in CASES}
    cpus: dict[str, list[float]] = {case: [] for case in CASES}
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(args.runs):
        for case in CASES:
            out = subprocess.run(
                [sys.executable, __file__, str(args.corpus), "--child", case],
                cwd=ROOT, env=env, check=True, capture_output=True, text=True,
            )  # fmt: skip
            wall, spent = json.loads(out.stdout)
            times[case].append(wall)
            cpus[case].append(spent)
    floor = statistics.median(times["load"])
    print(f"| {'case':<26} | median (s) | best (s) | ÷ libyaml load | CPU median (s) |")
    print(f"| {'-' * 26} | ---------: | -------: | -------------: | -------------: |")
    for case, label in CASES.items():
        median = statistics.median(times[case])
        spent = statistics.median(cpus[case])
        print(
            f"| {label:<26} | {median:10.3f} | {min(times[case]):8.3f} | {median / floor:13.2f}x | {spent:14.3f} |"
        )


if __name__ == "__main__":
    main()
