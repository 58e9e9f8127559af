"""Start-up, memory and key-latency figures for prdigest-tui, next to a bare Textual app.

    python bench/startup.py            # full run: bundled 8, 1,000 and 10,000 reviews
    python bench/startup.py --quick    # 3 runs, bundled 8 and 1,000 only
    python bench/startup.py --runs 20 --keep

What is measured (see bench/README.md for how to read it):

a. First paint in a real pseudo-terminal (120x40, TERM=xterm-256color): the
   program is spawned under `pty.fork()`, its output is read, ANSI sequences
   are stripped and the clock stops when the marker is on screen: for
   prdigest-tui "<N> reviews ·" (status bar) and the start of the first title
   in reading order; for the bare app "hello". Then `q` (ctrl+q for the bare
   app) is sent and the time to exit is recorded; a program still running
   after a timeout is killed. One cold run (page cache dropped when we are
   allowed to) and R warm runs per program; median and p95 (nearest rank).
b. libyaml alone: `yaml.load(..., Loader=yaml.CSafeLoader)` (and
   `yaml.compose`, which is what tui.loader does) of every corpus file,
   timed in a fresh process: the floor for loading. Beside it the app's own
   `load_paths` and `Library.build`.
c. Peak RSS (VmHWM from /proc/PID/status) of each program just before quitting.
d. Key latency in-process with Textual's Pilot (`run_test(size=(120, 40))`):
   j in the review list, switching tags (shift+tab, then j/k), opening a
   review (enter) and going back (escape); wall time from the press until
   `await pilot.press(...)` and `await pilot.pause()` return, and the process
   CPU time spent meanwhile. The bare app pressing an unbound key gives the
   Pilot floor (press + pause wait for idle in 20 ms steps).

Timings are measurements, never pass/fail tests.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime as dt
import fcntl
import json
import math
import os
import platform
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))

COLUMNS, LINES = 120, 40
PAINT_TIMEOUT = 120.0
QUIT_TIMEOUT = 15.0

# CSI, OSC (to BEL or ST), DCS/SOS/PM/APC (to ST), then any other ESC sequence.
ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[ -/]*[0-~]?"
)


# -- small helpers -------------------------------------------------------------


def percentile(values: list[float], pct: float) -> float:
    """Nearest-rank percentile: p95 of 10 values is the largest."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(pct / 100 * len(ordered)) - 1)]


def median(values: list[float]) -> float:
    return statistics.median(values)


def machine() -> dict[str, str]:
    import textual
    import yaml

    cpu = platform.processor() or "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.0f} GB RAM"
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": str(os.cpu_count()),
        "mem": mem,
        "python": platform.python_version(),
        "textual": textual.__version__,
        "pyyaml": f"{yaml.__version__} (libyaml {'yes' if yaml.__with_libyaml__ else 'NO'})",
        "kernel": platform.release(),
        "tree": _tree(),
    }


def _tree() -> str:
    """The commit measured, and whether tui/ had uncommitted changes."""
    try:
        head = subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", "tui"], capture_output=True, text=True
        ).stdout.splitlines()
    except OSError:
        return "unknown"
    return f"{head}" + (f" + uncommitted changes in {len(dirty)} tui/ files" if dirty else "")


def drop_caches() -> bool:
    """Drop the OS page cache (root only). True when it worked."""
    try:
        os.sync()
        Path("/proc/sys/vm/drop_caches").write_text("3\n")
        return True
    except OSError:
        return False


# -- a. first paint in a pseudo-terminal -----------------------------------------


def run_in_pty(
    argv: list[str],
    cwd: Path,
    env: dict[str, str],
    markers: list[str],
    quit_key: bytes,
    watch: tuple[str, ...] = (),
) -> dict[str, object]:
    """Spawn argv under a pty, wait for every marker on screen, quit it.

    Returns seconds from spawn to first visible text and to the markers, peak
    RSS in kB just before quitting, seconds from the quit key to exit, and
    which of the `watch` strings had been drawn by the time of the markers.
    """
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # child
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
            os.chdir(cwd)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    raw = bytearray()
    first_text: float | None = None
    paint: float | None = None
    hwm_kb: int | None = None
    quit_s: float | None = None
    seen: dict[str, bool] = {}
    exited = False
    status = 0
    try:
        deadline = started + PAINT_TIMEOUT
        while paint is None and time.perf_counter() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if not ready:
                if os.waitpid(pid, os.WNOHANG) != (0, 0):
                    exited = True
                    break
                continue
            try:
                chunk = os.read(fd, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                break
            now = time.perf_counter()
            raw += chunk
            screen = ANSI.sub("", raw.decode("utf-8", "ignore"))
            if first_text is None and screen.strip():
                first_text = now - started
            if all(marker in screen for marker in markers):
                paint = now - started
                seen = {text: text in screen for text in watch}
        if paint is not None:
            try:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmHWM:"):
                        hwm_kb = int(line.split()[1])
            except OSError:
                pass
            sent = time.perf_counter()
            os.write(fd, quit_key)
            deadline = sent + QUIT_TIMEOUT
            while time.perf_counter() < deadline:
                done, status = os.waitpid(pid, os.WNOHANG)
                if done:
                    exited = True
                    quit_s = time.perf_counter() - sent
                    break
                ready, _, _ = select.select([fd], [], [], 0.01)
                if ready:
                    with contextlib.suppress(OSError):
                        os.read(fd, 1 << 16)
    finally:
        if not exited:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        os.close(fd)
    if paint is None:
        tail = ANSI.sub("", raw.decode("utf-8", "ignore"))[-600:]
        raise RuntimeError(f"{argv}: markers {markers} not seen; screen tail: {tail!r}")
    return {
        "first_text": first_text,
        "paint": paint,
        "hwm_kb": hwm_kb,
        "quit": quit_s,
        "clean_exit": quit_s is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0,
        "seen": seen,
    }


def pty_series(
    label: str,
    argv: list[str],
    cwd: Path,
    env: dict[str, str],
    markers: list[str],
    quit_key: bytes,
    runs: int,
    cold: bool,
    watch: tuple[str, ...] = (),
) -> dict[str, object]:
    """One cold run (page cache dropped when `cold`), then `runs` warm runs."""
    dropped = drop_caches() if cold else False
    first = run_in_pty(argv, cwd, env, markers, quit_key, watch)
    warm = [run_in_pty(argv, cwd, env, markers, quit_key, watch) for _ in range(runs)]
    paints = [r["paint"] for r in warm]
    result = {
        "label": label,
        "cold": first["paint"],
        "cold_dropped": dropped,
        "paint_median": median(paints),
        "paint_p95": percentile(paints, 95),
        "first_text_median": median([r["first_text"] for r in warm]),
        "hwm_mb": median([r["hwm_kb"] for r in warm]) / 1024,
        "quit_median": median([r["quit"] for r in warm if r["quit"] is not None] or [math.nan]),
        "unclean": sum(not r["clean_exit"] for r in [first, *warm]),
        "seen": {text: all(r["seen"][text] for r in [first, *warm]) for text in watch},
        "runs": runs,
    }
    print(
        f"  {label}: cold {result['cold']:.3f} s, warm median {result['paint_median']:.3f} s, "
        f"p95 {result['paint_p95']:.3f} s, {result['hwm_mb']:.0f} MB",
        file=sys.stderr,
        flush=True,
    )
    return result


# -- b. loading, in a fresh process ----------------------------------------------


def worker_load(corpus: Path, repeats: int) -> dict[str, float]:
    import yaml

    from tui.loader import load_paths
    from tui.model import Library

    files = sorted(p for p in corpus.rglob("*.yaml"))
    size = sum(p.stat().st_size for p in files)

    def timed(fn) -> float:
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            fn()
            times.append(time.perf_counter() - started)
        return min(times)

    def read_all() -> None:
        for path in files:
            path.read_bytes()

    def libyaml_load() -> None:
        for path in files:
            yaml.load(path.read_bytes().decode("utf-8"), Loader=yaml.CSafeLoader)

    def libyaml_compose() -> None:
        for path in files:
            yaml.compose(path.read_bytes().decode("utf-8"), Loader=yaml.CSafeLoader)

    out = {
        "files": len(files),
        "mb": size / 1e6,
        "read": timed(read_all),
        "libyaml_load": timed(libyaml_load),
        "libyaml_compose": timed(libyaml_compose),
    }
    load_times, build_times = [], []
    for _ in range(repeats):
        started = time.perf_counter()
        result = load_paths([corpus])
        loaded = time.perf_counter()
        library = Library.build(result.files, result.problems)
        load_times.append(loaded - started)
        build_times.append(time.perf_counter() - loaded)
    out["load_paths"] = min(load_times)
    out["library_build"] = min(build_times)
    out["reviews"] = len(library.reviews)
    out["problems"] = len(library.all_problems())
    return out


# -- d. key latency with Pilot -------------------------------------------------


def _bounce(start: int, count: int, presses: int) -> list[str]:
    """j/k presses that walk a list of `count` rows without bumping the ends."""
    keys, at, step = [], start, 1
    for _ in range(presses):
        if count <= 1:
            keys.append("j")
            continue
        if not 0 <= at + step < count:
            step = -step
        keys.append("j" if step > 0 else "k")
        at += step
    return keys


def _rows(widget) -> int:
    """Rows in a list widget, whether it is an OptionList or a line-API list."""
    for name in ("reviews", "counts"):
        value = getattr(widget, name, None)
        if isinstance(value, (list, tuple)):
            return len(value)
    if hasattr(widget, "option_count"):
        return widget.option_count
    return len(widget.rows)


async def _timed_press(pilot, key: str, wall: list[float], cpu: list[float]) -> None:
    c0, t0 = time.process_time(), time.perf_counter()
    await pilot.press(key)
    await pilot.pause()
    wall.append(time.perf_counter() - t0)
    cpu.append(time.process_time() - c0)


async def worker_keys(corpus: str, state: Path, list_presses: int, switches: int, opens: int) -> dict:
    results: dict[str, dict] = {}

    def record(name: str, wall: list[float], cpu: list[float]) -> None:
        results[name] = {
            "n": len(wall),
            "wall_p50": median(wall),
            "wall_p95": percentile(wall, 95),
            "wall_max": max(wall),
            "cpu_p50": median(cpu),
            "cpu_p95": percentile(cpu, 95),
        }

    if corpus == "bare":
        from bare_app import BareApp

        started = time.perf_counter()
        async with BareApp().run_test(size=(COLUMNS, LINES)) as pilot:
            await pilot.pause()
            results["mount"] = {"wall": time.perf_counter() - started}
            wall: list[float] = []
            cpu: list[float] = []
            for _ in range(list_presses):
                await _timed_press(pilot, "j", wall, cpu)
            record("floor", wall, cpu)
        return results

    from tui.app import PrDigestApp
    from tui.locations import bundled_entries
    from tui.widgets.review_list import ReviewList
    from tui.widgets.tag_list import TagList

    paths = [bundled_entries()] if corpus == "bundled" else [Path(corpus)]
    app = PrDigestApp(paths, state)
    started = time.perf_counter()
    async with app.run_test(size=(COLUMNS, LINES)) as pilot:
        await pilot.pause()
        results["mount"] = {"wall": time.perf_counter() - started}
        reviews = app.query_one(ReviewList)
        assert app.focused is reviews, f"review list not focused: {app.focused}"

        wall, cpu = [], []
        for key in _bounce(reviews.highlighted or 0, _rows(reviews), list_presses):
            await _timed_press(pilot, key, wall, cpu)
        record("list_j", wall, cpu)

        enter_wall: list[float] = []
        enter_cpu: list[float] = []
        back_wall: list[float] = []
        back_cpu: list[float] = []
        for key in _bounce(reviews.highlighted or 0, _rows(reviews), opens):
            await _timed_press(pilot, "enter", enter_wall, enter_cpu)
            assert app.pane == "review", app.pane
            await _timed_press(pilot, "escape", back_wall, back_cpu)
            assert app.focused is reviews, app.focused
            await pilot.press(key)  # another review for the next open (not timed)
            await pilot.pause()
        record("open_enter", enter_wall, enter_cpu)
        record("back_escape", back_wall, back_cpu)

        await pilot.press("shift+tab")
        await pilot.pause()
        tags = app.query_one(TagList)
        assert app.focused is tags, f"tag list not focused: {app.focused}"
        wall, cpu = [], []
        for key in _bounce(tags.highlighted or 0, _rows(tags), switches):
            await _timed_press(pilot, key, wall, cpu)
        record("tag_switch", wall, cpu)
        results["rows"] = {"reviews": len(app.library.reviews), "tags": _rows(tags)}
    return results


# -- the run -----------------------------------------------------------------------


def run_worker(args: list[str]) -> dict:
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=BENCH,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def first_title_and_count(paths: list[Path]) -> tuple[str, int]:
    from tui.loader import load_paths
    from tui.model import Library

    result = load_paths(paths)
    library = Library.build(result.files, result.problems)
    return library.reviews[0].title, len(library.reviews)


def fmt_s(value: float) -> str:
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def fmt_ms(value: float) -> str:
    return f"{value * 1000:.0f}" if value >= 0.01 else f"{value * 1000:.1f}"


def fmt_x(value: float) -> str:
    return f"{value:.1f}×" if value < 100 else f"{value:.0f}×"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["_load"]:
        print(json.dumps(worker_load(Path(argv[1]), int(argv[2]))))
        return 0
    if argv[:1] == ["_keys"]:
        _, corpus, state, presses, switches, opens = argv
        result = asyncio.run(worker_keys(corpus, Path(state), int(presses), int(switches), int(opens)))
        print(json.dumps(result))
        return 0

    parser = argparse.ArgumentParser(description="Start-up, memory and key latency of prdigest-tui.")
    parser.add_argument("--runs", type=int, default=10, help="warm runs per program (default 10)")
    parser.add_argument("--quick", action="store_true", help="3 runs; bundled and 1,000 reviews only")
    parser.add_argument("--seed", type=int, default=0, help="corpus seed (default 0)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--no-drop-caches", action="store_true", help="cold = just the first run")
    args = parser.parse_args(argv)
    runs = 3 if args.quick and args.runs == 10 else args.runs
    sizes = [1000] if args.quick else [1000, 10000]
    key_corpora = ["bundled", "1000"] if args.quick else ["bundled", "10000"]

    from make_corpus import generate

    wall_start = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-bench-"))
    try:
        empty = tmp / "empty"
        empty.mkdir()
        # As installed: pip writes bytecode for every module at install time, while
        # an editable install with PYTHONDONTWRITEBYTECODE set (as in some sandboxes)
        # would compile every tui module from source on every start (~45 ms here).
        import compileall

        import tui

        compileall.compile_dir(Path(tui.__file__).parent, quiet=1)
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("COLUMNS", "LINES", "PYTHONDONTWRITEBYTECODE") and not k.startswith("TEXTUAL")
        }
        env.update(
            TERM="xterm-256color",
            COLORTERM="truecolor",
            XDG_STATE_HOME=str(tmp / "state"),
            XDG_CACHE_HOME=str(tmp / "cache"),
            XDG_CONFIG_HOME=str(tmp / "config"),
        )
        exe = shutil.which("prdigest-tui", path=str(Path(sys.executable).parent)) or shutil.which(
            "prdigest-tui"
        )
        if exe is None:
            parser.error("prdigest-tui is not installed next to this Python")

        from tui.locations import bundled_entries

        corpora: list[tuple[str, list[Path], list[str]]] = [("bundled", [bundled_entries()], [])]
        for size in sizes:
            folder = tmp / f"corpus-{size}"
            print(f"writing {size} reviews to {folder}", file=sys.stderr, flush=True)
            generate(folder, size, seed=args.seed)
            corpora.append((str(size), [folder], [str(folder)]))

        cold = not args.no_drop_caches
        info = machine()
        print(
            f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, "
            f"Textual {info['textual']}; {runs} warm runs each",
            file=sys.stderr,
            flush=True,
        )

        paint: dict[str, dict] = {}
        print("a/c. first paint and peak RSS under a pty", file=sys.stderr, flush=True)
        paint["bare"] = pty_series(
            "bare",
            [sys.executable, str(BENCH / "bare_app.py")],
            empty,
            env,
            ["hello"],
            b"\x11",  # ctrl+q
            runs,
            cold,
        )
        meta: dict[str, dict] = {}
        for name, paths, cli_paths in corpora:
            title, count = first_title_and_count(paths)
            meta[name] = {"reviews": count, "title": title}
            # The start of the first title, drawn whole (a frame laid out at
            # width 1 has it one character a line), and the All tag's count.
            # The status bar's "N reviews ·" is watched, not required: a long
            # repo list pushes it off the one-line bar.
            markers = [title[:10], f"{count}/{count}"]
            state = tmp / f"state-{name}.json"
            paint[name] = pty_series(
                name,
                [exe, "--state", str(state), *cli_paths],
                empty,
                env,
                markers,
                b"q",
                runs,
                cold,
                watch=(f"{count:,} reviews ·",),
            )
            paint[name]["status_counts"] = paint[name]["seen"][f"{count:,} reviews ·"]
            state.unlink(missing_ok=True)

        print("b. libyaml floor and load_paths (fresh process, best of 3)", file=sys.stderr, flush=True)
        loads = {
            name: run_worker(["_load", cli_paths[0], "3"]) for name, _, cli_paths in corpora if cli_paths
        }
        bundled_load = run_worker(["_load", str(bundled_entries()), "3"])

        print("d. key latency with Pilot", file=sys.stderr, flush=True)
        keys: dict[str, dict] = {"bare": run_worker(["_keys", "bare", str(tmp / "s.json"), "100", "0", "0"])}
        for name in key_corpora:
            target = "bundled" if name == "bundled" else str(tmp / f"corpus-{name}")
            state = tmp / f"keys-{name}.json"
            keys[name] = run_worker(["_keys", target, str(state), "100", "30", "30"])
            print(f"  {name}: done", file=sys.stderr, flush=True)

        report(info, runs, cold, paint, meta, loads, bundled_load, keys, args.seed)
        print(f"\n(total bench time {time.perf_counter() - wall_start:.0f} s)")
    finally:
        if args.keep:
            print(f"kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


def report(info, runs, cold, paint, meta, loads, bundled_load, keys, seed) -> None:
    bare = paint["bare"]
    dropped = all(p["cold_dropped"] for p in paint.values())
    today = dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    print(f"## prdigest-tui start-up benchmark, {today}\n")
    print(
        f"Machine: {info['cpu']}, {info['cores']} cores, {info['mem']}, Linux {info['kernel']}; "
        f"Python {info['python']}, Textual {info['textual']}, PyYAML {info['pyyaml']}.  "
    )
    print(f"Code measured: {info['tree']}.  ")
    if cold and dropped:
        print("Cold = first run after `sync; echo 3 > /proc/sys/vm/drop_caches` (page cache dropped).  ")
    else:
        print("Cold = first run of the program (page cache could not be dropped).  ")
    print(
        f"Warm = {runs} runs after it; median and p95 (nearest rank: with {runs} runs, p95 is the "
        f"{'slowest' if runs < 20 else f'{math.ceil(0.95 * runs)}th fastest'}).  "
        f"Corpora from `bench/make_corpus.py --seed {seed}`, 10 reviews a file.\n"
    )

    print("### First paint in a pseudo-terminal (120×40, xterm-256color)\n")
    print(
        "| program | reviews | cold (s) | warm median (s) | warm p95 (s) | ÷ bare (warm) "
        "| first text (s) | peak RSS (MB) | ÷ bare RSS | q → exit (s) | status bar shows `N reviews ·` |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    rows = [("bare Textual app (`bench/bare_app.py`)", "bare", "–")]
    for name, m in meta.items():
        label = "`prdigest-tui` (bundled digest)" if name == "bundled" else "`prdigest-tui DIR`"
        rows.append((label, name, f"{m['reviews']:,}"))
    for label, name, count in rows:
        p = paint[name]
        print(
            f"| {label} | {count} | {fmt_s(p['cold'])} | {fmt_s(p['paint_median'])} | {fmt_s(p['paint_p95'])} "
            f"| {fmt_x(p['paint_median'] / bare['paint_median'])} | {fmt_s(p['first_text_median'])} "
            f"| {p['hwm_mb']:.0f} | {fmt_x(p['hwm_mb'] / bare['hwm_mb'])} | {fmt_s(p['quit_median'])} "
            f"| {'–' if name == 'bare' else ('yes' if p['status_counts'] else '**no** (clipped)')} |"
        )
    unclean = {name: p["unclean"] for name, p in paint.items() if p["unclean"]}
    if unclean:
        print(f"\nRuns that did not exit cleanly after the quit key (killed or non-zero): {unclean}")

    print("\n### Loading, timed in a fresh process (warm page cache, best of 3)\n")
    print(
        "| corpus | files | MB | read bytes (s) | libyaml load (s) | libyaml compose (s) "
        "| `load_paths` (s) | `Library.build` (s) | load_paths ÷ libyaml load "
        "| first paint cold ÷ libyaml | warm ÷ libyaml |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, load in [("bundled", bundled_load), *loads.items()]:
        p = paint[name]
        floor = load["libyaml_load"]
        print(
            f"| {meta[name]['reviews']:,} reviews | {load['files']:,} | {load['mb']:.1f} | {fmt_s(load['read'])} "
            f"| {fmt_s(floor)} | {fmt_s(load['libyaml_compose'])} | {fmt_s(load['load_paths'])} "
            f"| {fmt_s(load['library_build'])} | {fmt_x(load['load_paths'] / floor)} "
            + (
                "| – | – |"  # a millisecond of YAML: start-up is all import and layout
                if name == "bundled"
                else f"| {fmt_x(p['cold'] / floor)} | {fmt_x(p['paint_median'] / floor)} |"
            )
        )

    print(
        "\n### Key latency with Pilot (`run_test(size=(120, 40))`), in ms\n\n"
        "Wall = `await pilot.press(key)` + `await pilot.pause()`; both wait for idle in 20 ms steps, "
        "so the bare app's unbound key is the floor. CPU = process time spent in that window.\n"
    )
    floor = keys["bare"]["floor"]["wall_p50"]
    print(
        "| corpus | action | presses | wall p50 | wall p95 | wall max | ÷ floor (p50) | CPU p50 | CPU p95 |"
    )
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    names = {
        "floor": "unbound key (floor)",
        "list_j": "j/k in the review list",
        "open_enter": "open a review (enter)",
        "back_escape": "back to the list (escape)",
        "tag_switch": "switch tag (j/k in tags)",
    }
    for corpus, result in keys.items():
        label = "bare app" if corpus == "bare" else f"{meta[corpus]['reviews']:,} reviews"
        mount = result["mount"]["wall"]
        print(
            f"| {label} | `run_test` start → first pause | 1 | {fmt_ms(mount)} | | | {fmt_x(mount / floor)} | | |"
        )
        for action, name in names.items():
            if action not in result:
                continue
            r = result[action]
            print(
                f"| {label} | {name} | {r['n']} | {fmt_ms(r['wall_p50'])} | {fmt_ms(r['wall_p95'])} "
                f"| {fmt_ms(r['wall_max'])} "
                f"| {fmt_x(r['wall_p50'] / floor)} | {fmt_ms(r['cpu_p50'])} | {fmt_ms(r['cpu_p95'])} |"
            )


if __name__ == "__main__":
    sys.exit(main())
