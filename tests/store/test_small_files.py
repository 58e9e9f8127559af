"""The reader's own small files (state, config, UI choices) are read without blocking and bounded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.deadline import deadline
from tui.store import config, uistate
from tui.store.safe_read import UnfitFile, read_regular


def test_a_regular_file_up_to_the_limit_is_read(tmp_path: Path) -> None:
    path = tmp_path / "f"
    path.write_bytes(b"x" * 100)
    assert read_regular(path, 100) == b"x" * 100
    with pytest.raises(UnfitFile, match="larger than 0 KB"):
        read_regular(path, 99)


def test_a_pipe_or_a_folder_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with deadline(5), pytest.raises(UnfitFile, match="not a regular file"):
        read_regular(fifo, 1024)
    with pytest.raises(UnfitFile, match="not a regular file"):
        read_regular(tmp_path, 1024)


def test_config_and_ui_choices_survive_a_pipe_in_their_place(tmp_path: Path) -> None:
    fifo = tmp_path / "config.yaml"
    os.mkfifo(fifo)
    with deadline(5):
        loaded = config.load(fifo)
        assert uistate.load(fifo) == {}
    assert loaded.keymap == {} and "not a regular file" in loaded.warnings[0]


def test_sizes_are_named_in_the_unit_they_were_set_in(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * (2 * 1024 * 1024 + 1))
    with pytest.raises(UnfitFile, match="larger than 2 MB"):
        read_regular(path, 2 * 1024 * 1024)
    with pytest.raises(UnfitFile, match="larger than 64 KB"):
        read_regular(path, 64 * 1024)


def test_a_file_that_grew_since_its_stat_is_read_to_its_end_or_refused(tmp_path: Path) -> None:
    """The first read asks for one byte more than the stat said: a file that
    grew since is read on to its end (within the limit), not cut at its old size."""
    path = tmp_path / "grows.yaml"
    path.write_bytes(b"a" * 100)
    old = os.stat(path)
    path.write_bytes(b"b" * 300)  # grew after the caller's stat
    assert read_regular(path, 1000, old) == b"b" * 300
    with pytest.raises(UnfitFile):
        read_regular(path, 200, old)
    assert read_regular(path, 1000, os.stat(path)) == b"b" * 300
    empty = tmp_path / "empty.yaml"
    empty.write_bytes(b"")
    assert read_regular(empty, 1000, os.stat(empty)) == b""


def test_a_pipe_is_refused_on_the_callers_stat_too(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    with deadline(5), pytest.raises(UnfitFile):
        read_regular(pipe, 1000, os.stat(pipe))
