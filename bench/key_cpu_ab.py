"""CPU per key at 100,000 reviews, in one Pilot run per side, interleaved
with another checkout: the figure behind "key CPU" in bench/README.md.

    python bench/key_cpu_ab.py --corpus /tmp/c100k [--before /work/main] [--rounds 5] [--n 10]

Each round starts one fresh process per side (the other checkout first on
even rounds), with its own empty state and config folders and a parse cache
kept per side between rounds (`$TMPDIR/key-cpu-cache/`: the first round
fills it); the keys start once everything is loaded and the screen has
settled for a second, with the reader's collector set as `tui.cli.run` sets it
(`tui.runtime.installed`). Keys, each pressed `--n` times (pairs twice):
j and k, pagedown and pageup, u twice (unread only, then off), v (the
verdict cycle), enter and escape, the three saved views of
`key_phases.CONFIG` (1, 2, 3) and t twice. A key is timed with
`time.process_time` from the press until Pilot finds the app idle (its frame
drawn). Prints the median over rounds of each side's per-key medians (ms),
and their ratio. Not a test; a side runs its own `tui` (the other checkout's
`.venv` must exist).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent


def plan(n: int) -> list[tuple[str, str]]:
    keys: list[tuple[str, str]] = []
    keys += [("j", "j"), ("k", "k")] * n
    keys += [("pagedown", "pagedown"), ("pageup", "pageup")] * n
    keys += [("u", "u"), ("u", "u")] * n
    keys += [("v", "v")] * n
    keys += [("enter", "enter"), ("escape", "escape")] * n
    keys += [("view", "1"), ("view", "2"), ("view", "3")] * n
    keys += [("t", "t"), ("t", "t")] * n
    return keys


def worker(root: Path, corpus: Path, n: int) -> dict[str, float]:
    """Run in the side's own process: `root`'s `tui`, this file's keys."""
    import asyncio
    import os
    import tempfile
    import time

    sys.path[:0] = [str(root), str(root / "bench")]
    tmp = Path(tempfile.mkdtemp(prefix="key-cpu-"))
    for name in ("XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        os.environ[name] = str(tmp / name)
    # The parse cache is kept per side between rounds: a start is then warm.
    os.environ["XDG_CACHE_HOME"] = str(
        Path(tempfile.gettempdir()) / "key-cpu-cache" / root.as_posix().strip("/").replace("/", "+")
    )
    import key_phases
    from reload_latency import wait_loaded

    from tui import runtime
    from tui.ui.app import PrDigestApp

    async def run() -> dict[str, list[float]]:
        state = tmp / "state" / "state.json"
        state.parent.mkdir(parents=True)
        app = PrDigestApp([corpus], state, config_path=key_phases.write_config(state))
        cpu: dict[str, list[float]] = {}
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await wait_loaded(app)
            await asyncio.sleep(1.0)
            await pilot.pause()
            for name, key in plan(n):
                start = time.process_time()
                await pilot.press(key)
                await pilot.pause()
                cpu.setdefault(name, []).append(time.process_time() - start)
        return cpu

    with runtime.installed():
        cpu = asyncio.run(run())
    return {name: statistics.median(times) * 1000 for name, times in cpu.items()}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--_worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args._worker is not None:
        print(json.dumps(worker(args._worker, args.corpus.resolve(), args.n)))
        return
    sides = {"this": ROOT}
    if args.before is not None:
        sides = {"before": args.before.resolve(), **sides}
    results: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
    for round_ in range(args.rounds):
        order = list(sides) if round_ % 2 else list(reversed(sides))
        for side in order:
            root = sides[side]
            python = str(root / ".venv" / "bin" / "python")
            out = subprocess.run(
                [python, str(HERE), "--corpus", str(args.corpus), "--n", str(args.n), "--_worker", str(root)],
                check=True,
                capture_output=True,
                text=True,
            )
            results[side].append(json.loads(out.stdout.strip().splitlines()[-1]))
            print(side, results[side][-1], file=sys.stderr)
    print(f"{'key':10}" + "".join(f"{side:>10}" for side in sides) + ("     ratio" if len(sides) > 1 else ""))
    for key in results["this"][0]:
        medians = [statistics.median(run[key] for run in results[side]) for side in sides]
        ratio = f"{medians[-1] / medians[0]:10.2f}" if len(medians) > 1 else ""
        print(f"{key:10}" + "".join(f"{m:10.2f}" for m in medians) + ratio)


if __name__ == "__main__":
    main()
