"""The command line where things are not as it expects: `check`, `export` and
`locate` whose output cannot go where it is sent (a full disk, a closed pipe,
an encoding that cannot show the text), and the reader with no terminal or a
mistyped command. Each says why in one line on stderr and exits with a status;
none ends in a traceback or waits forever. Real subprocesses, real files, and
a real terminal where one matters.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pty_session import READER, Session, reader_env
from tui.output import CANNOT_WRITE


def entries(tmp_path: Path) -> Path:
    """A review with text ASCII cannot show, and a broken file with such a name."""
    folder = tmp_path / "entries"
    folder.mkdir()
    (folder / "a.yaml").write_text(
        'title: Café — über\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\nfocus: ["检查"]\n',
        encoding="utf-8",
    )
    (folder / "评审.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    return folder


def run(args: list[str], cwd: Path, stdout: object, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {**os.environ, "LC_ALL": "C.UTF-8", **env}
    return subprocess.run(
        [*READER, *args], cwd=cwd, stdout=stdout, stderr=subprocess.PIPE, text=True, env=environ, timeout=60
    )


COMMANDS = [["export"], ["export", "--format", "json"], ["check", "entries"], ["locate"], ["locate", "state"]]


def one_line_error(result: subprocess.CompletedProcess[str], says: str) -> None:
    assert "Traceback" not in result.stderr, result.stderr
    assert "Exception ignored" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if says in line]
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("prdigest-tui "), result.stderr
    assert result.returncode == CANNOT_WRITE, result


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_full_disk_is_one_line_and_an_exit_status(tmp_path: Path, args: list[str]) -> None:
    entries(tmp_path)
    with open("/dev/full", "w") as full:
        result = run(args, tmp_path, full)
    one_line_error(result, "cannot write to standard output: No space left on device")


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_an_ascii_only_output_is_one_line_and_an_exit_status(tmp_path: Path, args: list[str]) -> None:
    entries(tmp_path)
    home = tmp_path / "家"  # where locate's paths are: not ASCII either
    env = {name: str(home / name.lower()) for name in ("XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME")}
    result = run(args, tmp_path, subprocess.PIPE, PYTHONIOENCODING="ascii", **env)
    one_line_error(result, "standard output's encoding (ascii) cannot show U+")
    assert "PYTHONIOENCODING=utf-8" in result.stderr
    assert result.stdout == ""  # nothing half written


def test_the_c_locale_alone_still_writes_utf_8(tmp_path: Path) -> None:
    """Python reads LC_ALL=C as UTF-8 (PEP 538, 540): the reading list is written."""
    entries(tmp_path)
    result = run(["export"], tmp_path, subprocess.PIPE, LC_ALL="C", LANG="C")
    assert result.returncode == 0, result.stderr
    assert "Café — über" in result.stdout


@pytest.mark.parametrize("args", COMMANDS, ids=" ".join)
def test_a_closed_pipe_ends_quietly(tmp_path: Path, args: list[str]) -> None:
    entries(tmp_path)
    read_end, write_end = os.pipe()
    os.close(read_end)  # `| head -0`: no one reads
    try:
        result = run(args, tmp_path, write_end)
    finally:
        os.close(write_end)
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr, result.stderr
    assert "standard output" not in result.stderr  # nothing to say: the reader left
    assert result.returncode == CANNOT_WRITE


# -- the reader with no terminal ----------------------------------------------------------


def test_a_mistyped_command_with_no_terminal_says_so(tmp_path: Path) -> None:
    """`prdigest-tui chek entries </dev/null | cat`: it spun at 100% CPU, silent."""
    entries(tmp_path)
    result = subprocess.run(
        [*READER, "chek", "entries"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert (
        result.stderr
        == "prdigest-tui: chek: no such command or file (commands: check, schema, export, status, refs, locate)\n"
    )
    assert result.stdout == ""


@pytest.mark.parametrize("stdin", ["devnull", "pipe"])
def test_the_reader_with_no_terminal_says_so(tmp_path: Path, stdin: str) -> None:
    entries(tmp_path)
    result = subprocess.run(
        [*READER, "entries"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL if stdin == "devnull" else subprocess.PIPE,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "the reader needs a terminal, and its standard input is not one" in result.stderr
    assert result.stdout == ""


def test_the_reader_in_a_terminal_with_its_output_redirected_says_so(tmp_path: Path, isolated_dirs) -> None:
    """`prdigest-tui entries > file` in a terminal: it hung there and ignored `q`."""
    entries(tmp_path)
    redirected = tmp_path / "out.txt"
    start = (
        "import os, sys; "
        f"os.dup2(os.open({str(redirected)!r}, os.O_WRONLY | os.O_CREAT), 1); "
        "os.execv(sys.executable, [sys.executable, '-m', 'tui', 'entries'])"
    )
    with Session([sys.executable, "-c", start], reader_env(isolated_dirs), tmp_path) as reader:
        assert reader.wait_exit(timeout=30) == 2
        assert "the reader needs a terminal, and its standard output is not one" in reader.text
    assert redirected.read_bytes() == b""


def test_a_mistyped_command_in_a_terminal_says_so(tmp_path: Path, isolated_dirs) -> None:
    entries(tmp_path)
    with Session([*READER, "chek", "entries"], reader_env(isolated_dirs), tmp_path) as reader:
        assert reader.wait_exit(timeout=30) == 2
        assert "chek: no such command or file" in reader.text


def test_a_missing_path_that_is_not_a_bare_word_is_still_watched_for(tmp_path: Path, isolated_dirs) -> None:
    """`./later` and `later.yaml` are paths, not commands: the reader opens and waits for them."""
    with Session([*READER, "--lang", "en", "./later"], reader_env(isolated_dirs), tmp_path) as reader:
        reader.wait_for("Not watching")
        reader.send(b"q")
        assert reader.wait_exit() == 0
