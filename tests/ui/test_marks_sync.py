"""The open reader shows marks another machine made while it was open: a real
shared state folder, the real watcher, the other machine a real process."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from tests.app_helpers import screen_text, settled, write_review
from tests.waiting import wait_until
from tui.store.machine import Machine
from tui.store.shared import SharedState
from tui.ui.app import PrDigestApp

OTHER_MACHINE = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from tui.store.shared import open_state

    state = open_state(Path(sys.argv[1]), True)
    state.load()
    for word in sys.argv[2:]:
        kind, key, *item = word.split("=")
        if kind == "read":
            state.set_read(key, True)
        else:
            state.set_checked(key, item[0], True)
    state.save()
    assert state.failure is None
    """
)


def other_machine(tmp_path: Path, folder: Path, *marks: str) -> None:
    env = {**os.environ, "PRDIGEST_MACHINE": "laptop", "XDG_STATE_HOME": str(tmp_path / "laptop-state")}
    out = subprocess.run(
        [sys.executable, "-c", OTHER_MACHINE, str(folder), *marks],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr


async def test_the_open_reader_shows_marks_made_on_another_machine(tmp_path: Path) -> None:
    entries = tmp_path / "entries"
    entries.mkdir()
    for n, title in enumerate(("Alpha", "Beta", "Gamma"), 1):
        write_review(entries / f"{n}.yaml", title, extra=f"pr: {n}\nfocus:\n  - look at {title}\n")
    folder = tmp_path / "shared"
    state = SharedState(folder, Machine("desktop", "t"), lock_dir=tmp_path / "locks")
    app = PrDigestApp([entries], state, watch=False)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settled(app, pilot)
        await wait_until(pilot, lambda: app.reader.marks_sync._busy is False and folder.is_dir(), "watching")
        await pilot.pause(1.5)  # the watcher in place
        await pilot.press("j")
        await pilot.pause()
        place = app.reader.current_key
        review = app.reader.library.by_key[place]
        item = review.focus[0].key
        assert "3 unread" in screen_text(app) and f"[✓] look at {review.title}" not in screen_text(app)
        other_machine(tmp_path, folder, "read=o/r#3", f"check={place}={item}")
        landed = await wait_until(
            pilot, lambda: app.reader.state.is_read("o/r#3"), "the other machine's mark"
        )
        print(f"shown {landed:.3f} s after the other machine's save returned")  # bench/README.md
        await wait_until(pilot, lambda: item in app.reader.checked(review), "the other machine's check")
        await pilot.pause()
        assert app.reader.current_key == place  # the reader's place is kept
        assert app.reader.review_list.key == place
        assert "2 unread" in screen_text(app)
        assert f"[✓] look at {review.title}" in screen_text(app)  # in the open review
        notes = [n.message for n in app._notifications]
        assert "Marks from laptop" in notes
        app.reader.state.set_read(place, True)  # and a mark made here still saves beside them
        app.reader._save()
    assert sorted(os.listdir(folder)) == ["desktop.marks", "laptop.marks"]
    again = SharedState(folder, Machine("x", "x"), lock_dir=tmp_path / "locks-x")
    again.load()
    assert again.is_read("o/r#3") and again.is_read(place)
