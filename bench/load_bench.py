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
}


def _files(corpus: Path) -> list[Path]:
    return sorted(corpus.rglob("*.yaml"))


def _child(case: str, corpus: Path) -> float:
    """One timed case in this (fresh) process; imports happen before the clock starts."""
    import asyncio

    import yaml

    from tui.load.cache import ParseCache
    from tui.load.first_frame import parse_in_background
    from tui.load.parse import load_paths

    files = _files(corpus)
    gc.disable()
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
    else:
        delivered: dict = {}
        asyncio.run(parse_in_background(files, ParseCache(None), delivered.update, workers=2))
        assert len(delivered) == len(files), (len(delivered), len(files))
    return time.perf_counter() - started


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
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(args.runs):
        for case in CASES:
            out = subprocess.run(
                [sys.executable, __file__, str(args.corpus), "--child", case],
                cwd=ROOT, env=env, check=True, capture_output=True, text=True,
            )  # fmt: skip
            times[case].append(json.loads(out.stdout))
    floor = statistics.median(times["load"])
    print(f"| {'case':<26} | median (s) | best (s) | ÷ libyaml load |")
    print(f"| {'-' * 26} | ---------: | -------: | -------------: |")
    for case, label in CASES.items():
        median = statistics.median(times[case])
        print(f"| {label:<26} | {median:10.3f} | {min(times[case]):8.3f} | {median / floor:13.2f}x |")


if __name__ == "__main__":
    main()
