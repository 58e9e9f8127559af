"""`prdigest-tui status` next to `python -c pass`, warm, at N reviews.

    python bench/status_bench.py [--reviews 10000] [--runs 30] [--config]

Writes a corpus (bench/make_corpus.py) to a temporary folder, marks a tenth of
its reviews read in a state file (`--read-every`) (a few of them then edited, so `{updated}`
has something to compare), warms the parse cache with one `status`, then
times `status` and `python -c pass` alternately, each a fresh process, and
prints the medians and their ratio, of wall-clock and of CPU time. `--config` adds a config with two views
and a mute (the config is YAML: PyYAML is imported to read it).

This is a measurement tool, not a test; run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
CONFIG = """views:
  deep-kernels: {tags: [kernels, rocm], verdict: [deep]}
  beta: {repos: [pytorch/pytorch], unread: true}
mute: [ci]
"""


def timed(argv: list[str], env: dict[str, str], cpu: list[float] | None = None) -> float:
    """Wall-clock seconds of one run; its CPU seconds (user + system) appended to `cpu`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reviews", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--config", action="store_true")
    parser.add_argument("--read-every", type=int, default=10, help="mark every Nth review read (0: none)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        corpus = root / "corpus"
        subprocess.run(
            [PYTHON, str(ROOT / "bench" / "make_corpus.py"), str(corpus), "--reviews", str(args.reviews)],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        env = dict(os.environ)
        # As installed: compiled modules, as pip leaves them (compiling from source is ~40 ms more).
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([PYTHON, "-m", "compileall", "-q", str(ROOT / "tui")], check=True, env=env)
        for name in ("XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME"):
            env[name] = str(root / name.lower())
            Path(env[name]).mkdir()
        if args.config:
            folder = Path(env["XDG_CONFIG_HOME"]) / "prdigest-tui"
            folder.mkdir()
            (folder / "config.yaml").write_text(CONFIG, encoding="utf-8")
        status = [PYTHON, "-m", "tui", "status", str(corpus)]
        fmt = "{unread} unread · {updated} updated · {deep} deep"
        if args.config:
            fmt += " · {view:deep-kernels} · {view:beta}"
        status += ["--format", fmt]
        if args.read_every:
            _mark_some_read(env, corpus, args.read_every)
        print(subprocess.run(status, env=env, check=True, capture_output=True, text=True).stdout.strip())
        bare = [PYTHON, "-c", "pass"]
        timed(status, env)
        ours, floor, ours_cpu, floor_cpu = [], [], [], []
        for _ in range(args.runs):
            floor.append(timed(bare, env, floor_cpu))
            ours.append(timed(status, env, ours_cpu))
        ours_ms, floor_ms = statistics.median(ours) * 1000, statistics.median(floor) * 1000
        read = f"1 in {args.read_every}" if args.read_every else "none"
        print(
            f"reviews: {args.reviews:,}  read: {read}  runs: {args.runs}  config: {'yes' if args.config else 'no'}"
        )
        print(f"python -c pass  median {floor_ms:.1f} ms")
        print(
            f"status (warm)   median {ours_ms:.1f} ms  (p90 {sorted(ours)[int(len(ours) * 0.9)] * 1000:.1f})"
        )
        print(f"ratio           {ours_ms / floor_ms:.2f}x")
        # CPU time moves less than wall-clock time on a machine shared with other work.
        ours_cpu_ms, floor_cpu_ms = statistics.median(ours_cpu) * 1000, statistics.median(floor_cpu) * 1000
        print(
            f"CPU time        median {floor_cpu_ms:.1f} ms vs {ours_cpu_ms:.1f} ms: "
            f"{ours_cpu_ms / floor_cpu_ms:.2f}x (min {min(ours_cpu) / min(floor_cpu):.2f}x)"
        )


def _mark_some_read(env: dict[str, str], corpus: Path, every: int) -> None:
    """Every `every`th review read, in the state file, by the library's own code;
    then a few of their files touched, so `status` compares what was read."""
    script = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from pathlib import Path
from tui.load.parse import load_paths
from tui.core.model import Library
from tui.core.changes import fingerprint
from tui.store.state import ReadState
from tui.store import locations
result = load_paths([Path({str(corpus)!r})])
library = Library.build(result.files, result.problems)
state = ReadState(locations.state_file())
state.load()
for review in library.reviews[::{every}]:
    state.set_read(review.key, True)
    state.set_seen(review.key, fingerprint(review))
state.save()
"""
    subprocess.run([PYTHON, "-c", script], env=env, check=True)
    for path in sorted(corpus.rglob("*.yaml"))[:5]:
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("summary: ", "summary: 改 ", 1), encoding="utf-8")


if __name__ == "__main__":
    main()
