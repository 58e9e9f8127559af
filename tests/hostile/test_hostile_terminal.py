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

import pytest

from tests.pty_session import READER, Session, reader_env
from tui.core.text import clean, escaped

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


# -- zero-width and bidi marks -------------------------------------------------------

DROPPED = {
    "ZWSP": "\u200b",
    "LRM": "\u200e",
    "RLM": "\u200f",
    "ALM": "\u061c",
    "WORD JOINER": "\u2060",
    "INVISIBLE TIMES": "\u2062",
    "BOM": "\ufeff",
    "RLO": "\u202e",
    "RLI": "\u2067",
    "INHIBIT SYMMETRIC SWAPPING": "\u206a",
    "INTERLINEAR ANNOTATION": "\ufff9",
}
KEPT = [
    "👩\u200d💻",
    "❤\ufe0f\u200d🔥",
    "می\u200cخواهم",
    "क्\u200dष",
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
]


@pytest.mark.parametrize("name", DROPPED)
def test_invisible_and_bidi_marks_are_removed(name: str) -> None:
    char = DROPPED[name]
    assert clean(f"foo{char}bar") == "foobar"
    assert escaped(f"foo{char}bar") == f"foo\\u{ord(char):04x}bar"


@pytest.mark.parametrize("text", KEPT)
def test_joiners_that_join_are_kept(text: str) -> None:
    assert clean(text) == text
    assert escaped(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("foo\u200dbar", "foobar"),  # a ZWJ between Latin letters only hides
        ("foo\u200cbar", "foobar"),
        ("\u200d👩", "👩"),  # nothing to join
        ("👍🏽\u200d", "👍🏽"),
        (
            "see\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065 this",
            "see this",
        ),  # tag-smuggled words
    ],
)
def test_joiners_and_tags_that_hide_are_removed(text: str, expected: str) -> None:
    assert clean(text) == expected


def test_the_reader_and_export_show_no_invisible_marks(tmp_path: Path, isolated_dirs) -> None:
    marks = "".join(DROPPED.values())
    folder = tmp_path / "d"
    folder.mkdir()
    text = f"Hidden{marks}word {' '.join(KEPT)}"
    (folder / "a.yaml").write_text(
        f'title: "{text}"\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: "x{marks}y"\n', encoding="utf-8"
    )
    result = run(["export", "--format", "md", str(folder)], tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout.decode()
    assert "Hiddenword" in out and all(piece in out for piece in KEPT), out
    assert not set(marks) & set(out)
    with Session(
        [*READER, "--lang", "en", "--no-watch", str(folder)], reader_env(isolated_dirs), tmp_path
    ) as reader:
        reader.wait_for("Hiddenword")
        reader.send(b"q")
        assert reader.wait_exit() == 0
    shown = reader.raw.decode("utf-8", errors="replace")
    assert not set(marks) & set(shown), sorted(set(marks) & set(shown))
    assert "\u200d" in shown  # the emoji's joiner is drawn
