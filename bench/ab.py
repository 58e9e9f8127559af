"""Two checkouts of prdigest-tui side by side, interleaved: did a change move start-up or keys?

    python bench/ab.py A_DIR B_DIR [--rounds 10] [--reviews 10000]

Each DIR is a checkout with its own `.venv` (`pip install -e '.[test]'` there). Every
round starts the bare app, then A and B (in turn first), under the same real pty as
`startup.py`: the bundled digest and a corpus of `--reviews` reviews, each with no
parse cache and warm. Then each side's own `startup.py _keys` worker times keys at
the corpus, alternating A and B. Interleaving puts a drifting machine on both sides.

The report gives each figure's median for A and B, the ratio B/A and the spread:
half the distance between the 25th and 75th percentiles of A's rounds, as a share
of A's median. A ratio within 1 +- spread is noise. Timings are never pass/fail.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_corpus import generate
from startup import (
    app_checkpoints,
    bare_once,
    cache_filled,
    child_env,
    median,
    percentile,
    progress,
    run_in_pty,
)


def _side(root: Path) -> tuple[str, str]:
    exe = root / ".venv" / "bin" / "prdigest-tui"
    python = root / ".venv" / "bin" / "python"
    if not exe.exists():
        raise SystemExit(f"{exe} is missing: make {root}/.venv and pip install -e '.[test]' there")
    return str(exe), str(python)


def _start(exe: str, paths: list[str], count: int, tmp: Path, env: dict[str, str], home: str, settle=False):
    cache_home = tmp / "caches" / home
    run_env = {**env, "XDG_CACHE_HOME": str(cache_home)}
    argv = [exe, "--lang", "en", "--state", str(tmp / f"state-{home}.json"), *paths]
    until = cache_filled(cache_home) if settle else None
    return run_in_pty(argv, tmp / "empty", run_env, app_checkpoints(count), b"q", None, until)


def _keys(python: str, root: Path, corpus: Path, tmp: Path, env: dict[str, str]) -> dict:
    out = subprocess.run(
        [
            python,
            str(root / "bench" / "startup.py"),
            "_keys",
            str(corpus),
            str(tmp / "keys.json"),
            "60",
            "20",
            "20",
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=root / "bench",
        env=env,
    )
    (tmp / "keys.json").unlink(missing_ok=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _spread(values: list[float]) -> float:
    mid = median(values)
    return (percentile(values, 75) - percentile(values, 25)) / 2 / mid if mid else 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path)
    parser.add_argument("b", type=Path)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--reviews", type=int, default=10000)
    parser.add_argument("--key-rounds", type=int, default=3)
    args = parser.parse_args()
    sides = {"A": args.a.resolve(), "B": args.b.resolve()}
    exes = {name: _side(root) for name, root in sides.items()}
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-ab-"))
    try:
        (tmp / "empty").mkdir()
        env = child_env(tmp)
        corpus = tmp / "corpus"
        generate(corpus, args.reviews)
        bundled_count = 8
        figures: dict[str, dict[str, list[float]]] = {"A": {}, "B": {}}
        bare: list[float] = []

        def add(side: str, figure: str, value: float) -> None:
            figures[side].setdefault(figure, []).append(value)

        for name in sides:  # fill each side's warm cache once
            exe = exes[name][0]
            _start(exe, [], bundled_count, tmp, env, f"{name}-bundled-warm", settle=True)
            _start(exe, [str(corpus)], args.reviews, tmp, env, f"{name}-big-warm", settle=True)
        for n in range(args.rounds):
            bare.append(bare_once(tmp, env).times["paint"])
            order = ["A", "B"] if n % 2 == 0 else ["B", "A"]
            for name in order:
                exe = exes[name][0]
                for label, paths, count in (
                    ("8", [], bundled_count),
                    (f"{args.reviews:,}", [str(corpus)], args.reviews),
                ):
                    cold = _start(exe, paths, count, tmp, env, f"{name}-none-{n}-{count}")
                    shutil.rmtree(tmp / "caches" / f"{name}-none-{n}-{count}", ignore_errors=True)
                    home = f"{name}-{'bundled' if count == bundled_count else 'big'}-warm"
                    warm = _start(exe, paths, count, tmp, env, home)
                    add(name, f"{label}: first paint, no parse cache", cold.times["paint"])
                    add(name, f"{label}: all loaded, no parse cache", cold.times["loaded"])
                    add(name, f"{label}: first paint, warm", warm.times["paint"])
                    add(name, f"{label}: all loaded, warm", warm.times["loaded"])
            progress(f"round {n + 1}/{args.rounds}")
        for n in range(args.key_rounds):
            for name in ["A", "B"] if n % 2 == 0 else ["B", "A"]:
                result = _keys(exes[name][1], sides[name], corpus, tmp, env)
                for action, row in result.items():
                    if isinstance(row, dict) and "frame_p95" in row:
                        add(name, f"key {action}: key -> frame p50 (ms)", row["frame_p50"] * 1000)
                        add(name, f"key {action}: key -> frame p95 (ms)", row["frame_p95"] * 1000)
                        add(name, f"key {action}: CPU p95 (ms)", row["cpu_p95"] * 1000)
            progress(f"keys {n + 1}/{args.key_rounds}")

        print(f"A = {sides['A']}\nB = {sides['B']}\n")
        print(f"bare app first paint: median {median(bare):.3f} s over {len(bare)} runs\n")
        print("| figure | A | B | B/A | spread (A) |\n|---|---:|---:|---:|---:|")
        for figure, values in figures["A"].items():
            a, b = median(values), median(figures["B"][figure])
            unit = "" if "(ms)" in figure else " s"
            fmt = "{:.1f}" if "(ms)" in figure else "{:.3f}"
            print(
                f"| {figure} | {fmt.format(a)}{unit} | {fmt.format(b)}{unit} | {b / a:.2f} | "
                f"±{_spread(values) * 100:.0f}% |"
            )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
