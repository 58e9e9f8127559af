"""The loader on real files: valid entries, located problems, hostile input, discovery."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deadline import deadline
from tui.core.model import Item, Review, digest
from tui.load.parse import MAX_DEPTH, MAX_NODES, REVIEW_FIELDS, FileResult, discover, load_file, load_paths
from tui.store.locations import bundled_entries

BUNDLED = bundled_entries() / "vllm-tag-view.yaml"

VALID = """\
title: Split the kpool indexer
repo: vllm-project/vllm
pr: 1234
url: https://example.com/pr/1234
date: 2026-01-01
tags: [rocm, kernels]
verdict: deep
verdict_note: Read it all.
summary: Three design decisions.
focus:
  - First point
read_order:
  - Start here
actions:
  - Upgrade later
caveats:
  - Not reviewed
"""

# A review inside a page with no shared repo: its mapping starts at line 3, column 5.
PAGE_REVIEW_FIELDS = {
    "title": "title: A title",
    "repo": "repo: a/b",
    "tags": "tags: [x]",
    "verdict": "verdict: quick",
    "summary": "summary: A summary",
}


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


def load(folder: Path, content: str | bytes, name: str = "entry.yaml") -> FileResult:
    return load_file(write(folder, name, content))


def review(*lines: str) -> str:
    """A single-review file: the given lines, then any required field they leave out."""
    given = {line.split(":", 1)[0] for line in lines}
    base = [line for key, line in PAGE_REVIEW_FIELDS.items() if key not in given]
    return "\n".join([*lines, *base]) + "\n"


def located(result: FileResult) -> list[tuple[int, int, str]]:
    return [(p.location.line, p.location.column, p.message) for p in result.problems]


def only_problem(result: FileResult) -> tuple[int, int, str]:
    assert result.reviews == []
    assert len(result.problems) == 1, [str(p) for p in result.problems]
    return located(result)[0]


# -- valid files ----------------------------------------------------------------


def test_single_review_file(tmp_path: Path) -> None:
    result = load(tmp_path, VALID)
    assert result.problems == []
    [r] = result.reviews
    assert isinstance(r, Review)
    assert r.title == "Split the kpool indexer"
    assert r.repo == "vllm-project/vllm"
    assert r.pr == 1234
    assert r.url == "https://example.com/pr/1234"
    assert r.date == "2026-01-01"
    assert r.tags == ("rocm", "kernels")
    assert r.verdict == "deep"
    assert r.verdict_note == "Read it all."
    assert r.summary == "Three design decisions."
    assert [i.text for i in r.focus] == ["First point"]
    assert [i.text for i in r.read_order] == ["Start here"]
    assert [i.text for i in r.actions] == ["Upgrade later"]
    assert [i.text for i in r.caveats] == ["Not reviewed"]
    assert r.focus[0].section == "focus" and r.caveats[0].section == "caveats"
    assert (r.location.path, r.location.line, r.location.column) == (tmp_path / "entry.yaml", 1, 1)


def test_optional_fields_default_to_none(tmp_path: Path) -> None:
    [r] = load(tmp_path, review()).reviews
    assert (r.pr, r.url, r.date, r.verdict_note) == (None, None, None, None)
    assert r.focus == r.read_order == r.actions == r.caveats == ()


def test_page_with_shared_repo(tmp_path: Path) -> None:
    result = load(
        tmp_path,
        """\
repo: owner/shared
entries:
  - title: First
    tags: [a]
    verdict: deep
    summary: one
  - title: Second
    repo: other/repo
    tags: [a, b]
    verdict: skip
    summary: two
""",
    )
    assert result.problems == []
    assert [(r.title, r.repo) for r in result.reviews] == [
        ("First", "owner/shared"),
        ("Second", "other/repo"),
    ]
    assert [(r.location.line, r.location.column) for r in result.reviews] == [(3, 5), (7, 5)]


def test_items_as_text_and_as_mappings(tmp_path: Path) -> None:
    result = load(
        tmp_path,
        review(
            "focus:",
            "  - plain text item",
            "  - text: with `refs` and an id",
            "    refs: [refs, 'custom_ops=[\"all\"]']",
            "    id: keep-me",
            "  - text: mapping without refs",
        ),
    )
    assert result.problems == []
    [r] = result.reviews
    assert r.focus == (
        Item("focus", "plain text item"),
        Item("focus", "with `refs` and an id", ("refs", 'custom_ops=["all"]'), "keep-me"),
        Item("focus", "mapping without refs"),
    )


def test_duplicate_item_ids_in_a_section(tmp_path: Path) -> None:
    # Two items under one key would be checked and unchecked together.
    text = review("focus:", "  - text: a", "    id: same", "  - text: b", "    id: same")
    assert only_problem(load(tmp_path, text)) == (5, 9, "duplicate `id` 'same' in `focus` (first at line 3)")
    other_sections = review("focus:", "  - {text: a, id: same}", "read_order:", "  - {text: b, id: same}")
    assert load(tmp_path, other_sections, "ok.yaml").problems == []


def test_items_with_the_same_text_get_a_check_each(tmp_path: Path) -> None:
    """Keyed by their text, two items written alike would share one check; the
    first keeps the plain key (checks made before stay), each repeat gets its own."""
    text = review(
        "focus:",
        "  - same words",
        "  - other words",
        "  - text: same words",
        "  - same words",
        "  - {text: same words, id: mine}",
        "read_order:",
        "  - same words",
    )
    result = load(tmp_path, text)
    assert result.problems == []
    [r] = result.reviews
    keys = [item.key for item in r.focus]
    assert len(set(keys)) == 5
    assert keys[0] == f"focus:{digest('same words')}" == Item("focus", "same words").key
    assert keys[1] == Item("focus", "other words").key and keys[4] == "focus:mine"
    assert [item.text for item in r.focus] == [
        "same words",
        "other words",
        "same words",
        "same words",
        "same words",
    ]
    assert r.read_order[0].key == f"read_order:{digest('same words')}"  # a section of its own


def test_tags_are_deduplicated_and_whitespace_folded(tmp_path: Path) -> None:
    [r] = load(tmp_path, review("tags: [a, 'b  c', a, ' b c ']")).reviews
    assert r.tags == ("a", "b c")


# -- missing, unknown and mistyped fields ----------------------------------------------


@pytest.mark.parametrize("missing", sorted(PAGE_REVIEW_FIELDS))
def test_missing_required_field_is_located_at_the_review(tmp_path: Path, missing: str) -> None:
    body = "".join(f"    {line}\n" for key, line in PAGE_REVIEW_FIELDS.items() if key != missing)
    text = "# a page without a shared repo\nentries:\n  - " + body[4:]
    assert only_problem(load(tmp_path, text)) == (3, 5, f"missing required field `{missing}`")


def test_missing_field_in_a_single_review_is_at_its_start(tmp_path: Path) -> None:
    text = "\n".join(line for key, line in PAGE_REVIEW_FIELDS.items() if key != "summary") + "\n"
    assert only_problem(load(tmp_path, text)) == (1, 1, "missing required field `summary`")


def test_unknown_key_in_a_review(tmp_path: Path) -> None:
    text = "entries:\n  - title: x\n    repo: a/b\n    colour: red\n    tags: [a]\n    verdict: deep\n    summary: s\n"
    line, column, message = only_problem(load(tmp_path, text))
    assert (line, column) == (4, 5)
    assert message.startswith("unknown key `colour` (expected one of: title, repo,")


def test_unknown_key_in_an_item(tmp_path: Path) -> None:
    text = review("caveats:", "  - text: x", "    severity: high")
    line, column, message = only_problem(load(tmp_path, text))
    assert (line, column) == (3, 5)
    assert message == "unknown key `severity` (expected one of: text, refs, id)"


def test_unknown_key_at_the_top_of_a_page(tmp_path: Path) -> None:
    text = "repo: a/b\n  # comment\nheading: x\nentries:\n  - title: t\n    tags: [a]\n    verdict: deep\n    summary: s\n"
    result = load(tmp_path, text)
    assert [r.title for r in result.reviews] == ["t"]
    [(line, column, message)] = located(result)
    assert (line, column) == (3, 1)
    assert message.startswith("unknown key `heading`")


def test_entries_inside_a_review_is_named(tmp_path: Path) -> None:
    text = "repo: a/b\nentries:\n  - title: t\n    entries: []\n    tags: [a]\n    verdict: deep\n    summary: s\n"
    assert only_problem(load(tmp_path, text)) == (
        4,
        5,
        "`entries` belongs at the top of a page, not in a review",
    )


@pytest.mark.parametrize(
    ("line", "column", "message"),
    [
        ("tags: rocm", 7, "`tags` must be a list, e.g. [rocm, kernels]"),
        ("tags: {a: 1}", 7, "`tags` must be a list, found a mapping"),
        ("tags: []", 7, "`tags` must name at least one tag"),
        ("focus: {a: b}", 8, "`focus` must be a list, found a mapping"),
        ("actions: do it", 10, "`actions` must be a list, found 'do it'"),
        ("title: [a, b]", 8, "`title` must be text, found a list"),
        ("title: ~", 8, "`title` is empty"),
        ("summary: '   '", 10, "`summary` is empty"),
        ("pr: abc", 5, "`pr` must be a positive whole number"),
        ("pr: -5", 5, "`pr` must be a positive whole number"),
        ("pr: 0", 5, "`pr` must be a positive whole number"),
        ("pr: 1.5", 5, "`pr` must be a positive whole number"),
        ("pr: [1]", 5, "`pr` must be a positive whole number"),
        ("verdict: maybe", 10, "`verdict` must be one of deep, quick, skim, skip, not 'maybe'"),
        ("verdict: Deep", 10, "`verdict` must be one of deep, quick, skim, skip, not 'Deep'"),
        ("repo: vllm", 7, "`repo` must be owner/name, not 'vllm'"),
        ("repo: a/b/c", 7, "`repo` must be owner/name, not 'a/b/c'"),
        ("repo: a b/c", 7, "`repo` must be owner/name, not 'a b/c'"),
        ("url: javascript:alert(1)", 6, "`url` must start with https:// or http://"),
        ("url: file:///etc/passwd", 6, "`url` must start with https:// or http://"),
    ],
)
def test_wrong_values_are_located(tmp_path: Path, line: str, column: int, message: str) -> None:
    text = "# leading comment\n" + review(line)
    assert only_problem(load(tmp_path, text)) == (2, column, message)


@pytest.mark.parametrize(("written", "number"), [("12", 12), ("010", 10), ("0007", 7)])
def test_pr_numbers_are_decimal(tmp_path: Path, written: str, number: int) -> None:
    # YAML 1.1 would read 010 as octal 8.
    result = load(tmp_path, review(f"pr: {written}"))
    assert result.problems == []
    [r] = result.reviews
    assert r.pr == number
    assert r.key == f"a/b#{number}"


def test_yaml_11_traps_keep_the_text_as_written(tmp_path: Path) -> None:
    text = (
        "title: no\nrepo: a/b\ntags: [yes, off, 1.0, 010]\nverdict: deep\n"
        "summary: 2026-01-01\ndate: 2026-01-01\nverdict_note: 12:30:00\n"
        "focus: [null_not, 1e3, .inf, 0x1F]\n"
    )
    result = load(tmp_path, text)
    assert result.problems == []
    [r] = result.reviews
    assert (r.title, r.summary, r.date, r.verdict_note) == ("no", "2026-01-01", "2026-01-01", "12:30:00")
    assert r.tags == ("yes", "off", "1.0", "010")
    assert [i.text for i in r.focus] == ["null_not", "1e3", ".inf", "0x1F"]
    for value in (r.title, r.summary, r.date, r.verdict_note, *r.tags):
        assert type(value) is str


def test_title_010_stays_text(tmp_path: Path) -> None:
    [r] = load(tmp_path, review("title: 010")).reviews
    assert r.title == "010"
    assert type(r.title) is str


@pytest.mark.parametrize("written", ["date:", "date: ~", "date: null", "verdict_note:"])
def test_empty_optional_text_is_none(tmp_path: Path, written: str) -> None:
    result = load(tmp_path, review(written))
    assert result.problems == []
    [r] = result.reviews
    assert r.date is None and r.verdict_note is None


def test_quoted_null_is_text(tmp_path: Path) -> None:
    [r] = load(tmp_path, review("title: 'null'", "verdict_note: '~'")).reviews
    assert (r.title, r.verdict_note) == ("null", "~")


# -- broken YAML --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "line", "column", "words"),
    [
        ("title: x\nrepo: a/b\ntags: [a, b\nverdict: deep\nsummary: s\n", 4, 8, "flow sequence"),
        ("title: x\nrepo: a/b\n  tags: [a]\n", 3, 7, "mapping values are not allowed"),
        ('title: x\nrepo: a/b\nsummary: "open\ntags: [a]\n', 5, 1, "quoted scalar"),
        ("title: x\n---\ntitle: y\n", 2, 1, "expected a single document"),
    ],
)
def test_invalid_yaml_is_located(tmp_path: Path, text: str, line: int, column: int, words: str) -> None:
    got_line, got_column, message = only_problem(load(tmp_path, text))
    assert (got_line, got_column) == (line, column)
    assert message.startswith("invalid YAML: ")
    assert words in message


def test_raw_control_character_in_the_file_is_located(tmp_path: Path) -> None:
    # YAML forbids a raw ESC; the problem must point at it, not at 1:1.
    text = "title: x\nrepo: a/b\nsummary: 中文\x1b[31mred\n"
    assert only_problem(load(tmp_path, text)) == (
        3,
        12,
        "invalid YAML: control characters are not allowed (character U+001B)",
    )


def test_duplicate_keys(tmp_path: Path) -> None:
    text = review("title: first", "summary: s", "title: second")
    assert only_problem(load(tmp_path, text)) == (3, 1, "duplicate key `title` (first at line 1)")


@pytest.mark.parametrize(
    ("key", "kind"),
    [("? [a, b]\n: x", "a list"), ("? {a: 1}\n: x", "a mapping"), ("!!binary aGk=: x", "'aGk='")],
)
def test_non_string_keys(tmp_path: Path, key: str, kind: str) -> None:
    text = review("title: t", key)
    line, column, message = only_problem(load(tmp_path, text))
    assert (line, column) == (2, 1 if key.startswith("!!") else 3)
    assert message == f"keys must be plain names, found {kind}"


def test_python_tags_are_refused_and_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "PWNED"
    text = review(
        f"title: !!python/object/apply:os.system ['touch {marker}']",
        f"summary: !!python/name:os.system {marker}",
    )
    result = load(tmp_path, text)
    assert result.reviews == []
    assert located(result) == [
        (1, 8, "`title` must be text, found a list"),
        (2, 10, "`summary`: YAML tag tag:yaml.org,2002:python/name:os.system is not allowed"),
    ]
    assert not marker.exists()


def test_alias_bomb_is_bounded_and_quick(tmp_path: Path) -> None:
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 10):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    text = review("title: bomb", *lines)
    with deadline(10):  # a bound for a hang: the work's bound is MAX_NODES, which the message names
        line, _column, message = only_problem(load(tmp_path, text))
    assert message == f"too many YAML nodes (over {MAX_NODES}, aliases included)"
    assert 1 <= line <= len(lines) + 1


def test_recursive_alias_is_bounded(tmp_path: Path) -> None:
    with deadline(5):
        _line, _column, message = only_problem(load(tmp_path, "title: &a [*a]\n"))
    assert message == f"nested deeper than {MAX_DEPTH} levels"


def test_deep_nesting(tmp_path: Path) -> None:
    depth = MAX_DEPTH + 10
    text = "title: " + "[" * depth + "]" * depth + "\n"
    _line, _column, message = only_problem(load(tmp_path, text))
    assert message == f"nested deeper than {MAX_DEPTH} levels"


def test_absurd_nesting_does_not_crash(tmp_path: Path) -> None:
    text = "title: " + "[" * 100_000 + "]" * 100_000 + "\n"
    with deadline(10):  # a bound for a hang: libyaml's own depth limit ends it, as the message says
        _line, _column, message = only_problem(load(tmp_path, text))
    assert message.startswith("invalid YAML: ")
    assert "nesting" in message


# -- odd files ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n# and another\n", "\ufeff\n"])
def test_empty_files(tmp_path: Path, text: str) -> None:
    assert only_problem(load(tmp_path, text)) == (
        1,
        1,
        "empty file: expected a review or a list under `entries:`",
    )


def test_list_at_top_level(tmp_path: Path) -> None:
    text = "# a list, not a page\n- title: x\n- title: y\n"
    assert only_problem(load(tmp_path, text)) == (
        2,
        1,
        "expected a review or a page with `entries:` (a mapping), found a list",
    )


def test_text_at_top_level(tmp_path: Path) -> None:
    line, column, message = only_problem(load(tmp_path, "just words\n"))
    assert (line, column) == (1, 1)
    assert message == "expected a review or a page with `entries:` (a mapping), found 'just words'"


def test_entries_not_a_list(tmp_path: Path) -> None:
    text = "repo: a/b\nentries:\n  title: x\n"
    assert only_problem(load(tmp_path, text)) == (3, 3, "`entries` must be a list of reviews")


def test_invalid_utf8_is_located_in_characters(tmp_path: Path) -> None:
    data = b"title: ok\nrepo: a/b\ntags: [a]\nverdict: deep\nsummary: \xe4\xb8\xad\xe6\x96\x87\xff\n"
    assert only_problem(load(tmp_path, data)) == (5, 12, "not valid UTF-8 (byte 0xff)")


def test_bom_is_not_counted_in_columns(tmp_path: Path) -> None:
    data = b"\xef\xbb\xbftitle: a\xc3\n"
    assert only_problem(load(tmp_path, data)) == (1, 9, "not valid UTF-8 (byte 0xc3)")


def test_utf8_with_bom_loads(tmp_path: Path) -> None:
    result = load(tmp_path, b"\xef\xbb\xbf" + review("title: 标题").encode())
    assert result.problems == []
    assert [r.title for r in result.reviews] == ["标题"]


def test_utf16_with_bom_loads(tmp_path: Path) -> None:
    result = load(tmp_path, review("title: 标题").encode("utf-16"))
    assert result.problems == []
    assert [r.title for r in result.reviews] == ["标题"]


def test_crlf_file_loads(tmp_path: Path) -> None:
    text = review("title: t", "summary: |-", "  line one", "  line two", "focus:", "  - 'a", "    b'")
    result = load(tmp_path, text.replace("\n", "\r\n").encode())
    assert result.problems == []
    [r] = result.reviews
    assert r.summary == "line one\nline two"
    assert [i.text for i in r.focus] == ["a b"]
    assert "\r" not in r.title + r.summary


def test_directory_given_as_file(tmp_path: Path) -> None:
    (tmp_path / "dir.yaml").mkdir()
    result = load_file(tmp_path / "dir.yaml")
    assert located(result) == [(1, 1, "not a regular file; skipped")]


# -- a failure stays local --------------------------------------------------------------


def test_valid_file_next_to_a_broken_one(tmp_path: Path) -> None:
    good = write(tmp_path, "a-good.yaml", review("title: good"))
    bad = write(tmp_path, "b-bad.yaml", "title: [unclosed\n")
    result = load_paths([tmp_path])
    assert [r.title for r in result.reviews] == ["good"]
    assert set(result.files) == {good, bad}
    assert list(result.problems) == [bad]
    assert all(str(p).startswith(f"{bad}:") for p in result.all_problems())


def test_one_bad_review_does_not_drop_the_rest_of_its_page(tmp_path: Path) -> None:
    text = """\
repo: a/b
entries:
  - title: first
    tags: [a]
    verdict: deep
    summary: s
  - title: broken
    tags: [a]
    verdict: later
    summary: s
  - just text
  - title: third
    tags: [a]
    verdict: skip
    summary: s
"""
    result = load(tmp_path, text)
    assert [r.title for r in result.reviews] == ["first", "third"]
    assert located(result) == [
        (9, 14, "`verdict` must be one of deep, quick, skim, skip, not 'later'"),
        (11, 5, "expected a review (a mapping), found 'just text'"),
    ]


# -- untrusted text ---------------------------------------------------------------------


def test_escape_sequences_and_controls_are_stripped(tmp_path: Path) -> None:
    text = review(
        r'title: "red\e[31mRED\e[0m plain"',
        r'summary: "\e]0;pwned title\a after \e]8;;https://x\e\\link\e]8;;\e\\ end"',
        r'verdict_note: "nul\0 bs\b del\x7f c1\x9b31m csi\x9dosc\x07 bell\a"',
        r'focus: ["tab\tkept", "line\nkept", "ends in a lone \e", "bidi \u202e evil"]',
    )
    result = load(tmp_path, text)
    assert result.problems == []
    [r] = result.reviews
    assert r.title == "redRED plain"
    assert r.summary == " after link end"
    assert r.verdict_note == "nul bs del c1 csi bell"
    assert [i.text for i in r.focus] == ["tab\tkept", "line\nkept", "ends in a lone ", "bidi  evil"]
    for value in (r.title, r.summary, r.verdict_note, *(i.text for i in r.focus)):
        assert not any((ord(c) < 0x20 and c not in "\t\n") or 0x7F <= ord(c) <= 0x9F for c in value)


def test_markup_lookalikes_are_kept_literally(tmp_path: Path) -> None:
    text = review(
        "title: '[bold]not bold[/] list[int]'",
        """summary: 'use `custom_ops=["all"]` and `<|tool_response>` [@click=app.quit]x[/]'""",
        "tags: ['[red]', '[/]']",
    )
    result = load(tmp_path, text)
    assert result.problems == []
    [r] = result.reviews
    assert r.title == "[bold]not bold[/] list[int]"
    assert r.summary == 'use `custom_ops=["all"]` and `<|tool_response>` [@click=app.quit]x[/]'
    assert r.tags == ("[red]", "[/]")


def test_escapes_in_keys_do_not_reach_messages(tmp_path: Path) -> None:
    text = review(r'"bad\e[2Jkey": 1', r'"title\e[0m": x')
    messages = [p.message for p in load(tmp_path, text).problems]
    assert messages and all("\x1b" not in m for m in messages)
    dup = review(r'"x\e[2J": 1', r'"x\e[2J": 2')
    [(line, column, message)] = located(load(tmp_path, dup, "dup.yaml"))
    assert (line, column, message) == (2, 1, "duplicate key `x` (first at line 1)")


# -- discovery ----------------------------------------------------------------------------


def test_discovery_skips_temp_hidden_and_other_files(tmp_path: Path) -> None:
    keep = [
        write(tmp_path, "a.yaml", review()),
        write(tmp_path, "b.yml", review()),
        write(tmp_path, "sub/c.yaml", review()),
        write(tmp_path, "sub/deeper/d.yaml", review()),
    ]
    for name in (
        ".#x.yaml",
        "#x.yaml#",
        "x.yaml~",
        ".x.yaml.swp",
        ".hidden.yaml",
        "4913",
        "x.yaml.tmp",
        "notes.md",
        "data.json",
        "x.YAML.bak",
        ".hidden/e.yaml",
        "sub/.git/f.yaml",
    ):
        write(tmp_path, name, "title: [broken\n")
    files, problems = discover([tmp_path])
    assert problems == []
    assert files == sorted(keep)
    result = load_paths([tmp_path])
    assert result.all_problems() == []
    assert len(result.reviews) == 4


def test_a_file_named_explicitly_is_read(tmp_path: Path) -> None:
    path = write(tmp_path, "notes.txt", review("title: explicit"))
    files, problems = discover([path])
    assert (files, problems) == ([path], [])
    assert [r.title for r in load_paths([path]).reviews] == ["explicit"]


def test_missing_path_is_a_problem_at_line_1(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    result = load_paths([missing, tmp_path])
    assert [str(p) for p in result.all_problems()] == [f"{missing}:1:1: no such file or folder"]
    assert result.reviews == []


def test_the_complete_example_of_the_format_reference(tmp_path: Path) -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "entry-format.md").read_text(encoding="utf-8")
    section = doc.split("## A complete example", 1)[1]
    example = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    result = load(tmp_path, example)
    assert result.problems == []
    assert len(result.reviews) == 2
    first = result.reviews[0]
    assert first.pr == 12345 and first.verdict_note and first.date == "2026-01-01"
    assert first.read_order and first.focus and first.actions and first.caveats


# -- the bundled digest -------------------------------------------------------------------

BUNDLED_TITLES = [
    "kpool 索引器迁入 glm5next 并拆分后端",
    "统一 h2d 异步复制工具，删除 async_copy_to_gpu",
    "清理 8 文件 1895 行死内核代码，覆盖 AMD 与量化算子路径",
    "重构结构化输出与投机解码的约束起点契约",
    "reasoning 结束判定统一由语法派生，删除多模型 override",
    "删除 TPU 版 InputBatch 死代码与联合类型别名",
    "MRV1 弃用前翻转 specdec 检查为黑名单并统一 ngram 分支",
    "统一多模态 LoRA token 计数钩子，20+ 模型迁移到新接口",
]


def test_bundled_digest_loads_cleanly() -> None:
    result = load_paths([BUNDLED.parent])
    assert result.all_problems() == []
    reviews = result.reviews
    assert [r.title for r in reviews] == BUNDLED_TITLES
    assert {r.repo for r in reviews} == {"vllm-project/vllm"}
    for r in reviews:
        assert 2 <= len(r.tags) <= 4, r.title
        assert r.summary


def test_bundled_digest_keeps_code_literally() -> None:
    reviews = load_file(BUNDLED).reviews

    def texts(r: Review) -> str:
        return "\n".join(i.text for s in ("focus", "read_order", "actions", "caveats") for i in r.items(s))

    with_ops = [r for r in reviews if 'custom_ops=["all"]' in texts(r)]
    with_tool = [r for r in reviews if "<|tool_response>" in texts(r)]
    assert [r.title for r in with_ops] == [BUNDLED_TITLES[0]]
    assert [r.title for r in with_tool] == [BUNDLED_TITLES[4]]
    assert 'custom_ops=["all"]' in with_ops[0].actions[0].refs
    assert "<|tool_response>" in with_tool[0].caveats[0].refs
    assert "`<|tool_response>`" in with_tool[0].caveats[0].text


# -- the fast paths give what the full ones give ---------------------------------------------
# The loader skips work most files do not need (YAML 1.1 typing of plain scalars, a
# walk of every node for the limits, a search of every value for control
# characters, a table of line starts); these pin down that the answers are unchanged.


def test_plain_scalars_that_yaml_reads_as_something_else(tmp_path: Path) -> None:
    base = review("title: t")
    assert located(load(tmp_path, base + "<<: {a: b}\n")) == [(6, 1, "keys must be plain names, found '<<'")]
    for written, message in [
        ("=", "`title`: YAML tag tag:yaml.org,2002:value is not allowed"),
        ("<<", "`title`: YAML tag tag:yaml.org,2002:merge is not allowed"),
        ("~", "`title` is empty"),
        ("NULL", "`title` is empty"),
    ]:
        assert only_problem(load(tmp_path, review(f"title: {written}"))) == (1, 8, message)
    result = load(
        tmp_path, review("title: yes", "summary: 0x1F", "verdict_note: 2026-01-01", "focus: [1e3, off]")
    )
    assert result.problems == []
    [r] = result.reviews
    assert (r.title, r.summary, r.verdict_note) == ("yes", "0x1F", "2026-01-01")
    assert [i.text for i in r.focus] == ["1e3", "off"]


def test_the_resolver_keeps_every_tag_the_reader_tells_apart() -> None:
    import itertools

    import yaml

    from tui.load.yaml_nodes import STR_TAGS, Composer

    full = yaml.resolver.Resolver()
    fast = Composer("")
    words = ["yes", "No", "off", "null", "Null", "NULL", "~", "<<", "=", "!", "&", "*", "0x1F", "1e3", ".inf"]
    short = ["".join(chars) for n in range(4) for chars in itertools.product("~<=!&*nN0.-+:y", repeat=n)]
    for value in [*words, *short, "2026-01-01", "12:30:00", "a long plain scalar"]:
        for implicit in [(True, False), (False, True), (False, False)]:
            want = full.resolve(yaml.ScalarNode, value, implicit)
            got = fast.resolve(yaml.ScalarNode, value, implicit)
            assert got == (
                want if want not in STR_TAGS or want.endswith(":null") else "tag:yaml.org,2002:str"
            )
    for kind in (yaml.SequenceNode, yaml.MappingNode):
        assert fast.resolve(kind, None, (True, False)) == full.resolve(kind, None, (True, False))
    fast.dispose()


def test_every_review_field_has_a_reader() -> None:
    from tui.load.parse import _FIELDS, REVIEW_FIELDS

    assert set(_FIELDS) == set(REVIEW_FIELDS)


def _lines_to_the_list(n: int) -> str:
    # 12 nodes before `x`'s items: the root, five keys, five values and the tag.
    return "title: t\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\nx:\n" + "- a\n" * n


def test_node_limit_without_aliases_holds_to_the_node(tmp_path: Path) -> None:
    at_limit = MAX_NODES - 14  # + the root, five pairs (10), the tag, `x` and its list
    assert located(load(tmp_path, _lines_to_the_list(at_limit))) == [
        (6, 1, "unknown key `x` (expected one of: " + ", ".join(REVIEW_FIELDS) + ")")
    ]
    over = load(tmp_path, _lines_to_the_list(at_limit + 1))
    # The first node over the limit is the list's last item.
    assert only_problem(over) == (
        7 + at_limit,
        3,
        f"too many YAML nodes (over {MAX_NODES}, aliases included)",
    )


@pytest.mark.parametrize("innermost", ["", "a"])
def test_depth_limit_without_aliases_holds_to_the_level(tmp_path: Path, innermost: str) -> None:
    def nested(levels: int) -> str:
        return review("title: t", "x: " + "[" * levels + innermost + "]" * levels)

    # `x`'s value is at depth 1: MAX_DEPTH lists reach depth MAX_DEPTH, and a scalar in them one more.
    fits = MAX_DEPTH - (1 if innermost else 0)
    [(_, _, message)] = located(load(tmp_path, nested(fits)))
    assert message.startswith("unknown key `x`")
    assert only_problem(load(tmp_path, nested(fits + 1))) == (
        2,
        3 + fits + (2 if innermost else 1),
        f"nested deeper than {MAX_DEPTH} levels",
    )


def test_stars_that_are_not_aliases_and_aliases_that_are(tmp_path: Path) -> None:
    text = review("title: a*b", 'summary: "**bold** `*args` 2 * 3"', "focus:", "  - |-", "    *not an alias*")
    [r] = load(tmp_path, text).reviews
    assert (r.title, r.summary, r.focus[0].text) == ("a*b", "**bold** `*args` 2 * 3", "*not an alias*")
    page = (
        "repo: o/r\nentries:\n"
        "  - {title: one, tags: &t [x, y], verdict: deep, summary: s}\n"
        "  - {title: two, tags: *t, verdict: deep, summary: s, focus: [*t]}\n"
    )
    result = load(tmp_path, page, "page.yaml")
    # An alias is located where its anchor is.
    message = "expected a focus item: text, or a mapping with `text` (a mapping), found a list"
    assert located(result) == [(3, 24, message)]
    assert [(r.title, r.tags) for r in result.reviews] == [("one", ("x", "y"))]


def test_one_control_character_in_long_text_is_still_removed(tmp_path: Path) -> None:
    from tui.core.text import clean, needs_cleaning

    long = "中文" * 5000
    assert clean(long) is long and not needs_cleaning(long)
    assert clean(long + "\x1b[31m" + long + "\u202e.") == long + long + "."
    # Raw in the file (a bidi override; YAML itself refuses raw ESC), or escaped in double quotes.
    raw = review(f"title: {long}\u202e{long}", f"summary: |-\n  {long}\r\n  two")
    [r] = load(tmp_path, raw).reviews
    assert (r.title, r.summary) == (long + long, long + "\ntwo")
    escaped = review(f"title: {long}", f'summary: "{long}\\e[2J{long}"', "focus: ['a\u2029b']")
    result = load(tmp_path, escaped, "escaped.yaml")
    assert [p.message for p in result.problems] == []
    [r] = result.reviews
    assert (r.title, r.summary, r.focus[0].text) == (long, long + long, "a\nb")


@pytest.mark.parametrize(
    ("separator", "crlf", "breaks"),
    [("\u2028", False, 0), ("\u2029", False, 0), ("\x85", True, 0), ("\r", False, 1), ("\r\n", False, 1)],
)
def test_reviews_are_located_as_editors_count_lines(
    tmp_path: Path, separator: str, crlf: bool, breaks: int
) -> None:
    # libyaml counts NEL, LS and PS as line breaks; editors count CR, LF and CR LF only.
    page = f'repo: o/r\nentries:\n  - title: "one{separator}two"\n    tags: [a]\n    verdict: deep\n'
    page += "    summary: s\n  - title: t\n    tags: [a]\n    verdict: deep\n    summary: s\n    url: nope\n"
    result = load(tmp_path, page.replace("\n", "\r\n") if crlf else page)
    assert [r.location.line for r in result.reviews] == [3]
    assert located(result) == [(11 + breaks, 10, "`url` must start with https:// or http://")]


def test_text_per_review_counts_items_refs_and_ids(tmp_path: Path) -> None:
    from tui.load.parse import MAX_REVIEW_CHARS

    items = "focus:\n  - text: abc\n    refs: [r1, ' r22 ']\n    id: ' i '\n  - d\nactions: [ef]\n"
    counted = len("t" + "o/r" + "a" + "deep" + "s" + "abc" + "r1" + "r22" + "i" + "d" + "ef")
    fill = "x" * (MAX_REVIEW_CHARS - counted)
    ok = f"title: t\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s{fill}\n{items}"
    assert load(tmp_path, ok).problems == []
    over = ok.replace("summary: s", "summary: ss")
    assert only_problem(load(tmp_path, over, "over.yaml")) == (
        1,
        1,
        f"review holds {MAX_REVIEW_CHARS + 1:,} characters of text, more than {MAX_REVIEW_CHARS:,}",
    )


def test_a_file_within_the_limits_can_hold_refs(tmp_path: Path) -> None:
    from tui.load.parse import _DEEPEST

    assert _DEEPEST <= MAX_DEPTH
    text = "repo: o/r\nentries:\n  - " + review("title: t", "focus: [{text: x, refs: [r]}]").replace(
        "\n", "\n    "
    )
    [r] = load(tmp_path, text).reviews
    assert r.focus[0].refs == ("r",)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("---", (1, 4, "expected a review or a page with `entries:` (a mapping), found ''")),
        (review("title: t") + "url:", (6, 5, "`url` is empty")),
        (review("title: t") + "focus:\n  -", (7, 4, "`focus` is empty")),
    ],
)
def test_an_empty_value_at_the_end_of_the_file_is_located_there(
    tmp_path: Path, text: str, problem: tuple[int, int, str]
) -> None:
    # libyaml starts a line of its own at the end of the text; editors do not.
    assert located(load(tmp_path, text)) == [problem]
