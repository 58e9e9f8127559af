"""`prdigest-tui check` as a real subprocess, the way authors run it in CI."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from tests.cli_helpers import ROOT, run_probe, run_tui


def check(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return run_tui("check", *args, cwd=cwd)


def test_bundled_entries_pass() -> None:
    result = check("entries/")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout == ""
    assert "8 reviews" in result.stderr and "0 problems" in result.stderr


def test_broken_files_are_listed_with_their_locations(tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "a.yaml").write_text(
        "title: x\nrepo: a/b\ntags: [a, b\nverdict: deep\nsummary: s\n", encoding="utf-8"
    )
    (broken / "b.yaml").write_text(
        "repo: a/b\nentries:\n"
        "  - title: fine\n    tags: [a]\n    verdict: deep\n    summary: s\n"
        "  - title: broken\n    tags: [a]\n    verdict: someday\n    colour: red\n",
        encoding="utf-8",
    )
    (broken / "notes.md").write_text("not an entry file: [", encoding="utf-8")
    result = check("broken", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [  # by file, then line and column, as a compiler lists them
        "broken/a.yaml:4:8: invalid YAML: while parsing a flow sequence did not find expected ',' or ']'",
        "broken/b.yaml:7:5: missing required field `summary`",
        "broken/b.yaml:9:14: `verdict` must be one of deep, quick, skim, skip, not 'someday'",
        "broken/b.yaml:10:5: unknown key `colour` (expected one of: title, repo, pr, url, date, tags, "
        "verdict, verdict_note, summary, focus, read_order, actions, caveats)",
    ]
    assert "1 reviews in 2 files, 4 problems" in result.stderr


def test_absolute_paths_and_missing_paths(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("title: t\nrepo: a/b\ntags: [a]\nverdict: skim\nsummary: s\n", encoding="utf-8")
    missing = tmp_path / "missing"
    result = check(str(good), str(missing))
    assert result.returncode == 1
    assert result.stdout.splitlines() == [f"{missing}:1:1: no such file or folder"]


def test_check_needs_a_path() -> None:
    result = check()
    assert result.returncode == 2
    assert result.stdout == ""
    assert "PATH" in result.stderr


def test_check_does_not_import_textual() -> None:
    code = (
        "import sys; from tui.cli import main; code = main(['check', 'entries']); "
        "print(code, 'textual' in sys.modules)"
    )
    result = run_probe(code)
    assert result.stdout.strip() == "0 False", result.stderr


def _broken_digest(tmp_path: Path) -> Path:
    folder = tmp_path / "digest"
    folder.mkdir()
    (folder / "ok.yaml").write_text(
        "title: t\nrepo: a/b\ntags: [a]\nverdict: skim\nsummary: s\n", encoding="utf-8"
    )
    (folder / "x,y:z%.yaml").write_text(
        "title: t\nrepo: a/b\ntags: [a]\nverdict: someday\nsummary: s\ncolour: red\n", encoding="utf-8"
    )
    return folder


RAW_CONTROLS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def test_format_github_annotates_each_problem_at_its_line(tmp_path: Path) -> None:
    _broken_digest(tmp_path)
    result = check("--format", "github", "digest", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines() == [
        "::error file=digest/x%2Cy%3Az%25.yaml,line=4,col=10::"
        "`verdict` must be one of deep, quick, skim, skip, not 'someday'",
        "::error file=digest/x%2Cy%3Az%25.yaml,line=6,col=1::unknown key `colour` (expected one of: "
        "title, repo, pr, url, date, tags, verdict, verdict_note, summary, focus, read_order, actions, caveats)",
    ]
    assert "1 reviews in 2 files, 2 problems" in result.stderr
    clean = check("--format", "github", "digest/ok.yaml", cwd=tmp_path)
    assert (clean.returncode, clean.stdout) == (0, "")


def test_format_json_lists_problems_as_records(tmp_path: Path) -> None:
    _broken_digest(tmp_path)
    result = check("--format", "json", "digest", "missing.yaml", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert json.loads(result.stdout) == [
        {
            "file": "digest/x,y:z%.yaml",
            "line": 4,
            "column": 10,
            "severity": "error",
            "message": "`verdict` must be one of deep, quick, skim, skip, not 'someday'",
        },
        {
            "file": "digest/x,y:z%.yaml",
            "line": 6,
            "column": 1,
            "severity": "error",
            "message": "unknown key `colour` (expected one of: title, repo, pr, url, date, tags, verdict, "
            "verdict_note, summary, focus, read_order, actions, caveats)",
        },
        {
            "file": "missing.yaml",
            "line": 1,
            "column": 1,
            "severity": "error",
            "message": "no such file or folder",
        },
    ]
    clean = check("--format", "json", "digest/ok.yaml", cwd=tmp_path)
    assert clean.returncode == 0
    assert json.loads(clean.stdout) == []


def test_every_format_keeps_hostile_paths_and_text_off_the_terminal(tmp_path: Path) -> None:
    """File names and entry text are other people's: no format prints a control
    character from them raw (newline only ends a line or a JSON element)."""
    hostile = tmp_path / "evil\x1b]0;pwned\x07\u202e.yaml"
    hostile.write_text(
        'title: "\\e[31mred"\nrepo: a/b\ntags: [a]\nverdict: "\\e[2J"\nsummary: s\n', encoding="utf-8"
    )
    missing = "gone\x1b[31m\x9b\nname.yaml"
    for form in ("text", "github", "json"):
        result = check("--format", form, str(hostile), missing)
        assert result.returncode == 1, result.stderr
        if form == "text":
            continue  # file names as text are the reader's own Location formatting
        assert not RAW_CONTROLS.search(result.stdout), (form, ascii(result.stdout))
        assert "\x1b" not in result.stdout
    records = json.loads(check("--format", "json", str(hostile), missing).stdout)
    assert [(r["line"], r["column"]) for r in records] == [(4, 10), (1, 1)]
    assert records[0]["file"].endswith(".yaml")
    lines = check("--format", "github", str(hostile), missing).stdout.splitlines()
    assert len(lines) == 2 and all(line.startswith("::error file=") for line in lines)


def test_format_must_be_known() -> None:
    result = check("--format", "xml", "entries/")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr
