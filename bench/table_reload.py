"""A reload after a start from the saved table, at 100,000 reviews: one file
edited before the table's `Review` index is made (the reload makes it first)
and one after, each timed from the write to the screen showing it.

    python bench/table_reload.py CORPUS_COPY --work DIR [--rounds 3]

CORPUS_COPY is edited (a copy of `/tmp/c100k`: `cp -r /tmp/c100k /tmp/c100k-copy`);
`--work` holds its parse cache, filled (and its table saved) by two untimed
starts first, and again before each round (its edits changed two files). Each round starts the reader (in process, `run_test`) on the
table, edits a file at once, waits for the screen, then edits another once
the index is made. Wall ms and the main thread's CPU ms; not a test.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


async def one(corpus: Path, work: Path, *, edit: bool) -> dict[str, float]:
    from tests.app_helpers import screen_text
    from tests.waiting import wait_until
    from tui.core.table_library import TableLibrary
    from tui.ui.app import PrDigestApp

    app = PrDigestApp([corpus], work / "state.json", cache_path=work / "parse-cache")
    out: dict[str, float] = {}
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(
            pilot, lambda: isinstance(app.reader.library, TableLibrary) or not edit, "start", 120
        )
        if edit:
            for moment in ("before the index", "after the index"):
                library = app.reader.library
                if moment == "after the index":
                    await wait_until(
                        pilot, lambda library=library: getattr(library, "pending", None) is None, "index", 60
                    )
                    await pilot.pause(0.5)
                review = app.reader.review_view.review
                assert review is not None
                path = review.location.path
                text = path.read_text(encoding="utf-8")
                new = f"R{time.monotonic_ns() % 100000} "
                reloads = app.loads.reloads
                cpu, wall = time.thread_time(), time.perf_counter()
                path.write_text(text.replace(review.title, new + review.title, 1), encoding="utf-8")
                await wait_until(
                    pilot,
                    lambda new=new, reloads=reloads: new in screen_text(app) and app.loads.reloads > reloads,
                    "shown",
                    60,
                    0.005,
                )
                out[f"{moment} wall"] = 1e3 * (time.perf_counter() - wall)
                out[f"{moment} cpu"] = 1e3 * (time.thread_time() - cpu)
                path.write_text(text, encoding="utf-8")
                await wait_until(pilot, lambda new=new: new not in screen_text(app), "undone", 60)
        else:
            await pilot.pause(3)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("--work", type=Path, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    for n in range(args.rounds):
        for _ in range(3):  # the parse cache made whole again after the last round's edits, then the table
            asyncio.run(one(args.corpus, args.work, edit=False))
        result = asyncio.run(one(args.corpus, args.work, edit=True))
        print(n, "  ".join(f"{k} {v:.0f}" for k, v in result.items()), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
