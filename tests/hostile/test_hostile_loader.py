"""Hostile and broken entry files: each loads, or is skipped or refused with a
clear, located reason, and the valid files beside it still load, quickly.

tests/load/test_loader.py covers the YAML-level cases one by one (empty files,
lists at the top, invalid UTF-8, BOMs, UTF-16, CRLF, alias bombs, nesting,
duplicate and non-string keys, `!!python` tags). This file covers the files
themselves (sizes, links, pipes, folders, permissions, names), the limits, and
properties over generated entries.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.deadline import deadline
from tests.fuzz_loader import (
    HOSTILE_FILES,
    VALID,
    hostile_review,
    review_texts,
    stored_text_is_clean,
    unsafe_characters,
    yaml_text,
)
from tests.peak_memory import peak_memory
from tests.privileges import unprivileged
from tui.cli import main as cli_main
from tui.core.text import clean
from tui.load.discover import plan_reload
from tui.load.parse import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_ITEMS,
    MAX_NODES,
    MAX_REFS,
    MAX_REVIEW_CHARS,
    MAX_REVIEWS,
    MAX_TAGS,
    MAX_TEXT_CHARS,
    discover,
    load_file,
    load_paths,
)

LOADER_SETTINGS = settings(
    max_examples=150,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example],
)


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def valid(path: Path, title: str | None = None) -> Path:
    return write(path, VALID.format(title=title or path.stem))


@pytest.fixture
def public_dir() -> Iterator[Path]:
    """A folder `nobody` may enter (pytest's tmp_path is private to root)."""
    folder = Path(tempfile.mkdtemp(prefix="prdigest-hostile-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def messages(result) -> dict[str, list[str]]:
    """Problems by file name: {name: [message, ...]}."""
    out: dict[str, list[str]] = {}
    for problem in result.all_problems():
        out.setdefault(problem.location.path.name, []).append(problem.message)
    return out


# -- sizes ------------------------------------------------------------------------------


def test_a_20_mb_file_is_skipped_unread(tmp_path: Path) -> None:
    big = write(tmp_path / "big.yaml", b"title: " + b"x" * (20 * 1024 * 1024) + b"\n")
    with peak_memory() as peak:
        result = load_file(big)
    assert peak() < 1024 * 1024  # refused on its size, never read
    assert [(p.location.line, p.location.column, p.message) for p in result.problems] == [
        (1, 1, f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB; skipped")
    ]


def test_the_size_limit_is_exact(tmp_path: Path) -> None:
    at_limit = write(tmp_path / "at.yaml", b"#" * (MAX_FILE_BYTES - 1) + b"\n")
    over = write(tmp_path / "over.yaml", b"#" * MAX_FILE_BYTES + b"\n")
    assert [p.message for p in load_file(at_limit).problems] == [
        "empty file: expected a review or a list under `entries:`"
    ]
    assert [p.message for p in load_file(over).problems] == ["file is larger than 8 MB; skipped"]


# -- links ------------------------------------------------------------------------------


def test_symlink_loops_are_reported_and_do_not_hang(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    valid(folder / "ok.yaml")
    (folder / "a.yaml").symlink_to("b.yaml")
    (folder / "b.yaml").symlink_to("a.yaml")
    (folder / "self.yaml").symlink_to("self.yaml")
    (folder / "sub").mkdir()
    (folder / "sub" / "up").symlink_to("..")  # a folder loop: links to folders are not followed
    valid(folder / "sub" / "inner.yaml")
    with deadline(5):
        result = load_paths([folder])
    assert sorted(r.title for r in result.reviews) == ["inner", "ok"]
    loop = "cannot read: Too many levels of symbolic links"
    assert messages(result) == {"a.yaml": [loop], "b.yaml": [loop], "self.yaml": [loop]}


def test_a_symlink_out_of_the_folder_is_skipped_and_never_read(tmp_path: Path) -> None:
    """A shared digest must not make the reader, or `check` in someone's CI,
    read and quote files outside it (`~/.ssh/...`, `/etc/...`)."""
    outside = tmp_path / "private"
    secret = write(outside / "secret.yaml", "token-1234567890\n")  # would be quoted in a problem
    valid(outside / "review.yaml", "not yours")
    folder = tmp_path / "entries"
    valid(folder / "ok.yaml")
    (folder / "leak.yaml").symlink_to(secret)
    (folder / "other.yaml").symlink_to(Path("..") / "private" / "review.yaml")
    (folder / "inside.yaml").symlink_to("ok.yaml")  # stays inside: read (a duplicate review)
    result = load_paths([folder])
    assert sorted(r.title for r in result.reviews) == ["ok", "ok"]
    found = messages(result)
    assert found["leak.yaml"] == [
        f"symbolic link to {secret}, outside the folder {folder.resolve()}; skipped"
    ]
    assert found["other.yaml"][0].startswith("symbolic link to ")
    assert set(found) == {"leak.yaml", "other.yaml"}
    assert not any("token" in str(p) for p in result.all_problems())
    # Named on the command line, a link is the user's own choice: it is read.
    assert [r.title for r in load_paths([folder / "other.yaml"]).reviews] == ["not yours"]


def test_a_link_out_of_the_folder_is_refused_on_reload_too(tmp_path: Path) -> None:
    outside = valid(tmp_path / "private" / "review.yaml", "not yours")
    folder = tmp_path / "entries"
    ok = valid(folder / "ok.yaml")
    link = folder / "new.yaml"
    link.symlink_to(outside)
    load, drop = plan_reload([link, ok], [folder], [], known=[ok])
    assert (load, drop) == ([ok], [])
    # A known file replaced by such a link is dropped, not read.
    ok.unlink()
    ok.symlink_to(outside)
    assert plan_reload([ok], [folder], [], known=[ok]) == ([], [ok])


def test_reload_follows_the_same_rules_as_start_up(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    ok = valid(folder / "ok.yaml")
    hidden = valid(folder / ".git" / "x.yaml")
    linked_dir = folder / "linked"
    linked_dir.symlink_to(tmp_path / "elsewhere", target_is_directory=True)
    valid(tmp_path / "elsewhere" / "y.yaml")
    named = valid(folder / "bad\x1bname.yaml")
    changed = [ok, hidden, hidden.parent, linked_dir, linked_dir / "y.yaml", named]
    assert plan_reload(changed, [folder], [], known=[]) == ([ok], [])
    files, _ = discover([folder])
    assert files == [ok]


# -- things that are not regular files ---------------------------------------------------


def test_a_fifo_named_like_an_entry_is_never_opened(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    valid(folder / "ok.yaml")
    fifo = folder / "x.yaml"
    os.mkfifo(fifo)
    with deadline(5):  # a blocking open would wait for a writer for ever
        result = load_paths([folder])
        single = load_file(fifo)
    assert [r.title for r in result.reviews] == ["ok"]
    assert messages(result) == {"x.yaml": ["not a regular file; skipped"]}
    assert [p.message for p in single.problems] == ["not a regular file; skipped"]
    # Nobody holds the read end: opening the write end without blocking fails.
    with pytest.raises(OSError) as raised:
        os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    assert raised.value.errno == errno.ENXIO


def test_a_folder_named_like_an_entry_is_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    valid(folder / "ok.yaml")
    valid(folder / "x.yaml" / "inner.yaml")
    result = load_paths([folder])
    assert sorted(r.title for r in result.reviews) == ["inner", "ok"]
    assert result.all_problems() == []
    assert [r.title for r in load_paths([folder / "x.yaml"]).reviews] == ["inner"]


def test_devices_are_not_read(tmp_path: Path) -> None:
    with deadline(5):
        result = load_file(Path("/dev/zero"))  # read it and it never ends
    assert [p.message for p in result.problems] == ["not a regular file; skipped"]


# -- permissions -------------------------------------------------------------------------


def test_an_unreadable_file_is_reported_and_the_rest_load(public_dir: Path) -> None:
    folder = public_dir / "entries"
    folder.mkdir(mode=0o755)
    valid(folder / "ok.yaml").chmod(0o644)
    valid(folder / "locked.yaml").chmod(0o000)
    (folder / "gone.yaml").symlink_to("nothing-here.yaml")  # dangling: unreadable for root too
    closed = folder / "closed"
    closed.mkdir(mode=0o000)
    with unprivileged():
        result = load_paths([folder])
    assert [r.title for r in result.reviews] == ["ok"]
    found = messages(result)
    assert found.pop("locked.yaml") == ["cannot read: Permission denied"]
    assert found.pop("gone.yaml") == ["cannot read: No such file or directory"]
    assert found == {"closed": ["cannot read folder: Permission denied"]}


def test_a_file_even_root_cannot_read() -> None:
    # Reading /proc/self/mem at offset 0 fails with EIO whoever you are.
    path = Path("/proc/self/mem")
    if not path.exists():
        pytest.skip("no /proc")
    result = load_file(path)
    assert [p.message for p in result.problems] == ["cannot read: Input/output error"]


# -- names -----------------------------------------------------------------------------------


def test_file_and_folder_names_with_control_characters_are_skipped(tmp_path: Path) -> None:
    # A name is shown in every problem about its file; one holding ESC would
    # reach the terminal. Such files are skipped, reported at their folder.
    folder = tmp_path / "entries"
    valid(folder / "ok.yaml")
    valid(folder / "red\x1b[31m.yaml")
    valid(folder / "two\nlines.yaml")
    valid(folder / "rtl\u202egnp.yaml")
    valid(folder / "dir\x07bell" / "inner.yaml")
    result = load_paths([folder])
    assert [r.title for r in result.reviews] == ["ok"]
    problems = [str(p) for p in result.all_problems()]
    assert sorted(problems) == sorted(
        [
            f"{folder}:1:1: file 'red\\x1b[31m.yaml' skipped: its name has control characters",
            f"{folder}:1:1: file 'two\\nlines.yaml' skipped: its name has control characters",
            f"{folder}:1:1: file 'rtl\\u202egnp.yaml' skipped: its name has control characters",
            f"{folder}:1:1: folder 'dir\\x07bell' skipped: its name has control characters",
        ]
    )
    assert not any(unsafe_characters(p) for p in problems)


# -- limits ------------------------------------------------------------------------------------


def test_reviews_per_file_are_limited(tmp_path: Path) -> None:
    lines = ["entries:"] + [
        f"  - {{title: t{n}, repo: o/r, tags: [a], verdict: deep, summary: s}}"
        for n in range(MAX_REVIEWS + 1)
    ]
    result = load_file(write(tmp_path / "many.yaml", "\n".join(lines) + "\n"))
    assert len(result.reviews) == MAX_REVIEWS
    assert [(p.location.line, p.location.column, p.message) for p in result.problems] == [
        (MAX_REVIEWS + 2, 5, f"more than {MAX_REVIEWS:,} reviews in one file; the rest are skipped")
    ]


@pytest.mark.parametrize(
    ("section", "limit", "line", "message"),
    [
        ("focus", MAX_ITEMS, "  - item {n}", f"`focus` has more than {MAX_ITEMS:,} items"),
        ("caveats", MAX_ITEMS, "  - item {n}", f"`caveats` has more than {MAX_ITEMS:,} items"),
        ("tags", MAX_TAGS, "  - tag{n}", f"`tags` has more than {MAX_TAGS:,} tags"),
    ],
)
def test_lists_in_a_review_are_limited(
    tmp_path: Path, section: str, limit: int, line: str, message: str
) -> None:
    head = "title: t\nrepo: o/r\nverdict: deep\nsummary: s\n" + ("tags: [a]\n" if section != "tags" else "")
    body = f"{section}:\n" + "".join(line.format(n=n) + "\n" for n in range(limit + 1))
    header_lines = head.count("\n") + 1
    at_limit = load_file(write(tmp_path / "ok.yaml", head + body.rsplit("  - ", 1)[0]))
    assert at_limit.problems == [] and len(at_limit.reviews) == 1
    over = load_file(write(tmp_path / "over.yaml", head + body))
    assert [(p.location.line, p.message) for p in over.problems] == [(header_lines + limit + 1, message)]
    assert over.reviews == []


def test_refs_per_item_are_limited(tmp_path: Path) -> None:
    refs = ", ".join(f"r{n}" for n in range(MAX_REFS + 1))
    text = VALID.format(title="t") + f"focus:\n  - text: x\n    refs: [{refs}]\n"
    [problem] = load_file(write(tmp_path / "refs.yaml", text)).problems
    assert problem.message == f"`refs` has more than {MAX_REFS:,} refs"
    column = text.splitlines()[7].index(f"r{MAX_REFS}") + 1
    assert (problem.location.line, problem.location.column) == (8, column)


def test_text_per_review_is_limited(tmp_path: Path) -> None:
    fits = "x" * (MAX_REVIEW_CHARS - len("t" + "o/r" + "a" + "deep" + "s"))
    ok = VALID.format(title="t").replace("summary: s", f"summary: s{fits}")
    assert load_file(write(tmp_path / "ok.yaml", ok)).problems == []
    over = ok.replace("summary: s", "summary: ss")
    [problem] = load_file(write(tmp_path / "over.yaml", over)).problems
    assert (problem.location.line, problem.location.column) == (1, 1)
    assert (
        problem.message
        == f"review holds {MAX_REVIEW_CHARS + 1:,} characters of text, more than {MAX_REVIEW_CHARS:,}"
    )


def test_aliases_cannot_multiply_text(tmp_path: Path) -> None:
    # 20 aliases of a 1 MB string: few nodes, but 20 MB of text to lay out.
    big = "x" * (1024 * 1024)
    text = f"title: &a {big}\nrepo: o/r\ntags: [a]\nverdict: deep\nsummary: s\nfocus: [{', '.join(['*a'] * 20)}]\n"
    with peak_memory() as peak:
        [problem] = load_file(write(tmp_path / "bomb.yaml", text)).problems
    assert peak() < 20 * len(big) / 2  # stopped well before the aliases' 20 MB were laid out
    assert problem.message == f"more than {MAX_TEXT_CHARS:,} characters of text (aliases included)"


# -- positions ---------------------------------------------------------------------------------


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_problems_are_located_as_editors_count_lines(tmp_path: Path, separator: str) -> None:
    # libyaml counts NEL, LS and PS as line breaks; editors and grep do not.
    text = f'summary: "one{separator}  two"\nrepo: o/r\ntags: [a\nverdict: deep\n'
    [problem] = load_file(write(tmp_path / "x.yaml", text)).problems
    assert (problem.location.line, problem.location.column) == (4, 8)
    assert problem.message.startswith("invalid YAML: ")


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_values_are_located_as_editors_count_lines(tmp_path: Path, separator: str) -> None:
    text = f'summary: "one{separator}  two"\ntitle: t\nrepo: o/r\ntags: [a]\nverdict: maybe\n'
    [problem] = load_file(write(tmp_path / "x.yaml", text)).problems
    assert (problem.location.line, problem.location.column) == (5, 10)
    assert problem.message.startswith("`verdict` must be one of")


def test_lone_carriage_returns_break_lines(tmp_path: Path) -> None:
    text = "title: t\rrepo: o/r\rtags: [a\rverdict: deep\r"
    [problem] = load_file(write(tmp_path / "x.yaml", text)).problems
    assert (problem.location.line, problem.location.column) == (4, 8)


def test_line_separators_in_text_become_line_breaks(tmp_path: Path) -> None:
    text = VALID.format(title="t").replace("summary: s", 'summary: "a\\Lb\\Pc\\Nd"')
    [review] = load_file(write(tmp_path / "x.yaml", text)).reviews
    assert review.summary == "a\nb\nc\nd"


def test_a_bug_in_the_loader_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    class Exploding(type(tmp_path)):  # a path that fails in a way nothing expects
        def __fspath__(self) -> str:
            raise RuntimeError("boom")

    path = Exploding(tmp_path / "x.yaml")
    result = load_file(path)
    assert [(p.location.path, p.message) for p in result.problems] == [
        (path, "internal error while reading this file (RuntimeError: boom); please report it")
    ]


# -- messages quote the file safely -----------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        "title: !<%1b%5b31m> x",  # a tag with an escaped ESC in it
        "title: !<%1b]0;pwned%07> x",
        '"key\\e[2J\\nwith lines": x',
        'verdict: "\\e[31mdeepish\\u202e"',
        'repo: "o/r/\\e]0;t\\a"',
        'title: "\\e[31m\\L\\t"',
    ],
)
def test_problem_messages_hold_no_control_characters(tmp_path: Path, line: str) -> None:
    text = (
        line
        + "\n"
        + "\n".join(
            part for part in VALID.format(title="t").splitlines() if part.split(":")[0] != line.split(":")[0]
        )
    )
    result = load_file(write(tmp_path / "x.yaml", text + "\n"))
    assert result.problems
    for problem in result.problems:
        assert not unsafe_characters(problem.message), ascii(problem.message)
        assert problem.message.startswith(("`", "unknown key", "missing"))


# -- a folder of everything ----------------------------------------------------------------------


def test_a_folder_of_hostile_files_beside_valid_ones(tmp_path: Path) -> None:
    folder = tmp_path / "entries"
    for name, data in HOSTILE_FILES.items():
        write(folder / name, data)
    for n in range(20):
        valid(folder / f"valid-{n:02}.yaml")
    (folder / "loop.yaml").symlink_to("loop.yaml")
    (folder / "out.yaml").symlink_to("/etc/hostname")
    (folder / "gone.yaml").symlink_to("missing.yaml")
    os.mkfifo(folder / "fifo.yaml")
    valid(folder / "dir.yaml" / "in-a-folder.yaml")
    valid(folder / "esc\x1b.yaml")
    with deadline(10):
        result = load_paths([folder])
    titles = sorted(r.title for r in result.reviews)
    assert titles == sorted([f"valid-{n:02}" for n in range(20)] + ["bom", "crlf", "in-a-folder", "utf16"])
    found = messages(result)
    assert set(found) == {
        *(set(HOSTILE_FILES) - {"bom.yaml", "utf16.yaml", "crlf.yaml"}),
        "loop.yaml",
        "out.yaml",
        "gone.yaml",
        "fifo.yaml",
        "entries",  # the file whose name holds ESC, reported at its folder
    }
    for problem in result.all_problems():
        assert problem.location.line >= 1 and problem.location.column >= 1
        assert not unsafe_characters(str(problem)), ascii(str(problem))
        assert not problem.message.startswith("internal error")
    assert not (folder / "PWNED").exists() and not Path("PWNED").exists()


def test_check_prints_hostile_problems_safely(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "entries"
    for name, data in HOSTILE_FILES.items():
        write(folder / name, data)
    write(folder / "esc.yaml", 'title: "\\e]0;pwned\\a"\n"k\\e[31m": 1\n')
    assert cli_main(["check", str(folder)]) == 1
    out, err = capsys.readouterr()
    assert len(out.splitlines()) >= len(HOSTILE_FILES)
    for line in out.splitlines():
        assert line.startswith(str(folder))
        assert not unsafe_characters(line), ascii(line)
    assert not unsafe_characters(err.replace("\n", ""))


# -- properties -----------------------------------------------------------------------------------


@LOADER_SETTINGS
@given(review=hostile_review(), page=st.booleans())
def test_any_entry_loads_or_gets_a_located_problem(review: dict, page: bool) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.yaml"
        text = yaml_text({"entries": [review]} if page else review)
        path.write_text(text, encoding="utf-8")
        result = load_file(path)  # never raises
        assert result.reviews or result.problems
        lines = text.count("\n") + 1
        for problem in result.problems:
            assert problem.location.path == path
            assert 1 <= problem.location.line <= lines and problem.location.column >= 1
            assert not unsafe_characters(problem.message), ascii(problem.message)
            assert not problem.message.startswith("internal error")
        for loaded in result.reviews:
            assert all(stored_text_is_clean(text) for text in review_texts(loaded))


@LOADER_SETTINGS
@given(review=hostile_review(valid_shape=True))
def test_text_is_kept_as_written_less_control_characters(review: dict) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.yaml"
        path.write_text(yaml_text(review), encoding="utf-8")
        result = load_file(path)
        if len(result.reviews) != 1:  # e.g. two items with the same id
            assert result.problems
            return
        [loaded] = result.reviews
        assert loaded.title == clean(review["title"]).strip("\n")
        assert loaded.summary == clean(review["summary"]).strip("\n")
        assert loaded.tags == tuple(dict.fromkeys(" ".join(clean(t).split()) for t in review["tags"]))
        for section in ("focus", "read_order", "actions", "caveats"):
            written = [i if isinstance(i, str) else i["text"] for i in review.get(section, [])]
            assert [i.text for i in loaded.items(section)] == [clean(t).strip("\n") for t in written]


DANGEROUS_TAGS = [
    "!!python/object/apply:os.system",
    "!!python/object/new:os.system",
    "!!python/object:tui.model.Item",
    "!!python/name:os.system",
    "!!python/module:os",
    "!!python/tuple",
    "!!binary",
    "!!set",
    "!!omap",
    "!!timestamp",
    "!custom",
    "!<tag:yaml.org,2002:python/object/apply:subprocess.call>",
]


@settings(max_examples=120, deadline=None, database=None)
@given(
    tag=st.sampled_from(DANGEROUS_TAGS),
    field=st.sampled_from(["title", "summary", "tags", "focus", "entries", "root", "key", "refs"]),
    shape=st.sampled_from(["scalar", "list", "mapping"]),
)
def test_no_tag_constructs_anything_or_runs_code(tag: str, field: str, shape: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        marker = Path(folder) / "PWNED"
        value = {
            "scalar": f"{tag} 'touch {marker}'",
            "list": f"{tag} ['touch {marker}']",
            "mapping": f"{tag} {{args: ['touch {marker}'], state: {{x: 1}}}}",
        }[shape]
        lines = dict(
            title="title: t",
            repo="repo: o/r",
            tags="tags: [a]",
            verdict="verdict: deep",
            summary="summary: s",
        )
        if field in lines:
            lines[field] = f"{field}: {value}"
            text = "\n".join(lines.values())
        elif field == "focus":
            text = "\n".join(lines.values()) + f"\nfocus:\n  - {value}"
        elif field == "refs":
            text = "\n".join(lines.values()) + f"\nfocus:\n  - text: x\n    refs: {value}"
        elif field == "entries":
            text = f"repo: o/r\nentries: {value}"
        elif field == "key":
            text = "\n".join(lines.values()) + f"\n{tag} k: v"
        else:
            text = value
        path = Path(folder) / "x.yaml"
        path.write_text(text + "\n", encoding="utf-8")
        result = load_file(path)
        assert not marker.exists()
        for loaded in result.reviews:
            for text_value in review_texts(loaded):
                assert type(text_value) is str
        assert result.problems or result.reviews
        assert all(not p.message.startswith("internal error") for p in result.problems)


def test_unprivileged_really_drops_privileges() -> None:
    # The permission tests rely on it.
    if os.geteuid() != 0:
        pytest.skip("not root")
    with tempfile.NamedTemporaryFile() as handle:
        os.chmod(handle.name, 0)
        with unprivileged(), pytest.raises(PermissionError):
            Path(handle.name).read_bytes()
    assert os.geteuid() == 0


# -- the limits are documented with the numbers in the code ---------------------------------------

LIMITS = {
    "MAX_FILE_BYTES": MAX_FILE_BYTES,
    "MAX_NODES": MAX_NODES,
    "MAX_TEXT_CHARS": MAX_TEXT_CHARS,
    "MAX_DEPTH": MAX_DEPTH,
    "MAX_REVIEWS": MAX_REVIEWS,
    "MAX_ITEMS": MAX_ITEMS,
    "MAX_TAGS": MAX_TAGS,
    "MAX_REFS": MAX_REFS,
    "MAX_REVIEW_CHARS": MAX_REVIEW_CHARS,
}
ROOT = Path(__file__).resolve().parents[2]


def test_every_limit_is_documented_with_its_value() -> None:
    reference = (ROOT / "docs" / "entry-format.md").read_text(encoding="utf-8")
    rows = {line for line in reference.splitlines() if line.startswith("|")}
    for name, value in LIMITS.items():
        [row] = [row for row in rows if f"(`{name}`)" in row]
        assert f"{value:,}" in row, (name, row)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Guarantees and limits", 1)[1].split("\n## ", 1)[0]
    for name, value in LIMITS.items():
        assert f"| {value:,} |" in section or f"({value:,} bytes)" in section, name
