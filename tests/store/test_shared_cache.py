"""A shared state folder read at start from the local cache of the last start:
on real files, whatever sync tools and writers did in between, a cached start
gives exactly what reading every file gives; a cache that cannot be read is
ignored; the cache is kept on this machine, never in the shared folder."""

from __future__ import annotations

import marshal
import os
import random
import shutil
import time
import zlib
from pathlib import Path

import pytest

from tui.core.clock import HybridClock
from tui.store import journal, locations, shared_cache, shared_scan
from tui.store.machine import Machine
from tui.store.shared import SharedState, open_state

REVIEWS = [f"o/r#{n}" for n in range(6)]
ITEMS = [f"focus:{n}" for n in range(4)]
TICK = 0.025  # longer than a file system's clock tick: each change gets times of its own


@pytest.fixture
def trusted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Files are trusted by their times at once (a test sleeps `TICK` between a
    read and the next change instead of waiting `RACY_NS`)."""
    monkeypatch.setattr(shared_scan, "RACY_NS", 0)


def reader(folder: Path, cache: Path | None, tmp_path: Path, move: bool = False) -> SharedState:
    """This machine ("laptop", which has a file in the folder too), started."""
    state = SharedState(folder, Machine("laptop", "token-a"), lock_dir=tmp_path / "locks-reader", cache=cache)
    state.load(move_aside=move)
    return state


def everything(state: SharedState) -> dict[str, object]:
    """All a start leaves behind that later reads, polls and saves depend on."""
    return {
        "reviews": {k: (m.read, m.seen, m.items) for k, m in state.reviews.items()},
        "warnings": state.warnings,
        "clock": state.clock.last,
        "cursors": state._cursors,
        "broken": state._broken_own,
        "compacted": state._compacted,
        "whole": state._whole,
    }


def same_as_full_read(folder: Path, cache: Path, tmp_path: Path) -> SharedState:
    cached = reader(folder, cache, tmp_path)
    assert everything(cached) == everything(reader(folder, None, tmp_path))
    return cached


def writer(tmp_path: Path, name: str, token: str | None = None, wall: float | None = None) -> SharedState:
    """A machine writing its own file in a folder of its own, synced into the shared one by the test."""
    clock = HybridClock(lambda: wall) if wall is not None else None
    state = SharedState(
        tmp_path / f"own-{name}-{token}",
        Machine(name, token or f"token-{name}"),
        clock=clock,
        lock_dir=tmp_path / f"locks-{name}-{token}",
    )
    state.load()
    return state


def mark_some(state: SharedState, rng: random.Random, count: int) -> None:
    for _ in range(count):
        key = rng.choice(REVIEWS)
        what = rng.random()
        if what < 0.4:
            state.set_read(key, rng.random() < 0.5)
        elif what < 0.9:
            state.set_checked(key, rng.choice(ITEMS), rng.random() < 0.5, rng.choice([None, "d1", "d2"]))
        else:
            state.set_seen(key, {"fields": {"title": f"{rng.getrandbits(32):x}"}, "items": {}})
    state.save()


def desktop_synced(tmp_path: Path, seed: int, marks: int) -> tuple[Path, Path, SharedState]:
    """The shared folder (and where its cache goes) with "desktop"'s file synced
    into it after `marks` random marks; and "desktop", to mark more."""
    folder, cache = tmp_path / "shared", tmp_path / "c.marshal"
    folder.mkdir()
    w = writer(tmp_path, "desktop")
    mark_some(w, random.Random(seed), marks)
    replace(folder / w.own.name, w.own.read_bytes())
    return folder, cache, w


def replace(path: Path, data: bytes) -> None:
    """What a sync tool does: a temp file renamed over the old."""
    tmp = path.with_name(f".syncthing.{path.name}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def test_a_start_with_nothing_changed_reads_no_file(tmp_path: Path, trusted: None) -> None:
    folder, cache = tmp_path / "shared", tmp_path / "cache" / "c.marshal"
    for name in ("laptop", "desktop", "box"):
        w = writer(tmp_path, name)
        mark_some(w, random.Random(name), 30)
        shutil.copy(w.own, folder / w.own.name) if folder.is_dir() else shutil.copytree(w.path, folder)
    first = shared_scan.read_folder(folder, cache)
    assert first.read > 0 and cache.is_file()
    time.sleep(TICK)
    again = shared_scan.read_folder(folder, cache)
    assert again.read == 0  # every file as the cache saw it: the marks come from the cache
    assert everything(same_as_full_read(folder, cache, tmp_path))["reviews"]


def test_a_grown_file_is_read_from_where_the_cache_stopped(tmp_path: Path, trusted: None) -> None:
    folder, cache, w = desktop_synced(tmp_path, seed=1, marks=200)
    same_as_full_read(folder, cache, tmp_path)
    before = (folder / w.own.name).stat().st_size
    time.sleep(TICK)
    mark_some(w, random.Random(2), 3)
    replace(folder / w.own.name, w.own.read_bytes())  # a new inode, what it held and three marks more
    scan = shared_scan.read_folder(folder, cache)
    assert scan.read == (folder / w.own.name).stat().st_size and 0 < scan.parsed < before
    same_as_full_read(folder, cache, tmp_path)


@pytest.mark.parametrize("seed", [1, 2, 3])
@pytest.mark.parametrize("rewrite", ["rarely", "always"])
def test_a_cached_start_is_a_full_read_whatever_happened_to_the_files(
    tmp_path: Path, trusted: None, monkeypatch: pytest.MonkeyPatch, seed: int, rewrite: str
) -> None:
    if rewrite == "always":
        monkeypatch.setattr(shared_scan, "REWRITE_PARSED", -1)
    rng = random.Random(seed)
    folder, cache = tmp_path / "shared", tmp_path / "cache" / "c.marshal"
    folder.mkdir()
    writers = [
        writer(tmp_path, "laptop", "token-a", wall=1000.0),  # this machine's own file
        writer(tmp_path, "laptop", "token-b", wall=1000.0),  # another machine given the same id
        writer(tmp_path, "desktop", wall=1000.0),
        writer(tmp_path, "box"),
    ]
    names = ["laptop.marks", "laptop.marks", "desktop.marks", "box.marks"]
    done = set()
    for step in range(30):
        n = rng.randrange(len(writers))
        w, target = writers[n], folder / names[n]
        if n == 1:
            target = folder / "laptop.sync-conflict-20260101-101010-ABCDEFG.marks"
        what = rng.choice(
            ["save", "save", "save", "append", "half", "compact", "copy", "remove", "bad", "cache"]
        )
        done.add(what)
        if what in ("save", "append", "half", "compact"):
            if what == "compact" and w.own.exists():
                w._write_whole({}, keep=True)  # rewritten whole by its writer, one line per mark
            else:
                mark_some(w, rng, rng.randrange(1, 15))
            data = w.own.read_bytes()
            if what == "append" and target.exists() and data.startswith(target.read_bytes()):
                with open(target, "ab") as handle:  # copied in place, as some sync tools do
                    handle.write(data[target.stat().st_size :])
            elif what == "half":  # a copy stopped half-way: a torn line, or a header not whole yet
                target.write_bytes(data[: rng.randrange(1, len(data))])
            else:
                replace(target, data)
        elif what == "copy" and target.exists():  # a sync tool's conflict copy
            shutil.copy(target, folder / f"{target.stem} (Bob's conflicted copy {step}).marks")
        elif what == "remove":
            files = sorted(folder.glob("*.marks"))
            if files:
                rng.choice(files).unlink()
        elif what == "bad" and target.exists():  # a line that is not a mark, inside the file
            lines = target.read_bytes().splitlines(keepends=True)
            lines.insert(rng.randrange(1, len(lines) + 1), b"not a record\n")
            replace(target, b"".join(lines))
        elif what == "cache" and cache.exists():  # a byte flipped in the cache: ignored
            data = bytearray(cache.read_bytes())
            data[rng.randrange(len(data))] ^= 0x10
            cache.write_bytes(bytes(data))
        same_as_full_read(folder, cache, tmp_path)
        time.sleep(TICK)  # the next change, in a clock tick of its own
    assert {"save", "half", "compact", "remove"} <= done


def test_a_twin_is_warned_about_at_a_cached_start_too(tmp_path: Path, trusted: None) -> None:
    folder, cache = tmp_path / "shared", tmp_path / "c.marshal"
    folder.mkdir()
    twin = writer(tmp_path, "laptop", "someone-else")
    mark_some(twin, random.Random(3), 5)
    replace(folder / "laptop.sync-conflict-1-2-X.marks", twin.own.read_bytes())
    reader(folder, cache, tmp_path)
    time.sleep(TICK)
    state = same_as_full_read(folder, cache, tmp_path)
    assert shared_scan.read_folder(folder, cache).read == 0
    [warning] = state.warnings
    assert "Another machine uses this machine's id 'laptop'" in warning


def test_a_broken_own_file_is_set_aside_at_a_cached_start_as_without(tmp_path: Path, trusted: None) -> None:
    folder, cache = tmp_path / "shared", tmp_path / "c.marshal"
    me = reader(folder, cache, tmp_path, move=True)
    me.set_read(REVIEWS[0], True)
    me.save()
    header = me.own.read_bytes().splitlines(keepends=True)[0]
    me.own.write_bytes(me.own.read_bytes() + b"not a record\n" + header)
    reader(folder, cache, tmp_path)  # read, and its bad line recorded in the cache
    time.sleep(TICK)
    same_as_full_read(folder, cache, tmp_path)
    again = reader(folder, cache, tmp_path, move=True)
    [warning] = again.warnings
    assert "moved to" in warning and again.is_read(REVIEWS[0]) and again.unsaved
    again.save()
    assert reader(folder, cache, tmp_path).is_read(REVIEWS[0])
    same_as_full_read(folder, cache, tmp_path)


def sealed(body: bytes) -> bytes:
    """A cache file around `body`, with the right CRC."""
    return shared_cache.MAGIC + zlib.crc32(body).to_bytes(4, "big") + body


def _with_items_cut(doc: tuple) -> bytes:
    where, version, newest, files, reviews = doc
    reviews = (*reviews[:4], *(column[:-1] for column in reviews[4:]))  # one item short
    return marshal.dumps((where, version, newest, files, reviews))


@pytest.mark.parametrize(
    "spoil",
    [
        lambda data: b"",
        lambda data: data[: len(data) // 2],  # torn
        lambda data: data.replace(b"shared-marks-cache 1", b"shared-marks-cache 0"),  # another version
        lambda data: data[:-1] + bytes([data[-1] ^ 1]),  # a bit flipped: the CRC
        lambda data: os.urandom(len(data)),
        lambda data: data[:38] + b"\x00" * (len(data) - 38),
        lambda data: sealed(marshal.dumps(("not", "a", "cache"))),  # whole, but not what we write
        lambda data: sealed(_with_items_cut(marshal.loads(data[len(shared_cache.MAGIC) + 4 :]))),
    ],
)
def test_a_cache_that_cannot_be_read_is_ignored_and_written_anew(
    tmp_path: Path, trusted: None, spoil
) -> None:
    folder, cache, _ = desktop_synced(tmp_path, seed=4, marks=40)
    reader(folder, cache, tmp_path)
    cache.write_bytes(spoil(cache.read_bytes()))
    time.sleep(TICK)
    assert shared_cache.load(cache, folder) is None
    same_as_full_read(folder, cache, tmp_path)
    assert shared_cache.load(cache, folder) is not None  # written anew by that start


def test_a_cache_of_another_folder_or_a_folder_gone_is_not_used(tmp_path: Path, trusted: None) -> None:
    one, two, cache = tmp_path / "one", tmp_path / "two", tmp_path / "c.marshal"
    for folder, seed in ((one, 5), (two, 6)):
        folder.mkdir()
        w = writer(tmp_path, f"m{seed}")
        mark_some(w, random.Random(seed), 20)
        replace(folder / w.own.name, w.own.read_bytes())
    reader(one, cache, tmp_path)
    assert shared_cache.load(cache, two) is None
    time.sleep(TICK)
    same_as_full_read(two, cache, tmp_path)
    shutil.rmtree(two)
    gone = reader(two, cache, tmp_path)
    assert gone.reviews == {} and gone.warnings == []


def test_a_file_changed_just_before_a_read_is_checked_at_the_next_start(tmp_path: Path) -> None:
    """Within `RACY_NS` of its change a file's times cannot tell a rewrite in
    the same clock tick: it is read again (its digest checked), not trusted."""
    folder, cache, w = desktop_synced(tmp_path, seed=7, marks=20)
    shared_scan.read_folder(folder, cache)
    cached = shared_cache.load(cache, folder)
    assert cached is not None and cached.files[w.own.name].signature is None
    assert shared_scan.read_folder(folder, cache).read > 0
    same_as_full_read(folder, cache, tmp_path)


def test_the_reader_keeps_its_cache_in_its_cache_folder_never_in_the_shared_one(
    tmp_path: Path, isolated_dirs: dict[str, Path], trusted: None
) -> None:
    folder = tmp_path / "shared"
    other = writer(tmp_path, "desktop")
    mark_some(other, random.Random(8), 10)
    shutil.copytree(other.path, folder)
    state = open_state(folder, folder=True)
    assert isinstance(state, SharedState) and state.cache == locations.shared_cache_file(folder)
    assert state.cache.is_relative_to(isolated_dirs["XDG_CACHE_HOME"])
    state.load()
    state.set_read(REVIEWS[1], True)
    state.save()
    assert state.cache.is_file() and shared_cache.load(state.cache, folder) is not None
    assert sorted(os.listdir(folder)) == sorted(["desktop.marks", state.own.name])
    assert locations.shared_cache_file(tmp_path / "elsewhere") != state.cache


def test_one_stamp_on_two_files_reads_the_same_in_any_order(tmp_path: Path) -> None:
    """Two machines given one id, at one instant: the greater mark wins, whatever
    order the files are read in (as `merge_into` orders them)."""
    header = journal.header_line(journal.Header("laptop", "t"))
    marks = [b'["r","o/r#1",true,5.0,0]\n', b'["r","o/r#1",false,5.0,0]\n']
    for order in (marks, marks[::-1]):
        folder = tmp_path / f"f{order[0][15:19].decode()}"
        folder.mkdir()
        (folder / "laptop.marks").write_bytes(header + order[0])
        (folder / "laptop.sync-conflict-1.marks").write_bytes(header + order[1])
        assert reader(folder, None, tmp_path).is_read("o/r#1")
        parsed = journal.parse(header + order[0] + order[1])
        assert parsed.reviews["o/r#1"].read.value is True  # type: ignore[union-attr]
