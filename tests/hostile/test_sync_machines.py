"""Two machines sharing marks through a shared state folder, as they would:
two processes with their own PRDIGEST_MACHINE and their own local state, each
with its own copy of the folder, the copies brought together by a sync tool
(played by the test, copying at random moments, half-way at times) or by git.

Real processes, real files, a real git repository.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from tui.store.machine import Machine
from tui.store.shared import SharedState

MACHINE = textwrap.dedent(
    """
    import json, random, sys, time
    from pathlib import Path
    from tui.store.shared import open_state

    folder, seconds, seed = Path(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
    state = open_state(folder, True)
    state.load()
    rng = random.Random(seed)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if rng.random() < 0.3:
            state.take(state.poll())  # what the sync tool has brought so far
        key = f"o/r#{rng.randrange(1, 13)}"
        if rng.random() < 0.5:
            state.set_read(key, rng.random() < 0.5)
            item, mark = None, state.reviews[key].read
        else:
            item = f"focus:{rng.randrange(4)}"
            state.set_checked(key, item, rng.random() < 0.5)
            mark = state.reviews[key].items[item]
        state.save()
        assert state.failure is None, state.failure
        print(json.dumps([key, item, mark.value, list(mark.at)]), flush=True)  # this save returned
        time.sleep(rng.uniform(0, 0.01))
    print(json.dumps({"warnings": state.warnings}), flush=True)
    """
)


def machine_env(tmp_path: Path, name: str) -> dict[str, str]:
    """A machine of its own: its id, and its own local state (machine file, locks)."""
    home = tmp_path / f"home-{name}"
    return {
        **os.environ,
        "PRDIGEST_MACHINE": name,
        "XDG_STATE_HOME": str(home / "state"),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
    }


def reader(folder: Path, tmp_path: Path) -> SharedState:
    """A third machine that only reads: what a reader of this folder shows."""
    state = SharedState(folder, Machine("judge", "judge"), lock_dir=tmp_path / "judge-locks")
    state.load()
    assert state.warnings == [], state.warnings
    return state


def shown(state: SharedState) -> dict[str, bool]:
    out = {}
    for key, marks in state.reviews.items():
        if marks.read is not None:
            out[f"{key} read"] = marks.read.value
        for item, mark in marks.items.items():
            out[f"{key} {item}"] = mark.value
    return out


def copy(source: Path, target: Path, how: str, rng: random.Random) -> None:
    """One file copied as a sync tool might: by rename, in place, or in place
    and stopped half-way for a moment (the other side may read it then)."""
    try:
        data = source.read_bytes()
    except FileNotFoundError:
        return
    if how == "rename":
        tmp = target.with_name(f".syncthing.{target.name}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
        return
    with open(target, "wb") as handle:
        if how == "half":
            handle.write(data[: rng.randrange(len(data) + 1)])
            handle.flush()
            time.sleep(rng.uniform(0, 0.05))
        handle.write(data[handle.tell() :])


def test_two_machines_synced_at_random_moments_agree_and_lose_nothing(tmp_path: Path) -> None:
    folders = {name: tmp_path / name for name in ("laptop", "desktop")}
    for folder in folders.values():
        folder.mkdir()
    workers = {
        name: subprocess.Popen(
            [sys.executable, "-c", MACHINE, str(folder), "6", name],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=machine_env(tmp_path, name),
        )
        for name, folder in folders.items()
    }
    rng = random.Random(20)
    copies = 0
    end = time.monotonic() + 6.5
    while time.monotonic() < end:
        time.sleep(rng.uniform(0, 0.15))
        source, target = rng.sample(sorted(folders), 2)  # the source machine's own file, to the target
        own = f"{source}.marks"
        copy(folders[source] / own, folders[target] / own, rng.choice(["rename", "place", "half"]), rng)
        copies += 1
    saved: list[list] = []
    for name, worker in workers.items():
        out, err = worker.communicate(timeout=60)
        assert worker.returncode == 0, err
        *lines, last = out.splitlines()
        assert json.loads(last) == {"warnings": []}
        saved += [json.loads(line) for line in lines]
        assert len(lines) > 100, name  # a storm, not a trickle
    assert copies > 50
    for source, folder in folders.items():  # the final sync, both ways
        for target in folders:
            if target != source:
                copy(folder / f"{source}.marks", folders[target] / f"{source}.marks", "rename", rng)
    views = {name: reader(folder, tmp_path) for name, folder in folders.items()}
    assert shown(views["laptop"]) == shown(views["desktop"])
    state = views["laptop"]
    for key, item, _value, at in saved:  # every mark saved is there, or a newer one in its place
        marks = state.reviews[key]
        mark = marks.read if item is None else marks.items[item]
        assert mark is not None and tuple(mark.at) >= tuple(at), (key, item, at)
    # and the newest of each mark saved is the one shown
    newest: dict[tuple, list] = {}
    for key, item, value, at in saved:
        if (key, item) not in newest or at > newest[(key, item)][1]:
            newest[(key, item)] = [value, at]
    assert {f"{k} {'read' if i is None else i}": v[0] for (k, i), v in newest.items()} == shown(state)


def git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_GLOBAL": "/dev/null",
    }
    out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, (args, out.stdout, out.stderr)
    return out


def test_a_git_repository_with_two_clones_never_conflicts(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        import pytest

        pytest.skip("git is not installed")
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(origin))
    clones = {name: tmp_path / f"clone-{name}" for name in ("laptop", "desktop")}
    for clone in clones.values():
        git(tmp_path, "clone", "-q", str(origin), str(clone))
        git(clone, "checkout", "-q", "-B", "main")
    git(clones["laptop"], "commit", "-q", "--allow-empty", "-m", "a shared state folder")
    git(clones["laptop"], "push", "-q", "origin", "HEAD:main")
    git(clones["desktop"], "pull", "-q", "--rebase", "origin", "main")
    entries = tmp_path / "entries"
    entries.mkdir()
    for n in range(1, 12):
        (entries / f"{n}.yaml").write_text(
            f"title: T{n}\nrepo: o/r\npr: {n}\ntags: [a]\nverdict: deep\nsummary: s\n", encoding="utf-8"
        )
    for round_ in range(4):
        for name, clone in clones.items():
            out = subprocess.run(
                [sys.executable, "-c", MACHINE, str(clone), "0.3", f"{name}{round_}"],
                capture_output=True,
                text=True,
                env=machine_env(tmp_path, name),
                timeout=60,
            )
            assert out.returncode == 0, out.stderr
            assert json.loads(out.stdout.splitlines()[-1]) == {"warnings": []}
            assert {p.name for p in clone.iterdir() if p.name != ".git"} <= {f"{n}.marks" for n in clones}
            git(clone, "add", "-A")
            git(clone, "commit", "-q", "-m", f"marks from {name}")
            git(clone, "pull", "-q", "--rebase", "origin", "main")  # never a conflict: one writer per file
            git(clone, "push", "-q", "origin", "HEAD:main")
    for clone in clones.values():
        git(clone, "pull", "-q", "--rebase", "origin", "main")
    views = {name: reader(clone, tmp_path) for name, clone in clones.items()}
    assert shown(views["laptop"]) == shown(views["desktop"]) and shown(views["laptop"])
    exports = {
        name: subprocess.run(
            [sys.executable, "-m", "tui", "export", "--format", "json", "--state", f"{clone}/", str(entries)],
            capture_output=True,
            text=True,
            env=machine_env(tmp_path, name),
            timeout=60,
        )
        for name, clone in clones.items()
    }
    assert [(out.returncode, out.stderr) for out in exports.values()] == [(0, ""), (0, "")]
    assert exports["laptop"].stdout == exports["desktop"].stdout


TWO_READERS = textwrap.dedent(
    """
    import json, random, sys, time
    from pathlib import Path
    from tui.store.shared import open_state

    folder, prefix = Path(sys.argv[1]), sys.argv[2]
    state = open_state(folder, True)
    state.load()
    rng = random.Random(prefix)
    mine = {}
    for _ in range(300):
        item = f"focus:{prefix}{rng.randrange(30)}"
        mine[item] = not mine.get(item, False)
        state.set_checked("o/r#1", item, mine[item])
        state.save()
    assert state.failure is None and not state.warnings, state.warnings
    print(json.dumps(mine))
    """
)


def test_two_readers_on_one_machine_share_its_file_and_lose_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    env = machine_env(tmp_path, "laptop")
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", TWO_READERS, str(folder), prefix],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for prefix in ("a", "b")
    ]
    results = []
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
        results.append(json.loads(out))
    assert sorted(os.listdir(folder)) == ["laptop.marks"]
    checked = reader(folder, tmp_path).checked("o/r#1")
    for mine in results:
        for item, value in mine.items():
            assert (item in checked) is value, item


def test_a_machine_killed_in_a_storm_of_saves_leaves_a_readable_file(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir()
    worker = subprocess.Popen(
        [sys.executable, "-c", MACHINE, str(folder), "30", "k"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=machine_env(tmp_path, "laptop"),
    )
    assert worker.stdout is not None
    saved = [json.loads(worker.stdout.readline()) for _ in range(150)]
    worker.kill()
    worker.wait(timeout=30)
    state = reader(folder, tmp_path)
    for key, item, _value, at in saved:
        marks = state.reviews[key]
        mark = marks.read if item is None else marks.items[item]
        assert mark is not None and tuple(mark.at) >= tuple(at)
