"""Search as you type alone, press by press: the key bench's search phase
(`key_phases.QUERIES`, each typed a character at a time and erased) in one
reader, in this process, with every press's figures printed, so the tail of
"search as you type" can be told apart (which characters, and what ran in
their window).

    python bench/typed_keys.py --corpus /tmp/c100k [--root CHECKOUT] [--json OUT]

Per press: CPU (process time), key -> first frame, first frame listing the
query's rows, last frame (ms, as `startup.Timings`), and the garbage
collections that ran in its window (their count and CPU-free wall ms,
`gc.callbacks`), and how much of those ran between the key and its first
frame (summed over the presses at the end). The parse cache lives in a
temporary XDG folder filled by a first, untimed start. `--root`: the checkout
whose `tui` is measured (this script's bench helpers are used either way).
`--no-hold`: input does not hold the young collections off until its frame
(`tui.runtime.note_input`), for a side-by-side run. Not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
import os
import sys
import tempfile
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
FIGURES = ("cpu", "first_frame", "rows_frame", "frame")


def setup(root: Path, xdg: Path) -> None:
    """This process measures `root`'s `tui`, with XDG folders under `xdg` and
    no TEXTUAL settings of the shell's."""
    for name in ("XDG_CACHE_HOME", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME"):
        os.environ[name] = str(xdg / name.lower())
    for name in [name for name in os.environ if name.startswith("TEXTUAL")]:
        del os.environ[name]
    sys.path[:0] = [str(root), str(BENCH)]


async def _run(corpus: Path, state: Path, timed: bool) -> dict:
    import key_phases
    from reload_latency import wait_loaded
    from startup import COLUMNS, KEYS_SETTLE_S, LINES, Timings
    from textual.widgets import Input

    from tui import runtime
    from tui.ui.app import PrDigestApp

    trims: list[tuple[float, float]] = []
    release = getattr(runtime, "release_free_memory", None)
    if release is not None:  # its stall, timed

        def timed_release() -> None:
            began = time.perf_counter()
            release()
            trims.append((began, time.perf_counter() - began))

        runtime.release_free_memory = timed_release
    app = PrDigestApp([corpus], state, config_path=key_phases.write_config(state))
    timings = Timings(app)
    pauses: list[tuple[float, float, int]] = []
    began: list[float] = []

    def on_gc(phase: str, info: dict) -> None:
        if phase == "start":
            began.append(time.perf_counter())
        elif began:
            pauses.append((began.pop(), time.perf_counter(), info["generation"]))

    presses: list[dict] = []
    async with app.run_test(size=(COLUMNS, LINES)) as pilot:
        await wait_loaded(app)
        await asyncio.sleep(KEYS_SETTLE_S)
        await pilot.pause()
        if not timed:
            return {}
        await key_phases._home(app, pilot)
        for box in app.query("#search-input").results(Input):
            await key_phases._no_blink(pilot, box)
        gc.callbacks.append(on_gc)
        try:
            for query in key_phases.QUERIES:
                await timings.press(pilot, "search_open", "slash")
                box = app.query_one("#search-input", Input)
                await key_phases._no_blink(pilot, box)
                typed = ""
                for kind, key in [("type", c) for c in query] + [("back", "backspace")] * len(query):
                    typed = typed + key if kind == "type" else typed[:-1]
                    action = f"search_{kind}"
                    n = {f: len(getattr(timings, f).get(action, [])) for f in FIGURES}
                    seen = len(pauses)
                    t0 = time.perf_counter()
                    await timings.press(
                        pilot,
                        action,
                        "space" if key == " " else key,
                        until=key_phases._searched(app, pilot),
                        shown=key_phases._rows_shown(app),
                    )
                    got = {f: getattr(timings, f).get(action, [])[n[f] :] for f in FIGURES}
                    gcs = [(b - t0, e - b, g) for b, e, g in pauses[seen:]]
                    first = got["first_frame"][0] if got["first_frame"] else math.inf
                    presses.append(
                        {
                            "query": query,
                            "text": box.value,
                            "kind": kind,
                            **{a: round(v[0] * 1000, 1) for a, v in got.items() if v},
                            "gc": [(round(at * 1000, 1), round(took * 1000, 1), g) for at, took, g in gcs],
                            "gc_before_frame": round(
                                sum(max(0.0, min(at + took, first) - max(at, 0.0)) for at, took, _ in gcs)
                                * 1000,
                                2,
                            ),
                        }
                    )
                await timings.press(pilot, "search_clear", "escape")
        finally:
            gc.callbacks.remove(on_gc)
    import resource

    for _began, took in trims:
        print(f"release_free_memory: {took * 1000:.1f} ms", file=sys.stderr)
    return {
        "presses": presses,
        "results": timings.results(),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--root", type=Path, default=BENCH.parent)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--no-hold", action="store_true", help="input does not hold young collections off")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="typed-keys-") as tmp:
        setup(args.root.resolve(), Path(tmp))
        from tui import runtime

        if args.no_hold:
            note_input = runtime.note_input
            runtime.note_input = lambda hold=False: note_input()

        with runtime.installed():
            asyncio.run(_run(args.corpus, Path(tmp) / "warm.json", timed=False))  # the parse cache
            out = asyncio.run(_run(args.corpus, Path(tmp) / "state.json", timed=True))
    for press in out["presses"]:
        print(
            f"{press['kind']:4} {press['text']!r:16} cpu {press.get('cpu', 0):7.1f}"
            f"  first {press.get('first_frame', float('nan')):6.1f}"
            f"  rows {press.get('rows_frame', float('nan')):6.1f}"
            f"  last {press.get('frame', float('nan')):6.1f}  gc {press['gc']}"
        )
    for action, figures in out["results"].items():
        print(
            action, {k: round(v * 1000, 1) if k != "n" and k != "frames" else v for k, v in figures.items()}
        )
    held_up = [press["gc_before_frame"] for press in out["presses"] if press["gc_before_frame"] > 0]
    print(
        f"collections between a key and its first frame: {len(held_up)} of {len(out['presses'])} presses, "
        f"{sum(held_up):.1f} ms in all, {max(held_up, default=0.0):.1f} ms at most"
    )
    print("peak RSS MB", round(out["peak_rss_mb"]))
    if args.json:
        args.json.write_text(json.dumps(out), encoding="utf-8")


if __name__ == "__main__":
    main()
