"""Views, mutes, read_on_open and notify: the config's checking and the core's filtering."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tui.core.filters import has_unchecked
from tui.core.model import Library, Location, Review
from tui.core.news import news
from tui.core.search import SearchIndex
from tui.core.views import View, in_view, is_muted, unknown_names, unmuted
from tui.store import config, known


def review(
    title: str, tags: tuple[str, ...], verdict: str = "deep", repo: str = "o/r", pr: int | None = None
):
    return Review(title, repo, verdict, f"summary of {title}", tags, Location(Path("x.yaml"), 1, 1), pr=pr)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_view_admits_any_of_its_tags_and_its_verdicts_and_repos() -> None:
    view = View(
        "v", tags=frozenset({"rocm", "kernels"}), verdicts=frozenset({"deep"}), repos=frozenset({"o/r"})
    )
    assert view.admits(review("a", ("rocm",)))
    assert view.admits(review("b", ("kernels", "x")))
    assert not view.admits(review("c", ("x",)))
    assert not view.admits(review("d", ("rocm",), verdict="skim"))
    assert not view.admits(review("e", ("rocm",), repo="other/repo"))
    assert View("all").admits(review("f", ()))


def test_in_view_applies_marks_search_and_mutes() -> None:
    reviews = [review("alpha", ("rocm",)), review("beta", ("rocm", "ci")), review("gamma", ("rocm",))]
    read = {reviews[0].key}
    view = View("v", tags=frozenset({"rocm"}), unread=True)
    listed = in_view(
        reviews,
        view,
        mute=frozenset({"ci"}),
        is_read=read.__contains__,
        has_unchecked=lambda r: has_unchecked(r, frozenset()),
        index=SearchIndex(),
    )
    assert [r.title for r in listed] == ["gamma"]
    searched = in_view(
        reviews,
        View("s", search="beta"),
        is_read=lambda key: False,
        has_unchecked=lambda r: True,
        index=SearchIndex(),
    )
    assert [r.title for r in searched] == ["beta"]


def test_muted_reviews_leave_every_count_but_stay_under_their_tag() -> None:
    reviews = [review("a", ("ci",)), review("b", ("x",))]
    assert is_muted(reviews[0], frozenset({"ci"})) and not is_muted(reviews[1], frozenset({"ci"}))
    assert [r.title for r in unmuted(reviews, frozenset({"ci"}))] == ["b"]
    library = Library.build({Path("x.yaml"): reviews})
    assert [r.title for r in library.under("ci")] == ["a"]  # the tag still lists it


def test_views_mute_read_on_open_and_notify_are_read(tmp_path: Path) -> None:
    program = tmp_path / "notify.sh"
    program.write_text("#!/bin/sh\ncat >/dev/null\n")
    program.chmod(0o755)
    path = write(
        tmp_path,
        "views:\n"
        "  rocm-deep: {tags: [rocm, '#kernels'], verdict: [deep], unread: true}\n"
        "  mine: {repos: o/r, unchecked: true, search: cuda graph}\n"
        "mute: [ci, docs]\n"
        "read_on_open: [skip, skim]\n"
        f"notify: [{program}, '{{count}} new']\n",
    )
    loaded = config.load(path)
    assert loaded.warnings == []
    assert loaded.views["rocm-deep"] == View(
        "rocm-deep", tags=frozenset({"rocm", "kernels"}), verdicts=frozenset({"deep"}), unread=True
    )
    assert loaded.views["mine"] == View("mine", repos=frozenset({"o/r"}), unchecked=True, search="cuda graph")
    assert list(loaded.views) == ["rocm-deep", "mine"]  # the file's order: 1, 2, ...
    assert loaded.mute == {"ci", "docs"}
    assert loaded.read_on_open == {"skip", "skim"}
    assert loaded.notify == (str(program), "{count} new")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("views: [a, b]\n", "`views` must be a mapping of view names to filters, found a list"),
        ("views:\n  v: 3\n", "`views.v` must be a mapping of filters"),
        ("views:\n  v: {tags: 3}\n", "`views.v.tags` must be a list of names, found a number"),
        ("views:\n  v: {unread: yes please}\n", "`views.v.unread` must be true or false, found a string"),
        ("views:\n  v: {verdict: [deep, great]}\n", "`views.v.verdict`: unknown verdict `great`"),
        ("views:\n  v: {colour: red}\n", "unknown key `views.v.colour`"),
        ("views:\n  v: {search: [a]}\n", "`views.v.search` must be a string, found a list"),
        ("mute: {a: 1}\n", "`mute` must be a list of names"),
        ("mute: [a, 3]\n", "`mute` must be a list of names"),
        ("read_on_open: [never]\n", "`read_on_open`: unknown verdict `never`"),
        ("read_on_open: true\n", "`read_on_open` must be a list of names, found a boolean"),
        ("notify: notify-send hello\n", "`notify` must be a program and its arguments, as a list of strings"),
        ("notify: []\n", "`notify` must be a program and its arguments"),
        ("notify: ['', x]\n", "`notify` must be a program and its arguments"),
        ("notify: [no-such-program-here-xyz]\n", "`no-such-program-here-xyz` is not found"),
    ],
)
def test_each_bad_setting_is_one_warning_naming_file_and_key(
    tmp_path: Path, text: str, expected: str
) -> None:
    path = write(tmp_path, text + "keymap: {search: ctrl+f}\n")
    loaded = config.load(path)
    assert len(loaded.warnings) == 1, loaded.warnings
    assert loaded.warnings[0].startswith(f"{path}: ")
    assert expected in loaded.warnings[0]
    assert loaded.keymap == {"search": "ctrl+f"}  # the rest still applies


def test_a_view_with_one_bad_field_keeps_the_others(tmp_path: Path) -> None:
    loaded = config.load(write(tmp_path, "views:\n  v: {tags: [a], verdict: [deep, nope], unread: 1}\n"))
    assert len(loaded.warnings) == 2
    assert loaded.views["v"] == View("v", tags=frozenset({"a"}), verdicts=frozenset({"deep"}))


def test_a_fifo_or_a_folder_as_the_notify_program_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "prog"
    os.mkfifo(fifo)
    loaded = config.load(write(tmp_path, f"notify: [{fifo}]\n"))
    assert loaded.notify == () and "is not a regular file" in loaded.warnings[0]
    folder = tmp_path / "dir"
    folder.mkdir()
    loaded = config.load(write(tmp_path, f"notify: [{folder}]\n"))
    assert loaded.notify == () and "is not a regular file" in loaded.warnings[0]
    plain = tmp_path / "plain"
    plain.write_text("#!/bin/sh\n")
    plain.chmod(stat.S_IRUSR | stat.S_IWUSR)
    loaded = config.load(write(tmp_path, f"notify: [{plain}]\n"))
    assert loaded.notify == () and "is not executable" in loaded.warnings[0]


def test_views_naming_tags_no_review_has_are_reported_by_view() -> None:
    views = {"v": View("v", tags=frozenset({"rocm", "gone"})), "w": View("w")}
    assert unknown_names(views, ["rocm", "x"]) == [("v", "gone")]


def test_news_is_what_is_new_since_the_last_run_or_updated_since_read(tmp_path: Path) -> None:
    reviews = [review("a", ("x",), pr=1), review("b", ("x",), pr=2), review("c", ("ci",), pr=3)]
    library = Library.build({Path("x.yaml"): reviews})
    record = tmp_path / "known.marshal"
    assert known.load(record) is None
    assert news(library, known=None, updated=lambda r: False) == []  # a first start announces nothing
    assert known.save(record, [reviews[0].key])
    remembered = known.load(record)
    got = news(library, known=remembered, updated=lambda r: r.title == "a", mute=frozenset({"ci"}))
    assert [r.title for r in got] == ["a", "b"]  # a: updated; b: new; c: muted
    only = news(library, known=remembered, updated=lambda r: False, among=[reviews[0].key])
    assert only == []


def test_a_damaged_known_record_counts_as_none(tmp_path: Path) -> None:
    record = tmp_path / "known.marshal"
    record.write_bytes(b"\x00garbage")
    assert known.load(record) is None
