"""Keys typed while the search's texts are made: at 100,000 reviews `/` starts
making them (`tui.ui.search_keys.PREPARE_AHEAD_MAX`), ~3-6 s of slices on the
event loop, and a reader who types at once types into them.

    python bench/typed_while_made.py --corpus /tmp/c100k [--root CHECKOUT] [--rounds 3] [--gap 0.05]

Each round starts a reader (the parse cache filled by a first, untimed start,
in a temporary XDG folder), waits until it is loaded and settled, presses `/`,
then types `s` and backspace in turn, `--gap` seconds apart, for as long as
the texts are being made, and 40 more once they are. Keys go to the driver
as a terminal's would (`Driver.send_message`), not through Pilot, whose
press waits for the app to be idle: the slices keep it busy. Each key is
timed from its sending to the first frame the App hands its driver (ms).
`--root`: the checkout whose `tui` is measured, for a side-by-side run. Not
a test; timings never decide anything.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from startup import percentile
from typed_keys import BENCH, setup

AFTER = 40


async def _send(app, frames: list[float], key: str, char: str | None) -> float | None:
    """Send `key` as the driver does; ms until the next frame (None: none in 1 s)."""
    from textual import events

    seen = len(frames)
    began = time.perf_counter()
    event = events.Key(key, char)
    event.set_sender(app)
    app._driver.send_message(event)
    while len(frames) == seen and time.perf_counter() - began < 1.0:
        await asyncio.sleep(0.0005)
    return (frames[seen] - began) * 1000 if len(frames) > seen else None


async def _run(corpus: Path, state: Path, gap: float, timed: bool) -> dict[str, list[float]]:
    import key_phases
    from reload_latency import wait_loaded
    from startup import COLUMNS, KEYS_SETTLE_S, LINES
    from textual.widgets import Input

    from tui.ui.app import PrDigestApp

    app = PrDigestApp([corpus], state, config_path=key_phases.write_config(state))
    frames: list[float] = []
    display = app._display

    def recording(screen, renderable) -> None:
        if renderable is not None:
            frames.append(time.perf_counter())
        display(screen, renderable)

    app._display = recording
    out: dict[str, list[float]] = {"slash": [], "first": [], "while made": [], "made": []}
    async with app.run_test(size=(COLUMNS, LINES)) as pilot:
        await wait_loaded(app)
        await asyncio.sleep(KEYS_SETTLE_S)
        await pilot.pause()
        if not timed:
            return out
        for box in app.query("#search-input").results(Input):
            await key_phases._no_blink(pilot, box)

        def making() -> bool:
            return any(w.group == "search-texts" and not w.is_finished for w in app.reader.workers)

        out["slash"].append(await _send(app, frames, "slash", "/"))
        await asyncio.sleep(0.05)
        typed = 0
        while making():
            key = ("s", "s") if typed % 2 == 0 else ("backspace", None)
            out["first" if typed == 0 else "while made"].append(await _send(app, frames, *key))
            typed += 1
            await asyncio.sleep(gap)
        for _ in range(AFTER):
            key = ("s", "s") if typed % 2 == 0 else ("backspace", None)
            out["made"].append(await _send(app, frames, *key))
            typed += 1
            await asyncio.sleep(gap)
    return {name: [ms for ms in times if ms is not None] for name, times in out.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, required=True)
    parser.add_argument("--root", type=Path, default=BENCH.parent)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--gap", type=float, default=0.05, help="seconds between keys")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="typed-while-made-") as tmp:
        setup(args.root.resolve(), Path(tmp))
        from tui import runtime

        with runtime.installed():
            asyncio.run(_run(args.corpus, Path(tmp) / "warm.json", args.gap, timed=False))  # the parse cache
            rounds = [
                asyncio.run(_run(args.corpus, Path(tmp) / f"state{n}.json", args.gap, timed=True))
                for n in range(args.rounds)
            ]
    print(f"{'keys':12} {'presses':>7} {'p50':>6} {'p95':>6} {'max':>6}   (ms, key sent -> first frame)")
    for name in rounds[0]:
        values = [ms for figures in rounds for ms in figures[name]]
        if values:
            print(
                f"{name:12} {len(values):7} {statistics.median(values):6.1f} {percentile(values, 95):6.1f} {max(values):6.1f}"
            )


if __name__ == "__main__":
    main()
