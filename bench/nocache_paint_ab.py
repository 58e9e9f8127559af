"""First paint with no parse cache, two checkouts interleaved, many rounds.

    python bench/nocache_paint_ab.py A_DIR B_DIR --corpus DIR [--rounds 20] [--warm]

Each DIR is a checkout with its own `.venv`. Every round starts the bare app,
then A and B (in turn first), each under the same pty as `startup.py`, with
a fresh empty cache folder, and quits each once its first frame is on screen
(the reader then waits for its parse workers to stop). Recorded per run:
wall time from the spawn to the first paint; CPU of the reader's own threads
then (`/proc/PID/task/*/schedstat`), and of its child processes then (the
parse workers, and any fork of theirs found under them); the 1-minute load
average just before the spawn. `--warm`: each side's cache folder is
filled once (a start left until its parse cache is written) and kept, for
the same figures of a warm start. Printed: medians, quartiles and the ratio to
the bare run of the same round. Timings are never pass/fail.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from first_paint_ab import cpu_s
from startup import (
    BENCH,
    Stream,
    _quit,
    _read,
    _spawn,
    app_checkpoints,
    cache_filled,
    child_env,
    end_pty,
    progress,
    run_in_pty,
)


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{parent}/task").iterdir():
                with contextlib.suppress(OSError):
                    kids = [int(k) for k in (task / "children").read_text().split()]
                    found += kids
                    todo += kids
    return found


def one_run(argv: list[str], cwd: Path, env: dict[str, str], bare: bool) -> dict[str, float]:
    stream = Stream({"paint": ("hello",)} if bare else {"paint": app_checkpoints(1)["paint"]}, {})
    load = os.getloadavg()[0]
    started = time.perf_counter()
    pid, fd = _spawn(argv, cwd, env)
    out: dict[str, float] = {"load": load}
    try:
        while not stream.done and time.perf_counter() - started < 60:
            chunk = _read(fd, 0.02)
            if chunk:
                stream.feed(chunk, time.perf_counter() - started)
                if stream.done:
                    out["cpu"] = cpu_s(pid)
                    out["kids_cpu"] = sum(cpu_s(kid) for kid in _descendants(pid))
            elif chunk == b"":
                break
        if stream.done:
            _quit(pid, fd, b"\x11" if bare else b"q")
    finally:
        end_pty(pid, fd)
    if not stream.done:
        raise RuntimeError(f"{argv}: no first paint; screen tail: {stream.tail()!r}")
    out["paint"] = stream.reached["paint"]
    return out


def _spread(values: list[float]) -> str:
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return f"{q[1]:.3f} ({q[0]:.3f}-{q[2]:.3f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--warm", action="store_true", help="with a filled parse cache")
    args = parser.parse_args()
    sides = {"A": args.a.resolve(), "B": args.b.resolve()}
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-nocache-paint-"))
    runs: dict[str, list[dict[str, float]]] = {"bare": [], "A": [], "B": []}
    try:
        (tmp / "empty").mkdir()
        env = child_env(tmp)
        bare = [sys.executable, str(BENCH / "bare_app.py")]

        def argv_of(side: str) -> list[str]:
            exe = str(sides[side] / ".venv" / "bin" / "prdigest-tui")
            state = str(tmp / f"state-{side}.json")
            return [exe, "--lang", "en", "--no-watch", "--state", state, str(args.corpus.resolve())]

        if args.warm:
            count = sum(p.read_bytes().count(b"\n  - title:") for p in args.corpus.rglob("*.yaml"))
            for side in sides:
                home = tmp / "caches" / side
                run_env = {**env, "XDG_CACHE_HOME": str(home)}
                checkpoints = app_checkpoints(count)
                run_in_pty(argv_of(side), tmp / "empty", run_env, checkpoints, b"q", None, cache_filled(home))
                run_in_pty(argv_of(side), tmp / "empty", run_env, checkpoints, b"q")  # the table, too
        for n in range(args.rounds):
            runs["bare"].append(one_run(bare, tmp / "empty", env, True))
            for side in ("A", "B") if n % 2 == 0 else ("B", "A"):
                home = tmp / "caches" / side
                if not args.warm:
                    shutil.rmtree(home, ignore_errors=True)
                run_env = {**env, "XDG_CACHE_HOME": str(home)}
                runs[side].append(one_run(argv_of(side), tmp / "empty", run_env, False))
            progress(
                f"round {n + 1}: bare {runs['bare'][-1]['paint']:.3f}, A {runs['A'][-1]['paint']:.3f} "
                f"(CPU {runs['A'][-1]['cpu']:.3f} + workers {runs['A'][-1]['kids_cpu']:.3f}), "
                f"B {runs['B'][-1]['paint']:.3f} (CPU {runs['B'][-1]['cpu']:.3f} + workers "
                f"{runs['B'][-1]['kids_cpu']:.3f}), load {runs['bare'][-1]['load']:.2f}"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    condition = "warm" if args.warm else "no parse cache"
    print(f"A = {sides['A']}\nB = {sides['B']}\ncorpus = {args.corpus}, {condition}, {args.rounds} rounds\n")
    print(
        "| who | paint median (quartiles) | ÷ bare, median (quartiles) | CPU at paint | workers' CPU at paint | load avg |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for who, series in runs.items():
        ratios = [r["paint"] / b["paint"] for r, b in zip(series, runs["bare"], strict=True)]
        kids = _spread([r.get("kids_cpu", 0.0) for r in series]) if who != "bare" else "–"
        print(
            f"| {who} | {_spread([r['paint'] for r in series])} | {_spread(ratios)} "
            f"| {_spread([r['cpu'] for r in series])} | {kids} "
            f"| {_spread([r['load'] for r in series])} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
