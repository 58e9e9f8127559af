"""A start with no parse cache, two checkouts interleaved: first paint and everything loaded.

    python bench/nocache_ab.py A_DIR B_DIR [--rounds 5] [--corpus DIR ...] [--floor]

Each DIR is a checkout with its own `.venv`. Every round, for each corpus
(default: a 100,000-review corpus of pages of 10 and a 10,000-review corpus of
one review a file, made under the temp folder unless given), starts the bare
app, then A and B (in turn first), each under the same pty as `startup.py`
with a fresh empty cache folder, until the All tag counts every review.
Recorded per run: wall time to the first paint and to all loaded; CPU time of
the reader's own threads at its first paint (`/proc/PID/task/*/schedstat`);
CPU of the reader and its reaped children (`/proc/PID/stat` utime, stime,
cutime, cstime) at all loaded; peak RSS, the reader's VmHWM plus each child's
last sampled VmHWM (as `startup.py` sums them). `--floor`: libyaml alone
parsing the corpus in a fresh process, once per round (as `startup.py`'s
floor). `--cold`: drop the page cache before every run (root; it slows
every other program on the machine). Timings are never pass/fail.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from first_paint_ab import cpu_s
from make_corpus import generate
from startup import (
    BENCH,
    SAMPLE_S,
    Stream,
    _quit,
    _read,
    _spawn,
    _status_kb,
    app_checkpoints,
    child_env,
    drop_caches,
    end_pty,
    floor_for,
    median,
    progress,
    sample_children,
)

TICK = os.sysconf("SC_CLK_TCK")


def stat_cpu_s(pid: int) -> tuple[float, float]:
    """utime + stime of `pid`, and cutime + cstime: its reaped children's."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK, (int(fields[13]) + int(fields[14])) / TICK


def one_run(argv: list[str], cwd: Path, env: dict[str, str], count: int | None) -> dict[str, float]:
    checkpoints = app_checkpoints(count) if count is not None else {"paint": ("hello",)}
    stream = Stream(checkpoints, {})
    kids: dict[int, int] = {}
    out: dict[str, float] = {}
    started = time.perf_counter()
    pid, fd = _spawn(argv, cwd, env)
    try:
        sampled = 0.0
        while not stream.done and time.perf_counter() - started < 120:
            chunk = _read(fd, SAMPLE_S)
            now = time.perf_counter()
            if chunk:
                stream.feed(chunk, now - started)
                if "paint" in stream.reached and "paint_cpu" not in out:
                    out["paint_cpu"] = cpu_s(pid)
            elif chunk == b"":
                break
            if now - sampled >= SAMPLE_S:
                sampled = now
                sample_children(pid, kids)
        if stream.done:
            own, children = stat_cpu_s(pid)
            out["cpu"], out["own_cpu"] = own + children, own
            out["rss_mb"] = ((_status_kb(pid, "VmHWM") or 0) + sum(kids.values())) / 1000
        _quit(pid, fd, b"q" if count is not None else b"\x11")
    finally:
        end_pty(pid, fd)
    if not stream.done:
        raise RuntimeError(f"{argv}: not loaded; screen tail: {stream.tail()!r}")
    out.update(stream.reached)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--corpus", type=Path, action="append", help="a corpus folder (repeatable)")
    parser.add_argument("--floor", action="store_true", help="libyaml alone, once per round and corpus")
    parser.add_argument("--cold", action="store_true", help="drop the page cache before every run")
    args = parser.parse_args()
    sides = {"A": args.a.resolve(), "B": args.b.resolve()}
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-nocache-ab-"))
    try:
        (tmp / "empty").mkdir()
        env = child_env(tmp)
        corpora: dict[str, Path] = {}
        if args.corpus:
            corpora = {path.name: path.resolve() for path in args.corpus}
        else:
            for name, reviews, per_file in (("100k", 100_000, 10), ("10k1", 10_000, 1)):
                generate(tmp / name, reviews, per_file=per_file)
                corpora[name] = tmp / name
        counts = {name: _count(folder) for name, folder in corpora.items()}
        results: dict[tuple[str, str], list[dict[str, float]]] = {}
        bare = [sys.executable, str(BENCH / "bare_app.py")]
        for n in range(args.rounds):
            for name, folder in corpora.items():
                if args.floor:
                    floor = floor_for(folder, env)(args.cold)
                    results.setdefault(("libyaml", name), []).append({"loaded": floor, "cpu": floor})
                if args.cold:
                    drop_caches()
                results.setdefault(("bare", name), []).append(one_run(bare, tmp / "empty", env, None))
                for side in ("A", "B") if n % 2 == 0 else ("B", "A"):
                    home = tmp / "caches" / side
                    shutil.rmtree(home, ignore_errors=True)
                    exe = str(sides[side] / ".venv" / "bin" / "prdigest-tui")
                    argv = [
                        exe,
                        "--lang",
                        "en",
                        "--no-watch",
                        "--state",
                        str(tmp / "state.json"),
                        str(folder),
                    ]
                    if args.cold:
                        drop_caches()
                    run = one_run(argv, tmp / "empty", {**env, "XDG_CACHE_HOME": str(home)}, counts[name])
                    results.setdefault((side, name), []).append(run)
                    progress(
                        f"round {n + 1} {name} {side}: paint {run['paint']:.3f} s (CPU {run['paint_cpu']:.3f}), "
                        f"loaded {run['loaded']:.3f} s (CPU {run['cpu']:.2f}, reader {run['own_cpu']:.2f}), "
                        f"{run['rss_mb']:.0f} MB"
                    )
        print(f"A = {sides['A']}\nB = {sides['B']}\n")
        print(
            "| corpus | runs | bare paint | A paint | B paint | A ÷ bare | B ÷ bare | bare paint CPU | A paint CPU "
            "| B paint CPU | A ÷ bare (CPU) | B ÷ bare (CPU) | A loaded | B loaded | libyaml | A ÷ libyaml "
            "| B ÷ libyaml | A CPU | B CPU | A reader CPU | B reader CPU | A MB | B MB |"
        )
        print("|---|---:|" + "---:|" * 21)
        for name in corpora:

            def med(who: str, key: str, name=name) -> float:
                return median([run[key] for run in results[(who, name)]])

            def over(who: str, base: str, key: str, name=name) -> float:
                pairs = zip(results[(who, name)], results[(base, name)], strict=True)
                return median([mine[key] / other[key] for mine, other in pairs])

            floor = med("libyaml", "loaded") if args.floor else float("nan")
            ly = (lambda who: over(who, "libyaml", "loaded")) if args.floor else (lambda who: float("nan"))
            print(
                f"| {name} | {args.rounds} | {med('bare', 'paint'):.3f} | {med('A', 'paint'):.3f} "
                f"| {med('B', 'paint'):.3f} | {over('A', 'bare', 'paint'):.2f}× | {over('B', 'bare', 'paint'):.2f}× "
                f"| {med('bare', 'paint_cpu'):.3f} | {med('A', 'paint_cpu'):.3f} | {med('B', 'paint_cpu'):.3f} "
                f"| {over('A', 'bare', 'paint_cpu'):.2f}× | {over('B', 'bare', 'paint_cpu'):.2f}× "
                f"| {med('A', 'loaded'):.3f} | {med('B', 'loaded'):.3f} | {floor:.3f} | {ly('A'):.2f}× | {ly('B'):.2f}× "
                f"| {med('A', 'cpu'):.2f} | {med('B', 'cpu'):.2f} | {med('A', 'own_cpu'):.2f} | {med('B', 'own_cpu'):.2f} "
                f"| {med('A', 'rss_mb'):.0f} | {med('B', 'rss_mb'):.0f} |"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


def _count(folder: Path) -> int:
    """Reviews in a `make_corpus.py` corpus: one `  - title:` line each."""
    return sum(p.read_bytes().count(b"\n  - title:") for p in folder.rglob("*.yaml"))


if __name__ == "__main__":
    raise SystemExit(main())
