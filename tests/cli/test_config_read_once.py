"""config.yaml is parsed once when the reader starts: the command line reads it
(for `state:`) and hands it to the App, which checks its keymap against the
bindings it knows; what the file says takes effect, and its warnings are the
ones reading it in the App gives."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.app_helpers import write_review
from tests.pty_session import Session, reader_env
from tui.store import config
from tui.ui.app import PrDigestApp

CONFIG = """\
state: marks.json
keymap:
  review.read: w
  no.such.binding: z
views:
  deep: {verdict: [deep], colour: red}
"""

# Each open of a file named config.yaml, a line in the file named by argv[1];
# then the reader's command line with the rest of argv.
PROBE = """\
import sys
record = sys.argv.pop(1)
def hook(event, args):
    if event == "open" and str(args[0]).endswith("config.yaml"):
        with open(record, "a") as out:
            out.write(str(args[0]) + "\\n")
sys.addaudithook(hook)
from tui.cli import run
run()
"""


def _config_and_entries(tmp_path: Path, isolated_dirs: dict[str, Path]) -> tuple[Path, Path]:
    """config.yaml (CONFIG), and a folder of entry files with one review."""
    folder = isolated_dirs["XDG_CONFIG_HOME"] / "prdigest-tui"
    folder.mkdir(parents=True)
    path = folder / "config.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    entries = tmp_path / "entries"
    entries.mkdir()
    write_review(entries / "one.yaml", "The only review")
    return path, entries


def test_the_reader_parses_its_config_once_and_all_of_it_applies(
    tmp_path: Path, isolated_dirs: dict[str, Path]
) -> None:
    path, entries = _config_and_entries(tmp_path, isolated_dirs)
    record = tmp_path / "opened.txt"
    argv = [sys.executable, "-c", PROBE, str(record), "--lang", "en", "--no-watch", str(entries)]
    marks = path.parent / "marks.json"  # `state:`, relative to the config's folder
    with Session(argv, reader_env(isolated_dirs), tmp_path, rows=40, cols=120) as session:
        session.wait_for("w Read", timeout=60)  # the keymap: `r` is now `w`
        session.send(b"w")
        session.wait_for("0 unread", timeout=30)
        session.send(b"q")
        assert session.wait_exit(timeout=60) == 0
    assert "The only review" in marks.read_text(encoding="utf-8")
    assert record.read_text(encoding="utf-8").splitlines() == [str(path)]


async def test_a_config_read_by_the_command_line_warns_as_one_the_app_reads(
    tmp_path: Path, isolated_dirs: dict[str, Path]
) -> None:
    path, entries = _config_and_entries(tmp_path, isolated_dirs)
    shown = []
    for given in (None, config.load(path, keys=False)):
        app = PrDigestApp([entries], tmp_path / "state.json", watch=False, config_path=path, config=given)
        async with app.run_test(notifications=True) as pilot:
            await pilot.pause()
            shown.append([n.message for n in app._notifications])
            assert app.keymap == {"review.read": "w"}
    assert shown[0] == shown[1]
    assert shown[0] == [
        f"{path}: keymap: unknown binding id `no.such.binding`",
        f"{path}: unknown key `views.deep.colour` (known: tags, verdict, repos, unread, unchecked, search)",
    ]
