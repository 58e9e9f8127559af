"""The process-wide tweaks of tui.runtime: installed and undone around a command;
the garbage collector's full collections run after a frame, not inside a key."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app_helpers import make_app, on_each_frame
from tests.waiting import wait_until
from tui import runtime

pytestmark = pytest.mark.usefixtures("installed_runtime")  # tests/conftest.py


def test_installed_and_undone() -> None:
    """Outside `installed()` (this test's fixture) the process is as it was;
    inside, the collector is off until loading ends and the switch interval short."""
    assert not gc.isenabled() and sys.getswitchinterval() == runtime.SWITCH_S
    threshold = gc.get_threshold()
    runtime.loaded()
    assert gc.isenabled() and gc.get_threshold()[2] == runtime.FULL_SAFETY_NET
    with runtime.installed():
        assert not gc.isenabled()
    assert gc.isenabled() and gc.get_threshold()[2] == runtime.FULL_SAFETY_NET
    assert gc.get_threshold() != threshold


def test_the_console_script_leaves_what_it_held_frozen_for_the_interpreters_end(tmp_path: Path) -> None:
    """`tui.cli.run`, a real command: what is left when it returns is frozen, so
    the interpreter's last collection does not walk it (seconds at 100,000
    reviews); an object left in a cycle is not finalized by that collection."""
    code = (
        "import atexit, gc, os, sys\n"
        "from tui import cli\n"
        "class Held:\n"
        "    def __del__(self, write=os.write): write(1, b'finalized\\n')\n"
        # Held in a cycle by this module until the interpreter clears it at its
        # end: then garbage only its last collection would find.
        "held = Held(); held.me = held\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0, flush=True))\n"
        "sys.argv = ['prdigest-tui', 'check', sys.argv[1]]\n"
        "cli.run()\n"
    )
    folder = Path(__file__).resolve().parents[2] / "entries"
    done = subprocess.run(
        [sys.executable, "-c", code, str(folder)], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert "8 reviews in 1 files" in done.stderr
    assert "frozen True" in done.stdout
    assert "finalized" not in done.stdout


def test_nothing_happens_unless_installed() -> None:
    """An App made without `tui.cli.run` (a test, an embedding program) leaves
    the collector and the switch interval alone."""
    before = (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count())
    runtime._installed = False
    try:
        runtime.loaded()
        assert (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()) == before
        # The collector on and a full collection overdue: only `_installed` says no.
        gc.set_threshold(before[1][0], before[1][1], 10 * runtime.OVERDUE)
        gc.enable()
        try:
            young_collections_until_a_full_one_is_due(runtime.OVERDUE)
            assert not runtime.full_due() and not runtime.overdue()
        finally:
            gc.disable()
            gc.set_threshold(*before[1])
    finally:
        runtime._installed = True
    assert (gc.isenabled(), gc.get_threshold(), gc.get_freeze_count()) == before


def young_collections_until_a_full_one_is_due(count: int = runtime.FULL_EVERY) -> None:
    """Cyclic garbage until CPython has run `count` generation-1 collections
    since its last full one (its own full collections are held off meanwhile)."""
    deadline = time.monotonic() + 10
    while gc.get_count()[2] < count:
        assert time.monotonic() < deadline
        for _ in range(500):
            a: list[object] = []
            a.append(a)


def test_due_once_until_collected() -> None:
    runtime.loaded()
    assert gc.isenabled() and gc.get_threshold()[2] == runtime.FULL_SAFETY_NET
    gc.collect()
    assert not runtime.full_due()
    young_collections_until_a_full_one_is_due()
    assert runtime.full_due()
    assert not runtime.full_due()  # scheduled already: once is enough
    runtime.collect_full()
    assert gc.get_count()[2] == 0
    assert not runtime.full_due()


def test_overdue_once_until_collected() -> None:
    runtime.loaded()
    gc.collect()
    young_collections_until_a_full_one_is_due()
    assert runtime.full_due() and not runtime.overdue()
    young_collections_until_a_full_one_is_due(runtime.OVERDUE)
    assert runtime.waiting() and runtime.overdue()
    assert not runtime.overdue()  # forced already
    runtime.collect_full()
    assert not runtime.waiting() and not runtime.overdue()


def test_never_due_while_the_collector_is_off() -> None:
    """Start-up: the collector stays off until loading ends."""
    runtime.loaded()
    young_collections_until_a_full_one_is_due()
    gc.disable()
    assert not runtime.full_due()


class Recorder:
    """Frames the App hands its driver, and the full collections, in order."""

    def __init__(self, app) -> None:  # type: ignore[no-untyped-def]
        self.events: list[str] = []
        on_each_frame(app, lambda: self.events.append("frame"))

    def on_collection(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            self.events.append("full collection")

    @contextlib.contextmanager
    def watching(self) -> Iterator[None]:
        """Record the full collections from now on (and nothing before)."""
        self.events.clear()
        gc.callbacks.append(self.on_collection)
        try:
            yield
        finally:
            gc.callbacks.remove(self.on_collection)

    async def until_collected(self) -> None:
        """After the quiet a due collection waits for (a bound, not a timing)."""
        await wait_until(
            None, lambda: "full collection" in self.events, "a full collection", runtime.QUIET_S + 20
        )


async def collector_on(app, pilot) -> None:  # type: ignore[no-untyped-def]
    await wait_until(None, gc.isenabled, "the collector on, once loading ends", 30)
    await pilot.pause()
    assert gc.get_threshold()[2] == runtime.FULL_SAFETY_NET


KEY_REPEAT_S = 0.0625
"""Between two keys of a held key (16 a second), beside the frame each draws."""


@pytest.fixture
def keys_never_seem_to_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    """A burst's keys come `KEY_REPEAT_S` apart plus the time each key's frame
    takes, and on a busy 2-core machine that alone was seen to reach 0.26 s:
    more than the real `QUIET_S`, so the collection rightly ran in the middle
    of what the test meant as a burst. The pause a collection waits for is made
    longer than any such gap; what is asserted (none between the keys, one
    after they stop) is the same."""
    monkeypatch.setattr(runtime, "QUIET_S", 3.0)


async def burst(pilot, keys: str) -> None:  # type: ignore[no-untyped-def]
    """Keys as a held key sends them: never a pause as long as `QUIET_S`."""
    for key in keys:
        await pilot.press(key)
        await pilot.pause()
        await asyncio.sleep(KEY_REPEAT_S)


async def test_the_app_collects_after_its_frame_not_before(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    recorder = Recorder(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await collector_on(app, pilot)
        young_collections_until_a_full_one_is_due()
        with recorder.watching():
            await pilot.press("j")
            await pilot.pause()
            await recorder.until_collected()
        assert recorder.events[:2] == ["frame", "full collection"], recorder.events
        assert gc.get_count()[2] < runtime.FULL_EVERY


@pytest.mark.usefixtures("keys_never_seem_to_pause")
async def test_a_burst_of_keys_is_not_interrupted_by_a_full_collection(tmp_path: Path) -> None:
    """j held down: the collection that falls due waits for the keys to stop."""
    app = make_app(tmp_path)
    recorder = Recorder(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await collector_on(app, pilot)
        young_collections_until_a_full_one_is_due()
        with recorder.watching():
            await burst(pilot, "jjjjkkkkjjjj")
            assert "full collection" not in recorder.events, recorder.events
            assert recorder.events.count("frame") >= 12
            await recorder.until_collected()
        assert recorder.events.count("full collection") == 1
        assert recorder.events[-1] == "full collection"


@pytest.mark.usefixtures("keys_never_seem_to_pause")  # so only overdue can make it run mid-burst
async def test_a_long_burst_collects_once_overdue_not_at_its_end(tmp_path: Path) -> None:
    """j held down for long: garbage must not pile up until the keys stop (one
    collection of ten seconds' pile took 225 ms), so an overdue collection runs
    right after the next frame, pause or not."""
    app = make_app(tmp_path)
    recorder = Recorder(app)
    async with app.run_test(size=(100, 30)) as pilot:
        await collector_on(app, pilot)
        young_collections_until_a_full_one_is_due(runtime.OVERDUE)
        with recorder.watching():
            await burst(pilot, "jjjjkkkk")
            assert recorder.events[:2] == ["frame", "full collection"], recorder.events
            assert recorder.events.count("frame") >= 8
        assert gc.get_count()[2] < runtime.FULL_EVERY


async def test_the_search_texts_are_frozen_once_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search's texts, made in the background after the load, live until a
    reload: once made they are out of every collection's walk (at 100,000
    reviews a full collection walked their list's 100,000 entries, and an
    overdue one runs after a key's frame mid-typing)."""
    from tui.ui import search_keys

    monkeypatch.setattr(search_keys, "PREPARE_AFTER_S", 0.01)
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await collector_on(app, pilot)
        index = app.reader.search_index

        def prepared() -> bool:
            return any(answers.texts is not None and ("_",) in answers.chars for answers in index._lists)

        await wait_until(None, prepared, "the search's texts made and first characters answered", 30)
        await pilot.pause()
        texts = next(answers.texts for answers in index._lists if answers.texts is not None)
        assert len(texts) == len(app.reader.library.reviews)
        assert gc.is_tracked(texts)
        assert not any(tracked is texts for tracked in gc.get_objects()), "left in a generation"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim, read in /proc")
def test_settled_gives_back_the_memory_of_texts_freed_once_split(tmp_path: Path) -> None:
    """Texts made whole and then replaced by their split parts leave holes in
    the C allocator's heap, which the process keeps: `settled()` hands them
    back (the process's resident size drops). In a fresh process: its heap
    is its own."""
    code = (
        "from tui import runtime\n"
        "def rss():\n"
        "    return int(next(l for l in open('/proc/self/status') if l.startswith('VmRSS')).split()[1])\n"
        "with runtime.installed():\n"
        "    runtime.loaded()\n"
        "    whole = ['调度' * 900 + str(n) for n in range(30_000)]\n"
        "    split = [text[:600] + 'x' for text in whole]\n"
        "    del whole\n"
        "    before = rss()\n"
        "    runtime.settled()\n"
        "    print(before - rss())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 50_000  # kB: most of the ~108 MB freed


async def released() -> None:
    """Until input's hold on the collector ends (a bound, not a timing)."""
    await wait_until(None, gc.isenabled, "the collector back on", 10, step=0.001)


async def test_input_holds_the_collector_until_its_frame_is_on_its_way() -> None:
    runtime.loaded()
    runtime.note_input(hold=True)
    assert not gc.isenabled()
    runtime.frame_drawn()
    assert not gc.isenabled()  # the writer thread hands the frame over first
    await released()
    runtime.note_input(hold=True)
    runtime.note_input(hold=False)  # input to a screen that says nothing of its frames
    assert gc.isenabled()


async def test_a_frame_drawn_for_earlier_input_leaves_a_later_hold_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(runtime, "HOLD_MAX_S", 30.0)
    runtime.loaded()
    runtime.note_input(hold=True)
    runtime.frame_drawn()
    runtime.note_input(hold=True)  # a key before the first one's frame is out
    await asyncio.sleep(runtime.WRITE_S * 10)
    assert not gc.isenabled()
    runtime.frame_drawn()
    await released()


async def test_a_hold_ends_hold_max_s_after_it_began_however_long_input_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Input that draws nothing, or mouse moves that never wait for a frame:
    the collector comes back on within `HOLD_MAX_S` of the hold's start, not
    of the last event's (garbage would pile up for as long as they went on)."""
    monkeypatch.setattr(runtime, "HOLD_MAX_S", 0.05)
    runtime.loaded()
    on_before_an_event = []
    end = time.monotonic() + 1.0
    while time.monotonic() < end:
        on_before_an_event.append(gc.isenabled())
        runtime.note_input(hold=True)
        await asyncio.sleep(0.005)
    runtime.note_input(hold=False)
    assert on_before_an_event[0] and any(on_before_an_event[1:]), "held for as long as input came"


def test_input_holds_nothing_unless_installed() -> None:
    before = gc.isenabled()
    runtime._installed = False
    try:
        gc.enable()
        runtime.note_input(hold=True)
        assert gc.isenabled()
    finally:
        (gc.enable if before else gc.disable)()
        runtime._installed = True


class Collections:
    """The young collections (generations 0 and 1) that start, among the keys
    the App sees and the frames it hands its driver, in order."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, recorder: Recorder) -> None:
        self.events = recorder.events
        note_input = runtime.note_input

        def noting(hold: bool = False) -> None:
            self.events.append("input")
            note_input(hold)

        monkeypatch.setattr(runtime, "note_input", noting)

    def on_collection(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] < 2:
            self.events.append("young collection")


async def test_young_collections_wait_for_the_frame_that_answers_a_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A young collection due as a key comes runs after its frame, not between
    them: while the search's lists of every review's text were young, each one
    took 3-10 ms of a key's frame at 100,000 reviews. Here one is due at almost
    every allocation (threshold 5), so any that may run in between does."""
    monkeypatch.setattr(runtime, "HOLD_MAX_S", 30.0)  # each key's hold ends with its frame alone
    app = make_app(tmp_path)
    recorder = Recorder(app)
    collections = Collections(monkeypatch, recorder)
    async with app.run_test(size=(100, 30)) as pilot:
        await collector_on(app, pilot)
        threshold = gc.get_threshold()
        gc.set_threshold(5, 1_000_000, 1_000_000)
        gc.callbacks.append(collections.on_collection)
        try:
            for key in "jkjk":
                recorder.events.clear()
                await pilot.press(key)
                await pilot.pause()
                await released()
                events = recorder.events[recorder.events.index("input") :]
                assert "frame" in events, events
                between = events[: events.index("frame")]
                assert "young collection" not in between, events
        finally:
            gc.callbacks.remove(collections.on_collection)
            gc.set_threshold(*threshold)


async def test_splitting_the_search_texts_leaves_no_pile_of_young_pairs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Splitting the search's texts replaces each review's pair of texts; as
    CPython counts a young object made against an old one freed, no collection
    came meanwhile, and ~85,000 new pairs at 100,000 reviews waited in the
    youngest generation for the next collection, in a key's frame (24-36 ms).
    The pairs are collected a slice at a time: what is young when the texts
    are settled is a slice's worth, not the library's."""
    from tests.bench_corpus import generate
    from tui.ui import search_keys

    monkeypatch.setattr(search_keys, "PREPARE_AFTER_S", 0.01)
    monkeypatch.setattr(search_keys, "PREPARE_SLICE_S", 0.0)  # a slice a piece of texts
    young_when_settled: list[int] = []
    settled = runtime.settled

    def counting() -> None:
        young_when_settled.append(sum(1 for tracked in gc.get_objects(0) if type(tracked) is tuple))
        settled()

    monkeypatch.setattr(runtime, "settled", counting)
    folder = tmp_path / "corpus"
    generate(folder, 2_000, seed=7)
    app = make_app(tmp_path, [folder])
    async with app.run_test(size=(100, 30)) as pilot:
        await collector_on(app, pilot)
        await wait_until(pilot, lambda: young_when_settled, "the search's texts made and split", 60)
    assert young_when_settled[0] < 400, young_when_settled


async def test_a_screen_under_another_tells_of_no_frame_while_it_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader's screen under the command palette, with a change waiting to
    be drawn while input holds the collector: it draws nothing, so it tells
    of no frame. (When the screen asked to be told at every idle, it went
    idle again after each ask's message and asked again, round and round
    while the palette stayed: a palette test took 59 s in the suite, 4 s alone.)"""
    told = []
    monkeypatch.setattr(runtime, "frame_drawn", lambda: told.append("told"))
    monkeypatch.setattr(runtime, "HOLD_MAX_S", 30.0)
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await collector_on(app, pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert app.screen is not app.reader
        told.clear()
        runtime.note_input(hold=True)  # input the reader answers, as the palette is up
        app.reader.review_list.refresh()
        await asyncio.sleep(0.3)
        runtime.note_input(hold=False)
        assert told == [], told  # not a frame on screen: the palette is
