"""Where start-up time goes: cProfile of loading and of the app's first mount.

    python bench/profile_startup.py CORPUS_DIR [--top 25]
    python bench/profile_startup.py bundled

Three passes, each in this process:

1. `load_paths` + `Library.build` alone, timed and profiled;
2. the app started with Pilot (`run_test(size=(120, 40))`) until the first
   `pilot.pause()` returns, profiled (this includes pass 1's work again, done in
   `on_mount`);
3. the same start-up unprofiled, with the time the garbage collector spent,
   per generation (cProfile does not show collections).

Profiles print the top functions by own time and by cumulative time.
For import time run `python -X importtime -c "import tui.ui.app"`.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import pstats
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))


def _print_stats(profile: cProfile.Profile, top: int, title: str) -> None:
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out)
        stats.sort_stats(key).print_stats(top)
        text = out.getvalue()
        body = text[text.find("   ncalls") :]
        print(f"\n#### {title}: top {top} by {key}\n\n```\n{body.rstrip()}\n```")


async def _start(paths: list[Path], state: Path) -> float:
    from tui.ui.app import PrDigestApp

    app = PrDigestApp(paths, state)
    started = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description="cProfile prdigest-tui's loading and first mount.")
    parser.add_argument("corpus", help="a folder of entry files, or `bundled`")
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()

    from tui.core.model import Library
    from tui.load.parse import load_paths
    from tui.store.locations import bundled_entries

    paths = [bundled_entries()] if args.corpus == "bundled" else [Path(args.corpus)]
    tmp = tempfile.TemporaryDirectory(prefix="prdigest-profile-")
    state = Path(tmp.name, "state.json")

    profile = cProfile.Profile()
    started = time.perf_counter()
    profile.enable()
    result = load_paths(paths)
    library = Library.build(result.files, result.problems)
    profile.disable()
    print(
        f"### load_paths + Library.build: {len(library.reviews)} reviews in {time.perf_counter() - started:.2f} s"
    )
    print("(under cProfile; see bench/startup.py for unprofiled figures)")
    _print_stats(profile, args.top, "load_paths + Library.build")
    del result, library

    profile = cProfile.Profile()
    profile.enable()
    elapsed = asyncio.run(_start(paths, state))
    profile.disable()
    print(f"\n### run_test start → first pause: {elapsed:.2f} s (under cProfile)")
    _print_stats(profile, args.top, "app start-up")

    gc.collect()
    pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
    began: list[float] = []

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            began.append(time.perf_counter())
        elif began:
            pauses[info["generation"]].append(time.perf_counter() - began.pop())

    gc.callbacks.append(on_gc)
    try:
        elapsed = asyncio.run(_start(paths, state))
    finally:
        gc.callbacks.remove(on_gc)
    print(f"\n### run_test start → first pause, unprofiled: {elapsed:.2f} s")
    for generation, times in pauses.items():
        print(f"- gc generation {generation}: {len(times)} collections, {sum(times):.3f} s")
    tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
