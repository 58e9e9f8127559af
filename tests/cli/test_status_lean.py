"""`status` started on its own (`tui.entry` -> `tui.status_command`): the same
answers as argparse, without importing the rest of the command line, and no
body read for a read review that did not change."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.app_helpers import write_review
from tests.cli_helpers import ROOT, run_probe, run_tui
from tui.cli import status_parser
from tui.status_command import plain_arguments

PLAIN = [
    [],
    ["a"],
    ["a", "b"],
    ["--format", "{unread}"],
    ["--format={unread}"],
    ["--format="],
    ["--format", ""],
    ["a", "--format", "{total}", "--state", "s.json"],
    ["--format", "x", "--format", "y", "a", "b"],
    ["--lang", "zh", "a"],
    ["--state=dir/", "--lang=en", "x/y.yaml"],
    ["--format", "{unread} = {total}"],
]
NOT_PLAIN = [
    ["-h"],
    ["--help"],
    ["--form", "x"],  # argparse takes an abbreviation
    ["--format"],
    ["--format", "-x"],
    ["a", "--format", "x", "b"],  # paths on both sides: argparse refuses
    ["--", "a"],
    ["-"],
    ["--nope"],
]


@pytest.mark.parametrize("argv", PLAIN, ids=[" ".join(a) or "none" for a in PLAIN])
def test_plain_arguments_are_read_as_argparse_reads_them(argv: list[str]) -> None:
    parsed = status_parser().parse_args(argv)
    assert plain_arguments(argv) == (parsed.paths, parsed.format, parsed.state, parsed.lang)


@pytest.mark.parametrize("argv", NOT_PLAIN, ids=[" ".join(a) for a in NOT_PLAIN])
def test_anything_else_is_left_to_argparse(argv: list[str]) -> None:
    assert plain_arguments(argv) is None


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_tui("status", "--lang", "en", *args)


def test_help_and_a_mistyped_option_are_argparse_s(tmp_path: Path) -> None:
    helped = run("--help")
    assert helped.returncode == 0 and helped.stdout.startswith("usage: prdigest-tui status")
    wrong = run("--formt", "x")
    assert wrong.returncode == 2 and "unrecognized arguments" in wrong.stderr
    assert "Traceback" not in wrong.stderr


def folder_with(tmp_path: Path) -> Path:
    folder = tmp_path / "entries"
    folder.mkdir()
    write_review(folder / "a.yaml", "Alpha", extra="pr: 1\nfocus: [one]\n")
    write_review(folder / "b.yaml", "Beta", verdict="skim", extra="pr: 2\n")
    return folder


def test_the_entry_imports_neither_the_command_line_nor_argparse(tmp_path: Path) -> None:
    folder = folder_with(tmp_path)
    assert run(str(folder)).returncode == 0  # fills the parse cache
    probe = (
        "import sys\n"
        f"sys.argv = ['prdigest-tui', 'status', '--lang', 'en', {str(folder)!r}]\n"
        "import tui.entry\n"
        "from tui.status_command import main\n"
        "assert main(sys.argv[2:]) == 0\n"
        "print(sorted(m for m in sys.modules if m in ('argparse', 'tui.cli', 'yaml')))\n"
    )
    out = run_probe(probe)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["2 unread · 0 updated", "[]"]


def test_a_read_review_that_did_not_change_is_told_by_its_digest(
    tmp_path: Path, isolated_dirs: dict[str, Path]
) -> None:
    """With the cache's bodies made unreadable, a body read would parse the
    entry file again (importing the YAML parser): once `status` has made the
    read reviews' digests (the first warm call), none is read for the read
    reviews that did not change; the one edited is still counted."""
    folder = folder_with(tmp_path)
    state = tmp_path / "state.json"
    mark = (
        "import sys\n"
        "from pathlib import Path\n"
        "from tui.core.changes import fingerprint\n"
        "from tui.load.parse import load_paths\n"
        "from tui.core.model import Library\n"
        "from tui.store.state import ReadState\n"
        f"result = load_paths([Path({str(folder)!r})])\n"
        f"state = ReadState(Path({str(state)!r}))\n"
        "for review in Library.build(result.files, result.problems).reviews:\n"
        "    state.set_read(review.key, True)\n"
        "    state.set_seen(review.key, fingerprint(review))\n"
        "state.save()\n"
    )
    subprocess.run([sys.executable, "-c", mark], cwd=ROOT, env=os.environ.copy(), check=True, timeout=60)
    assert run(str(folder), "--state", str(state)).stdout == "0 unread · 0 updated\n"  # fills the cache
    assert run(str(folder), "--state", str(state)).stdout == "0 unread · 0 updated\n"  # and the digests

    cache = isolated_dirs["XDG_CACHE_HOME"] / "prdigest-tui" / "parse-cache.marshal"
    data = cache.read_bytes()
    head = int.from_bytes(data[:8], "little")
    cache.write_bytes(data[: 8 + head] + b"\0" * (len(data) - 8 - head))  # every block now garbage
    probe = (
        "import sys\n"
        f"sys.argv = ['prdigest-tui', 'status', '--lang', 'en', {str(folder)!r}, '--state', {str(state)!r}]\n"
        "import tui.entry\n"
        "from tui.status_command import main\n"
        "main(sys.argv[2:])\n"
        "print(sorted(m for m in sys.modules if m == 'yaml' or m == 'tui.load.parse'))\n"
    )
    out = run_probe(probe)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["0 unread · 0 updated", "[]"]

    path = folder / "b.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace("summary: s", "summary: s, edited"), encoding="utf-8"
    )
    assert run(str(folder), "--state", str(state)).stdout == "0 unread · 1 updated\n"


def test_it_ends_with_its_exit_status_and_its_output_written(tmp_path: Path) -> None:
    """`status` skips the interpreter's teardown: the line is out, the status is its own."""
    folder = folder_with(tmp_path)
    assert run(str(folder)).stdout == "2 unread · 0 updated\n"
    assert run(str(folder), "--format", "{nope}").returncode == 2
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader at the other end is gone
    gone = run_tui("status", str(folder), stdout=write_end)
    os.close(write_end)
    assert (gone.returncode, gone.stderr) == (3, "")
    if os.path.exists("/dev/full"):
        with open("/dev/full", "w") as full:
            no_room = run_tui("status", str(folder), stdout=full)
        assert no_room.returncode == 3 and "No space left" in no_room.stderr
