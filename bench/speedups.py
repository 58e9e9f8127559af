"""Does textual-speedups make prdigest-tui faster? The same runs with it on and off.

    pip install textual-speedups          # into the venv prdigest-tui runs from
    python bench/speedups.py              # bundled digest and 10,000 reviews
    python bench/speedups.py --runs 20 --reviews 1000

Textual uses the `textual_speedups` package (Region, Offset, Size and Spacing
in Rust) when it is installed, unless TEXTUAL_SPEEDUPS=0. This script runs
both settings side by side, interleaved so that a drifting machine moves both:
first paint with a warm parse cache under a pty (bench/startup.py's
`run_in_pty`), for the bare app and for prdigest-tui, and key latency at the
largest corpus (bench/startup.py's key worker). It prints one table; nothing
here is a pass/fail test.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import startup as S

ACTIONS = [action for action in S.KEY_ACTIONS if action != "floor"]


def setting_env(tmp: Path, speedups: str) -> dict[str, str]:
    return {**S.child_env(tmp), "TEXTUAL_SPEEDUPS": speedups}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="first paints per program and setting")
    parser.add_argument("--reviews", type=int, default=10000, help="size of the large corpus")
    args = parser.parse_args()
    try:
        import textual_speedups  # noqa: F401
    except ImportError:
        parser.error("textual-speedups is not installed in this venv: pip install textual-speedups")

    from make_corpus import generate

    from tui.load.parse import load_paths
    from tui.store.locations import bundled_entries

    exe = shutil.which("prdigest-tui", path=str(Path(sys.executable).parent))
    if exe is None:
        parser.error("prdigest-tui is not installed next to this Python")
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-speedups-"))
    try:
        (tmp / "empty").mkdir()
        S.compile_tui()
        big = tmp / "corpus"
        S.progress(f"writing {args.reviews} reviews")
        generate(big, args.reviews, seed=0)
        corpora = {"bundled": None, f"{args.reviews:,}": big}
        counts = {
            "bundled": len(load_paths([bundled_entries()]).reviews),
            f"{args.reviews:,}": args.reviews,
        }
        paint: dict[tuple[str, str], list[float]] = {}
        for name, folder in corpora.items():
            argv = [exe, "--lang", "en", "--state", str(tmp / "state.json")] + (
                [] if folder is None else [str(folder)]
            )
            cache = tmp / "cache" / name  # one parse cache per corpus, as startup.app_series keeps them
            envs = {s: {**setting_env(tmp, s), "XDG_CACHE_HOME": str(cache)} for s in ("0", "1")}
            # Fill the parse cache once, untimed: it is the same for both settings.
            S.run_in_pty(
                argv,
                tmp / "empty",
                envs["0"],
                S.app_checkpoints(counts[name]),
                b"q",
                settle=S.cache_filled(cache),
            )
            S.progress(f"first paint, {name}: {args.runs} runs each")
            for _ in range(args.runs):
                for setting, env in envs.items():
                    paint.setdefault(("bare", setting), []).append(S.bare_once(tmp, env).times["paint"])
                    app = S.run_in_pty(argv, tmp / "empty", env, S.app_checkpoints(counts[name]), b"q")
                    paint.setdefault((name, setting), []).append(app.times["paint"])
        S.progress(f"key latency at {args.reviews:,} reviews")
        latency: dict[str, list[dict]] = {"0": [], "1": []}
        for setting in ("0", "1", "0", "1"):
            state = tmp / f"keys-{setting}-{len(latency[setting])}.json"
            worker = ["_keys", str(big), str(state), "100", "30", "30"]
            latency[setting].append(S.run_worker(worker, setting_env(tmp, setting)))

        info = S.machine()
        print(
            f"textual-speedups on and off; {info['cpu']}, {info['cores']} cores, Python {info['python']}, "
            f"Textual {info['textual']}; {args.runs} interleaved runs per cell (the bare app's: "
            f"{2 * args.runs}, run beside both corpora)\n"
        )
        print(
            "| first paint, warm parse cache | speedups off (s) | on (s) | on ÷ off | ÷ bare, off | ÷ bare, on |"
        )
        print("|---|---:|---:|---:|---:|---:|")
        bare = {s: statistics.median(paint[("bare", s)]) for s in ("0", "1")}
        for name in ["bare", *corpora]:
            off, on = (statistics.median(paint[(name, s)]) for s in ("0", "1"))
            print(
                f"| {name} | {off:.3f} | {on:.3f} | {on / off:.2f}× | {off / bare['0']:.2f}× | {on / bare['1']:.2f}× |"
            )
        print(
            f"\n| key at {args.reviews:,} reviews, p95 in ms (two runs each) "
            "| key → frame, off | on | CPU, off | on |"
        )
        print("|---|---:|---:|---:|---:|")

        def both(setting: str, action: str, figure: str) -> str:
            return " / ".join(f"{run[action][figure] * 1000:.0f}" for run in latency[setting])

        for action in ACTIONS:
            print(
                f"| {action} | {both('0', action, 'frame_p95')} | {both('1', action, 'frame_p95')} "
                f"| {both('0', action, 'cpu_p95')} | {both('1', action, 'cpu_p95')} |"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
