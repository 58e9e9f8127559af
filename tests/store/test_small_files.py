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
