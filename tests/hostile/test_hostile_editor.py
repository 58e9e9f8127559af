"""`e` on an entry whose file name is an editor option: the editor gets the file,
absolute and after `--`, and runs nothing the name says.

The reader runs in a real terminal (`prdigest-tui .` in the entry folder, as a
user would start it); the editor is a script that records its arguments and,
where vim is installed, hands them to a real vim in silent Ex mode, which runs
`-c` commands as the interactive one does.
"""

from __future__ import annotations

import json
import shutil
import stat
import sys
import time
from pathlib import Path

import pytest

from tests.pty_session import READER, Session, reader_env
from tui.core.external import editor_command

HOSTILE_NAME = "-c:!touch pwned.yaml"


def recording_vim(tmp_path: Path) -> tuple[Path, Path]:
    """An editor named `vim` that writes its arguments to a file, then runs them in
    a real vim (when there is one) that reads no config and quits at once."""
    record = tmp_path / "argv.json"
    folder = tmp_path / "bin"
    folder.mkdir()
    script = folder / "vim"
    real = shutil.which("vim")
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, os, sys\n"
        f"open({str(record)!r}, 'w').write(json.dumps(sys.argv[1:]))\n"
        f"real = {real!r}\n"
        "if real:\n"
        "    null = os.open(os.devnull, os.O_RDWR)\n"
        "    for fd in (0, 1, 2):\n"
        "        os.dup2(null, fd)\n"
        "    os.execv(real, [real, '-es', '-N', '-u', 'NONE', '-i', 'NONE', *sys.argv[1:]])\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, record


def test_e_on_a_file_named_like_an_option_runs_nothing(tmp_path: Path, isolated_dirs) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    entry = folder / HOSTILE_NAME
    entry.write_text(
        "title: Innocent review\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\n", encoding="utf-8"
    )
    script, record = recording_vim(tmp_path)
    env = reader_env(isolated_dirs, EDITOR=str(script))
    env.pop("VISUAL", None)
    with Session([*READER, "--no-watch", "."], env, folder) as reader:
        reader.wait_for("Innocent review")
        reader.send(b"e")
        deadline = time.monotonic() + 20
        while not record.exists() and time.monotonic() < deadline:
            reader._read(0.1)
        assert record.exists(), reader.text[-1500:]
        reader.wait_for("Innocent review")  # back in the reader once the editor is done
        time.sleep(0.5)
        reader.send(b"q")
        assert reader.wait_exit() == 0
    argv = json.loads(record.read_text())
    assert argv == ["+1", "--", str(entry)]
    assert Path(argv[-1]).is_absolute()
    assert not list(tmp_path.rglob("pwned.yaml"))


@pytest.mark.parametrize(
    ("editor", "expected"),
    [
        ("vim", ["vim", "+3", "--", "ABS"]),
        ("/usr/bin/nvim -u NONE", ["/usr/bin/nvim", "-u", "NONE", "+3", "--", "ABS"]),
        ("emacs -nw", ["emacs", "-nw", "+3", "--", "ABS"]),
        ("hx", ["hx", "+3", "--", "ABS"]),
        # nano reads `+LINE` among the words getopt leaves, so after `--`.
        ("nano", ["nano", "--", "+3", "ABS"]),
        # An editor not known to take `--` may open a file named `--`: the
        # absolute path is what keeps the name from being an option.
        ("code --wait", ["code", "--wait", "+3", "ABS"]),
    ],
)
def test_the_editor_gets_an_absolute_path_after_the_options(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, editor: str, expected: list[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    relative = Path(HOSTILE_NAME)
    command = editor_command({"EDITOR": editor}, relative, 3)
    assert command == [str(tmp_path / HOSTILE_NAME) if word == "ABS" else word for word in expected]
