"""Key latency alone: `startup.py`'s key worker at each corpus size, in fresh
processes, optionally side by side with another checkout (interleaved).

    python bench/keys_bench.py [--reviews 10000 100000] [--rounds 2] [--before OTHER_CHECKOUT]
        [--corpus EXISTING_CORPUS] [--presses 100,100,100] [--state-keys N] [--no-search]

Each round runs the worker once per corpus and side (the other checkout first
on even rounds). The other checkout runs THIS checkout's bench scripts (copied
into a temporary folder next to its `tui`), so both sides press the same keys;
its `.venv` must exist. The parse cache of each side and corpus is filled by a
first, untimed start. `--corpus`: an existing corpus (read only, e.g.
`/tmp/c100k`, with `--reviews 100000` for its size) in place of writing one. `--presses`:
100,100,100 presses each key 100 times or more (the search phase types its
ten queries: 10 opens, ~67 characters, ~68 backspaces), for a p95 of
100 presses rather than 30. Prints, per corpus and action, the median over rounds of
CPU p50 / p95 and key -> first / last frame p50 / p95 (ms). Not a test.

`--state-keys N`: each start finds a state file of N review keys, a third
read (`bench/big_state.py`, written once per corpus after the first round
with this checkout's code, copied in before every start): a reader who has
read for months, rather than an empty state.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import tempfile
from pathlib import Path

from make_corpus import generate
from startup import BENCH, KEY_ACTIONS, ROOT, child_env, progress

FIGURES = (
    "cpu_p50",
    "cpu_p95",
    "first_frame_p50",
    "first_frame_p95",
    "rows_frame_p50",
    "rows_frame_p95",
    "frame_p50",
    "frame_p95",
)
"""`rows_frame`: the first frame showing the key's effect in part (a search's
first rows, `key_phases._rows_shown`); for search keys only."""


def _worker(
    root: Path,
    bench: Path,
    corpus: Path,
    tmp: Path,
    env: dict[str, str],
    presses: str,
    marks: Path | None = None,
) -> dict:
    """`marks`: a state file to start with (copied: the reader writes to it)."""
    state = tmp / "keys-state.json"
    if marks is not None:
        shutil.copyfile(marks, state)
    out = subprocess.run(
        [
            str(root / ".venv" / "bin" / "python"),
            str(bench / "startup.py"),
            "_keys",
            str(corpus),
            str(state),
            *presses.split(","),
        ],
        check=True,
        capture_output=True,
        text=True,
        cwd=bench,
        env=env,
    )
    for leftover in tmp.glob("keys-state*"):
        leftover.unlink()
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, nargs="+", default=[10000, 100000])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--before", type=Path, help="another checkout (with .venv) to compare with")
    parser.add_argument(
        "--presses", default="100,30,30", help="j/k presses, tag switches (and rounds), opens"
    )
    parser.add_argument(
        "--corpus",
        type=Path,
        help="an existing corpus (read only) of --reviews' one size, in place of writing it",
    )
    parser.add_argument("--state-keys", type=int, default=0, help="start with a state of this many keys")
    parser.add_argument("--no-search", action="store_true", help="leave the search phase out")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-keys-"))
    try:
        sides = {"after": (ROOT, BENCH)}
        if args.before is not None:
            other = args.before.resolve()
            copy = tmp / "before"  # its tui (imported from ROOT = the bench's parent) with our bench
            copy.mkdir()
            (copy / "tui").symlink_to(other / "tui")
            (copy / ".venv").symlink_to(other / ".venv")
            shutil.copytree(BENCH, copy / "bench", ignore=shutil.ignore_patterns("__pycache__"))
            sides = {"before": (copy, copy / "bench"), **sides}
        corpora = {}
        if args.corpus is not None:
            corpora[args.reviews[0]] = args.corpus.resolve()  # its size as --reviews says
        for n in [] if args.corpus is not None else args.reviews:
            corpora[n] = tmp / f"corpus-{n}"
            progress(f"writing {n} reviews")
            generate(corpora[n], n, seed=0)
        results: dict[tuple[str, int], list[dict]] = {}
        marks: dict[int, Path] = {}
        for round_ in range(args.rounds + 1):  # round 0 fills the parse caches, untimed
            if round_ == 1 and args.state_keys:
                for n, corpus in corpora.items():
                    marks[n] = tmp / f"marks-{n}.json"
                    progress(f"writing a state of {args.state_keys:,} keys for {n:,} reviews")
                    env = {**child_env(tmp / "after"), "XDG_CACHE_HOME": str(tmp / f"cache-after-{n}")}
                    subprocess.run(
                        [
                            str(ROOT / ".venv" / "bin" / "python"),
                            str(BENCH / "big_state.py"),
                            str(corpus),
                            str(marks[n]),
                            "--keys",
                            str(args.state_keys),
                        ],
                        check=True,
                        cwd=BENCH,
                        env=env,
                    )
            order = list(sides) if round_ % 2 else list(reversed(sides))
            for name in order:
                root, bench = sides[name]
                for n, corpus in corpora.items():
                    env = {**child_env(tmp / name), "XDG_CACHE_HOME": str(tmp / f"cache-{name}-{n}")}
                    presses = (args.presses if round_ else "1,1,1") + (",nosearch" if args.no_search else "")
                    result = _worker(root, bench, corpus, tmp, env, presses, marks.get(n))
                    if round_:
                        results.setdefault((name, n), []).append(result)
                    progress(f"round {round_}: {name} at {n:,} done")
        for n in corpora:
            runs = {name: results[(name, n)] for name in sides}
            rss = " / ".join(
                f"{statistics.median(r.get('peak_rss_mb', float('nan')) for r in runs[name]):.0f}"
                for name in sides
            )
            mount = " / ".join(
                f"{statistics.median(r['mount'] for r in runs[name]) * 1000:.0f}" for name in sides
            )
            state = f"a state of {args.state_keys:,} keys" if args.state_keys else "an empty state"
            print(
                f"\n### {n:,} reviews, {state}: medians of {args.rounds} runs, ms ({' / '.join(sides)}); "
                f"worker peak RSS {rss} MB; in-process mount {mount} ms\n"
            )
            print("| action | presses | " + " | ".join(FIGURES) + " |")
            print("|---|---:|" + "---:|" * len(FIGURES))
            for action, label in KEY_ACTIONS.items():
                if action not in runs["after"][0]:
                    continue
                cells = []
                for figure in FIGURES:
                    values = []
                    for name in sides:
                        found = [r[action][figure] for r in runs[name] if figure in r.get(action, {})]
                        values.append(f"{statistics.median(found) * 1000:.1f}" if found else "–")
                    cells.append(" / ".join(values))
                print(f"| {label} | {runs['after'][0][action]['n']} | " + " | ".join(cells) + " |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
