"""The parse cache and background loading, on real files (timings are not asserted)."""

from __future__ import annotations

import asyncio
import gc
import marshal
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tui import runtime
from tui.core.model import ALL_TAG
from tui.load.cache import ParseCache
from tui.load.cache_format import FORMAT, VERSION
from tui.load.first_frame import SYNC_FILES, first_part, from_cache, parse_in_background
from tui.ui.app import PrDigestApp
from tui.ui.widgets.review_list import ReviewList
from tui.ui.widgets.review_view import ReviewView
from tui.ui.widgets.tag_list import TagList

ROOT = Path(__file__).resolve().parents[2]


def review_yaml(title: str, focus: str = "f1") -> str:
    return f"title: {title}\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\nfocus:\n  - {focus}\n"


def first_load(paths: list[Path], cache: ParseCache) -> tuple[dict, list[Path], list]:
    """What the app has before parsing in the background: the first part, then
    the cache's answers for the rest (`load_rest`); and what is left to parse."""
    shown, rest, missing = first_part(paths, cache)
    cached, misses = from_cache(rest, cache)
    return {**shown, **cached}, misses, missing


def corpus(tmp_path: Path, files: int) -> Path:
    folder = tmp_path / "entries"
    folder.mkdir()
    for n in range(files):
        (folder / f"r{n:03}.yaml").write_text(review_yaml(f"review {n}"), encoding="utf-8")
    return folder


def test_warm_start_reads_the_cache_not_the_files(tmp_path: Path) -> None:
    folder = corpus(tmp_path, 30)
    cache_file = tmp_path / "cache.bin"
    cold = ParseCache(cache_file)
    hits, later, _ = first_load([folder], cold)
    asyncio.run(parse_in_background(later, cold, hits.update))
    cold.save()
    assert len(hits) == 30
    # Make the files unparseable without changing size or mtime: only a cache hit can succeed.
    stamps = {p: p.stat() for p in folder.iterdir()}
    for path, info in stamps.items():
        path.write_bytes(b"x" * info.st_size)
        os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns))
    warm = ParseCache(cache_file)
    hits, later, _ = first_load([folder], warm)
    assert later == [] and len(hits) == 30
    assert sorted(r.title for u in hits.values() for r in u.reviews)[:2] == ["review 0", "review 1"]
    assert hits[folder / "r005.yaml"].reviews[0].focus[0].text == "f1"  # the body unpacks


def test_the_first_frame_gets_the_first_files_and_the_cache_the_rest_after(tmp_path: Path) -> None:
    """A warm start decodes only what the first frame shows; the rest is answered
    by the cache a frame later, and what changed meanwhile is left to parse."""
    folder = corpus(tmp_path, SYNC_FILES + 10)
    cache_file = tmp_path / "cache.bin"
    cache = ParseCache(cache_file)
    hits, later, _ = first_load([folder], cache)
    asyncio.run(parse_in_background(later, cache, hits.update))
    cache.save()
    changed = folder / f"r{SYNC_FILES + 3:03}.yaml"
    changed.write_text(review_yaml("changed"), encoding="utf-8")
    warm = ParseCache(cache_file)
    shown, rest, missing = first_part([folder], warm)
    assert sorted(shown) == sorted(folder.iterdir())[:SYNC_FILES] and not missing
    assert rest == sorted(folder.iterdir())[SYNC_FILES:]
    cached, misses = from_cache(rest, warm)
    assert misses == [changed] and len(cached) == 9
    assert cached[folder / f"r{SYNC_FILES:03}.yaml"].reviews[0].title == f"review {SYNC_FILES}"


def test_a_cold_start_parses_only_a_few_bytes_before_the_first_frame(tmp_path: Path) -> None:
    """Without a parse cache, the first frame waits for about SYNC_BYTES of
    parsing (at least one file), not for the first SYNC_FILES files."""
    from tui.load.first_frame import SYNC_BYTES

    folder = tmp_path / "entries"
    folder.mkdir()
    padding = "x" * (SYNC_BYTES // 2 - 200)
    for n in range(5):
        (folder / f"r{n}.yaml").write_text(review_yaml(f"review {n}") + f"verdict_note: {padding}\n")
    shown, rest, _ = first_part([folder], ParseCache(tmp_path / "cache.bin"))
    assert sorted(p.name for p in shown) == ["r0.yaml", "r1.yaml"]
    assert [p.name for p in rest] == ["r2.yaml", "r3.yaml", "r4.yaml"]
    one, _, _ = first_part([folder / "r3.yaml"], ParseCache(None))
    assert list(one) == [folder / "r3.yaml"]  # one file is always parsed, whatever its size


def test_a_changed_file_is_parsed_again(tmp_path: Path) -> None:
    folder = corpus(tmp_path, 3)
    cache_file = tmp_path / "cache.bin"
    cache = ParseCache(cache_file)
    first_load([folder], cache)
    cache.save()
    (folder / "r001.yaml").write_text(review_yaml("review 1", focus="changed"), encoding="utf-8")
    cache = ParseCache(cache_file)
    hits, _, _ = first_load([folder], cache)
    assert hits[folder / "r001.yaml"].reviews[0].focus[0].text == "changed"
    assert hits[folder / "r000.yaml"].reviews[0].focus[0].text == "f1"


def cache_bytes(doc: object, bodies: bytes = b"") -> bytes:
    """A cache file of one record: index length, index, bodies."""
    index = marshal.dumps(doc)
    return len(index).to_bytes(8, "little") + index + bodies


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"garbage",
        cache_bytes((FORMAT, VERSION - 1, "0.1.0", {}, 0, True)),
        cache_bytes((FORMAT, VERSION, "0.1.0", {"x": ("bad",)}, 0, True))[:-3],
        cache_bytes((FORMAT, VERSION, "0.1.0", {}, 10, True), b"0123456"),  # bodies cut short
        cache_bytes(["not", "a", "cache"]),
        marshal.dumps((FORMAT, 3, "0.1.0", {})),  # the whole-file format before version 4
    ],
    ids=["empty", "garbage", "old-version", "truncated", "bodies-cut", "wrong-type", "version-3"],
)
def test_a_corrupt_or_old_cache_is_ignored_and_rebuilt(tmp_path: Path, content: bytes) -> None:
    folder = corpus(tmp_path, 2)
    cache_file = tmp_path / "cache.bin"
    cache_file.write_bytes(content)
    cache = ParseCache(cache_file)
    hits, later, _ = first_load([folder], cache)
    assert len(hits) == 2 and not later
    cache.save()
    rebuilt = ParseCache(cache_file)
    assert rebuilt.load()
    assert rebuilt.get(
        folder / "r000.yaml",
        (os.stat(folder / "r000.yaml").st_size, os.stat(folder / "r000.yaml").st_mtime_ns),
    )


def test_a_damaged_entry_is_a_miss(tmp_path: Path) -> None:
    folder = corpus(tmp_path, 1)
    path = folder / "r000.yaml"
    info = path.stat()
    cache_file = tmp_path / "cache.bin"
    stamp_ = (info.st_size, info.st_mtime_ns)
    review = ("t", "o/r", "deep", ("a",), 1, 1, None, 1)
    unchecked = review[:7]
    damaged = (
        (("x",),),
        ((*review, "not", "ints", 0, 0),),
        ((*review, 0, 5, 9),),
        ((*unchecked, "1", 0, 5, 0, 5),),  # a checklist size that is not a number
        ((*review, 0, 5, 0, 5), (*review, 0, 5, 0, None)),  # the file's second review
        ((*review, "not a body"),),  # fresh from a parse: the body is bytes
    )
    for reviews in damaged:
        cache_file.write_bytes(
            cache_bytes((FORMAT, VERSION, "0.1.0", {str(path): (stamp_, reviews, ())}, 0, True))
        )
        cache = ParseCache(cache_file, version_key="0.1.0")
        assert cache.load()
        assert cache.get(path, stamp_) is None, reviews


def test_bodies_are_read_from_the_cache_file_when_first_needed(tmp_path: Path) -> None:
    """A warm start reads the index only; a body comes from the file that index
    was read from, even after a save replaced it; a body that cannot be read any
    more (the file damaged in place) is parsed again from its entry file."""
    folder = corpus(tmp_path, 3)
    cache_file = tmp_path / "cache.bin"
    cache = ParseCache(cache_file)
    first_load([folder], cache)
    cache.save()
    warm = ParseCache(cache_file)
    hits, _, _ = first_load([folder], warm)
    reviews = {path.name: update.reviews[0] for path, update in hits.items()}
    assert all(not isinstance(r._blob, bytes) for r in reviews.values())  # nothing read yet
    assert reviews["r000.yaml"].focus[0].text == "f1"
    warm.dirty = True
    warm.save()  # a new file renamed over the one the index came from
    assert reviews["r001.yaml"].summary == "s"
    again = ParseCache(cache_file)
    hits, _, _ = first_load([folder], again)
    assert {p.name: u.reviews[0].content for p, u in hits.items()} == {
        name: review.content for name, review in reviews.items()
    }
    # Damaged in place (not how we write it, but a disk or a person can):
    victim = hits[folder / "r002.yaml"].reviews[0]
    with open(cache_file, "r+b") as f:
        f.truncate(os.path.getsize(cache_file) - 40)
    assert victim.focus[0].text == "f1"  # parsed again from r002.yaml


async def test_the_app_uses_the_cache_and_saves_it(tmp_path: Path) -> None:
    folder = corpus(tmp_path, 5)
    cache_file = tmp_path / "xdg-cache" / "parse.bin"
    app = PrDigestApp([folder], tmp_path / "state.json", cache_path=cache_file, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        deadline = time.monotonic() + 10
        while not cache_file.exists():
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)
    assert ParseCache(cache_file, version_key=app.loads.cache.version_key).load()


async def test_the_collector_is_back_on_once_files_are_loaded(tmp_path: Path) -> None:
    """`prdigest-tui` starts with the garbage collector off (tui.cli.run); the app
    turns it on, with what was loaded frozen, when the background load ends."""
    folder = corpus(tmp_path, 40)  # more files than are parsed before the first paint
    app = PrDigestApp([folder], tmp_path / "state.json", cache_path=tmp_path / "c.bin", watch=False)
    with runtime.installed():
        assert not gc.isenabled()
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            deadline = time.monotonic() + 30
            while not gc.isenabled():
                assert time.monotonic() < deadline, "the collector stayed off"
                await asyncio.sleep(0.05)
            assert app.reader.load_progress is None
            assert len(app.reader.library.reviews) == 40
            assert gc.get_freeze_count() > 0


async def test_ten_thousand_reviews_open_navigate_and_count(tmp_path: Path) -> None:
    folder = tmp_path / "big"
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "make_corpus.py"), str(folder), "--reviews", "10000"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    app = PrDigestApp([folder], tmp_path / "state.json", cache_path=tmp_path / "cache.bin", watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.query_one(ReviewList).rows  # reviews on screen before loading ends
        deadline = time.monotonic() + 120
        while app.reader.load_progress is not None:
            assert time.monotonic() < deadline, "loading never ended"
            await asyncio.sleep(0.1)
        await pilot.pause()
        assert len(app.reader.library.reviews) == 10_000
        counts = {c.tag: (c.unread, c.total) for c in app.query_one(TagList).counts}
        assert counts[ALL_TAG] == (10_000, 10_000)
        assert sum(total for tag, (_, total) in counts.items() if not tag.startswith("\x00")) == sum(
            len(r.tags) for r in app.reader.library.reviews
        )
        reviews = app.query_one(ReviewList)
        verdicts = [r.verdict for r in reviews.reviews]
        order = ["deep", "quick", "skim", "skip"]
        assert verdicts == sorted(verdicts, key=order.index)  # deep-read first, all the way down
        await pilot.press("end")
        assert app.reader.current_key == reviews.reviews[-1].key
        await pilot.press("home", "j", "j", "r")
        assert app.reader.state.is_read(reviews.reviews[2].key)
        counts = {c.tag: c.unread for c in app.query_one(TagList).counts}
        assert counts[ALL_TAG] == 9_999
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one(ReviewView).review.key == reviews.reviews[2].key


def test_a_worker_packs_what_the_loader_reads(tmp_path: Path) -> None:
    """`parse_files` packs reviews without making `Review`s; unpacked, they are
    what `load_file` makes, and the bodies are what `Review.blob` packs."""
    from tui.load.cache_format import decode_entry
    from tui.load.journal import parse_files
    from tui.load.parse import load_file
    from tui.store.locations import bundled_entries

    full = (
        "title: All the fields\nrepo: o/r\npr: 7\nurl: https://example.com/7\ndate: 2026-01-01\n"
        "tags: [a, b]\nverdict: quick\nverdict_note: why\nsummary: |-\n  two\n  lines\n"
        "focus:\n  - plain\n  - text: with refs\n    refs: [x.py, ' y ']\n    id: f1\n"
        "read_order: [r]\nactions: []\ncaveats:\n  - text: only text\n"
    )
    (tmp_path / "full.yaml").write_text(full, encoding="utf-8")
    (tmp_path / "bare.yaml").write_text(review_yaml("bare"), encoding="utf-8")
    (tmp_path / "broken.yaml").write_text(
        review_yaml("b") + "tags: [again]\nverdict: nope\n", encoding="utf-8"
    )
    paths = [*sorted(tmp_path.glob("*.yaml")), bundled_entries() / "vllm-tag-view.yaml"]
    for (name, _, reviews, problems), path in zip(parse_files([str(p) for p in paths]), paths, strict=True):
        loaded = load_file(path)
        update = decode_entry(Path(name), reviews, problems)
        assert update.reviews == loaded.reviews and update.problems == loaded.problems
        assert [marshal.loads(r[-1]) for r in reviews] == [marshal.loads(r.blob) for r in loaded.reviews]
    assert len(update.reviews) > 1


def _files_of_many_sizes(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "entries"
    folder.mkdir()
    paths = []
    for n in range(60):
        focus = "\n  - ".join(f"point {k}" for k in range(1 + (n % 7) * 40))
        path = folder / f"r{n:03}.yaml"
        path.write_text(review_yaml(f"review {n}", focus), encoding="utf-8")
        paths.append(path)
    (folder / "r999.yaml").write_text("title: [broken\n", encoding="utf-8")
    return [*paths, folder / "r999.yaml"]


_ONE_TASK = """
import marshal, sys
from tui.load.journal import parse_files
head = sys.stdin.buffer.read(8)
task = marshal.loads(sys.stdin.buffer.read(int.from_bytes(head, "little")))
"""


@pytest.mark.parametrize(
    "worker",
    [
        None,
        "import sys; sys.exit(3)",
        _ONE_TASK + "data = marshal.dumps(parse_files(task))\n"
        "sys.stdout.buffer.write(len(data).to_bytes(8, 'little') + data)\n",
        _ONE_TASK + "sys.stdout.buffer.write((16).to_bytes(8, 'little') + b'nonsense' * 2)\n",
    ],
    ids=["workers", "dies-at-once", "dies-after-one-task", "writes-nonsense"],
)
def test_workers_parse_every_file_once_whatever_they_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, worker: str | None
) -> None:
    from tui.load.first_frame import PROCESS_THRESHOLD
    from tui.load.parse import load_file

    if worker is not None:
        monkeypatch.setattr("tui.load.first_frame.WORKER", (sys.executable, "-c", worker))
    paths = _files_of_many_sizes(tmp_path)
    assert len(paths) >= PROCESS_THRESHOLD
    delivered: dict[Path, object] = {}

    def deliver(batch: dict) -> None:
        assert not delivered.keys() & batch.keys(), "a file was delivered twice"
        delivered.update(batch)

    asyncio.run(parse_in_background(paths, cache := ParseCache(tmp_path / "cache.bin"), deliver, workers=2))
    cache.save()
    assert (saved := ParseCache(tmp_path / "cache.bin")).load()
    assert sorted(delivered) == sorted(paths)
    for path in paths:
        loaded = load_file(path)
        assert delivered[path].reviews == loaded.reviews  # type: ignore[attr-defined]
        assert delivered[path].problems == loaded.problems  # type: ignore[attr-defined]
        assert saved.get(path, (path.stat().st_size, path.stat().st_mtime_ns)) == delivered[path]


def test_workers_get_the_largest_files_first_and_smaller_tasks_last(tmp_path: Path) -> None:
    from tui.load.first_frame import CHUNK, _chunks

    paths = _files_of_many_sizes(tmp_path)
    chunks = _chunks([str(p) for p in paths], 2)
    assert sorted(name for chunk in chunks for name in chunk) == sorted(map(str, paths))
    sizes = [os.path.getsize(name) for chunk in chunks for name in chunk]
    assert sizes == sorted(sizes, reverse=True)
    assert all(1 <= len(chunk) <= CHUNK for chunk in chunks)
    assert len(chunks[-1]) < len(chunks[len(chunks) // 2])


def test_a_warm_start_does_not_import_the_parser(tmp_path: Path) -> None:
    """A warm start reads the parse cache: PyYAML (~10 ms to import) and the loader
    are imported when a file has to be parsed, not before the first frame."""
    folder = corpus(tmp_path, 3)
    cache_file = tmp_path / "cache.bin"
    cold = ParseCache(cache_file)
    first_load([folder], cold)
    cold.save()
    code = (
        "import sys\nfrom pathlib import Path\n"
        "import tui.cli, tui.ui.app, tui.load.discover\n"
        "from tui.load.cache import ParseCache\nfrom tui.load.first_frame import first_part\n"
        f"hits, rest, _ = first_part([Path({str(folder)!r})], ParseCache(Path({str(cache_file)!r})))\n"
        "assert len(hits) == 3 and not rest, (hits, rest)\n"
        "print(sorted(m for m in sys.modules if m == 'yaml' or m.startswith(('yaml.', 'tui.load.parse'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_start_up_imports_only_what_the_first_frame_needs() -> None:
    """The palette's providers load when it first opens, the config is read
    when there is one, and undo is made at the first mark: none is imported for
    the first frame. Digests use the built-in blake2, not hashlib, which loads
    OpenSSL."""
    code = (
        "import sys\nimport tui.cli, tui.ui.app\n"
        "print(sorted(m for m in sys.modules if m in ('tui.ui.commands', 'hashlib', '_hashlib', 'tui.store.config', 'tui.core.undo')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_cache_path_that_is_not_a_file_is_a_miss_not_a_hang(tmp_path: Path, kind: str) -> None:
    """A named pipe in the cache's place would block a plain open until a
    writer comes; it is ignored instead, and the cache rebuilt on save."""
    folder = corpus(tmp_path, 2)
    cache_file = tmp_path / "cache.bin"
    if kind == "fifo":
        os.mkfifo(cache_file)
    else:
        cache_file.mkdir()
    code = (
        "import sys\nfrom pathlib import Path\nfrom tui.load.cache import ParseCache\n"
        f"print(ParseCache(Path({str(cache_file)!r})).load())"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=20)
    assert out.returncode == 0 and out.stdout.strip() == "False", out
    shown, _, _ = first_part([folder], ParseCache(cache_file))
    assert len(shown) == 2


def test_saving_a_big_cache_holds_one_record_at_a_time(tmp_path: Path, monkeypatch) -> None:
    """A save writes the main file a record at a time (`RECORD_BYTES` of
    blocks): what it holds is one record, not the cache's bodies (it used to
    hold them all, and before that three copies: ~60 MB a save at 10,000
    reviews)."""
    import random
    import tracemalloc

    from tui.load.parse import load_file

    folder = tmp_path / "entries"
    folder.mkdir()
    rng = random.Random(0)
    for n in range(200):  # ~12 KB of UTF-8 a review that zlib cannot shrink much
        text = "".join(chr(rng.randrange(0x4E00, 0x9FA5)) for _ in range(4000))
        (folder / f"r{n:03}.yaml").write_text(review_yaml(f"review {n}") + f"verdict_note: {text}\n")
    cache_file = tmp_path / "cache.bin"
    cold = ParseCache(cache_file)
    hits, later, _ = first_load([folder], cold)
    asyncio.run(parse_in_background(later, cold, hits.update))
    cold.save()
    warm = ParseCache(cache_file)
    hits, later, _ = first_load([folder], warm)  # every body is still in the file
    assert len(hits) == 200 and not later
    (folder / "r000.yaml").write_text(review_yaml("changed"), encoding="utf-8")
    warm.forget([folder / "r000.yaml"])  # dirty: the next save writes the file again
    size = cache_file.stat().st_size
    monkeypatch.setattr("tui.load.cache_format.RECORD_BYTES", 128 * 1024)
    tracemalloc.start()
    try:
        warm.save()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert size > 1_500_000
    assert peak < size / 4, (peak, size)  # 1.0x when a save held the bodies, 3.1x before
    hits, later, _ = first_load([folder], ParseCache(cache_file))  # the new file answers as the old one did
    assert len(hits) == 200 and not later
    assert (
        hits[folder / "r007.yaml"].reviews[0].verdict_note
        == load_file(folder / "r007.yaml").reviews[0].verdict_note
    )


def test_saves_from_two_threads_write_one_after_the_other(tmp_path: Path, monkeypatch) -> None:
    """The App saves from thread workers, which Textual cannot stop: a second
    save that starts while one is writing waits for it, then finds nothing new."""
    import threading

    import tui.load.cache

    folder = corpus(tmp_path, 5)
    cache = ParseCache(tmp_path / "cache.bin")
    hits, later, _ = first_load([folder], cache)
    asyncio.run(parse_in_background(later, cache, hits.update))
    writing, most, writes = [0], [0], []
    write = tui.load.cache.write_atomic

    def slow(path: Path, *parts: bytes) -> None:  # the real write, made to take a while
        writing[0] += 1
        most[0] = max(most[0], writing[0])
        time.sleep(0.3)
        write(path, *parts)
        writes.append(path)
        writing[0] -= 1

    monkeypatch.setattr(tui.load.cache, "write_atomic", slow)
    threads = [threading.Thread(target=cache.save) for _ in range(2)]
    threads[0].start()
    time.sleep(0.1)
    threads[1].start()
    for thread in threads:
        thread.join()
    assert most[0] == 1 and len(writes) == 1
    assert ParseCache(tmp_path / "cache.bin").load()
