"""What a big state costs the reader, piece by piece, in fresh processes, two
checkouts interleaved: reading it, and what one mark then costs on the event
loop (the sidebar's counts, the save's snapshot and what the save learned)
and in the saving thread (the write).

    python bench/state_costs.py STATE_FILE [--corpus DIR] [--before OTHER_CHECKOUT] [--rounds 3]

STATE_FILE: e.g. `big_state.py`'s (copied for each run: saves write to it).
`--corpus`: the library the sidebar counts (read with the parse cache of
XDG_CACHE_HOME); without it the sidebar is left out. Each process imports
`tui` from the checkout it is given; the garbage collector is off, as while
the reader starts. CPU ms (`time.process_time`), medians over rounds. Not a test.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent

STEPS = (
    ("load", "ReadState.load"),
    ("rows_first", "SidebarCounts.rows, the first"),
    ("rows_mark", "SidebarCounts.rows after a mark"),
    ("snapshot", "ReadState.snapshot"),
    ("write_first", "ReadState.write, the first (saving thread)"),
    ("absorb_first", "ReadState.absorb, the first"),
    ("write_mark", "ReadState.write after a mark (saving thread)"),
    ("absorb_mark", "ReadState.absorb after a mark"),
)


def child(root: Path, state_path: Path, corpus: Path | None) -> dict[str, float]:
    import gc

    sys.path.insert(0, str(root))
    gc.disable()
    from tui.store.state import ReadState

    out: dict[str, float] = {}

    def timed(name: str, call):
        started = time.process_time()
        result = call()
        out[name] = (time.process_time() - started) * 1000
        return result

    library = rows = None
    if corpus is not None:
        from tui import __version__
        from tui.core.search import SearchIndex
        from tui.core.views import View
        from tui.load.cache import ParseCache
        from tui.load.library import load_library
        from tui.store import locations
        from tui.ui.sidebar import SidebarCounts

        library = load_library([corpus], ParseCache(locations.cache_file(), version_key=__version__))
        views = {"todo": View("todo", unchecked=True), "deep": View("deep", verdicts=frozenset({"deep"}))}
        counts, index = SidebarCounts(), SearchIndex()

        def rows() -> object:
            return counts.rows(library, state, views, frozenset(), index)

    state = ReadState(state_path)
    timed("load", state.load)
    if rows is not None:
        timed("rows_first", rows)
    key = next(iter(library.reviews)).key if library is not None else next(iter(state.reviews))
    state.set_read(key, not state.is_read(key))
    if rows is not None:
        timed("rows_mark", rows)
    snapshot = timed("snapshot", state.snapshot)
    outcome = timed("write_first", lambda: state.write(snapshot))
    timed("absorb_first", lambda: state.absorb(outcome))
    state.set_read(key, not state.is_read(key))
    snapshot = state.snapshot()
    outcome = timed("write_mark", lambda: state.write(snapshot))
    timed("absorb_mark", lambda: state.absorb(outcome))
    return out


def main() -> int:
    if sys.argv[1:2] == ["_child"]:
        root, state, corpus = sys.argv[2:5]
        print(json.dumps(child(Path(root), Path(state), Path(corpus) if corpus else None)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("state", type=Path)
    parser.add_argument("--corpus", type=Path)
    parser.add_argument("--before", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sides = {"after": ROOT}
    if args.before is not None:
        sides = {"before": args.before.resolve(), **sides}
    tmp = Path(tempfile.mkdtemp(prefix="prdigest-state-costs-"))
    results: dict[str, list[dict[str, float]]] = {name: [] for name in sides}
    try:
        for round_ in range(args.rounds):
            for name in list(sides) if round_ % 2 == 0 else list(reversed(sides)):
                copy = tmp / "state.json"
                shutil.copyfile(args.state, copy)
                run = subprocess.run(
                    [sys.executable, __file__, "_child", str(sides[name]), str(copy), str(args.corpus or "")],
                    check=True,
                    capture_output=True,
                    text=True,
                )
                results[name].append(json.loads(run.stdout.strip().splitlines()[-1]))
                for leftover in tmp.iterdir():
                    leftover.unlink()
        print(
            f"state: {args.state} ({args.state.stat().st_size / 1e6:.1f} MB); medians of {args.rounds}, CPU ms\n"
        )
        print("| step | " + " | ".join(sides) + " |")
        print("|---|" + "---:|" * len(sides))
        for step, label in STEPS:
            cells = []
            for name in sides:
                found = [r[step] for r in results[name] if step in r]
                cells.append(f"{statistics.median(found):.1f}" if found else "–")
            print(f"| {label} | " + " | ".join(cells) + " |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
