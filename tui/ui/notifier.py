"""Running the `notify:` program when reviews arrive, on the App's event loop.

No Textual here. The program gets the titles on its stdin, one per line, and
`{count}` in any of its arguments becomes their number; it is started with an
argument list (never a shell) in a session of its own, with its output
dropped. Runs never overlap; news offered within `QUIET_S` of the first makes
one run; a run that fails is one warning; a run still going when the reader
quits is ended within `STOP_S`, so it never outlives the reader by more than
a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable, Iterable

from tui.core.text import one_line

QUIET_S = 5.0
"""News within this long of the first makes one run."""
RUN_TIMEOUT_S = 30.0
"""A program running longer is ended (and warned about)."""
STOP_S = 0.5
"""At quit, a running program gets this long after SIGTERM before SIGKILL."""


def arguments(command: tuple[str, ...], count: int) -> list[str]:
    """The argument list with `{count}` filled in (plain replacement, not a format)."""
    return [command[0], *(arg.replace("{count}", str(count)) for arg in command[1:])]


class Notifier:
    """`offer` news (titles) as it comes; `stop` at quit."""

    def __init__(
        self,
        command: tuple[str, ...],
        warn: Callable[[str], None],
        *,
        quiet_s: float = QUIET_S,
        run_timeout_s: float = RUN_TIMEOUT_S,
    ) -> None:
        self.command = command
        self.warn = warn
        self.quiet_s = quiet_s
        self.run_timeout_s = run_timeout_s
        self.pending: dict[str, None] = {}  # titles, in order, once each
        self._task: asyncio.Task[None] | None = None
        self._process: asyncio.subprocess.Process | None = None
        self.runs = 0

    @property
    def running(self) -> int | None:
        """The pid of the program while it runs."""
        process = self._process
        return process.pid if process is not None and process.returncode is None else None

    def offer(self, titles: Iterable[str]) -> None:
        """News to tell; the run follows `quiet_s` after the first offer of a batch
        (and after the run before it has ended)."""
        if not self.command:
            return
        for title in titles:
            self.pending[one_line(title)] = None
        if self.pending and (self._task is None or self._task.done()):
            self._task = asyncio.get_running_loop().create_task(self._batch())

    async def _batch(self) -> None:
        while self.pending:
            await asyncio.sleep(self.quiet_s)
            titles, self.pending = list(self.pending), {}
            await self._run(titles)

    async def _run(self, titles: list[str]) -> None:
        argv = arguments(self.command, len(titles))
        data = "".join(f"{title}\n" for title in titles).encode("utf-8", "replace")
        self.runs += 1
        try:
            process = self._process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.DEVNULL,
                start_new_session=True,
            )
        except OSError as exc:
            self.warn(f"notify: {one_line(argv[0])}: {one_line(exc.strerror or str(exc))}")
            return
        try:
            try:
                await asyncio.wait_for(process.communicate(data), self.run_timeout_s)
            except TimeoutError:
                await self._end(process)
                self.warn(f"notify: {one_line(argv[0])} ran over {self.run_timeout_s:g} s and was ended")
                return
            except (BrokenPipeError, ConnectionResetError):
                await process.wait()  # it did not read its stdin: that is its choice
            if process.returncode:
                self.warn(f"notify: {one_line(argv[0])} exited with status {process.returncode}")
        finally:
            self._process = None

    async def _end(self, process: asyncio.subprocess.Process) -> None:
        """SIGTERM to its session, then SIGKILL after `STOP_S`."""
        for sig in (signal.SIGTERM, signal.SIGKILL):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, sig)
            try:
                await asyncio.wait_for(process.wait(), STOP_S)
                return
            except TimeoutError:
                continue

    async def stop(self) -> None:
        """At quit: what is pending is dropped, a running program ended."""
        self.pending = {}
        task, self._task = self._task, None
        process = self._process
        if process is not None and process.returncode is None:
            await self._end(process)
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
