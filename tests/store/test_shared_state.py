"""A shared state folder on real files: one file per machine, merged mark by mark,
what sync tools leave behind, and today's guarantees for the folder form."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from tests.cli_helpers import run_tui
from tests.privileges import unprivileged
from tui.core.clock import HybridClock, Stamp
from tui.store import journal, locations
from tui.store.config import load as load_config
from tui.store.machine import Machine, this_machine
from tui.store.shared import SharedState, open_state
from tui.store.shared_scan import read_folder
from tui.store.state import ReadState

REVIEW = "o/r#1"


def machine(folder: Path, name: str, tmp_path: Path, clock: HybridClock | None = None) -> SharedState:
    state = SharedState(
        folder, Machine(name, f"token-{name}"), clock=clock, lock_dir=tmp_path / f"locks-{name}"
    )
    state.load()
    return state


def marks_of(state: ReadState) -> dict[str, object]:
    """Every mark's value, for comparing what two machines show."""
    out: dict[str, object] = {}
    for key, marks in state.reviews.items():
        if marks.read is not None:
            out[f"{key} read"] = marks.read.value
        for item, mark in marks.items.items():
            out[f"{key} {item}"] = mark.value
        if marks.seen is not None:
            out[f"{key} seen"] = marks.seen.fingerprint
    return out


def sync(source: Path, target: Path) -> None:
    """What a sync tool does: every machine's file copied over, by temp file and rename."""
    target.mkdir(parents=True, exist_ok=True)
    for path in source.glob("*.marks"):
        tmp = target / f".syncthing.{path.name}.tmp"
        shutil.copyfile(path, tmp)
        os.replace(tmp, target / path.name)


def test_each_machine_writes_only_its_own_file_and_reads_every_file(tmp_path: Path) -> None:
    a = machine(tmp_path / "A", "laptop", tmp_path)
    b = machine(tmp_path / "B", "desktop", tmp_path)
    a.set_read(REVIEW, True)
    a.set_checked(REVIEW, "focus:x", True, "d1")
    a.save()
    b.set_read("o/r#2", True)
    b.save()
    assert sorted(os.listdir(tmp_path / "A")) == ["laptop.marks"]
    sync(tmp_path / "A", tmp_path / "B")
    sync(tmp_path / "B", tmp_path / "A")
    assert a.take(a.poll()) == {"desktop"}
    assert b.take(b.poll()) == {"laptop"}
    assert marks_of(a) == marks_of(b)
    assert b.is_read(REVIEW) and b.checked(REVIEW) == {"focus:x"} and a.is_read("o/r#2")
    # b's own file holds only b's marks
    lines = (tmp_path / "B" / "desktop.marks").read_text().splitlines()
    assert json.loads(lines[0])["machine"] == "desktop" and len(lines) == 2
    assert sorted(marks_of(machine(tmp_path / "B", "desktop", tmp_path))) == sorted(marks_of(a))


def test_a_save_appends_what_changed(tmp_path: Path) -> None:
    a = machine(tmp_path / "A", "laptop", tmp_path)
    for i in range(50):
        a.set_checked(REVIEW, f"focus:{i}", True)
    a.save()
    own = tmp_path / "A" / "laptop.marks"
    before = own.read_bytes()
    a.set_read(REVIEW, True)
    a.save()
    after = own.read_bytes()
    assert after.startswith(before)  # appended, not rewritten
    assert after[len(before) :].count(b"\n") == 1
    assert not a.unsaved


def test_the_merge_is_the_same_in_any_order_of_arrival(tmp_path: Path) -> None:
    names = ["m1", "m2", "m3"]
    states = {name: machine(tmp_path / name, name, tmp_path, HybridClock(lambda: 1000.0)) for name in names}
    for name, state in states.items():  # the same wall-clock instant everywhere: ids break the tie
        state.set_read(REVIEW, name != "m2")
        state.set_checked(REVIEW, "focus:x", name == "m2")
        state.save()
    results = []
    for order in (names, names[::-1], ["m2", "m3", "m1"]):
        target = tmp_path / ("all-" + "".join(order))
        for name in order:
            sync(tmp_path / name, target)
        results.append(marks_of(machine(target, "reader", tmp_path)))
    assert results[0] == results[1] == results[2]
    assert results[0][f"{REVIEW} read"] is True  # m3's, the greatest id, at the same stamp
    assert results[0][f"{REVIEW} focus:x"] is False


def test_a_clock_an_hour_ahead_loses_to_newer_actions_once_seen(tmp_path: Path) -> None:
    ahead = machine(tmp_path / "A", "ahead", tmp_path, HybridClock(lambda: time.time() + 3600))
    ahead.set_read(REVIEW, True)
    ahead.save()
    behind = machine(tmp_path / "B", "behind", tmp_path)
    sync(tmp_path / "A", tmp_path / "B")
    behind.take(behind.poll())
    assert behind.is_read(REVIEW)
    behind.set_read(REVIEW, False)  # later than the mark from the future it has seen
    behind.save()
    sync(tmp_path / "B", tmp_path / "A")
    assert ahead.take(ahead.poll()) == {"behind"}
    assert not ahead.is_read(REVIEW) and not machine(tmp_path / "B", "behind", tmp_path).is_read(REVIEW)


def test_conflict_copies_are_merged_in(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    a = machine(tmp_path / "A", "laptop", tmp_path)
    a.set_read(REVIEW, True)
    a.save()
    folder.mkdir()
    shutil.copy(
        tmp_path / "A" / "laptop.marks", folder / "laptop.sync-conflict-20260101-101010-ABCDEFG.marks"
    )
    a.set_checked(REVIEW, "focus:y", True)
    a.save()
    shutil.copy(tmp_path / "A" / "laptop.marks", folder / "laptop (Bob's conflicted copy 2026-01-01).marks")
    reader = machine(folder, "desktop", tmp_path)
    assert reader.is_read(REVIEW) and reader.checked(REVIEW) == {"focus:y"}
    assert reader.warnings == []


def test_two_machines_with_one_id_are_warned_about_once(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    other = SharedState(tmp_path / "other", Machine("laptop", "someone-else"), lock_dir=tmp_path / "l2")
    other.load()
    other.set_read(REVIEW, True)
    other.save()
    me = machine(folder, "laptop", tmp_path)
    me.set_read("o/r#2", True)
    me.save()
    shutil.copy(tmp_path / "other" / "laptop.marks", folder / "laptop.sync-conflict-1-2-X.marks")
    me.take(me.poll())
    [warning] = me.warnings
    assert "Another machine uses this machine's id 'laptop'" in warning
    other.set_read("o/r#3", True)
    other.save()
    shutil.copy(tmp_path / "other" / "laptop.marks", folder / "laptop.sync-conflict-1-2-X.marks")
    me.take(me.poll())
    assert len(me.warnings) == 1 and me.is_read("o/r#3")


def test_another_machines_half_copied_file_is_read_again_when_it_changes_and_never_moved(
    tmp_path: Path,
) -> None:
    a = machine(tmp_path / "A", "laptop", tmp_path)
    for i in range(200):
        a.set_checked(REVIEW, f"focus:{i}", True)
        a.save()
    data = (tmp_path / "A" / "laptop.marks").read_bytes()
    folder = tmp_path / "B"
    folder.mkdir()
    b = machine(folder, "desktop", tmp_path)
    for cut in (10, len(data) // 3, len(data) - 5):  # the header half-copied, then lines, a torn line
        (folder / "laptop.marks").write_bytes(data[:cut])
        b.take(b.poll())
        assert b.warnings == [] and os.listdir(folder) == ["laptop.marks"]
        assert len(b.checked(REVIEW)) < 200
    (folder / "laptop.marks").write_bytes(data)
    assert b.take(b.poll()) == {"laptop"}
    assert len(b.checked(REVIEW)) == 200


def test_a_file_grown_is_read_from_where_the_last_read_stopped(tmp_path: Path) -> None:
    a = machine(tmp_path / "A", "laptop", tmp_path)
    b = machine(tmp_path / "A", "laptop", tmp_path)  # a second reader on the same machine
    a.set_read(REVIEW, True)
    a.save()
    assert b.take(b.poll()) == {"laptop"} and b.is_read(REVIEW)
    a.set_read(REVIEW, False)
    a.save()
    b.take(b.poll())
    assert not b.is_read(REVIEW)


def test_a_bad_line_in_a_grown_file_is_numbered_from_the_files_start(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    a = machine(folder, "laptop", tmp_path)
    for n in range(5):
        a.set_read(f"o/r#{n}", True)
        a.save()
    b = machine(folder, "desktop", tmp_path)  # it read laptop's file at its start
    laptop = folder / "laptop.marks"
    held = laptop.read_bytes()
    good = held.splitlines(keepends=True)[1]
    with open(laptop, "ab") as out:
        out.write(good + b"not a record\n" + good)  # grown: only what follows is read
    [arrival] = [p for p in b.poll().parsed if p.header is not None and p.header.machine == "laptop"]
    assert arrival.broken is not None
    bad_line = len(held.splitlines()) + 2
    assert arrival.broken.startswith(f"line {bad_line}: ")
    assert arrival.broken == read_folder(folder, None).broken["laptop.marks"]  # as a start numbers it


def test_the_first_use_of_a_folder_takes_the_local_marks_with_it(tmp_path: Path) -> None:
    local = tmp_path / "state.json"
    single = ReadState(local)
    single.load()
    single.set_read(REVIEW, True)
    single.set_checked(REVIEW, "focus:z", True)
    single.save()
    folder = tmp_path / "shared"
    shared = SharedState(folder, Machine("laptop", "t"), local=local, lock_dir=tmp_path / "locks")
    shared.load()
    assert shared.is_read(REVIEW) and shared.checked(REVIEW) == {"focus:z"} and shared.unsaved
    shared.save()
    elsewhere = machine(folder, "desktop", tmp_path)  # another machine reads them from the folder
    assert elsewhere.is_read(REVIEW) and elsewhere.checked(REVIEW) == {"focus:z"}
    # taken once: marks made in the single file later stay there
    single.set_read("o/r#9", True)
    single.save()
    again = SharedState(folder, Machine("laptop", "t"), local=local, lock_dir=tmp_path / "locks")
    again.load()
    assert not again.is_read("o/r#9")


def test_a_corrupt_own_file_is_set_aside_and_written_anew(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    a = machine(folder, "laptop", tmp_path)
    a.set_read(REVIEW, True)
    a.save()
    b = machine(folder, "desktop", tmp_path)
    b.set_read("o/r#2", True)
    b.save()
    (folder / "laptop.marks").write_bytes(b"\x00\xffgarbage\n[1,2]\n")
    again = machine(folder, "laptop", tmp_path)
    [warning] = again.warnings
    assert "moved to" in warning
    assert again.is_read("o/r#2")  # the other machine's marks are still read
    again.set_checked(REVIEW, "focus:a", True)
    again.save()
    asides = list(folder.glob("laptop.marks.corrupt-*"))
    assert len(asides) == 1 and asides[0].read_bytes() == b"\x00\xffgarbage\n[1,2]\n"
    assert machine(folder, "x", tmp_path).checked(REVIEW) == {"focus:a"}
    assert (folder / "desktop.marks").exists()  # never touched


def test_a_torn_last_line_of_the_own_file_is_rewritten_not_appended_to(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    a = machine(folder, "laptop", tmp_path)
    a.set_read(REVIEW, True)
    a.save()
    with open(folder / "laptop.marks", "ab") as handle:
        handle.write(b'["i","o/r#1","focus:q",tr')  # a crash in the middle of an append
    a.set_checked(REVIEW, "focus:w", True)
    a.save()
    text = (folder / "laptop.marks").read_text()
    assert text.endswith("\n") and "focus:q" not in text
    again = machine(folder, "desktop", tmp_path)
    assert again.warnings == [] and again.is_read(REVIEW) and again.checked(REVIEW) == {"focus:w"}


def test_the_own_file_is_compacted_when_it_has_doubled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tui.store import shared

    monkeypatch.setattr(shared, "COMPACT_AT", 2000)
    folder = tmp_path / "shared"
    a = machine(folder, "laptop", tmp_path)
    for i in range(300):
        a.set_read(REVIEW, i % 2 == 0)
        a.save()
    lines = (folder / "laptop.marks").read_text().splitlines()
    assert len(lines) < 100  # 300 appends of one mark, compacted along the way
    assert not machine(folder, "x", tmp_path).is_read(REVIEW)  # the last of them: False


def test_an_unwritable_folder_is_warned_about_once_and_marks_kept(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="prdigest-shared-"))
    locks = Path(tempfile.mkdtemp(prefix="prdigest-locks-"))
    try:
        folder.chmod(0o755)  # readable by all, writable by its owner (root) only
        locks.chmod(0o777)  # the local lock can be taken: it is the shared folder that refuses
        with unprivileged():
            state = SharedState(folder, Machine("laptop", "t"), lock_dir=locks)
            state.load()
            state.set_read(REVIEW, True)
            state.save()
            state.set_read("o/r#2", True)
            state.save()
        [warning] = state.warnings
        assert warning.startswith(f"Cannot save marks to {folder}: Permission denied")
        assert state.is_read(REVIEW) and state.is_read("o/r#2") and state.unsaved
        assert "could not be saved" in (state.unsaved_report() or "")
        assert os.listdir(folder) == []
    finally:
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(locks, ignore_errors=True)


def test_every_save_leaves_whole_lines_and_no_temp_files(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    a = machine(folder, "laptop", tmp_path)
    for i in range(30):
        a.set_checked(REVIEW, f"focus:{i % 7}", i % 2 == 0)
        a.save()
        data = (folder / "laptop.marks").read_bytes()
        parsed = journal.parse(data)
        assert parsed.end == len(data) and parsed.broken is None
        assert os.listdir(folder) == ["laptop.marks"]  # the lock is kept on this machine, not synced


def test_the_machine_id_comes_from_the_environment_or_is_made_once(tmp_path: Path) -> None:
    path = tmp_path / "machine.json"
    first = this_machine(path, {})
    assert this_machine(path, {}) == first and first.id.startswith("m-")
    named = this_machine(path, {"PRDIGEST_MACHINE": "build-box"})
    assert named.id == "build-box" and named.token == first.token and named.warning is None
    bad = this_machine(path, {"PRDIGEST_MACHINE": "../etc"})
    assert bad.id == first.id and "not a machine id" in (bad.warning or "")


def test_state_in_config_and_state_on_the_command_line_name_a_folder(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("state: ~/Sync/prdigest/\n")
    settings = load_config(config, keys=False)
    assert settings.warnings == [] and settings.state == os.path.expanduser("~/Sync/prdigest/")
    assert locations.state_place(settings.state) == (Path(settings.state), True)
    config.write_text("state: [1]\n")
    [warning] = load_config(config, keys=False).warnings
    assert "`state` must be a path" in warning
    assert isinstance(open_state(*locations.state_place(str(tmp_path))), SharedState)
    assert not isinstance(open_state(*locations.state_place(str(tmp_path / "state.json"))), SharedState)


def test_export_reads_a_shared_folder_named_in_the_config(
    tmp_path: Path, isolated_dirs: dict[str, Path]
) -> None:
    entries = tmp_path / "entries"
    entries.mkdir()
    for n in (1, 2):
        (entries / f"{n}.yaml").write_text(
            f"title: T{n}\nrepo: o/r\npr: {n}\ntags: [a]\nverdict: deep\nsummary: s\n", encoding="utf-8"
        )
    folder = tmp_path / "shared"
    other = machine(folder, "desktop", tmp_path)
    other.set_read("o/r#2", True)
    other.save()
    config = isolated_dirs["XDG_CONFIG_HOME"] / "prdigest-tui" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text(f"state: {folder}/\n")
    out = run_tui("export", "--format", "json", "--unread", str(entries))
    assert out.returncode == 0, out.stderr
    assert [e["title"] for e in json.loads(out.stdout)] == ["T1"]
    assert sorted(os.listdir(folder)) == ["desktop.marks"]  # export writes nothing


def test_stamps_of_two_machines_at_one_instant_are_ordered_by_machine() -> None:
    assert Stamp(5.0, 0, "b") > Stamp(5.0, 0, "a")
    assert Stamp(5.0, 1, "a") > Stamp(5.0, 0, "b")
    clock = HybridClock(lambda: 5.0, machine="a")
    clock.observe(Stamp(5.0, 0, "z"))
    assert clock.now() > Stamp(5.0, 0, "z")


def test_a_temp_file_left_by_a_killed_writer_is_removed_and_never_read(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    stale = folder / ".laptop.marks.999999999.abcd1234.tmp"  # no such process
    stale.write_bytes(journal.header_line(journal.Header("laptop", "t")) + b'["r","o/r#1",true,1.0,0]\n')
    a = machine(folder, "laptop", tmp_path)
    assert not a.is_read(REVIEW)
    a.set_read("o/r#2", True)
    a.save()  # the first save writes the file whole, and clears what a dead writer left
    assert sorted(os.listdir(folder)) == ["laptop.marks"]


def test_an_own_file_broken_while_open_is_set_aside_by_the_next_save_with_every_mark(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    a = machine(folder, "laptop", tmp_path)
    a.set_read(REVIEW, True)
    a.set_checked(REVIEW, "focus:a", True)
    a.save()
    own = folder / "laptop.marks"
    header, *_ = own.read_bytes().splitlines(keepends=True)
    own.write_bytes(header + b"not a record\n" + b'["r","o/r#5",true,1.0,0]\n')  # something wrote over it
    a.take(a.poll())
    assert a.unsaved  # it must be written anew
    a.set_checked(REVIEW, "focus:b", True)
    a.save()
    assert len(list(folder.glob("laptop.marks.corrupt-*"))) == 1
    again = machine(folder, "desktop", tmp_path)
    assert again.is_read(REVIEW) and again.checked(REVIEW) == {"focus:a", "focus:b"}
    assert not a.unsaved


def test_a_file_named_as_the_folder_is_warned_about_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "state.json"
    path.write_bytes(b"mine")
    state = SharedState(path, Machine("laptop", "t"), lock_dir=tmp_path / "locks")
    state.load()
    state.set_read(REVIEW, True)
    state.save()
    state.save()
    [warning] = state.warnings
    assert warning.startswith(f"Cannot save marks to {path}: it is not a folder")
    assert path.read_bytes() == b"mine" and state.is_read(REVIEW)
