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
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import startup as S

ACTIONS = ("list_j", "open_enter", "check_space", "back_escape", "tag_switch")


def keys(corpus: Path, state: Path, speedups: str) -> dict:
    """bench/startup.py's key worker in a fresh process, with speedups on or off."""
    env = {**os.environ, "TEXTUAL_SPEEDUPS": speedups}
    out = subprocess.run(
        [sys.executable, str(S.BENCH / "startup.py"), "_keys", str(corpus), str(state), "100", "30", "30"],
        check=True,
        capture_output=True,
        text=True,
        cwd=S.BENCH,
        env=env,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


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

    from tui.loader import load_paths
    from tui.locations import bundled_entries

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
            cli = [] if folder is None else [str(folder)]
            for setting in ("0", "1"):
                env = {**S.child_env(tmp), "TEXTUAL_SPEEDUPS": setting, "XDG_CACHE_HOME": str(tmp / "cache")}
                argv = [exe, "--lang", "en", "--state", str(tmp / "state.json"), *cli]
                # Fill the parse cache, untimed (it is the same for both settings).
                S.run_in_pty(
                    argv,
                    tmp / "empty",
                    env,
                    S.app_checkpoints(counts[name]),
                    b"q",
                    settle=S.cache_filled(tmp / "cache"),
                )
            S.progress(f"first paint, {name}: {args.runs} runs each")
            for _ in range(args.runs):
                for setting in ("0", "1"):
                    env = {
                        **S.child_env(tmp),
                        "TEXTUAL_SPEEDUPS": setting,
                        "XDG_CACHE_HOME": str(tmp / "cache"),
                    }
                    bare = S.run_in_pty(
                        [sys.executable, str(S.BENCH / "bare_app.py")],
                        tmp / "empty",
                        env,
                        {"paint": ("hello",)},
                        b"\x11",
                    )
                    paint.setdefault(("bare", setting), []).append(bare.times["paint"])
                    app = S.run_in_pty(
                        [exe, "--lang", "en", "--state", str(tmp / "state.json"), *cli],
                        tmp / "empty",
                        env,
                        S.app_checkpoints(counts[name]),
                        b"q",
                    )
                    paint.setdefault((name, setting), []).append(app.times["paint"])
        S.progress(f"key latency at {args.reviews:,} reviews")
        latency: dict[str, list[dict]] = {"0": [], "1": []}
        for setting in ("0", "1", "0", "1"):
            latency[setting].append(keys(big, tmp / f"keys-{setting}-{len(latency[setting])}.json", setting))

        info = S.machine()
        print(
            f"textual-speedups on and off; {info['cpu']}, {info['cores']} cores, Python {info['python']}, "
            f"Textual {info['textual']}; {args.runs} interleaved runs per cell\n"
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
