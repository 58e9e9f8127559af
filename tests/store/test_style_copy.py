"""The stylesheet's copy in the cache folder (tui/store/style_copy.py): read
back under the key it was written with, a miss under any other, never an error."""

from __future__ import annotations

from pathlib import Path

from tui.store import style_copy


def test_the_copy_is_read_under_its_key_only(tmp_path: Path) -> None:
    path = tmp_path / "copy"
    key = style_copy.key({"primary": "#fff"}, ("8.2.8", (3, 11)))
    style_copy.write(path, key, b"rules")
    assert style_copy.read(path, key) == b"rules"
    assert style_copy.read(path, style_copy.key({"primary": "#000"}, ("8.2.8", (3, 11)))) is None
    assert style_copy.read(path, style_copy.key({"primary": "#fff"}, ("8.2.9", (3, 11)))) is None
    assert style_copy.read(tmp_path / "none", key) is None


def test_a_copy_that_cannot_be_written_or_read_is_no_error(tmp_path: Path) -> None:
    key = style_copy.key({}, ("8.2.8", (3, 11)))
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    style_copy.write(blocked / "copy", key, b"rules")  # its folder is a file
    assert not (blocked / "copy").exists()
    folder = tmp_path / "folder"
    folder.mkdir()
    assert style_copy.read(folder, key) is None  # a folder in the copy's place
    (tmp_path / "junk").write_bytes(b"\x00junk")
    assert style_copy.read(tmp_path / "junk", key) is None
