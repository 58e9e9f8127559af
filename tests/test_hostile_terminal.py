"""Nothing reaches the terminal as an escape sequence or a control character: not
entry text (tests/test_hostile_app.py), and not the names of files and folders,
which are not checked when given on the command line. `check` shows such a name
escaped (`\\x1b`); the reader, `export`, `locate` and their warnings show it
cleaned or escaped. Real files, real processes, and a real terminal for the reader.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from pty_session import READER, Session, reader_env

TITLE = "\x1b]2;PWNED\x07"  # sets the terminal's title
CSI8 = "\u009b31m"  # an 8-bit CSI: red, in terminals that take C1 controls in UTF-8
SHOWN = "\\x1b]2;PWNED\\x07"
REVIEW = "title: Fine review\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\n"


def hostile_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / f"{TITLE}x.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    (folder / f"{CSI8}y.yaml").write_text(REVIEW, encoding="utf-8")
    return folder


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [*READER, *args],
        cwd=cwd,
        capture_output=True,
        env={**os.environ, "LC_ALL": "C.UTF-8", **env},
        timeout=60,
    )


def assert_no_controls(data: bytes, where: str) -> None:
    text = data.decode("utf-8")
    bad = sorted({c for c in text if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) <= 0x9F})
    assert not bad, f"{where} writes {bad!r}: {text!r}"


def test_check_shows_a_hostile_file_name_escaped(tmp_path: Path) -> None:
    folder = hostile_folder(tmp_path)
    names = sorted(str(path.relative_to(tmp_path)) for path in folder.iterdir())  # as the shell expands d/*
    result = run(["check", *names], tmp_path)
    assert result.returncode == 1
    assert_no_controls(result.stdout, "check")
    assert_no_controls(result.stderr, "check's summary")
    out = result.stdout.decode()
    assert f"d/{SHOWN}x.yaml:2:1: invalid YAML" in out, out  # the name, escaped, so it can be found


def test_export_and_its_warnings_write_no_control_characters(tmp_path: Path) -> None:
    folder = hostile_folder(tmp_path)
    state = tmp_path / f"{TITLE}state.json"
    for fmt in ("md", "json"):
        state.write_text("not json", encoding="utf-8")  # a warning that names the file
        files = [str(path) for path in sorted(folder.iterdir())]  # named, so read: as `d/*`
        result = run(["export", "--format", fmt, "--state", str(state), *files], tmp_path)
        assert result.returncode == 0, result.stderr
        assert_no_controls(result.stdout, f"export --format {fmt}")
        assert_no_controls(result.stderr, f"export --format {fmt}'s warnings")
        assert b"Fine review" in result.stdout
        assert b"state.json" in result.stderr  # the warning is there, cleaned


def test_locate_shows_hostile_folders_escaped(tmp_path: Path) -> None:
    home = tmp_path / TITLE
    result = run(["locate"], tmp_path, XDG_CONFIG_HOME=str(home / "c"), XDG_STATE_HOME=str(home / "s"))
    assert result.returncode == 0
    assert_no_controls(result.stdout, "locate")
    assert SHOWN in result.stdout.decode()


def test_the_reader_sets_no_title_from_a_path(tmp_path: Path, isolated_dirs) -> None:
    """A broken file and a missing folder named on the command line: their
    problems (`p`) and the watcher's notice name them; none of it is a sequence."""
    folder = hostile_folder(tmp_path)
    broken = str((folder / f"{TITLE}x.yaml").relative_to(tmp_path))
    args = [*READER, "--lang", "en", broken, f"d/{CSI8}y.yaml", f"{TITLE}gone"]
    with Session(args, reader_env(isolated_dirs), tmp_path, rows=30, cols=160) as reader:
        reader.wait_for("Fine review")
        reader.wait_for("Not watching")
        reader.send(b"p")
        reader.wait_for("no such file or folder")
        reader.send(b"p")
        reader.wait_for("Fine review")
        reader.send(b"q")
        assert reader.wait_exit() == 0
    raw = reader.raw.decode("utf-8", errors="replace")
    assert "]2;PWNED" not in raw.replace("\\x1b]2;PWNED", ""), "the path set the title"
    assert "\u009b" not in raw and "\x9b" not in raw
    assert SHOWN in reader.text  # the problems view shows the names escaped
