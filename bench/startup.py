"""Start-up, loading, memory, key and reload latency of prdigest-tui, next to a bare Textual app.

    python bench/startup.py            # full run: bundled 8, 1,000 and 10,000 reviews
    python bench/startup.py --quick    # 3 runs, bundled 8 and 1,000 only
    python bench/startup.py --runs 20 --keep

What is measured (bench/README.md says how to read each figure):

a. Under a real pseudo-terminal (120x40, TERM=xterm-256color) each program is
   spawned with `pty.fork()`; its output is read as it comes, ANSI sequences
   are stripped, and the clock (started before the fork) is read when markers
   first appear in the stream. One run records both:
   - first paint: for prdigest-tui the status bar's `N reviews · ` and a
     review's verdict label `Deep read` (run with `--lang en`); a big corpus
     paints its first part while the rest loads in the background;
   - all loaded: the All tag's `N/N` and the status bar's `N reviews · ` with
     every review of the corpus counted;
   for the bare app (`bench/bare_app.py`) `hello` is its paint. Then the peak
   RSS is read and `q` (ctrl+q for the bare app) sent.
   prdigest-tui runs under three conditions: cold (page cache dropped, empty
   parse cache), no parse cache (page cache warm, a fresh empty cache folder
   each run) and warm (parse cache filled); the bare app cold and warm.
b. libyaml alone: `yaml.load(text, Loader=yaml.CSafeLoader)` of every corpus
   file in a fresh process, with the page cache warm and right after dropping
   it: the floor for loading. Beside it `yaml.compose` (what tui.load.parse runs)
   and the app's single-process `load_paths` and `Library.build`. The loading
   targets compare with libyaml passes paired with the app's runs in (a): one
   just before each cold and no-cache pair (the app's run and the bare app's).
c. Key latency in-process with Textual's Pilot (`run_test(size=(120, 40))`),
   timed once the whole corpus is loaded: j/k in the review list, opening a
   review (enter), checking an item (space), going back (escape), switching
   tags; wall and CPU time per key, and the Pilot floor (the bare app pressing
   an unbound key).
d. One-file change: `bench/reload_latency.measure` (a file of the watched
   corpus rewritten, timed until the review pane shows it) at the largest
   corpus and at a copy of the bundled digest.

It ends with a table of the targets, each computed from this run.
Timings are measurements, never pass/fail tests.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import contextlib
import datetime as dt
import fcntl
import gc
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
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT))

COLUMNS, LINES = 120, 40
PAINT_TIMEOUT = 120.0
QUIT_TIMEOUT = 15.0
SAMPLE_S = 0.05
"""How often the parse workers' memory is sampled during a pty run."""
BIG = 100_000
"""`--big`: reviews in the big corpus (pages of 10, as the default corpora)."""
ONE_PER_FILE = 10_000
"""`--big`: reviews in the corpus of one review a file (a generator's natural output)."""
COLD_RUNS = 9
"""Cold runs per corpus, each after dropping the page cache (and the bare app's
paired run after its own drop). Cold starts spread widely (the bare app's from
0.29 to 0.35 s in one minute): with 3, the 8-review cold ratio read 1.20x in a
run where 12 interleaved pairs gave a median of 1.10x. 9 adds ~45 s."""
BIG_COLD_RUNS = 3
"""Cold runs of each `--big` corpus (~35 s each at 100,000: its libyaml floor
and the reader's whole first load, both after a drop). One was not enough: the
100,000 cold first paint read 1.01x in one full run and 1.32x in the next on
code that starts the same way, while twelve interleaved cold pairs spread
from 0.72x to 1.42x around a median of 1.06-1.12x (bench/README.md)."""
KEYS_SETTLE_S = 1.0
"""Pause between "everything loaded" and the first timed key: the parse-cache
save thread and the watcher's start may still be running."""

# CSI, OSC (to BEL or ST), DCS/SOS/PM/APC (to ST), then any other ESC sequence.
ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"
    r"|\x1b[PX^_][^\x1b]*(?:\x1b\\)?"
    r"|\x1b[ -/]*[0-~]?"
)
# The same sequences, complete only: a chunk that ends inside one is held back.
COMPLETE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"
    r"|\x1b[PX^_][^\x1b]*\x1b\\"
    r"|\x1b[ -/]*[0-OQ-WYZ\\`-~]"  # not the openers above: [ ] P X ^ _
)

Marker = str | re.Pattern[str]

STATUS_COUNT = re.compile(r"\d[\d,]* reviews · ")
"""The status bar's count, whatever it is (`words().status_counts` in English)."""
PAINT_VERDICT = "Deep read"
"""A review row's verdict label (`words().verdict_words["deep"]` in English)."""
PROGRESS = re.compile(r"loading [\d,]+/[\d,]+ files")
"""The status bar while files load in the background (`words().status_loading`)."""


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


def progress(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# -- a. the screen under a pseudo-terminal ----------------------------------------


class Stream:
    """A program's output with ANSI sequences stripped, and when markers first
    appeared in it.

    `checkpoints` and `watch` name groups of markers; a group is reached when
    all of its markers have appeared (not necessarily in the same frame: each
    is drawn once and stays). Stripping is incremental, so a run that draws
    for seconds costs the reader little, and a sequence cut between two reads
    is held back until its end arrives.
    """

    OVERLAP = 80
    """Characters re-searched before new text, for a marker cut between reads."""

    def __init__(self, checkpoints: dict[str, tuple[Marker, ...]], watch: dict[str, tuple[Marker, ...]]):
        self.groups = {**checkpoints, **watch}
        self.required = set(checkpoints)
        self.found: dict[Marker, float] = {}
        self.reached: dict[str, float] = {}
        self.first_text: float | None = None
        self.text = ""
        self._pending = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")("ignore")

    @property
    def done(self) -> bool:
        return self.required <= set(self.reached)

    def feed(self, chunk: bytes, now: float) -> None:
        self._pending += self._decoder.decode(chunk)
        cut = self._pending.rfind("\x1b")
        if cut != -1 and not COMPLETE.match(self._pending, cut):
            ready, self._pending = self._pending[:cut], self._pending[cut:]
        else:
            ready, self._pending = self._pending, ""
        start = max(0, len(self.text) - self.OVERLAP)
        self.text += ANSI.sub("", ready)
        window = self.text[start:]
        if self.first_text is None and window.strip():
            self.first_text = now
        for name, markers in self.groups.items():
            if name in self.reached:
                continue
            for marker in markers:
                if marker not in self.found and _contains(window, marker):
                    self.found[marker] = now
            if all(marker in self.found for marker in markers):
                self.reached[name] = max(self.found[marker] for marker in markers)

    def tail(self, chars: int = 600) -> str:
        return self.text[-chars:]


def _contains(text: str, marker: Marker) -> bool:
    return marker in text if isinstance(marker, str) else marker.search(text) is not None


def _status_kb(pid: int, field: str) -> int | None:
    """A `/proc/PID/status` figure in kB (VmHWM = peak RSS), None once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return None


def _children(pid: int) -> list[int]:
    """Child processes of `pid` (the parse workers), from every thread."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError):
                found += [int(c) for c in (task / "children").read_text().split()]
    return found


def sample_children(pid: int, peaks: dict[int, int]) -> None:
    """Each child of `pid`'s peak RSS so far (kB) into `peaks`, by child, and
    their children's (the parse worker the first one forks); a child's last
    figure is kept once it is gone."""
    for child in _children(pid):
        peaks[child] = _status_kb(child, "VmHWM") or peaks.get(child, 0)
        sample_children(child, peaks)


@dataclass
class PtyRun:
    """One spawn: seconds from the fork to each checkpoint, and the rest."""

    times: dict[str, float]
    first_text: float | None
    hwm_kb: int | None
    workers_kb: int
    quit: float | None
    clean_exit: bool
    watched: dict[str, bool] = field(default_factory=dict)


def _spawn(argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, int]:
    pid, fd = pty.fork()
    if pid == 0:  # child
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", LINES, COLUMNS, 0, 0))
            os.chdir(cwd)
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    return pid, fd


def end_pty(pid: int, fd: int) -> None:
    """A child in a pseudo-terminal ended however it stands (killed, reaped), its terminal closed."""
    with contextlib.suppress(ProcessLookupError, ChildProcessError):
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)


def _read(fd: int, timeout: float) -> bytes | None:
    """What the program wrote within `timeout`: b"" at its end, None for nothing yet."""
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return None
    try:
        return os.read(fd, 1 << 16)
    except OSError:
        return b""


def run_in_pty(
    argv: list[str],
    cwd: Path,
    env: dict[str, str],
    checkpoints: dict[str, tuple[Marker, ...]],
    quit_key: bytes,
    watch: dict[str, tuple[Marker, ...]] | None = None,
    settle: Callable[[], bool] | None = None,
) -> PtyRun:
    """Spawn argv under a pty, wait for every checkpoint (then, if given, for
    `settle()` to be true), read its peak RSS, quit it.

    The parse workers' peak RSS is sampled while it runs: they exit once the
    files are parsed, and their memory is not in the app's VmHWM.
    """
    watch = watch or {}
    stream = Stream(checkpoints, watch)
    workers: dict[int, int] = {}  # pid -> last VmHWM seen
    started = time.perf_counter()
    pid, fd = _spawn(argv, cwd, env)
    exited, status, quit_s, hwm_kb = False, 0, None, None
    try:
        deadline, sampled = started + PAINT_TIMEOUT, 0.0
        while not (stream.done and (settle is None or settle())) and time.perf_counter() < deadline:
            chunk = _read(fd, SAMPLE_S)
            now = time.perf_counter()
            if chunk:
                stream.feed(chunk, now - started)
            elif chunk == b"":
                break  # the pty closed: the program is gone (reaped below)
            elif os.waitpid(pid, os.WNOHANG) != (0, 0):
                exited = True
                break
            if now - sampled >= SAMPLE_S:
                sampled = now
                sample_children(pid, workers)
        if stream.done:
            hwm_kb = _status_kb(pid, "VmHWM")
            quit_s, status = _quit(pid, fd, quit_key)
            exited = quit_s is not None
    finally:
        if exited:
            os.close(fd)
        else:
            end_pty(pid, fd)
    if not stream.done:
        missing = sorted(stream.required - set(stream.reached))
        raise RuntimeError(f"{argv}: {missing} never on screen; screen tail: {stream.tail()!r}")
    return PtyRun(
        times=dict(stream.reached),
        first_text=stream.first_text,
        hwm_kb=hwm_kb,
        workers_kb=sum(workers.values()),
        quit=quit_s,
        clean_exit=quit_s is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0,
        watched={name: name in stream.reached for name in watch},
    )


def _quit(pid: int, fd: int, key: bytes) -> tuple[float | None, int]:
    """Send the quit key; seconds until the process exited (None if it did not) and its status."""
    sent = time.perf_counter()
    os.write(fd, key)
    while time.perf_counter() - sent < QUIT_TIMEOUT:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return time.perf_counter() - sent, status
        if _read(fd, 0.01) == b"":
            time.sleep(0.005)  # the pty is closed: the process is about to exit
    return None, 0


# -- a. the conditions ------------------------------------------------------------


def app_checkpoints(count: int) -> dict[str, tuple[Marker, ...]]:
    """prdigest-tui's two moments in one run (see the module docstring)."""
    return {
        "paint": (STATUS_COUNT, PAINT_VERDICT),
        # The All row's unread/total: any unread count, for a start with a state file.
        "loaded": (re.compile(rf"\d[\d,]*/{count:,}(?![\d,])"), f"{count:,} reviews · "),
    }


def cache_filled(cache_home: Path) -> Callable[[], bool]:
    """True once the app has written its parse cache under `cache_home`
    (`tui.locations.cache_file` with XDG_CACHE_HOME there)."""
    return lambda: any(cache_home.rglob("parse-cache.marshal"))


def bare_once(tmp: Path, env: dict[str, str]) -> PtyRun:
    """One run of the bare app (quit with ctrl+q)."""
    argv = [sys.executable, str(BENCH / "bare_app.py")]
    return run_in_pty(argv, tmp / "empty", env, {"paint": ("hello",)}, b"\x11")


def bare_series(tmp: Path, env: dict[str, str], runs: int, cold: bool) -> dict[str, object]:
    """The bare app: one run after dropping the page cache, then `runs` warm.
    More warm runs are added between prdigest-tui's (see `app_series`)."""
    dropped = drop_caches() if cold else False
    first = bare_once(tmp, env)
    warm = [bare_once(tmp, env) for _ in range(runs)]
    return {"cold": [first], "warm": warm, "dropped": dropped}


def _pair_order(n: int) -> tuple[str, str]:
    """The order of the `n`th pair's two runs: the bare app's first, then the
    reader's first, and so on. A run started right after a long busy process
    (the libyaml floor: ~13 s at 100,000) or right after an idle pause starts
    slower (bench/README.md, "The floor between a pair"): alternating puts
    each program in each place equally often, and the floor runs before the
    pair, never between its two runs."""
    return ("bare", "reader") if n % 2 == 0 else ("reader", "bare")


def app_series(
    name: str,
    exe: str,
    cli_paths: list[str],
    count: int,
    tmp: Path,
    env: dict[str, str],
    runs: int = 10,
    *,
    cold: bool,
    bare_run: Callable[[bool], PtyRun],
    cold_runs: int = COLD_RUNS,
    floor_run: Callable[[bool], float] | None = None,
) -> dict[str, object]:
    """prdigest-tui under the three conditions: cold (`cold_runs` runs, each
    right after dropping the page cache, with an empty parse cache), no parse
    cache (`runs` runs, each with a fresh empty cache folder), warm (`runs` runs
    with the cache a priming run filled).

    Each run is paired with a run of the bare app right before or right after
    it, in turn (`bare_run`, `_pair_order`; for cold, each after its own drop
    of the page cache), and the ratios are taken over those: a machine that
    drifts (another process, the page cache refilling after a drop) moves
    both, not one. Without dropping the page cache, cold is the first run
    alone, paired with nothing.

    `floor_run` (a corpus, not the bundled digest): libyaml alone parsing the
    corpus in a fresh process, run before each cold and no-cache pair (for
    cold, after its own drop of the page cache), so loading is compared with
    a floor timed in the same minute too, not once at the start of the bench."""
    state = tmp / f"state-{name}.json"
    argv = [exe, "--lang", "en", "--state", str(state), *cli_paths]
    checkpoints = app_checkpoints(count)
    watch = {"progress": (PROGRESS,)}

    def run(home: str, settle: bool = False) -> PtyRun:
        cache_home = tmp / "caches" / name / home
        run_env = {**env, "XDG_CACHE_HOME": str(cache_home)}
        until = cache_filled(cache_home) if settle else None
        return run_in_pty(argv, tmp / "empty", run_env, checkpoints, b"q", watch, until)

    side: dict[str, list[PtyRun]] = {"cold": [], "no_cache": [], "warm": []}
    floors: dict[str, list[float]] = {"cold": [], "no_cache": []}
    first: list[PtyRun] = []
    dropped = cold and drop_caches()
    if dropped:
        for n in range(cold_runs):
            if floor_run is not None:
                floors["cold"].append(floor_run(True))
            for step in _pair_order(n):
                drop_caches()
                if step == "bare":
                    side["cold"].append(bare_run(True))
                else:
                    first.append(run(f"cold-{n}"))
    else:
        first.append(run("cold"))
    no_cache = []
    for n in range(runs):
        if floor_run is not None:
            floors["no_cache"].append(floor_run(False))
        for step in _pair_order(n):
            if step == "bare":
                side["no_cache"].append(bare_run(False))
            else:
                no_cache.append(run(f"none-{n}"))
    run("filled", settle=True)  # fills the cache: quits once it is written
    warm = []
    for _ in range(runs):
        side["warm"].append(bare_run(False))
        warm.append(run("filled"))
    state.unlink(missing_ok=True)
    shutil.rmtree(tmp / "caches" / name, ignore_errors=True)
    return {
        "cold": first,
        "no_cache": no_cache,
        "warm": warm,
        "dropped": dropped,
        "bare": side,
        "floors": floors,
    }


def summary(runs: list[PtyRun], moment: str) -> dict[str, float]:
    values = [r.times[moment] for r in runs]
    return {"median": median(values), "p95": percentile(values, 95), "n": len(values)}


# -- b. loading, in a fresh process ----------------------------------------------


def _corpus_files(corpus: Path) -> list[Path]:
    return sorted(corpus.rglob("*.yaml"))


def _libyaml_pass(files: list[Path]) -> float:
    """Seconds to read and `yaml.load` every file with libyaml: the floor."""
    import yaml

    started = time.perf_counter()
    for path in files:
        yaml.load(path.read_bytes().decode("utf-8"), Loader=yaml.CSafeLoader)
    return time.perf_counter() - started


def worker_libyaml(corpus: Path) -> dict[str, float]:
    """One libyaml pass in this fresh process; run right after dropping the
    page cache it is the cold floor (the files are read from disk). The garbage
    collector is off, as it is where the app parses (tui/loading.py, the parse
    workers): ~9% faster at 10,000 reviews, so the floor is libyaml's best."""
    import yaml  # imported before the clock starts: only the parsing is timed

    assert yaml.__with_libyaml__
    gc.disable()
    return {"libyaml_load": _libyaml_pass(_corpus_files(corpus))}


def worker_load(corpus: Path, repeats: int) -> dict[str, float]:
    """Warm page cache, best of `repeats`: reading, libyaml, the app's loader."""
    import yaml

    from tui.core.model import Library
    from tui.load.parse import load_paths

    files = _corpus_files(corpus)
    gc.disable()  # as where the app parses, and as for the libyaml floor

    def best(fn: Callable[[], object]) -> float:
        times = []
        for _ in range(repeats):
            started = time.perf_counter()
            fn()
            times.append(time.perf_counter() - started)
        return min(times)

    def compose() -> None:
        for path in files:
            yaml.compose(path.read_bytes().decode("utf-8"), Loader=yaml.CSafeLoader)

    out: dict[str, float] = {
        "files": len(files),
        "mb": sum(p.stat().st_size for p in files) / 1e6,
        "read": best(lambda: [path.read_bytes() for path in files]),
        "libyaml_load": best(lambda: _libyaml_pass(files)),
        "libyaml_compose": best(compose),
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
    out["deep"] = sum(review.verdict == "deep" for review in library.reviews)
    out["problems"] = len(library.all_problems())
    return out


# -- c. key latency with Pilot -------------------------------------------------


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


class Timings:
    """Wall and CPU seconds per action, timed around Pilot presses, and the time
    from the key to the frame that shows its effect.

    Wall and CPU are taken until Pilot sees the app idle again (it waits for
    idle in 20 ms steps, so the bare app's unbound key is the wall floor). The
    key-to-frame time is what a reader waits for: from just before the key is
    sent until the app hands the last screen update it causes to the driver
    (`App._display`, whose output the headless driver drops). Keys that change
    nothing on screen have no frame and are left out of that figure.
    """

    def __init__(self, app) -> None:
        self.wall: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}
        self.frame: dict[str, list[float]] = {}
        self.first_frame: dict[str, list[float]] = {}
        self.rows_frame: dict[str, list[float]] = {}
        self.frames: list[float] = []
        self.shown_at: list[float] = []  # frames in which the key's `shown` held
        self._shown = None
        display = app._display

        def recording(screen, renderable) -> None:
            if renderable is not None:
                self.frames.append(time.perf_counter())
                if self._shown is not None and self._shown():
                    self.shown_at.append(self.frames[-1])
            display(screen, renderable)

        app._display = recording

    async def press(self, pilot, action: str, key: str, until=None, shown=None) -> None:
        """`until`: a coroutine function awaited after Pilot's pause, for work a
        key leaves running (a search off the key): its frames count as the key's.
        `shown`: a function telling, as a frame is drawn, whether it shows the
        key's effect in part (a search's first rows): the first such frame is
        the key's `rows_frame`."""
        seen = len(self.frames)
        self.shown_at.clear()
        self._shown = shown
        c0, t0 = time.process_time(), time.perf_counter()
        await pilot.press(key)
        await pilot.pause()
        if until is not None:
            await until()
            await pilot.pause()
        self.wall.setdefault(action, []).append(time.perf_counter() - t0)
        self.cpu.setdefault(action, []).append(time.process_time() - c0)
        if len(self.frames) > seen:
            # The first frame answers the key; the last completes it: a key's effect
            # may span two (the list's cursor, then the pane it previews), and
            # Textual paints at most 60 frames a second.
            self.first_frame.setdefault(action, []).append(self.frames[seen] - t0)
            self.frame.setdefault(action, []).append(self.frames[-1] - t0)
        if shown is not None and self.shown_at:
            self.rows_frame.setdefault(action, []).append(self.shown_at[0] - t0)
        self._shown = None

    def results(self) -> dict[str, dict[str, float]]:
        return {
            action: {
                "n": len(wall),
                "wall_p50": median(wall),
                "wall_p95": percentile(wall, 95),
                "wall_max": max(wall),
                "cpu_p50": median(self.cpu[action]),
                "cpu_p95": percentile(self.cpu[action], 95),
                "frames": len(self.frame.get(action, [])),
                "first_frame_p50": median(self.first_frame.get(action) or [math.nan]),
                "first_frame_p95": percentile(self.first_frame.get(action) or [math.nan], 95),
                "frame_p50": median(self.frame.get(action) or [math.nan]),
                "frame_p95": percentile(self.frame.get(action) or [math.nan], 95),
                **(
                    {
                        "rows_frame_p50": median(self.rows_frame[action]),
                        "rows_frame_p95": percentile(self.rows_frame[action], 95),
                    }
                    if action in self.rows_frame
                    else {}
                ),
            }
            for action, wall in self.wall.items()
        }


async def keys_bare(presses: int) -> dict:
    from bare_app import BareApp

    app = BareApp()
    timings = Timings(app)
    started = time.perf_counter()
    async with app.run_test(size=(COLUMNS, LINES)) as pilot:
        await pilot.pause()
        mount = time.perf_counter() - started
        for _ in range(presses):
            await timings.press(pilot, "floor", "j")
    return {"mount": mount, **timings.results()}


async def keys_app(
    corpus: str, state: Path, list_presses: int, switches: int, opens: int, search: bool = True
) -> dict:
    """Keys on prdigest-tui once every file is loaded: until then the batches
    the background load delivers would be timed with whatever key is pressed."""
    import key_phases
    from reload_latency import wait_loaded

    from tui.ui.app import PrDigestApp
    from tui.ui.widgets.review_list import ReviewList
    from tui.ui.widgets.tag_list import TagList

    app = PrDigestApp([Path(corpus)], state, config_path=key_phases.write_config(state))
    timings = Timings(app)
    started = time.perf_counter()
    async with app.run_test(size=(COLUMNS, LINES)) as pilot:
        await pilot.pause()
        mount = time.perf_counter() - started
        await wait_loaded(app)
        loaded = time.perf_counter() - started
        await asyncio.sleep(KEYS_SETTLE_S)
        await pilot.pause()
        reviews = app.query_one(ReviewList)
        assert app.focused is reviews, f"review list not focused: {app.focused}"

        for key in _bounce(reviews.highlighted or 0, len(reviews.reviews), list_presses):
            await timings.press(pilot, "list_j", key)

        for key in _bounce(reviews.highlighted or 0, len(reviews.reviews), opens):
            await timings.press(pilot, "open_enter", "enter")
            assert app.reader.pane == "review", app.reader.pane
            await timings.press(pilot, "check_space", "space")  # check the item under the cursor
            await timings.press(pilot, "check_space", "space")  # and uncheck it
            await timings.press(pilot, "back_escape", "escape")
            assert app.focused is reviews, app.focused
            await pilot.press(key)  # another review for the next open (not timed)
            await pilot.pause()

        await pilot.press("shift+tab")
        await pilot.pause()
        tags = app.query_one(TagList)
        assert app.focused is tags, f"tag list not focused: {app.focused}"
        for key in _bounce(tags.highlighted or 0, len(tags.counts), switches):
            await timings.press(pilot, "tag_switch", key)
        await key_phases.run(app, pilot, timings, _bounce, switches, search)
        rows = {"reviews": len(app.reader.library.reviews), "tags": len(tags.counts)}
    import resource

    peak_mb = (
        resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    )  # after every search's texts were made
    return {"mount": mount, "loaded": loaded, "rows": rows, "peak_rss_mb": peak_mb, **timings.results()}


# -- d. one-file change -----------------------------------------------------------


def worker_reload(corpus: Path, work: Path, edits: int) -> dict[str, float]:
    """`bench/reload_latency.measure` in this fresh process: edits to one file
    of the watched corpus, each timed until the review pane shows it."""
    from reload_latency import measure

    latencies = asyncio.run(measure(corpus, work, edits))
    return {
        "n": len(latencies),
        "p50": median(latencies),
        "p95": percentile(latencies, 95),
        "max": max(latencies),
    }


# -- the run -----------------------------------------------------------------------


def run_worker(args: list[str], env: dict[str, str] | None = None) -> dict:
    """Run this script's `args[0]` worker in a fresh process; its last stdout line
    is JSON. `env`: `child_env`'s, so no TEXTUAL_* setting or the user's XDG
    folders reach it."""
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), *args],
        check=True,
        capture_output=True,
        text=True,
        cwd=BENCH,
        env=env,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def worker_main(argv: list[str]) -> int | None:
    """The fresh-process side of `run_worker`; None when argv is not a worker's."""
    kind, rest = argv[0] if argv else "", argv[1:]
    if kind == "_load":
        result: dict = worker_load(Path(rest[0]), int(rest[1]))
    elif kind == "_libyaml":
        result = worker_libyaml(Path(rest[0]))
    elif kind == "_keys" and rest[0] == "bare":
        result = asyncio.run(keys_bare(int(rest[2])))
    elif kind == "_keys":
        corpus, state, presses, switches, opens, *flags = rest
        from tui import runtime  # the reader's process-wide tweaks, as `cli.run` installs them

        with runtime.installed():
            result = asyncio.run(
                keys_app(
                    corpus, Path(state), int(presses), int(switches), int(opens), "nosearch" not in flags
                )
            )
    elif kind == "_reload":
        from tui import runtime

        with runtime.installed():
            result = worker_reload(Path(rest[0]), Path(rest[1]), int(rest[2]))
    else:
        return None
    print(json.dumps(result))
    return 0


def child_env(tmp: Path) -> dict[str, str]:
    """The environment of every program measured: a known terminal, XDG
    folders in the temp folder, and bytecode written (see `compile_tui`)."""
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
    return env


def compile_tui() -> None:
    """Measure as installed: pip writes bytecode for every module at install
    time, while an editable install with PYTHONDONTWRITEBYTECODE set (as in
    some sandboxes) would compile every tui module from source on every start
    (~45 ms here)."""
    import compileall

    import tui

    compileall.compile_dir(Path(tui.__file__).parent, quiet=1)


def measure_loading(
    corpora: dict[str, Path], cold: bool, env: dict[str, str], once: frozenset[str] = frozenset()
) -> dict[str, dict]:
    """Per corpus: the warm figures (best of 3; one pass for the corpora in
    `once`), then libyaml cold, in fresh processes."""
    loads = {}
    for name, folder in corpora.items():
        loads[name] = run_worker(["_load", str(folder), "1" if name in once else "3"], env)
        dropped = drop_caches() if cold else False
        loads[name]["libyaml_cold"] = run_worker(["_libyaml", str(folder)], env)["libyaml_load"]
        loads[name]["libyaml_cold_dropped"] = dropped
        if loads[name]["deep"] == 0 or loads[name]["problems"]:
            raise RuntimeError(f"{folder}: no deep review to paint, or problems: {loads[name]}")
        progress(
            f"  {name}: {loads[name]['reviews']:,} reviews, libyaml {loads[name]['libyaml_load']:.3f} s warm, "
            f"{loads[name]['libyaml_cold']:.3f} s cold"
        )
    return loads


def floor_for(corpus: Path, env: dict[str, str]) -> Callable[[bool], float]:
    """One libyaml pass over `corpus` in a fresh process; cold: after dropping the page cache."""

    def floor(cold_run: bool) -> float:
        if cold_run:
            drop_caches()
        return run_worker(["_libyaml", str(corpus)], env)["libyaml_load"]

    return floor


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    code = worker_main(argv)
    if code is not None:
        return code

    parser = argparse.ArgumentParser(description="Start-up, memory and key latency of prdigest-tui.")
    parser.add_argument("--runs", type=int, default=10, help="warm runs per program (default 10)")
    parser.add_argument("--quick", action="store_true", help="3 runs; bundled and 1,000 reviews only")
    parser.add_argument("--seed", type=int, default=0, help="corpus seed (default 0)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    parser.add_argument("--no-drop-caches", action="store_true", help="cold = just the first run")
    parser.add_argument(
        "--big",
        action="store_true",
        help=f"also {BIG:,} reviews (pages of 10) and {ONE_PER_FILE:,} one review a file; ~10 min more",
    )
    parser.add_argument("--big-runs", type=int, default=3, help="runs per condition of the --big corpora")
    parser.add_argument(
        "--big-cold-runs",
        type=int,
        default=BIG_COLD_RUNS,
        help=f"cold runs of the --big corpora (default {BIG_COLD_RUNS})",
    )
    args = parser.parse_args(argv)
    runs = 3 if args.quick and args.runs == 10 else args.runs
    sizes = [1000] if args.quick else [1000, 10000]
    edits = 6 if args.quick else 12
    cold = not args.no_drop_caches

    import newsboat_peer
    from make_corpus import generate

    from tui.store.locations import bundled_entries

    exe = shutil.which("prdigest-tui", path=str(Path(sys.executable).parent)) or shutil.which("prdigest-tui")
    if exe is None:
        parser.error("prdigest-tui is not installed next to this Python")

    wall_start = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-bench-"))
    try:
        (tmp / "empty").mkdir()
        compile_tui()
        env = child_env(tmp)
        # A copy of the bundled digest: the reload bench edits the corpus it watches.
        bundled = tmp / "bundled"
        shutil.copytree(bundled_entries(), bundled)
        corpora: dict[str, Path] = {"bundled": bundled}
        for size in sizes:
            corpora[str(size)] = tmp / f"corpus-{size}"
            progress(f"writing {size} reviews to {corpora[str(size)]}")
            generate(corpora[str(size)], size, seed=args.seed)
        big = str(sizes[-1])
        bigger: list[str] = []
        if args.big:
            for name, reviews, per_file in ((str(BIG), BIG, 10), (f"{ONE_PER_FILE}x1", ONE_PER_FILE, 1)):
                corpora[name] = tmp / f"corpus-{name}"
                progress(f"writing {reviews} reviews, {per_file} a file, to {corpora[name]}")
                generate(corpora[name], reviews, seed=args.seed, per_file=per_file)
                bigger.append(name)

        info = machine()
        progress(
            f"machine: {info['cpu']}, {info['cores']} cores, Python {info['python']}, "
            f"Textual {info['textual']}; {runs} runs per condition"
        )

        progress("b. loading: libyaml floor and load_paths, fresh processes")
        loads = measure_loading(corpora, cold, env, once=frozenset(bigger))

        progress("a. first paint, all loaded, peak RSS under a pty")
        bare = bare_series(tmp, env, runs, cold)
        progress(f"  bare: paint {summary(bare['warm'], 'paint')['median']:.3f} s warm")

        def record(run: PtyRun, cold_run: bool) -> PtyRun:
            """A bare run paired with one of prdigest-tui's; the bare rows pool them all."""
            bare["cold" if cold_run else "warm"].append(run)  # type: ignore[union-attr]
            return run

        screens: dict[str, dict] = {}
        for name, folder in corpora.items():
            # The bundled digest as a user gets it: no argument, from a folder without entries/.
            cli_paths = [] if name == "bundled" else [str(folder)]
            screens[name] = app_series(
                name,
                exe,
                cli_paths,
                loads[name]["reviews"],
                tmp,
                env,
                cold=cold,
                bare_run=lambda cold_run: record(bare_once(tmp, env), cold_run),
                floor_run=None if name == "bundled" else floor_for(folder, env),
                **({"runs": args.big_runs, "cold_runs": args.big_cold_runs} if name in bigger else {}),
            )
            progress(
                f"  {name}: paint {summary(screens[name]['warm'], 'paint')['median']:.3f} s warm, "
                f"loaded {summary(screens[name]['no_cache'], 'loaded')['median']:.3f} s without parse cache"
            )

        peers: dict[str, dict | None] = {}
        if newsboat_peer.available():
            progress("a'. the peer: newsboat, the same reviews as a local Atom feed")
            for name in (big, *bigger[:1]):
                peers[name] = newsboat_peer.measure(
                    loads[name]["reviews"], args.seed, args.big_runs if name in bigger else 3, env, tmp
                )
        else:
            progress("a'. newsboat is not installed: no peer row")

        progress("c. key latency with Pilot")
        keys: dict[str, dict] = {"bare": run_worker(["_keys", "bare", "-", "100", "0", "0"], env)}
        for name in ("bundled", big, *bigger[:1]):
            keys[name] = run_worker(
                ["_keys", str(corpora[name]), str(tmp / f"keys-{name}.json"), "100", "30", "30"], env
            )
            progress(f"  {name}: done")

        progress("d. one-file change, real watcher")
        reloads: dict[str, dict] = {}
        for name in ("bundled", big):
            work = tmp / f"reload-{name}"
            work.mkdir()
            reloads[name] = run_worker(["_reload", str(corpora[name]), str(work), str(edits)], env)
            progress(f"  {name}: p50 {reloads[name]['p50'] * 1000:.0f} ms")

        report = Report(info, runs, cold, args.seed, bare, screens, loads, keys, reloads, big)
        report.peers, report.bigger = peers, bigger
        report.print()
        print(f"\n(total bench time {time.perf_counter() - wall_start:.0f} s)")
    finally:
        if args.keep:
            progress(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


# -- the report --------------------------------------------------------------------


def fmt_s(value: float) -> str:
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def fmt_ms(value: float) -> str:
    return f"{value * 1000:.0f}" if value >= 0.01 else f"{value * 1000:.1f}"


def fmt_x(value: float) -> str:
    return f"{value:.2f}×" if value < 10 else f"{value:.1f}×" if value < 100 else f"{value:.0f}×"


CONDITIONS = {
    "cold": "cold (page cache dropped, no parse cache)",
    "no_cache": "no parse cache (page cache warm)",
    "warm": "warm (parse cache filled)",
}
BARE_CONDITIONS = {"cold": "cold (page cache dropped)", "warm": "warm"}
SHORT = {"cold": "cold", "no_cache": "no parse cache", "warm": "warm"}

KEY_ACTIONS = {
    "floor": "unbound key (floor)",
    "list_j": "j/k in the review list",
    "open_enter": "open a review (enter)",
    "check_space": "check / uncheck an item (space)",
    "back_escape": "back to the list (escape)",
    "tag_switch": "switch tag (j/k in tags)",
    "page": "page down / up in the review list",
    "mark_r": "mark read / unread (r)",
    "undo_z": "undo the marking (z)",
    "filter_u": "unread only on / off (u)",
    "filter_v": "next verdict (v)",
    "filter_t": "unchecked only on / off (t)",
    "filter_x": "clear the filters (x)",
    "view_n": "saved view (1, 2, 3)",
    "search_open": "open the search box (/)",
    "search_first_key": "search: the first character typed after the load",
    "search_type": "search as you type (a character)",
    "search_backspace": "search: backspace",
    "search_clear": "search: clear and close (escape)",
    "held_j": "j held down (key repeat, 30 a second)",
}


def _worst_key_row(keys: dict[str, dict[str, float]], figure: str, label: str, limit_ms: int):
    """A target's row for the action of `keys` whose `figure` is the worst:
    `label` with that action's name for `{action}`, met within `limit_ms`."""
    worst = max(keys, key=lambda action: keys[action][figure])
    value = keys[worst][figure]
    return (
        label.format(action=KEY_ACTIONS[worst]),
        f"≤ {limit_ms} ms",
        f"{fmt_ms(value)} ms",
        "–",
        value <= limit_ms / 1000,
    )


class Report:
    """The markdown report: every table computed from one run's figures."""

    def __init__(self, info, runs, cold, seed, bare, screens, loads, keys, reloads, big) -> None:
        self.info, self.runs, self.cold, self.seed = info, runs, cold, seed
        self.bare, self.screens, self.loads = bare, screens, loads
        self.keys, self.reloads, self.big = keys, reloads, big
        self.dropped = bare["dropped"] and all(s["dropped"] for s in screens.values())
        self.bare_cold = summary(bare["cold"], "paint")["median"]
        self.bare_warm = summary(bare["warm"], "paint")["median"]
        self.peers: dict[str, dict | None] = {}  # newsboat's figures, by corpus
        self.bigger: list[str] = []  # the --big corpora

    def reviews(self, name: str) -> str:
        return f"{self.loads[name]['reviews']:,}"

    def bare_for(self, condition: str, name: str | None = None) -> float:
        """The bare app's paint a condition is compared with: the median of the
        bare runs paired with that series' runs (see `app_series`); without
        pairs (the bare rows, cold without dropping the page cache), its cold
        run for cold, its pooled warm median for the rest."""
        paired = self.screens[name]["bare"][condition] if name is not None else []
        if paired:
            return summary(paired, "paint")["median"]
        return self.bare_cold if condition == "cold" else self.bare_warm

    def floor_for(self, condition: str, name: str) -> float:
        """libyaml's time for a corpus, as loading under `condition` ("cold",
        "no_cache") is compared with it: the median of the passes paired with
        that series' runs (see `app_series`); without pairs, the pass timed
        with the loading table (best of 3 warm; one cold)."""
        paired = self.screens[name].get("floors", {}).get(condition) or []
        if paired:
            return median(paired)
        return self.loads[name]["libyaml_cold" if condition == "cold" else "libyaml_load"]

    def print(self) -> None:
        self.header()
        self.screen_table()
        self.peer_table()
        self.loading_table()
        self.key_table()
        self.reload_table()
        self.targets_table()

    def header(self) -> None:
        info, runs = self.info, self.runs
        today = dt.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
        print(f"## prdigest-tui start-up benchmark, {today}\n")
        print(
            f"Machine: {info['cpu']}, {info['cores']} cores, {info['mem']}, Linux {info['kernel']}; "
            f"Python {info['python']}, Textual {info['textual']}, PyYAML {info['pyyaml']}.  "
        )
        print(f"Code measured: {info['tree']}.  ")
        if self.cold and self.dropped:
            print(
                f"Cold = runs right after `sync; echo 3 > /proc/sys/vm/drop_caches` (page cache dropped), "
                f"{COLD_RUNS} per corpus (the `--big` ones: as the runs column says).  "
            )
        else:
            print("Cold = the first run of the program (the page cache was **not** dropped).  ")
        print(
            f"prdigest-tui's other conditions: {runs} runs each; median and p95 (nearest rank: with {runs} "
            f"runs, p95 is the {'slowest' if runs < 20 else f'{math.ceil(0.95 * runs)}th fastest'}); the "
            "bare app's warm runs are interleaved with them (their count is in the table).  "
            f"Corpora from `bench/make_corpus.py --seed {self.seed}`, 10 reviews a file.\n"
        )

    def screen_table(self) -> None:
        print("### First paint and everything loaded, in a pseudo-terminal (120×40, xterm-256color)\n")
        print(
            "| program | reviews | condition | runs | first paint median (s) | p95 (s) | ÷ bare "
            "| all loaded median (s) | p95 (s) | ÷ bare paint | first text (s) | peak RSS (MB) "
            "| parse workers (MB) | progress shown | q → exit (s) |"
        )
        print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|")
        for condition, text in BARE_CONDITIONS.items():
            self.screen_row("bare Textual app", "–", condition, text, self.bare[condition], loads=False)
        for name, series in self.screens.items():
            label = "`prdigest-tui` (bundled digest)" if name == "bundled" else "`prdigest-tui DIR`"
            if name.endswith("x1"):
                label += " (one review a file)"
            for condition, text in CONDITIONS.items():
                self.screen_row(
                    label, self.reviews(name), condition, text, series[condition], loads=True, name=name
                )
        unclean = {
            f"{name} {condition}": sum(not r.clean_exit for r in runs)
            for name, series in [("bare", self.bare), *self.screens.items()]
            for condition, runs in series.items()
            if isinstance(runs, list) and any(not r.clean_exit for r in runs)
        }
        print(
            "\nFirst paint: prdigest-tui's status bar shows `N reviews · ` and a row `Deep read`; the bare "
            "app shows `hello`. All loaded: the All tag shows `N/N` and the status bar `N reviews · ` "
            "for the whole corpus. ÷ bare: over the median of the bare app's runs paired with that "
            "row's: each prdigest-tui run is next to a bare run, after it and before it in turn (a "
            "cold one after its own drop of the page cache), so both see the same state of the "
            "machine; the bare rows pool every bare run. Peak RSS: the app's VmHWM just before "
            "quitting (median); parse workers: their "
            "VmHWM summed, sampled every 50 ms (not in the app's figure). Progress shown: the status "
            "bar's `loading n/N files…` was drawn in every run (none: in no run)."
        )
        if unclean:
            print(f"\nRuns that did not exit cleanly after the quit key (killed or non-zero): {unclean}")

    def screen_row(
        self,
        label: str,
        count: str,
        condition: str,
        text: str,
        runs: list[PtyRun],
        loads: bool,
        name: str | None = None,
    ) -> None:
        paint = summary(runs, "paint")
        base = self.bare_for(condition, name)
        ratio = fmt_x(paint["median"] / base)
        if loads:
            loaded = summary(runs, "loaded")
            loaded_cells = (
                f"{fmt_s(loaded['median'])} | {fmt_s(loaded['p95'])} | {fmt_x(loaded['median'] / base)}"
            )
            shown = [r.watched["progress"] for r in runs]
            progress_cell = (
                "every run" if all(shown) else "none" if not any(shown) else f"{sum(shown)}/{len(shown)}"
            )
            workers = f"{median([r.workers_kb for r in runs]) / 1024:.0f}"
        else:
            loaded_cells, progress_cell, workers = "– | – | –", "–", "–"
        quits = [r.quit for r in runs if r.quit is not None]
        print(
            f"| {label} | {count} | {text} | {paint['n']} "
            f"| {fmt_s(paint['median'])} | {fmt_s(paint['p95'])} | {ratio} | {loaded_cells} "
            f"| {fmt_s(median([r.first_text or math.nan for r in runs]))} "
            f"| {median([r.hwm_kb or 0 for r in runs]) / 1024:.0f} | {workers} | {progress_cell} "
            f"| {fmt_s(median(quits)) if quits else '–'} |"
        )

    def peer_table(self) -> None:
        if not self.peers:
            return
        print("\n### A peer: newsboat, the same reviews as one local Atom feed (`file://`)\n")
        print(
            "| reviews | feed (MB) | runs | `-x reload`, median (s) | ÷ libyaml warm | first list = all items "
            "listed, cache filled, median (s) | ÷ bare | peak RSS (MB) |"
        )
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for name, peer in self.peers.items():
            if peer is None:
                continue
            runs = peer["runs"]
            reload_s = median(peer["parse"])
            paint = summary(runs, "paint")["median"]
            print(
                f"| {self.reviews(name)} | {peer['feed_mb']:.1f} | {len(runs)} | {fmt_s(reload_s)} "
                f"| {fmt_x(reload_s / self.floor_for('no_cache', name))} | {fmt_s(paint)} "
                f"| {fmt_x(paint / self.bare_warm)} | {median([r.hwm_kb or 0 for r in runs]) / 1024:.0f} |"
            )
        print(
            "\n`bench/newsboat_peer.py`: the feed holds each review's title, PR link, summary and items. "
            "`-x reload` parses the feed into newsboat's cache headless (its start without a cache); the "
            "first list is its feed list showing `(N/N)` (unread/total: every item counted) under the "
            "same pty as prdigest-tui, with the cache filled."
        )

    def loading_table(self) -> None:
        print("\n### Loading: libyaml alone, and the app's loader, each in a fresh process\n")
        print(
            "| corpus | files | MB | read bytes (s) | libyaml load, warm (s) | libyaml load, cold (s) "
            "| libyaml compose (s) | `load_paths` (s) | `Library.build` (s) "
            "| app all loaded, no parse cache ÷ libyaml warm | app all loaded cold ÷ libyaml cold |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for name, load in self.loads.items():
            if name == "bundled":
                ratios = "– | –"  # a millisecond of YAML: start-up is all imports and layout
            else:
                no_cache = summary(self.screens[name]["no_cache"], "loaded")["median"]
                cold = summary(self.screens[name]["cold"], "loaded")["median"]
                ratios = (
                    f"{fmt_x(no_cache / self.floor_for('no_cache', name))} "
                    f"| {fmt_x(cold / self.floor_for('cold', name))}"
                )
            print(
                f"| {self.reviews(name)} reviews | {load['files']:,} | {load['mb']:.1f} | {fmt_s(load['read'])} "
                f"| {fmt_s(load['libyaml_load'])} | {fmt_s(load['libyaml_cold'])} "
                f"| {fmt_s(load['libyaml_compose'])} | {fmt_s(load['load_paths'])} "
                f"| {fmt_s(load['library_build'])} | {ratios} |"
            )
        cold_note = (
            "right after dropping the page cache"
            if all(load["libyaml_cold_dropped"] for load in self.loads.values())
            else "a first pass (the page cache was **not** dropped)"
        )
        print(
            "\nlibyaml = read + `yaml.load(text, Loader=yaml.CSafeLoader)` of every file, one process: warm "
            f"is the best of 3 with the page cache warm; cold is one pass {cold_note}. Only the parsing is "
            "timed (Python and PyYAML are started first), while the app's *all loaded* is timed from "
            "the spawn: it includes starting Python and Textual, and the app may parse on both cores. "
            "compose, `load_paths` and `Library.build`: best of 3, warm. The two ratios are over the "
            "median of the libyaml passes paired with the app's runs (one in a fresh process just before "
            "each cold and no-cache pair of runs, the cold ones after their own drop of the page cache), "
            "not over the figures in this table, timed minutes earlier."
        )

    def key_table(self) -> None:
        print(
            "\n### Key latency with Pilot (`run_test(size=(120, 40))`), in ms\n\n"
            "Timed once every file is loaded and the watcher runs, then 1 s later. "
            "Wall = `await pilot.press(key)` + `await pilot.pause()`; both wait for idle in 20 ms steps, "
            "so the bare app's unbound key is the floor. CPU = process time spent in that window. "
            "Key → first / last frame = from sending the key until the app hands the first / the last "
            "screen update it causes to the driver: when the screen starts to answer, and when it has "
            "answered in full (keys that change nothing on screen have no frame). A key's effect is "
            "drawn in one frame, so the two are equal unless a key took two (Textual draws a second "
            "frame 17-33 ms after a first). CPU includes a full garbage collection when one is due: "
            "it runs right after the key's frame (tui/runtime.py).\n"
        )
        floor = self.keys["bare"]["floor"]["wall_p50"]
        print(
            "| corpus | action | presses | key → first frame p50 | p95 | key → last frame p50 | p95 "
            "| wall p50 | wall p95 | wall max | ÷ floor (p50) | CPU p50 | CPU p95 |"
        )
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for corpus, result in self.keys.items():
            label = "bare app" if corpus == "bare" else f"{self.reviews(corpus)} reviews"
            mount = result["mount"]
            print(
                f"| {label} | `run_test` start → first pause | 1 | | | | | {fmt_ms(mount)} | | | {fmt_x(mount / floor)} | | |"
            )
            if "loaded" in result:
                loaded = result["loaded"]
                print(
                    f"| {label} | `run_test` start → all loaded | 1 | | | | | {fmt_ms(loaded)} | | "
                    f"| {fmt_x(loaded / floor)} | | |"
                )
            for action, name in KEY_ACTIONS.items():
                if action in result:
                    r = result[action]
                    print(
                        f"| {label} | {name} | {r['n']} | {fmt_ms(r['first_frame_p50'])} "
                        f"| {fmt_ms(r['first_frame_p95'])} | {fmt_ms(r['frame_p50'])} | {fmt_ms(r['frame_p95'])} "
                        f"| {fmt_ms(r['wall_p50'])} | {fmt_ms(r['wall_p95'])} "
                        f"| {fmt_ms(r['wall_max'])} | {fmt_x(r['wall_p50'] / floor)} "
                        f"| {fmt_ms(r['cpu_p50'])} | {fmt_ms(r['cpu_p95'])} |"
                    )

    def reload_table(self) -> None:
        print(
            "\n### One-file change, real watcher (`bench/reload_latency.py`), in ms\n\n"
            "One file of the watched corpus rewritten (temp file + rename), timed until the review pane "
            "shows the change; a first edit is not timed. Includes the watcher's debounce.\n"
        )
        print("| corpus | edits | p50 | p95 | max | p50 ÷ bundled | p95 ÷ bundled |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        base = self.reloads["bundled"]
        for name, r in self.reloads.items():
            print(
                f"| {self.reviews(name)} reviews | {r['n']} | {fmt_ms(r['p50'])} | {fmt_ms(r['p95'])} "
                f"| {fmt_ms(r['max'])} | {fmt_x(r['p50'] / base['p50'])} | {fmt_x(r['p95'] / base['p95'])} |"
            )

    def big_targets(self) -> list[tuple[str, str, str, str, bool]]:
        """Issue 21's targets, for the --big corpora."""
        rows = []
        for name in self.bigger:
            n = self.reviews(name)
            if name.endswith("x1"):
                no_cache = summary(self.screens[name]["no_cache"], "loaded")["median"]
                floor = self.floor_for("no_cache", name)
                rows.append(
                    (
                        f"all loaded, {n} reviews one a file, no parse cache",
                        "≤ 0.6× libyaml alone (warm)",
                        f"{fmt_s(no_cache)} s; libyaml {fmt_s(floor)} s",
                        fmt_x(no_cache / floor),
                        no_cache <= 0.6 * floor,
                    )
                )
                continue
            for condition in CONDITIONS:
                paint = summary(self.screens[name][condition], "paint")["median"]
                base = self.bare_for(condition, name)
                rows.append(
                    (
                        f"first paint, {n} reviews, {SHORT[condition]}",
                        "≤ 1.3× bare",
                        f"{fmt_s(paint)} s; bare {fmt_s(base)} s",
                        fmt_x(paint / base),
                        paint / base <= 1.3,
                    )
                )
            warm = summary(self.screens[name]["warm"], "loaded")["median"]
            base = self.bare_for("warm", name)
            rows.append(
                (
                    f"all loaded, {n} reviews, warm",
                    "≤ 2.0× bare paint",
                    f"{fmt_s(warm)} s; bare {fmt_s(base)} s",
                    fmt_x(warm / base),
                    warm / base <= 2.0,
                )
            )
            no_cache = summary(self.screens[name]["no_cache"], "loaded")["median"]
            floor = self.floor_for("no_cache", name)
            rows.append(
                (
                    f"all loaded, {n} reviews, no parse cache",
                    "≤ 0.6× libyaml alone (warm)",
                    f"{fmt_s(no_cache)} s; libyaml {fmt_s(floor)} s",
                    fmt_x(no_cache / floor),
                    no_cache <= 0.6 * floor,
                )
            )
            mb = (
                max(median([(r.hwm_kb or 0) + r.workers_kb for r in runs]) for runs in self._app_runs(name))
                / 1024
            )
            rows.append(
                (f"peak RSS, {n} reviews, app + parse workers", "≤ 200 MB", f"{mb:.0f} MB", "–", mb <= 200)
            )
            if name in self.keys:
                keys = {a: r for a, r in self.keys[name].items() if a in KEY_ACTIONS}
                # First frame: the key answered (a search's box shows the character);
                # last frame: its whole effect (a search run off the key: the list).
                for figure, what in (("first_frame_p95", "first frame"), ("frame_p95", "last frame")):
                    label = f"key → {what} p95, {n} reviews (worst action: {{action}})"
                    rows.append(_worst_key_row(keys, figure, label, 16))
        return rows

    def targets(self) -> list[tuple[str, str, str, str, bool]]:
        """(target, limit, measured, ratio, met) for each target, from this run."""
        big, n = self.big, self.reviews(self.big)
        rows = self.big_targets()
        for name, limit in ((big, 1.5), ("bundled", 1.2)):
            for condition in CONDITIONS:
                paint = summary(self.screens[name][condition], "paint")["median"]
                base = self.bare_for(condition, name)
                rows.append(
                    (
                        f"first paint, {self.reviews(name)} reviews, {SHORT[condition]}",
                        f"≤ {limit}× bare {'cold' if condition == 'cold' else 'warm'}",
                        f"{fmt_s(paint)} s; bare {fmt_s(base)} s",
                        fmt_x(paint / base),
                        paint / base <= limit,
                    )
                )
        loaded = summary(self.screens[big]["warm"], "loaded")["median"]
        base = self.bare_for("warm", big)
        rows.append(
            (
                f"all loaded, {n} reviews, warm",
                "≤ 2.0× bare paint (warm)",
                f"{fmt_s(loaded)} s; bare {fmt_s(base)} s",
                fmt_x(loaded / base),
                loaded / base <= 2.0,
            )
        )
        cold = summary(self.screens[big]["cold"], "loaded")["median"]
        no_cache = summary(self.screens[big]["no_cache"], "loaded")["median"]
        for label, app_s, floor, which in (
            ("cold (page cache dropped, no parse cache)", cold, self.floor_for("cold", big), "cold"),
            ("no parse cache, page cache warm", no_cache, self.floor_for("no_cache", big), "warm"),
        ):
            rows.append(
                (
                    f"all loaded, {n} reviews, {label}",
                    f"≤ 1.0× libyaml alone ({which})",
                    f"{fmt_s(app_s)} s; libyaml {fmt_s(floor)} s",
                    fmt_x(app_s / floor),
                    app_s <= floor,
                )
            )
        keys = {a: r for a, r in self.keys[big].items() if a in KEY_ACTIONS}
        for figure, what in (
            ("cpu_p95", "CPU"),
            ("first_frame_p95", "key → first frame"),
            ("frame_p95", "key → last frame"),
        ):
            label = f"key latency p95, {n} reviews ({what}, worst action: {{action}})"
            rows.append(_worst_key_row(keys, figure, label, 30))
        app_mb = max(median([r.hwm_kb or 0 for r in runs]) for runs in self._app_runs(big)) / 1024
        workers_mb = max(median([r.workers_kb for r in runs]) for runs in self._app_runs(big)) / 1024
        bare_mb = median([r.hwm_kb or 0 for r in self.bare["warm"]]) / 1024
        for label, mb in (("the app process", app_mb), ("app + parse workers", app_mb + workers_mb)):
            rows.append(
                (
                    f"peak RSS, {n} reviews, {label} (worst condition)",
                    "≤ 300 MB",
                    f"{mb:.0f} MB; bare {bare_mb:.0f} MB",
                    f"{fmt_x(mb / bare_mb)} bare",
                    mb <= 300,
                )
            )
        return rows

    def _app_runs(self, name: str) -> list[list[PtyRun]]:
        return [self.screens[name][condition] for condition in CONDITIONS]

    def targets_table(self) -> None:
        print("\n### Targets, from this run\n")
        if self.big != "10000":
            print(
                f"(A quick run: the 10,000-review targets are checked at {self.reviews(self.big)} reviews.)\n"
            )
        print("| target | limit | measured | ratio | met |")
        print("|---|---|---|---:|---|")
        for target, limit, measured, ratio, met in self.targets():
            print(f"| {target} | {limit} | {measured} | {ratio} | {'yes' if met else '**no**'} |")
        print(
            "\nKey latency: Pilot's own wait for idle (the floor) is in every wall figure, so the target "
            "is checked on CPU time and on the time from the key to the frame it causes. Peak RSS for "
            "app + parse workers "
            "adds the workers' peaks to the app's: an upper bound, as they need not peak together."
        )


if __name__ == "__main__":
    sys.exit(main())
