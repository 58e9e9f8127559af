"""`status`'s own files in the cache folder: the summary of the entry files
(`tui.load.status_summary`) and the copy of the marks (`tui.store.marks_copy`).
They are reused while what they were made of is unchanged, never trusted when
it changed, of another version or damaged, and the answer is always the one
the whole library gives."""

from __future__ import annotations

import marshal
import os
from pathlib import Path

import pytest

from tests.app_helpers import write_review
from tests.cli_helpers import run_tui
from tui import status
from tui.core.changes import fingerprint
from tui.core.filters import has_unchecked
from tui.core.marks import changes, checked_items
from tui.core.search import SearchIndex
from tui.load import status_summary
from tui.load.cache import ParseCache
from tui.load.journal import parse_files
from tui.load.library import load_library
from tui.status_command import main
from tui.store import kept_copy, marks_copy
from tui.store.config import load as load_config
from tui.store.state import ReadState

FORMAT = "{unread} {total} {updated} {deep} {view:rocm} {view:beta} {view:deep}"
CONFIG = """views:
  rocm: {tags: [rocm]}
  beta: {repos: [o/beta], unread: true}
  deep: {verdict: [deep]}
mute: [ci]
"""


@pytest.fixture
def dirs(isolated_dirs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    """Copies may be made of files written a moment ago (a test cannot wait 2 s)."""
    monkeypatch.setattr(kept_copy, "RACY_NS", 0)
    config = isolated_dirs["XDG_CONFIG_HOME"] / "prdigest-tui" / "config.yaml"
    config.parent.mkdir()
    config.write_text(CONFIG, encoding="utf-8")
    return isolated_dirs


def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "entries"
    folder.mkdir()
    write_review(folder / "a.yaml", "Alpha", tags="[rocm]", extra="pr: 1\nfocus: [one]\n")
    write_review(folder / "b.yaml", "Beta", tags="[rocm, ci]", verdict="skim", extra="pr: 2\n")
    write_review(folder / "c.yaml", "Gamma", tags="[docs]", extra="pr: 3\n")
    write_review(folder / "c2.yaml", "Gamma again", tags="[docs]", extra="pr: 3\n")  # a duplicate key
    (folder / "d.yaml").write_text(
        "repo: o/beta\nentries:\n"
        "  - {title: Delta, pr: 4, tags: [docs], verdict: quick, summary: s}\n"
        "  - {title: No PR, tags: [rocm], verdict: deep, summary: s}\n",
        encoding="utf-8",
    )
    return folder


def cache_folder(dirs: dict[str, Path]) -> Path:
    return dirs["XDG_CACHE_HOME"] / "prdigest-tui"


def state_path(dirs: dict[str, Path]) -> Path:
    path = dirs["XDG_STATE_HOME"] / "prdigest-tui" / "state.json"
    path.parent.mkdir(exist_ok=True)
    return path


def line(folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main([str(folder), "--format", FORMAT]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out.strip()


def from_library(folder: Path, dirs: dict[str, Path]) -> str:
    """The answer of the whole library (no summary, no copy): what `status` must say."""
    config = load_config(dirs["XDG_CONFIG_HOME"] / "prdigest-tui" / "config.yaml", keys=False)
    state = ReadState(state_path(dirs))
    state.load()
    library = load_library([folder], ParseCache(None))
    state.adopt_title_marks(library.reviews)
    counts = status.count(
        library.reviews,
        is_read=state.is_read,
        updated=lambda review: changes(state, review) is not None,
        views=config.views,
        mute=config.mute,
        wanted_views=frozenset(config.views),
        has_unchecked=lambda review: has_unchecked(review, checked_items(state, review)),
        matches=SearchIndex().matches,
    )
    return status.render(FORMAT, counts)


def mark_read(dirs: dict[str, Path], folder: Path, *titles: str, seen: bool = True) -> None:
    state = ReadState(state_path(dirs))
    state.load()
    for review in load_library([folder], ParseCache(None)).reviews:
        if review.title in titles:
            state.set_read(review.key, True)
            if seen:
                state.set_seen(review.key, fingerprint(review))
    state.save()
    assert state.failure is None


def warmed(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str], *titles: str
) -> tuple[Path, str]:
    """The corpus with `titles` read, after the two calls that make the
    summary and the copy; and what `status` said."""
    folder = corpus(tmp_path)
    mark_read(dirs, folder, *titles)
    expected = line(folder, capsys)
    line(folder, capsys)
    return folder, expected


def edit(path: Path, old: str, new: str) -> None:
    path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")


def test_warm_calls_answer_from_the_summary_and_the_copy_as_the_library_does(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = corpus(tmp_path)
    mark_read(dirs, folder, "Alpha", "Delta")
    expected = from_library(folder, dirs)
    assert expected == "2 4 0 2 1 1 2"  # Beta muted, "Gamma again" a duplicate
    assert line(folder, capsys) == expected  # parsed: the parse cache written
    assert line(folder, capsys) == expected  # the summary and the copy made
    assert {p.name for p in cache_folder(dirs).iterdir()} >= {
        "status-summary.marshal",
        "status-marks.marshal",
    }
    (cache_folder(dirs) / "parse-cache.marshal").unlink()
    assert line(folder, capsys) == expected  # the summary alone: no parse cache read


def test_nothing_is_written_but_in_the_cache_folder(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = corpus(tmp_path)
    mark_read(dirs, folder, "Alpha")

    def listing() -> dict[str, int]:
        return {
            str(p): p.stat().st_mtime_ns
            for p in tmp_path.rglob("*")
            if p.is_file() and cache_folder(dirs) not in p.parents
        }

    before = listing()
    for _ in range(3):
        line(folder, capsys)
    assert listing() == before


def test_an_edited_entry_file_changes_the_answer(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = corpus(tmp_path)
    mark_read(dirs, folder, "Alpha")
    line(folder, capsys)
    line(folder, capsys)
    summary = cache_folder(dirs) / "status-summary.marshal"
    made = summary.stat().st_mtime_ns
    edit(folder / "c.yaml", "verdict: deep", "verdict: skim")  # a deep read less
    assert line(folder, capsys) == from_library(folder, dirs) == "3 4 0 1 1 2 1"
    edit(folder / "a.yaml", "focus: [one]", "focus: [one, two]")  # Alpha, read, updated
    assert line(folder, capsys) == from_library(folder, dirs) == "3 4 1 1 1 2 1"
    (folder / "e.yaml").write_text(
        (folder / "c.yaml").read_text().replace("pr: 3", "pr: 5"), encoding="utf-8"
    )
    assert line(folder, capsys) == from_library(folder, dirs) == "4 5 1 1 1 2 1"
    (folder / "d.yaml").unlink()
    assert line(folder, capsys) == from_library(folder, dirs) == "2 3 1 0 0 0 0"
    line(folder, capsys)
    assert summary.stat().st_mtime_ns != made


def test_an_edited_state_file_changes_the_answer(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = corpus(tmp_path)
    mark_read(dirs, folder, "Alpha")
    assert line(folder, capsys) == from_library(folder, dirs) == "3 4 0 2 1 2 2"
    assert line(folder, capsys) == "3 4 0 2 1 2 2"  # from the copy
    mark_read(dirs, folder, "Gamma", "No PR")
    assert line(folder, capsys) == from_library(folder, dirs) == "1 4 0 0 0 1 0"
    assert line(folder, capsys) == "1 4 0 0 0 1 0"
    state_path(dirs).unlink()
    assert line(folder, capsys) == from_library(folder, dirs) == "4 4 0 3 2 2 3"
    # Rewritten in place, the same size: the inode stays, the stamp's times move.
    mark_read(dirs, folder, "Alpha")
    line(folder, capsys)
    assert line(folder, capsys) == "3 4 0 2 1 2 2"
    text = state_path(dirs).read_text(encoding="utf-8")
    assert "true" in text
    with state_path(dirs).open("r+", encoding="utf-8") as handle:
        handle.write(text.replace("true", "false"))
    assert line(folder, capsys) == from_library(folder, dirs) == "4 4 0 3 2 2 3"


def test_a_changed_config_changes_the_answer(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = corpus(tmp_path)
    assert line(folder, capsys) == "4 4 0 3 2 2 3"
    assert line(folder, capsys) == "4 4 0 3 2 2 3"
    config = dirs["XDG_CONFIG_HOME"] / "prdigest-tui" / "config.yaml"
    edit(config, "mute: [ci]", "mute: [docs]")
    assert line(folder, capsys) == from_library(folder, dirs) == "3 3 0 2 3 1 2"


def test_a_read_review_s_digest_is_made_once_from_its_body_and_kept(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """The parse workers make no digest; `status` makes those of read reviews
    only, and the next call finds them in the summary."""
    folder = corpus(tmp_path)
    assert {
        len(raw) for *_, reviews, _ in parse_files([str(p) for p in folder.iterdir()]) for raw in reviews
    } == {9}  # the list fields, the checklist size and the body: no digest column
    mark_read(dirs, folder, "Alpha", "Delta")
    line(folder, capsys)
    line(folder, capsys)
    doc = (cache_folder(dirs) / "status-summary.marshal").read_bytes()
    head = marshal.loads(doc[8 : 8 + int.from_bytes(doc[:8], "little")])
    keys, digests = head[5][0], head[6]
    assert sorted(keys[row] for row in digests) == ["o/beta#4", "o/r#1"]


def test_a_fingerprint_kept_in_another_order_is_compared_in_full_and_the_answer_kept(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = corpus(tmp_path)
    state = ReadState(state_path(dirs))
    for review in load_library([folder], ParseCache(None)).reviews:
        seen = fingerprint(review)
        state.set_read(review.key, True)
        state.set_seen(review.key, {"items": seen["items"], "fields": seen["fields"]})
    state.save()
    assert state.failure is None
    assert line(folder, capsys) == from_library(folder, dirs) == "0 4 0 0 0 0 0"
    assert line(folder, capsys) == "0 4 0 0 0 0 0"
    doc = marshal.loads((cache_folder(dirs) / "status-marks.marshal").read_bytes())
    assert set(doc[5]) == {"o/r#1", "o/r#3", "o/beta#4", "o/beta:No PR", "o/r#2"}
    assert not any(updated for _, updated in doc[5].values())
    assert line(folder, capsys) == "0 4 0 0 0 0 0"


def test_marks_made_under_a_title_key_are_adopted_from_the_copy(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "entries"
    folder.mkdir()
    write_review(folder / "a.yaml", "Alpha", tags="[rocm]")
    mark_read(dirs, folder, "Alpha")
    edit(folder / "a.yaml", "summary: s", "summary: s\npr: 7")
    expected = from_library(folder, dirs)
    assert expected == "0 1 0 0 0 0 0"
    assert line(folder, capsys) == expected
    assert line(folder, capsys) == expected
    assert line(folder, capsys) == expected


def test_files_of_another_version_are_ignored(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, expected = warmed(tmp_path, dirs, capsys, "Alpha")
    summary_file = cache_folder(dirs) / "status-summary.marshal"
    copy_file = cache_folder(dirs) / "status-marks.marshal"
    kept_summary, kept_copy = summary_file.read_bytes(), copy_file.read_bytes()
    # The same files, read by another version: what they say is not taken.
    with monkeypatch.context() as other:
        other.setattr(status_summary, "VERSION", status_summary.VERSION + 1)
        other.setattr(marks_copy, "VERSION", marks_copy.VERSION + 1)
        write_lies(summary_file, copy_file)
        assert line(folder, capsys) == expected
    summary_file.write_bytes(kept_summary)
    copy_file.write_bytes(kept_copy)
    assert line(folder, capsys) == expected
    monkeypatch.setattr("tui.__version__", "0.0.0-other")
    write_lies(summary_file, copy_file)
    assert line(folder, capsys) == expected


def write_lies(summary_file: Path, copy_file: Path) -> None:
    """The files as they are, but saying no review is read and none is of `rocm`."""
    doc = summary_file.read_bytes()
    length = int.from_bytes(doc[:8], "little")
    head = list(marshal.loads(doc[8 : 8 + length]))
    columns = list(head[5])
    columns[3] = tuple("none" if tag == "rocm" else tag for tag in columns[3])
    head[5] = tuple(columns)
    body = marshal.dumps(tuple(head))
    summary_file.write_bytes(len(body).to_bytes(8, "little") + body + doc[8 + length :])
    copy = list(marshal.loads(copy_file.read_bytes()))
    copy[1] = frozenset()
    copy_file.write_bytes(marshal.dumps(tuple(copy)))


DAMAGE = [
    lambda data: b"",
    lambda data: data[: len(data) // 2],
    lambda data: data[:8] + b"\xff" * (len(data) - 8),
    lambda data: bytes(reversed(data)),
    lambda data: (10**9).to_bytes(8, "little") + data[8:],
]


@pytest.mark.parametrize("damage", range(len(DAMAGE)))
def test_a_damaged_summary_or_copy_is_a_miss(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str], damage: int
) -> None:
    folder, expected = warmed(tmp_path, dirs, capsys, "Alpha", "No PR")
    for name in ("status-summary.marshal", "status-marks.marshal"):
        path = cache_folder(dirs) / name
        path.write_bytes(DAMAGE[damage](path.read_bytes()))
    assert line(folder, capsys) == expected
    assert line(folder, capsys) == expected


def test_columns_of_the_wrong_types_are_a_miss(
    tmp_path: Path, dirs: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, expected = warmed(tmp_path, dirs, capsys, "Alpha")
    path = cache_folder(dirs) / "status-summary.marshal"
    good = path.read_bytes()
    length = int.from_bytes(good[:8], "little")
    head = marshal.loads(good[8 : 8 + length])
    for column, value in ((4, ("x",) * 5), (5, (99,) * 5), (6, (-1,) * 5), (0, ("k",)), (7, (None,) * 5)):
        columns = list(head[5])
        columns[column] = value
        body = marshal.dumps((*head[:5], tuple(columns), head[6]))
        path.write_bytes(len(body).to_bytes(8, "little") + body + good[8 + length :])
        assert line(folder, capsys) == expected
    body = marshal.dumps(head)
    path.write_bytes(len(body).to_bytes(8, "little") + body + b"garbage")  # the title keys
    assert line(folder, capsys) == expected
    copy = cache_folder(dirs) / "status-marks.marshal"
    kept = marshal.loads(copy.read_bytes())
    copy.write_bytes(marshal.dumps((kept[0], ["o/r#1"], *kept[2:])))
    assert line(folder, capsys) == expected


def test_the_console_command_uses_the_caches_and_says_the_same(tmp_path: Path, dirs: dict[str, Path]) -> None:
    folder = corpus(tmp_path)
    mark_read(dirs, folder, "Alpha", "Delta")
    os.utime(state_path(dirs), ns=(1_000_000_000, 1_000_000_000))
    expected = from_library(folder, dirs)

    def run() -> str:
        done = run_tui("status", str(folder), "--format", FORMAT)
        assert done.returncode == 0 and done.stderr == "", done.stderr
        return done.stdout.strip()

    assert [run(), run(), run()] == [expected] * 3
