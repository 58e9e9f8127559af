"""The parse workers forked before Textual is imported (`tui.load.pool`).

On a first start the command line forks them while it plans the first frame
(`plan_first_part(..., fork=True)`): they parse the files the cache never saw
while the reader is busy elsewhere, and `parse_in_background` takes their
answers. These tests run the real fork and real pipes.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.entry_files import review_yaml, reviews_in
from tui.load.cache import ParseCache
from tui.load.cache_format import stamp
from tui.load.first_frame import PROCESS_THRESHOLD, from_cache, parse_in_background, plan_first_part
from tui.load.journal import parse_files
from tui.load.pool import MIN_POOL_CHUNK, POOL_CHUNK, Pool, chunks_of, collect, start_pool

pytestmark = pytest.mark.skipif(
    not hasattr(os, "posix_spawn"), reason="no posix_spawn and fork on this platform"
)

FILES = 150


def corpus(tmp_path: Path, files: int = FILES, name: str = "entries") -> Path:
    folder = reviews_in(tmp_path / name, range(files))
    (folder / "zz-broken.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    return folder


def paths_of(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.yaml"))


def view(updates: dict) -> dict[str, tuple[list[str], list[str]]]:
    """What each file loaded to: its reviews' titles and its problems (with file:line:column)."""
    return {
        str(path): ([review.title for review in update.reviews], [str(p) for p in update.problems])
        for path, update in updates.items()
    }


def inline(paths: list[Path]) -> dict:
    return view(ParseCache(None).store(parse_files(paths)))


def run_collect(pool: Pool, cache: ParseCache) -> tuple[dict, list[Path], list[int]]:
    """Everything the pool answers (decoded by `cache`), the files it left, and
    how many files each answer held."""
    got: dict = {}
    sizes: list[int] = []

    def receive(answer: list | tuple, files: list[Path]) -> None:
        decoded = cache.store(answer, files)
        assert list(decoded) == files  # each answer is for its own chunk's files, in order
        assert not set(decoded) & set(got)  # and no file is answered twice
        got.update(decoded)
        sizes.append(len(files))

    left = asyncio.run(collect(pool, receive))
    return got, left, sizes


def reaped(pids: list[int]) -> bool:
    for pid in pids:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            continue
        return False
    return True


def test_chunks_cover_every_file_once_and_shrink_towards_the_end() -> None:
    for count in (1, 3, 47, 48, 500, 10_000):
        chunks = chunks_of(count, 2)
        assert [i for start, end in chunks for i in range(start, end)] == list(range(count))
        sizes = [end - start for start, end in chunks]
        assert max(sizes) <= POOL_CHUNK
        assert sizes == sorted(sizes, reverse=True) or count < 2 * MIN_POOL_CHUNK
    big = [end - start for start, end in chunks_of(10_000, 2)]
    assert big[0] == POOL_CHUNK and big[-1] <= MIN_POOL_CHUNK


def test_the_pool_parses_what_the_reader_would(tmp_path: Path) -> None:
    paths = paths_of(corpus(tmp_path))
    cache = ParseCache(tmp_path / "cache.bin")
    pool = start_pool(paths, cache.path, cache.version_key)
    assert pool is not None and len(pool.workers) == 1  # the other when the reader's loop runs
    pool.start_later()
    assert len(pool.workers) == 2
    pids = [pid for pid, _ in pool.workers]
    got, left, sizes = run_collect(pool, cache)
    assert left == [] and sorted(got) == paths
    assert view(got) == inline(paths)
    assert any("zz-broken.yaml:2:1" in problem for _, problems in view(got).values() for problem in problems)
    assert max(sizes) <= POOL_CHUNK
    assert reaped(pids)
    # What the workers parsed went into their journals: a cache read afresh answers every file.
    again = ParseCache(tmp_path / "cache.bin")
    assert again.load()
    assert view({path: again.get(path, stamp(path)) for path in paths}) == view(got)


def test_the_workers_parse_while_the_reader_does_something_else(tmp_path: Path) -> None:
    """Forked at the plan, the workers do not wait for anyone to ask: the
    files are in their journals before the reader reads a single answer."""
    folder = corpus(tmp_path)
    cache = ParseCache(tmp_path / "cache.bin")
    plan = plan_first_part([folder], cache, fork=True)
    assert plan.pool is not None
    unseen = {str(path) for path in paths_of(folder)} - {str(p) for p in plan.parse}  # the workers walk
    assert len(unseen) >= PROCESS_THRESHOLD and not unseen & {str(p) for p in plan.parse}
    deadline = time.monotonic() + 30
    answered: set[str] = set()
    while time.monotonic() < deadline and answered != unseen:
        time.sleep(0.05)
        probe = ParseCache(tmp_path / "cache.bin")
        probe.load()
        answered = {name for name in unseen if probe.get(Path(name), stamp(Path(name))) is not None}
    assert answered == unseen
    plan.pool.stop()
    if plan.child is not None:
        from tui.load.first_frame import finish_first_part

        finish_first_part(plan)


def test_no_pool_when_the_cache_knows_the_files_or_they_are_few(tmp_path: Path) -> None:
    folder = corpus(tmp_path)
    cache = ParseCache(tmp_path / "cache.bin")
    cache.store(parse_files(paths_of(folder)))
    cache.save()
    warm = plan_first_part([folder], ParseCache(tmp_path / "cache.bin"), fork=True)
    assert warm.pool is None and warm.child is None
    few = corpus(tmp_path, PROCESS_THRESHOLD // 2, name="few")
    assert plan_first_part([few], ParseCache(None), fork=True).pool is None
    # Not forking: a plan made inside a running app (threads) forks nothing.
    assert plan_first_part([corpus(tmp_path, name="other")], ParseCache(None)).pool is None


def test_a_worker_that_dies_leaves_its_files_to_the_reader(tmp_path: Path) -> None:
    paths = paths_of(corpus(tmp_path, 400))
    cache = ParseCache(None)
    pool = start_pool(paths, None, "")
    assert pool is not None
    pids = [pid for pid, _ in pool.workers]
    os.kill(pids[0], signal.SIGKILL)
    got, left, _ = run_collect(pool, cache)
    assert sorted([*got, *left]) == paths and not set(got) & set(left)
    assert view(got) == {name: found for name, found in inline(paths).items() if Path(name) in got}
    assert reaped(pids)


def test_a_worker_that_writes_nonsense_is_ended_and_its_files_left(tmp_path: Path) -> None:
    paths = paths_of(corpus(tmp_path, 400))
    pool = start_pool(paths, None, "")
    assert pool is not None
    pid, fd = pool.workers[0]
    os.close(fd)  # the real worker's answers go nowhere: it ends at its next answer
    fake_read, fake_write = os.pipe()
    os.write(fake_write, (12).to_bytes(8, "little") + b"not marshal!")
    os.close(fake_write)
    impostor = os.fork()
    if impostor == 0:
        os._exit(0)
    pool.workers[0] = (impostor, fake_read)
    got, left, _ = run_collect(pool, ParseCache(None))
    assert sorted([*got, *left]) == paths
    os.waitpid(pid, 0)  # the worker whose pipe was closed: it has ended
    assert reaped([impostor])


def test_the_background_load_takes_the_pool_and_parses_the_rest(tmp_path: Path) -> None:
    """Files the cache has but that changed are not the pool's (it is started
    only with no cache at all): they are parsed after it, and every file is
    delivered once."""
    folder = corpus(tmp_path, 60)
    cache_file = tmp_path / "cache.bin"
    old = ParseCache(cache_file)
    old.store(parse_files(paths_of(folder)))
    old.save()
    for n in range(30, 60):  # changed since: the cache has them, with another stamp
        (folder / f"r{n:04}.yaml").write_text(review_yaml(f"changed {n}"), encoding="utf-8")
    for n in range(100):
        (folder / f"new-{n:03}.yaml").write_text(review_yaml(f"new {n}"), encoding="utf-8")
    cache = ParseCache(cache_file)
    plan = plan_first_part([folder], cache, fork=True)
    assert plan.pool is None  # the cache knows some of the files: the folder is walked after the first frame
    from tui.load.first_frame import finish_first_part

    _, rest, _ = finish_first_part(plan)
    _, misses = from_cache(rest, cache)
    pool = start_pool(
        [path for path in misses if path.name.startswith("new-")], cache.path, cache.version_key
    )
    assert pool is not None
    delivered: dict = {}

    def deliver(batch: dict) -> None:
        assert not set(batch) & set(delivered)
        delivered.update(batch)

    asyncio.run(parse_in_background(misses, cache, deliver, pool=pool))
    assert sorted(delivered) == sorted(misses)
    assert view(delivered) == inline(sorted(misses))
    assert "changed 45" in str(view(delivered))


def test_a_cancelled_load_ends_the_workers(tmp_path: Path) -> None:
    paths = paths_of(corpus(tmp_path, 2000))
    pool = start_pool(paths, None, "")
    assert pool is not None
    pool.start_later()
    pids = [pid for pid, _ in pool.workers]
    assert len(pids) == 2

    async def cancel_soon() -> None:
        task = asyncio.ensure_future(
            parse_in_background(paths, ParseCache(None), lambda batch: None, pool=pool)
        )
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancel_soon())
    assert reaped(pids)


def test_the_parent_does_not_import_the_parser_with_a_pool(tmp_path: Path) -> None:
    folder = corpus(tmp_path)
    code = (
        "import sys, asyncio\nfrom pathlib import Path\n"
        "from tui.load.cache import ParseCache\n"
        "from tui.load.first_frame import plan_first_part, finish_first_part\n"
        f"plan = plan_first_part([Path({str(folder)!r})], ParseCache(None), fork=True)\n"
        "assert plan.pool is not None\n"
        "hits, rest, _ = finish_first_part(plan)\n"
        "print(sorted(m for m in sys.modules if m == 'yaml' or m.startswith(('yaml.', 'tui.load.parse'))))\n"
        "plan.pool.stop()"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_load_is_handed_over_a_few_times_however_slow_the_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each hand-over re-indexes all the reader has: they are not one per
    answer even when every answer comes after the hand-over interval (as on a
    busy machine), but each brings at least half as much as came before."""
    from tui.load import first_frame

    monkeypatch.setattr(first_frame, "FLUSH_S", 0.0)
    monkeypatch.setattr(first_frame, "FLUSH_SHARE", 0)
    paths = paths_of(corpus(tmp_path, 2000))
    pool = start_pool(paths, None, "")
    assert pool is not None and len(pool.chunks) > 40
    sizes: list[int] = []
    delivered: dict = {}

    def deliver(batch: dict) -> None:
        sizes.append(len(batch))
        delivered.update(batch)

    asyncio.run(parse_in_background(paths, ParseCache(None), deliver, pool=pool))
    assert sorted(delivered) == paths and sum(sizes) == len(paths)
    assert len(sizes) <= 12, sizes
    for n, size in enumerate(sizes[1:-1], start=1):
        assert size >= first_frame.FLUSH_GROWTH * sum(sizes[:n]), sizes


def test_each_hand_over_shows_how_far_the_load_is_and_answers_alone_do_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The status bar's progress is drawn in the hand-overs' frames (the count
    then), and between them not once an answer: with the progress interval
    longer than the load, every showing is a hand-over's (but the first)."""
    from tui.load import first_frame

    monkeypatch.setattr(first_frame, "FLUSH_S", 0.0)
    monkeypatch.setattr(first_frame, "FLUSH_SHARE", 0)
    monkeypatch.setattr(first_frame, "PROGRESS_S", 3600.0)
    paths = paths_of(corpus(tmp_path, 2000))
    pool = start_pool(paths, None, "")
    assert pool is not None and len(pool.chunks) > 40
    events: list[tuple[str, int]] = []
    delivered: dict = {}

    def deliver(batch: dict) -> None:
        delivered.update(batch)
        events.append(("deliver", len(delivered)))

    def progress(done: int, total: int) -> None:
        assert total == len(paths)
        events.append(("progress", done))

    asyncio.run(parse_in_background(paths, ParseCache(None), deliver, progress, pool=pool))
    assert sorted(delivered) == paths
    hand_overs = [n for n, (kind, _) in enumerate(events) if kind == "deliver"][:-1]  # the last: the end's
    assert len(hand_overs) >= 2, events
    for n in hand_overs:
        assert events[n - 1] == ("progress", events[n][1]), events
    shown = [n for n, (kind, _) in enumerate(events) if kind == "progress"]
    assert len(shown) <= len(hand_overs) + 1, events  # the first answer's, then the hand-overs'


def test_a_pool_never_collected_is_ended_by_stop(tmp_path: Path) -> None:
    """The reader quit before its event loop took the answers: `stop` ends the
    worker that was started and never starts the others."""
    pool = start_pool(paths_of(corpus(tmp_path, 400)), None, "")
    assert pool is not None
    pids = [pid for pid, _ in pool.workers]
    pool.stop()
    assert reaped(pids) and pool.workers == []
    pool.start_later()  # nothing left to start
    assert pool.workers == []


async def test_a_reader_that_quits_before_its_load_starts_ends_the_workers(tmp_path: Path) -> None:
    """A quit already queued when the first frame is ready (a `q` typed ahead)
    cancels the load's worker before it starts: the parse workers planned for
    it are ended and reaped all the same, and no coroutine made for a worker is
    left never awaited (Python would say so on the terminal as the reader ends)."""
    import gc
    import warnings

    from tui.ui import app as app_module

    class QuitAtOnce(app_module.PrDigestApp):
        CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))

        def on_ready(self) -> None:  # runs before PrDigestApp.on_ready, which starts the load
            self.exit()

    folder = corpus(tmp_path)
    cache = ParseCache(tmp_path / "cache.bin")
    first = plan_first_part([folder], cache, fork=True)
    assert first.pool is not None
    pool = first.pool
    pids = [pid for pid, _ in pool.workers]
    app = QuitAtOnce([folder], tmp_path / "state.json", first=first)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
        gc.collect()
    assert [str(w.message) for w in caught if "never awaited" in str(w.message)] == []
    assert pool.workers == [] and reaped(pids)
