"""The `notify:` program, run for real: what it is given, when, and that it never lingers."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path

from tests.waiting import wait_until
from tui.ui.notifier import Notifier, arguments


def recorder(tmp_path: Path, *, sleep: float = 0.0, code: int = 0, ignore_term: bool = False) -> Path:
    """A program that appends its argv and stdin (and start/end times) to runs.jsonl."""
    script = tmp_path / "record.py"
    log = tmp_path / "runs.jsonl"
    # The trap is set before the ready file is made: a test that waits for it
    # knows SIGTERM is ignored (a slow start under load could still be before it).
    ready = tmp_path / "ready"
    trap = (
        f"signal.signal(signal.SIGTERM, signal.SIG_IGN)\nopen({str(ready)!r}, 'w').close()\n"
        if ignore_term
        else ""
    )
    script.write_text(
        "#!/usr/bin/env python3\n"
        "import json, signal, sys, time\n"
        f"{trap}"
        "start = time.time()\n"
        "data = sys.stdin.read()\n"
        f"time.sleep({sleep})\n"
        f"with open({str(log)!r}, 'a') as f:\n"
        "    f.write(json.dumps({'argv': sys.argv[1:], 'stdin': data, 'start': start, 'end': time.time()}) + '\\n')\n"
        f"sys.exit({code})\n"
    )
    script.chmod(0o755)
    return script


def runs(tmp_path: Path) -> list[dict]:
    log = tmp_path / "runs.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_count_is_replaced_in_arguments_not_formatted() -> None:
    assert arguments(("/bin/p", "{count} new", "{x} {0}"), 3) == ["/bin/p", "3 new", "{x} {0}"]


async def test_offers_within_the_quiet_time_make_one_run_with_titles_on_stdin(tmp_path: Path) -> None:
    warnings: list[str] = []
    notifier = Notifier((str(recorder(tmp_path)), "--count={count}"), warnings.append, quiet_s=0.3)
    notifier.offer(["Alpha"])
    await asyncio.sleep(0.1)
    notifier.offer(["Beta\x1b]0;pwn\x07", "Alpha"])  # a title twice is told once
    await wait_until(None, lambda: runs(tmp_path), "the run")
    await asyncio.sleep(0.4)
    got = runs(tmp_path)
    assert len(got) == 1
    assert got[0]["argv"] == ["--count=2"]
    assert got[0]["stdin"].splitlines()[0] == "Alpha"
    assert "\x1b" not in got[0]["stdin"] and "\x07" not in got[0]["stdin"]
    assert warnings == []
    await notifier.stop()


async def test_runs_never_overlap(tmp_path: Path) -> None:
    notifier = Notifier((str(recorder(tmp_path, sleep=0.6)),), [].append, quiet_s=0.05)
    notifier.offer(["one"])
    await asyncio.sleep(0.3)  # the first run is going
    notifier.offer(["two"])
    await wait_until(None, lambda: len(runs(tmp_path)) == 2, "the second run")
    first, second = runs(tmp_path)
    assert second["start"] >= first["end"]
    assert first["stdin"] == "one\n" and second["stdin"] == "two\n"
    await notifier.stop()


async def test_a_failing_program_is_one_warning_per_run(tmp_path: Path) -> None:
    warnings: list[str] = []
    notifier = Notifier((str(recorder(tmp_path, code=3)),), warnings.append, quiet_s=0.05)
    notifier.offer(["one"])
    await wait_until(None, lambda: warnings, "a warning")
    await asyncio.sleep(0.2)
    assert len(warnings) == 1 and "exited with status 3" in warnings[0]
    gone = tmp_path / "gone"
    missing = Notifier((str(gone),), warnings.append, quiet_s=0.05)
    missing.offer(["x"])
    await wait_until(None, lambda: len(warnings) == 2, "the second warning")
    assert str(gone) in warnings[1]
    await notifier.stop()
    await missing.stop()


async def test_stop_kills_a_running_program_that_ignores_sigterm(tmp_path: Path) -> None:
    notifier = Notifier((str(recorder(tmp_path, sleep=3600, ignore_term=True)),), [].append, quiet_s=0.05)
    notifier.offer(["slow"])
    await wait_until(None, lambda: notifier.running is not None, "the program started")
    process = notifier._process
    assert process is not None
    await wait_until(None, lambda: (tmp_path / "ready").exists(), "the program ignoring SIGTERM")
    await asyncio.wait_for(notifier.stop(), 30)  # a bound for a hang: it would sleep an hour
    assert process.returncode == -signal.SIGKILL  # SIGTERM ignored, then SIGKILL (after STOP_S)
    assert runs(tmp_path) == []  # it never got to the end of its sleep
    try:
        os.kill(process.pid, 0)
    except ProcessLookupError:
        pass
    else:
        raise AssertionError("the notify program outlived stop()")


async def test_news_pending_at_quit_is_dropped(tmp_path: Path) -> None:
    notifier = Notifier((str(recorder(tmp_path)),), [].append, quiet_s=0.3)
    notifier.offer(["late"])
    await notifier.stop()
    await asyncio.sleep(0.5)
    assert runs(tmp_path) == []
