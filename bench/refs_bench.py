"""How long resolving a review's refs takes in a real clone, and how soon a code view is on screen.

    python bench/refs_bench.py --repo-dir /work/vllm          # 9 runs
    python bench/refs_bench.py --repo-dir /work/vllm --runs 21

Refs: every bundled review resolved `--runs` times by a fresh `Resolver` (so
each run pays its `git ls-files`) and by a warm one (the listing kept, as the
reader keeps it while the index does not change); p50 and max per review. The
PR map is built once first (the first run after a HEAD moves pays it: reported
apart).

Code view: headless, from `push_screen` of a screen holding the reader's code
pane to the frame after it, reading the file included, for a small file, a
10,000-line file and a real file of the clone; next to a bare Textual screen
holding one Label, pushed the same way.

In the reader: the real app, headless at 120x40, on an entry naming real files
and symbols of the clone; each run selects the item, waits for its refs, then
times `enter` to the frame with the code pane in the review's place, and
`escape` back; next to `space` (check the item, a key known to cost a frame)
on the same review.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from tui.clone import content  # noqa: E402
from tui.clone.find import find_clone  # noqa: E402
from tui.clone.prs import PrCommits  # noqa: E402
from tui.clone.resolve import Resolver  # noqa: E402
from tui.core.model import Library  # noqa: E402
from tui.load.parse import load_paths  # noqa: E402


def refs(repo_dir: Path, runs: int) -> None:
    result = load_paths([ROOT / "entries"])
    library = Library.build(result.files, result.problems)
    found = find_clone("vllm-project/vllm", repo_dir=repo_dir)
    assert found.clone is not None, found.note
    with tempfile.TemporaryDirectory() as cache:
        t = time.perf_counter()
        PrCommits(found.clone, Path(cache)).commit(1)
        scan = time.perf_counter() - t
        t = time.perf_counter()
        PrCommits(found.clone, Path(cache)).commit(1)
        cached = time.perf_counter() - t
        print(
            f"PR map: {scan * 1000:.0f} ms to scan HEAD's subjects, {cached * 1000:.0f} ms from the cache\n"
        )
        warm = Resolver(found.clone, PrCommits(found.clone, Path(cache)))
        print("| review | refs | found | cold p50 ms | cold max ms | warm p50 ms |")
        print("| --- | --- | --- | --- | --- | --- |")
        all_cold: list[float] = []
        for review in library.reviews:
            cold_times, warm_times = [], []
            for _ in range(runs):
                fresh = Resolver(found.clone, PrCommits(found.clone, Path(cache)))
                t = time.perf_counter()
                resolved = fresh.resolve(review)
                cold_times.append(time.perf_counter() - t)
                t = time.perf_counter()
                warm.resolve(review)
                warm_times.append(time.perf_counter() - t)
            unique = resolved.unique()
            refs_count = sum(r.ref.is_ref for r in unique)
            found_count = sum(r.status == "found" for r in unique)
            all_cold += cold_times
            print(
                f"| {review.title[:24]} | {refs_count} | {found_count} | "
                f"{statistics.median(cold_times) * 1000:.0f} | {max(cold_times) * 1000:.0f} | "
                f"{statistics.median(warm_times) * 1000:.0f} |"
            )
        print(f"\nall reviews, cold: p50 {statistics.median(all_cold) * 1000:.0f} ms (target <= 300 ms)\n")


async def _time_push(make_screen, runs: int) -> list[float]:  # type: ignore[no-untyped-def]
    from textual.app import App

    class Host(App[None]):
        pass

    app = Host()
    times = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(runs):
            t = time.perf_counter()
            screen = make_screen()
            await app.push_screen(screen)
            await pilot.pause()
            times.append(time.perf_counter() - t)
            app.pop_screen()
            await pilot.pause()
    return times


def code_view(repo_dir: Path, runs: int) -> None:
    from textual.screen import Screen
    from textual.widgets import Label

    from tui.ui.widgets.code_pane import CodePane
    from tui.ui.widgets.code_view import CodeFile

    clone = find_clone("vllm-project/vllm", repo_dir=repo_dir).clone
    assert clone is not None
    small = "".join(f"def f{n}():\n    return {n}\n" for n in range(20))
    big = "".join(f"def f{n}(x):\n    return x + {n}  # comment\n" for n in range(5_000))
    real = "vllm/v1/core/sched/scheduler.py"

    class Bare(Screen[None]):
        def compose(self):  # type: ignore[no-untyped-def]
            yield Label("hello")

    class PaneScreen(Screen[None]):
        """The reader's code pane on a screen of its own, showing `file`."""

        def __init__(self, file: CodeFile) -> None:
            super().__init__()
            self.file = file

        def compose(self):  # type: ignore[no-untyped-def]
            yield CodePane()

        def on_mount(self) -> None:
            self.query_one(CodePane).show_file(self.file)

    cases = {
        "bare Textual screen (Label)": lambda: Bare(),
        "code view, 40 lines": lambda: PaneScreen(CodeFile("small.py", small, 20, "/x")),
        "code view, 10,000 lines, line 9,000": lambda: PaneScreen(CodeFile("big.py", big, 9_000, "/x")),
        f"code view, {real} read from the clone": lambda: PaneScreen(
            CodeFile(real, content.file_text(clone, real), 500, content.absolute_path(clone, real))
        ),
    }
    print("| screen pushed (120x40, headless) | p50 ms | max ms | / bare |")
    print("| --- | --- | --- | --- |")
    bare = None
    for name, make in cases.items():
        times = asyncio.run(_time_push(make, runs))
        p50 = statistics.median(times)
        bare = bare or p50
        print(f"| {name} | {p50 * 1000:.1f} | {max(times) * 1000:.1f} | {p50 / bare:.2f} |")
    print("\ntarget: a code view on screen <= 50 ms after enter")


READER_ENTRY = """\
repo: vllm-project/vllm
entries:
  - title: 调度器走读
    tags: [sched]
    verdict: deep
    summary: 从 `vllm/v1/core/sched/scheduler.py` 读起。
    focus:
      - text: 先看 `Scheduler.schedule` 如何分配预算
      - text: 再看 `vllm/v1/core/kv_cache_manager.py`
      - text: 然后是 `vllm/v1/worker/gpu_model_runner.py` 里的 `GPUModelRunner.execute_model`
"""


async def _reader_enter(repo_dir: Path, runs: int) -> dict[str, dict[str, float]]:
    from startup import Timings  # key to frame as startup.py times it: bench/README.md

    from tui.ui.app import PrDigestApp

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "entries"
        folder.mkdir()
        (folder / "e.yaml").write_text(READER_ENTRY, encoding="utf-8")
        app = PrDigestApp([folder], Path(tmp) / "state.json", watch=False)
        app.reader.repo_dir = repo_dir
        timings = Timings(app)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.5)
            await pilot.press("enter")  # the review pane
            while not app.reader.clones.resolved:
                await pilot.pause(0.05)
            await pilot.pause(0.3)
            pane = app.reader.code_pane
            for n in range(runs):
                for _ in range(n % 3):
                    await pilot.press("j")
                await pilot.pause(0.05)
                app.reader._turn = None  # the item's first ref
                await timings.press(pilot, "enter (open the first ref)", "enter")
                assert pane.has_class("-open")
                await pilot.pause(0.05)
                await timings.press(pilot, "escape (back)", "escape")
                await pilot.pause(0.2)
                await timings.press(pilot, "space (check)", "space")
                await pilot.press(*["k"] * (n % 3))
        return timings.results()


def reader_enter(repo_dir: Path, runs: int) -> None:
    results = asyncio.run(_reader_enter(repo_dir, runs))
    print("\n| in the reader (120x40, headless), refs resolved | key to frame p50 ms | p95 ms | / space |")
    print("| --- | --- | --- | --- |")
    base = results["space (check)"]["frame_p50"]
    for name, result in results.items():
        p50, p95 = result["frame_p50"], result["frame_p95"]
        print(f"| {name} | {p50 * 1000:.1f} | {p95 * 1000:.1f} | {p50 / base:.2f} |")
    print("\ntarget: a code view on screen <= 50 ms after enter, once resolved")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repo-dir", type=Path, required=True, help="a clone of vllm-project/vllm")
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--reader-only", action="store_true", help="only enter -> code view in the reader")
    args = parser.parse_args()
    if not args.reader_only:
        refs(args.repo_dir, args.runs)
        code_view(args.repo_dir, args.runs)
    reader_enter(args.repo_dir, args.runs)


if __name__ == "__main__":
    main()
