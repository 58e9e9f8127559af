"""First paint of two checkouts, interleaved, with the CPU time spent until it.

    python bench/first_paint_ab.py A_DIR B_DIR [--rounds 8] [--big] [--only 100k] [--state FILE [--state-kept]]

Each DIR is a checkout with its own `.venv` (as for `ab.py`). Every round, for
each condition (corpus x warm / no parse cache), starts the bare app, then A
and B (in turn first), under the same pty as `startup.py`, and records the wall
time until the first paint and the CPU time the process has spent by then
(every thread's, from `/proc/PID/task/*/schedstat`, read as the first paint
appears; a forked parser child is not in it). CPU time moves less than wall
time on a busy machine: six sessions on two cores double a wall figure, not a
CPU one. Corpora: the bundled digest and `make_corpus.py` 10,000; `--big` adds
100,000 (pages of 10) and 10,000 one a file; `--only` keeps the corpora named.
`--state FILE`: every start finds a copy of this state file (e.g. one of
`big_state.py`'s) instead of none; with `--state-kept` it is copied in once
per side and left as the reader leaves it, as for a reader started again (its
copy in the cache folder, `tui.store.state_copy`, then stays the file's, and a
warm start reads it; a start with no cache reads the file). Timings are never
pass/fail.
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_corpus import generate
from startup import (
    BENCH,
    PAINT_VERDICT,
    STATUS_COUNT,
    Stream,
    _quit,
    _read,
    _spawn,
    app_checkpoints,
    cache_filled,
    child_env,
    end_pty,
    median,
    progress,
    run_in_pty,
)


def cpu_s(pid: int) -> float:
    total = 0
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError):
                total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def watch(
    argv: list[str], cwd: Path, env: dict[str, str], checkpoints: dict, quit_key: bytes, limit: float = 60
) -> tuple[dict[str, float], float]:
    """Wall seconds from the spawn to each of `checkpoints`, and the CPU
    seconds spent (`cpu_s`) when the last of them is on screen."""
    stream = Stream(checkpoints, {})
    started = time.perf_counter()
    pid, fd = _spawn(argv, cwd, env)
    cpu = None
    try:
        while not stream.done and time.perf_counter() - started < limit:
            chunk = _read(fd, 0.05)
            if chunk:
                stream.feed(chunk, time.perf_counter() - started)
                if stream.done:
                    cpu = cpu_s(pid)
            elif chunk == b"":
                break
        _quit(pid, fd, quit_key)
    finally:
        end_pty(pid, fd)
    if not stream.done or cpu is None:
        raise RuntimeError(
            f"{argv}: not all of {sorted(checkpoints)} on screen; screen tail: {stream.tail()!r}"
        )
    return stream.reached, cpu


def first_paint(argv: list[str], cwd: Path, env: dict[str, str], markers: tuple, quit_key: bytes):
    """(wall, CPU) seconds from the spawn to the first paint."""
    reached, cpu = watch(argv, cwd, env, {"paint": markers}, quit_key)
    return reached["paint"], cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--big", action="store_true")
    parser.add_argument("--only", nargs="+", help="only these corpora (8, 10k, 100k, 10k1)")
    parser.add_argument("--state", type=Path, help="a state file each start begins with")
    parser.add_argument(
        "--state-kept", action="store_true", help="copy --state in once per side, not per start"
    )
    args = parser.parse_args()
    sides = {"A": args.a.resolve(), "B": args.b.resolve()}
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-paint-ab-"))
    try:
        (tmp / "empty").mkdir()
        env = child_env(tmp)
        corpora: dict[str, tuple[list[str], int]] = (
            {} if args.only and "8" not in args.only else {"8": ([], 8)}
        )
        sizes = [("10k", 10_000, 10)] + ([("100k", 100_000, 10), ("10k1", 10_000, 1)] if args.big else [])
        for name, reviews, per_file in sizes:
            if args.only and name not in args.only:
                continue
            generate(tmp / name, reviews, per_file=per_file)
            corpora[name] = ([str(tmp / name)], reviews)
        conditions = [(name, warm) for name in corpora for warm in (True, False)]

        def start(side: str, name: str, warm: bool, settle: bool = False):
            exe = str(sides[side] / ".venv" / "bin" / "prdigest-tui")
            home = tmp / "caches" / f"{side}-{name}-{'warm' if warm else 'none'}"
            if not warm:
                shutil.rmtree(home, ignore_errors=True)
            run_env = {**env, "XDG_CACHE_HOME": str(home)}
            paths, count = corpora[name]
            state = tmp / f"state-{side}.json"
            if args.state is not None and not (args.state_kept and state.exists()):
                shutil.copyfile(args.state, state)
            argv = [exe, "--lang", "en", "--state", str(state), *paths]
            if settle:  # fill the warm cache
                run_in_pty(
                    argv, tmp / "empty", run_env, app_checkpoints(count), b"q", None, cache_filled(home)
                )
                return None
            return first_paint(argv, tmp / "empty", run_env, (STATUS_COUNT, PAINT_VERDICT), b"q")

        for side in sides:
            for name, warm in conditions:
                if warm:
                    start(side, name, warm, settle=True)
        results: dict[tuple[str, str], list[tuple[float, float]]] = {}
        bare = [sys.executable, str(BENCH / "bare_app.py")]
        for n in range(args.rounds):
            for name, warm in conditions:
                label = f"{name} {'warm' if warm else 'no cache'}"
                results.setdefault(("bare", label), []).append(
                    first_paint(bare, tmp / "empty", env, ("hello",), b"\x11")
                )
                for side in ("A", "B") if n % 2 == 0 else ("B", "A"):
                    results.setdefault((side, label), []).append(start(side, name, warm))  # type: ignore[arg-type]
            progress(f"round {n + 1}/{args.rounds}")
        print(f"A = {sides['A']}\nB = {sides['B']}\n")
        print(
            "| corpus, condition | bare CPU | A CPU | B CPU | A ÷ bare (CPU) | B ÷ bare (CPU) "
            "| bare wall | A wall | B wall |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for name, warm in conditions:
            label = f"{name} {'warm' if warm else 'no cache'}"
            row = {who: results[(who, label)] for who in ("bare", "A", "B")}

            def ratio(who: str, row=row) -> float:
                return median([mine[1] / base[1] for mine, base in zip(row[who], row["bare"], strict=True)])

            cpu = {who: median([c for _, c in runs]) for who, runs in row.items()}
            wall = {who: median([w for w, _ in runs]) for who, runs in row.items()}
            print(
                f"| {label} | {cpu['bare']:.3f} | {cpu['A']:.3f} | {cpu['B']:.3f} | {ratio('A'):.2f}× "
                f"| {ratio('B'):.2f}× | {wall['bare']:.3f} | {wall['A']:.3f} | {wall['B']:.3f} |"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
