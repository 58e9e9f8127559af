"""Everything loaded, warm, of two checkouts, interleaved, with the CPU time spent until then.

    python bench/loaded_ab.py A_DIR B_DIR [--corpus DIR] [--reviews N] [--rounds 8]

Each DIR is a checkout with its own `.venv` (as for `ab.py`). Both are started
on the same corpus (default: `make_corpus.py` 100,000 reviews in pages of 10,
generated into a temporary folder; `--corpus` names one made before, read
only), each with a parse cache of its own, filled by a first run that quits
once the cache is written. Then every round starts the bare app, then A and B
(in turn first) under the same pty as `startup.py`, and records the wall time
from the spawn to the first paint and to *all loaded* (the All tag's `N/N` and
the status bar's `N reviews · `), and the CPU time the process has spent by
then (every thread's, from `/proc/PID/task/*/schedstat`; a forked child's is
not in it). Ratios are over the bare app's first paint of the same round.
Timings are never pass/fail.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from first_paint_ab import watch
from make_corpus import generate
from startup import (
    BENCH,
    app_checkpoints,
    cache_filled,
    child_env,
    median,
    progress,
    run_in_pty,
)


def timed(
    argv: list[str], cwd: Path, env: dict[str, str], checkpoints: dict, quit_key: bytes
) -> dict[str, float]:
    """Wall seconds from the spawn to each checkpoint, and CPU seconds at the last one."""
    reached, cpu = watch(argv, cwd, env, checkpoints, quit_key, limit=120)
    return {**reached, "cpu": cpu}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--corpus", type=Path, help="a corpus made before (read only)")
    parser.add_argument("--reviews", type=int, default=100_000, help="its reviews (or: generate this many)")
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()
    sides = {"A": args.a.resolve(), "B": args.b.resolve()}
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-loaded-ab-"))
    try:
        (tmp / "empty").mkdir()
        env = child_env(tmp)
        corpus = args.corpus
        if corpus is None:
            corpus = tmp / "corpus"
            generate(corpus, args.reviews, per_file=10)
        checkpoints = app_checkpoints(args.reviews)

        def argv(side: str) -> list[str]:
            exe = str(sides[side] / ".venv" / "bin" / "prdigest-tui")
            return [exe, "--lang", "en", "--state", str(tmp / f"state-{side}.json"), str(corpus)]

        def env_of(side: str) -> dict[str, str]:
            return {**env, "XDG_CACHE_HOME": str(tmp / "caches" / side)}

        for side in sides:  # fill each side's parse cache
            home = tmp / "caches" / side
            run_in_pty(argv(side), tmp / "empty", env_of(side), checkpoints, b"q", None, cache_filled(home))
        bare = [sys.executable, str(BENCH / "bare_app.py")]
        results: dict[str, list[dict[str, float]]] = {"bare": [], "A": [], "B": []}
        for n in range(args.rounds):
            results["bare"].append(timed(bare, tmp / "empty", env, {"paint": ("hello",)}, b"\x11"))
            for side in ("A", "B") if n % 2 == 0 else ("B", "A"):
                results[side].append(timed(argv(side), tmp / "empty", env_of(side), checkpoints, b"q"))
            progress(f"round {n + 1}/{args.rounds}")
        print(f"A = {sides['A']}\nB = {sides['B']}\ncorpus = {corpus} ({args.reviews:,} reviews), warm\n")
        print(
            "| side | runs | first paint (s) | ÷ bare | all loaded (s) | ÷ bare paint | "
            "loaded − paint (s) | CPU at all loaded (s) |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
        bare_paint = [run["paint"] for run in results["bare"]]
        print(f"| bare app | {len(bare_paint)} | {median(bare_paint):.3f} | 1.00× | – | – | – | – |")
        for side in ("A", "B"):
            runs = results[side]

            def ratio(moment: str, runs=runs) -> float:
                return median([run[moment] / base for run, base in zip(runs, bare_paint, strict=True)])

            print(
                f"| {side} | {len(runs)} | {median([r['paint'] for r in runs]):.3f} | {ratio('paint'):.2f}× "
                f"| {median([r['loaded'] for r in runs]):.3f} | {ratio('loaded'):.2f}× "
                f"| {median([r['loaded'] - r['paint'] for r in runs]):.3f} | {median([r['cpu'] for r in runs]):.3f} |"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
