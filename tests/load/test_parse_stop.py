"""A parse that stops between files (`parse_files`' `stop`), and the files a
stand-in hands back to the first worker (`tui.load.pool_stand_in`): what a
stand-in does once the reader has drawn."""

from __future__ import annotations

import os
from pathlib import Path

from tests.entry_files import reviews_in
from tui.load.cache import ParseCache
from tui.load.journal import Journal, parse_files
from tui.load.pool_stand_in import HandBack, hand_back


def test_a_parse_told_to_stop_answers_the_files_parsed_so_far(tmp_path: Path) -> None:
    """Asked before each file but the first: the answer holds the first files,
    and so does the journal, every one of them whole."""
    folder = reviews_in(tmp_path / "e", range(5))
    names = sorted(str(path) for path in folder.iterdir())
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) == 2  # after the second file

    journal = Journal(tmp_path / "parse-cache.marshal", "v")
    try:
        _, _, entries = parse_files(names, journal, stop)
    finally:
        journal.close()
    assert [entry[0] for entry in entries] == names[:2]
    assert len(asked) == 2
    cache = ParseCache(tmp_path / "parse-cache.marshal", version_key="v")
    cache.load()
    hits = {
        str(path)
        for path in map(Path, names)
        if cache.get(path, (path.stat().st_size, path.stat().st_mtime_ns))
    }
    assert hits == set(names[:2])


def test_a_parse_is_never_stopped_before_its_first_file(tmp_path: Path) -> None:
    folder = reviews_in(tmp_path / "e", range(3))
    names = sorted(str(path) for path in folder.iterdir())
    assert [entry[0] for entry in parse_files(names, None, lambda: True)] == names[:1]


def test_the_files_handed_back_are_taken_once_they_are_in() -> None:
    read_end, write_end = os.pipe()
    back = HandBack(read_end)
    assert back.take(wait=False) is None  # not handed back yet
    hand_back(write_end, ["a.yaml", "b c.yaml"])
    assert back.take(wait=False) == ["a.yaml", "b c.yaml"]
    assert back.take(wait=True) is None  # taken
    os.close(write_end)


def test_a_stand_in_that_ends_without_handing_back_hands_back_nothing() -> None:
    read_end, write_end = os.pipe()
    back = HandBack(read_end)
    os.close(write_end)
    assert back.take(wait=True) == []
