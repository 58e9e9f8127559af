"""Hot reload latency: from a file write to the screen showing the change.

    python bench/reload_latency.py [--edits 40] [--sizes 10 10000]

For each corpus size (generated with make_corpus.py into a temporary folder),
the app runs in-process with Pilot at 120x40 and the real watcher. Edits start
once every file is loaded and the watcher runs (`wait_loaded`). The review
shown is the first one listed; each edit rewrites its file (temp file + rename,
like an editor) with a new marker in the review's first focus item, and the
clock stops when the review pane's rendered lines contain the marker. Prints
p50/p95/max per size and the ratio of the large corpus to the small one.
Not a test: timings never decide pass or fail. bench/startup.py runs `measure`
for its own report.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))

from tui.ui.app import PrDigestApp  # noqa: E402
from tui.ui.widgets.review_view import ReviewView  # noqa: E402


def percentile(values: list[float], pct: float) -> float:
    """Nearest rank, as bench/startup.py reports it: p95 of 12 values is the largest."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(pct / 100 * len(ordered)) - 1)]


def shown(view: ReviewView, marker: str) -> bool:
    return any(marker in view.render_line(y).text for y in range(view.size.height))


def loaded(app: PrDigestApp) -> bool:
    """Every file is in and the watcher runs: `load_rest` (worker group "load")
    parses what the first frame did not have, then starts `watch_entries`
    ("watch"). `app.reader.load_progress` alone is None both before it starts and after."""
    running = {worker.group for worker in app.workers if not worker.is_finished}
    return app.reader.load_progress is None and "load" not in running and "watch" in running


async def wait_loaded(app: PrDigestApp, timeout: float = 120.0) -> None:
    """Wait until `loaded(app)`: before that, batches of a big corpus still
    arrive (and would land in any timing), and nothing watches the files yet."""
    assert app.loads.watching, "wait_loaded needs the watcher on"
    deadline = time.monotonic() + timeout
    while not loaded(app):
        assert time.monotonic() < deadline, "never finished loading"
        await asyncio.sleep(0.05)


async def measure(corpus: Path, tmp: Path, edits: int) -> list[float]:
    """Seconds from each edit (after a first, untimed one) to the screen showing it."""
    app = PrDigestApp([corpus], tmp / "state.json", cache_path=tmp / "cache.bin")
    latencies: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_loaded(app)
        await pilot.pause()
        view = app.query_one(ReviewView)
        review = view.review
        assert review is not None
        path = review.location.path
        original = path.read_text(encoding="utf-8")
        first = review.focus[0].text.splitlines()[0]
        assert first in original
        await asyncio.sleep(0.5)  # the watcher is up
        for n in range(edits + 1):
            marker = f"MARK{n:04d}"
            text = original.replace(first, f"{marker} {first}", 1)
            tmp_file = path.with_name(f".{path.name}.tmp{n}")
            tmp_file.write_text(text, encoding="utf-8")
            started = time.perf_counter()
            os.replace(tmp_file, path)
            while not shown(view, marker):
                if time.perf_counter() - started > 10:
                    raise AssertionError(f"edit {n} never shown")
                await asyncio.sleep(0.002)
            if n:  # the first edit warms up
                latencies.append(time.perf_counter() - started)
            await asyncio.sleep(0.15)  # edits apart, as a person saves
        path.write_text(original, encoding="utf-8")
    return latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 10_000])
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for size in args.sizes:
            corpus = tmp / f"corpus-{size}"
            subprocess.run(
                [sys.executable, str(BENCH / "make_corpus.py"), str(corpus), "--reviews", str(size)],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            work = tmp / f"run-{size}"
            work.mkdir()
            lat = asyncio.run(measure(corpus, work, args.edits))
            rows.append((size, statistics.median(lat), percentile(lat, 95), max(lat)))
            print(f"  {size} reviews: p50 {rows[-1][1] * 1000:.0f} ms", file=sys.stderr, flush=True)
    print("| reviews | edits | p50 (ms) | p95 (ms) | max (ms) |")
    print("|---:|---:|---:|---:|---:|")
    for size, p50, p95, worst in rows:
        print(f"| {size:,} | {args.edits} | {p50 * 1000:.0f} | {p95 * 1000:.0f} | {worst * 1000:.0f} |")
    if len(rows) > 1:
        print(f"\nlargest / smallest, p50: {rows[-1][1] / rows[0][1]:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
