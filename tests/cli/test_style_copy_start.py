"""The reader's stylesheet is parsed once: a first start takes the rules shipped
in the package and parses no source its first frame draws; what it parses
later (the keys panel's) it keeps in the cache folder, and a second start
parses no source at all (that it then draws what a full parse draws is
tests/ui/test_kept_styles.py's and tests/ui/test_shipped_styles.py's)."""

from __future__ import annotations

import sys
from pathlib import Path

from tests.app_helpers import write_review
from tests.pty_session import Session, reader_env

# Each source Textual's own stylesheet parses, a line in the file named by
# argv[1]; then the reader's command line with the rest of argv.
PROBE = """\
import sys
record = sys.argv.pop(1)
from textual.css.stylesheet import Stylesheet
parse_rules = Stylesheet._parse_rules
def counted(self, css, *args, **kwargs):
    with open(record, "a") as out:
        out.write(repr(kwargs.get("read_from", args[0] if args else None)) + "\\n")
    return parse_rules(self, css, *args, **kwargs)
Stylesheet._parse_rules = counted
from tui.cli import run
run()
"""


def test_a_second_start_parses_no_stylesheet_source(tmp_path: Path, isolated_dirs: dict[str, Path]) -> None:
    entries = tmp_path / "entries"
    entries.mkdir()
    write_review(entries / "one.yaml", "The only review")
    kept = isolated_dirs["XDG_CACHE_HOME"] / "prdigest-tui" / "stylesheet.pickle"
    parsed = []
    for run in range(2):
        record = tmp_path / f"parsed-{run}.txt"
        record.touch()
        argv = [sys.executable, "-c", PROBE, str(record), "--lang", "en", "--no-watch", str(entries)]
        with Session(argv, reader_env(isolated_dirs), tmp_path, rows=40, cols=120) as session:
            session.wait_for("The only review", timeout=60)
            session.wait_for("1 review", timeout=60)
            before_panel = record.read_text(encoding="utf-8").splitlines()
            session.send(b"?")
            session.wait_for("Go to the first", timeout=60)
            session.send(b"q")  # the keys panel is a side panel: q quits
            assert session.wait_exit(timeout=60) == 0
        assert before_panel == [], "the shipped rules did not cover the first frame in a real terminal"
        parsed.append(record.read_text(encoding="utf-8").splitlines())
        assert kept.is_file()
    assert len(parsed[0]) >= 2  # the keys panel's sources: parsed at the first start, then kept
    assert not any("app.tcss" in line for line in parsed[0])
    assert parsed[1] == []
