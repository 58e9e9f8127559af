"""How `check` prints problems in each format (tui/check_formats.py): GitHub's
workflow-command escapes, JSON records, and no raw control character in any."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tui import check_formats
from tui.core.model import Location, Problem
from tui.core.text import escaped

RAW_CONTROLS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
"""What must not reach a terminal or a log; newline only ends a record."""


def problem(path: str, message: str, line: int = 3, column: int = 4) -> Problem:
    return Problem(Location(Path(path), line, column), message)


def test_text_is_file_line_column_message() -> None:
    found = [("error", problem("entries/a.yaml", "`pr` must be a positive whole number"))]
    assert check_formats.render("text", found) == "entries/a.yaml:3:4: `pr` must be a positive whole number\n"


def test_github_escapes_the_message_and_the_properties_as_the_runner_decodes_them() -> None:
    found = [
        ("error", problem("dir,1/a:b%c.yaml", "50% of it: x, y\r\nz")),
        ("warning", problem("b.yaml", "a warning", 1, 1)),
    ]
    assert check_formats.render("github", found).splitlines() == [
        "::error file=dir%2C1/a%3Ab%25c.yaml,line=3,col=4::50%25 of it: x, y%0D%0Az",
        "::warning file=b.yaml,line=1,col=1::a warning",
    ]


def test_github_and_json_never_print_a_control_character_raw() -> None:
    nasty = "e\x1b[31m\x07\x9b\u202e\u2028\tx"
    found = [("error", problem(f"{nasty}.yaml", f"message {nasty}"))]
    github = check_formats.render("github", found)
    assert github.endswith("\n") and not RAW_CONTROLS.search(github)
    # The name as `check` prints it: each control character written as an escape.
    assert "file=e\\x1b[31m\\x07\\x9b\\u202e\\u2028\\x09x.yaml," in github
    out = check_formats.render("json", found)
    assert not RAW_CONTROLS.search(out)
    [record] = json.loads(out)
    assert record["file"] == escaped(f"{nasty}.yaml")  # escaped for the terminal, not lost
    assert record["message"] == f"message {nasty}"


def test_json_is_a_list_of_records() -> None:
    found = [("error", problem("中文/a.yaml", "`标题` is empty", 7, 9)), ("warning", problem("b.yaml", "w"))]
    out = check_formats.render("json", found)
    assert "中文" in out  # readable as written
    assert json.loads(out) == [
        {"file": "中文/a.yaml", "line": 7, "column": 9, "severity": "error", "message": "`标题` is empty"},
        {"file": "b.yaml", "line": 3, "column": 4, "severity": "warning", "message": "w"},
    ]
    assert json.loads(check_formats.render("json", [])) == []
    assert check_formats.render("github", []) == check_formats.render("text", []) == ""


def test_the_file_is_named_as_location_prints_it() -> None:
    where = Location(Path("a:1:2.yaml"), 10, 20)
    assert check_formats.file_of(where) == "a:1:2.yaml"
    assert f"{check_formats.file_of(where)}:10:20" == str(where)
