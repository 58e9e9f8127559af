"""The first frame from the least data: the folders are listed only as far as
its files, and only the parse cache's first record is read, before it is
drawn; the rest of the walk and of the index follow after (`FirstPart.rest`).
On real files and real cache files; timings are not asserted."""

from __future__ import annotations

import asyncio
import marshal
from pathlib import Path

from tests.app_helpers import make_app, screen_text, write_review
from tui.core.model import Review
from tui.load.cache import ParseCache
from tui.load.cache_format import HEADER
from tui.load.discover import discover, walk
from tui.load.first_frame import SYNC_FILES, from_cache, parse_in_background, plan_first_part


def review_yaml(title: str) -> str:
    return f"title: {title}\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\nfocus:\n  - f1\n"


def tree(root: Path) -> Path:
    """Files and subfolders whose names interleave (`b.yaml`, `b/`, `c.yaml`),
    nested, with a hidden folder, a link to a folder, and a file and a folder
    with control characters in their names."""
    for rel in ("a.yaml", "b/x.yaml", "b/y/z.yaml", "b/a.yml", "c.yaml", "d/e/f/g.yaml", "d/0.yaml"):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(review_yaml(rel), encoding="utf-8")
    (root / ".hidden").mkdir()
    (root / ".hidden" / "h.yaml").write_text(review_yaml("h"), encoding="utf-8")
    (root / "notes.txt").write_text("not an entry", encoding="utf-8")
    (root / "bad\x1bname.yaml").write_text(review_yaml("bad"), encoding="utf-8")
    (root / "d" / "e" / "bad\x07folder").mkdir()
    (root / "link").symlink_to(root / "b", target_is_directory=True)
    return root


def test_the_walk_finds_each_file_of_the_paths_once_in_sorted_order(tmp_path: Path) -> None:
    root = tree(tmp_path / "entries")
    other = tmp_path / "other"
    other.mkdir()
    write_review(other / "m.yaml", "m")
    for paths in (
        [root],
        [root / "d", root, root / "b" / "x.yaml"],  # overlapping: each file once
        [other, root, tmp_path / "missing", root / "c.yaml"],
        [root / "c.yaml", root / "c.yaml"],
        [tmp_path / "missing"],
    ):
        found: list = []
        files = list(walk(paths, found))
        # each path walked alone (no merging), then sorted and each file once
        problems: list = []
        assert files == sorted({file for path in paths for file in walk([path], problems)})
        assert sorted(map(str, found)) == sorted(map(str, problems))
        assert discover(paths) == (files, found)
    assert [p.relative_to(root).as_posix() for p in discover([root])[0]] == [
        "a.yaml",
        "b/a.yml",
        "b/x.yaml",
        "b/y/z.yaml",
        "c.yaml",
        "d/0.yaml",
        "d/e/f/g.yaml",
    ]


def test_a_folder_is_listed_only_when_the_walk_reaches_it(tmp_path: Path) -> None:
    """What the first frame needs is found without listing the folders after
    it: a file added to a later folder meanwhile is found, a problem there is
    not known yet."""
    root = tmp_path / "entries"
    (root / "part-0").mkdir(parents=True)
    (root / "part-1").mkdir()
    for n in range(SYNC_FILES):
        write_review(root / "part-0" / f"r{n:02}.yaml", f"r{n}")
    (root / "part-0" / "zz\x1bname.yaml").write_text(review_yaml("bad"), encoding="utf-8")
    write_review(root / "part-1" / "a.yaml", "a")
    (root / "part-1" / "bad\x1bname.yaml").write_text(review_yaml("bad"), encoding="utf-8")
    problems: list = []
    files = walk([root], problems)
    first = [next(files) for _ in range(SYNC_FILES)]
    assert first == sorted((root / "part-0").iterdir())[:SYNC_FILES]
    assert problems == []  # the rest of part-0 not looked at, part-1 not listed yet
    write_review(root / "part-1" / "b.yaml", "b")  # after the start, before the walk gets there
    assert list(files) == [root / "part-1" / "a.yaml", root / "part-1" / "b.yaml"]
    assert [problem.location.path for problem in problems] == [root / "part-0", root / "part-1"]
    assert all("control characters" in problem.message for problem in problems)


def pages(folder: Path, files: int) -> list[Path]:
    folder.mkdir(parents=True)
    for n in range(files):
        (folder / f"r{n:03}.yaml").write_text(review_yaml(f"review {n}"), encoding="utf-8")
    return sorted(folder.iterdir())


def cold_start(folder: Path, cache_file: Path) -> None:
    """A first start as the reader makes it: the first part, the rest in the
    background, then the save."""
    cache = ParseCache(cache_file)
    first = plan_first_part([folder], cache)
    first.shown()
    rest, _ = first.rest()
    cached, misses = from_cache(rest, cache)
    assert not cached
    asyncio.run(parse_in_background(misses, cache, lambda _: None, workers=1))
    cache.save()


def record_names(cache_file: Path) -> list[list[str]]:
    """The file names each record of a cache file's index holds, in order."""
    data = cache_file.read_bytes()
    found, pos = [], 0
    while pos + HEADER <= len(data):
        length = int.from_bytes(data[pos : pos + HEADER], "little")
        doc = marshal.loads(data[pos + HEADER : pos + HEADER + length])
        found.append(list(doc[3]))
        pos += HEADER + length + doc[4]
    return found


def test_a_warm_start_reads_the_first_frames_record_only_then_the_rest(tmp_path: Path) -> None:
    files = pages(tmp_path / "entries", SYNC_FILES + 16)
    cache_file = tmp_path / "cache.bin"
    cold_start(tmp_path / "entries", cache_file)
    records = record_names(cache_file)
    assert records[0] == [str(path) for path in files[:SYNC_FILES]]  # the first frame's record
    assert sorted(name for names in records[1:] for name in names) == [str(p) for p in files[SYNC_FILES:]]

    warm = ParseCache(cache_file)
    first = plan_first_part([tmp_path / "entries"], warm)
    assert not first.parse and not first.later  # the first frame's files all answered
    assert not warm.has(files[SYNC_FILES])  # the other records not read before the first frame
    hits, _ = first.shown()
    assert sorted(hits) == files[:SYNC_FILES]
    rest, problems = first.rest()
    assert rest == files[SYNC_FILES:] and problems == []
    assert warm.has(files[SYNC_FILES])
    cached, misses = from_cache(rest, warm)
    assert misses == [] and sorted(cached) == rest
    assert cached[files[-1]].reviews[0].focus[0].text == "f1"  # bodies from the later records


def test_a_cache_without_the_first_files_up_front_is_saved_with_them_first(tmp_path: Path) -> None:
    """A cache written before the first frame's record existed (or by a start
    that showed other files) is read on until the first files are found, and
    rewritten at the next save with them first, though nothing else changed."""
    folder = tmp_path / "entries"
    files = pages(folder, SYNC_FILES + 8)
    cache_file = tmp_path / "cache.bin"
    old = ParseCache(cache_file)
    asyncio.run(parse_in_background(list(reversed(files)), old, lambda _: None, workers=1))
    old.save()  # one record, the last files first
    assert record_names(cache_file)[0][0] == str(files[-1])

    again = ParseCache(cache_file)
    first = plan_first_part([folder], again)
    hits, _ = first.shown()
    assert sorted(hits) == files[:SYNC_FILES] and not first.parse
    rest, _ = first.rest()
    from_cache(rest, again)
    assert not again.dirty  # nothing parsed
    again.save()
    assert record_names(cache_file)[0] == [str(path) for path in files[:SYNC_FILES]]
    # Then it stays as it is: a start that finds them first does not write.
    inode = cache_file.stat().st_ino
    third = ParseCache(cache_file)
    first = plan_first_part([folder], third)
    first.shown()
    from_cache(first.rest()[0], third)
    third.save()
    assert cache_file.stat().st_ino == inode


async def test_the_first_frame_shows_the_first_files_before_the_rest_is_listed(tmp_path: Path) -> None:
    """The reader draws the first files' rows while later folders are still
    unlisted; loading the rest brings their reviews, and the problems found
    there, into the same reader."""
    root = tmp_path / "entries"
    files = pages(root / "part-0", SYNC_FILES)
    (root / "part-1").mkdir()
    for n in range(5):
        write_review(root / "part-1" / f"later-{n}.yaml", f"later {n}")
    (root / "part-1" / "bad\x1bname.yaml").write_text(review_yaml("bad"), encoding="utf-8")
    app = make_app(tmp_path, [root])
    load_rest = app.loads.load_rest
    app.loads.load_rest = lambda: None  # type: ignore[method-assign]  # hold the rest back
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        library = app.reader.library
        assert sorted(library.files) == files
        assert library.problem_count == 0  # part-1 not listed yet
        shown = screen_text(app)
        assert f"{SYNC_FILES} reviews · " in shown and "review 0" in shown
        write_review(root / "part-1" / "later-5.yaml", "later 5")  # before the walk gets there
        load_rest()
        for _ in range(300):
            if len(app.reader.library.reviews) == SYNC_FILES + 6 and app.reader.load_progress is None:
                break
            await pilot.pause(0.02)
        library = app.reader.library
        titles = {review.title for review in library.reviews}
        assert {f"later {n}" for n in range(6)} <= titles and len(titles) == SYNC_FILES + 6
        assert [p.message for p in library.all_problems()] == [
            "file 'bad\\x1bname.yaml' skipped: its name has control characters"
        ]
        await pilot.pause()
        assert f"{SYNC_FILES + 6} reviews · " in screen_text(app)
        assert isinstance(library.reviews[0], Review)
