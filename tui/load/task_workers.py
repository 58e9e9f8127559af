"""Worker processes fed tasks over pipes, for a load the command line did not
start (`tui.load.first_frame.parse_in_background`: a reload of many files, or
a first load that the pool (`tui.load.pool`) left files of).

Imported when used: the command line imports `tui.load.first_frame` before it
starts the first load's parse workers, and `asyncio` (with `ssl`, `logging`,
`concurrent.futures`...: ~40 ms from the command line to the first worker) would come first.
"""

from __future__ import annotations

import asyncio
import contextlib
import marshal
from collections import deque
from collections.abc import Callable

from tui.load.journal import Journal, parse_files

IN_FLIGHT = 2
"""Tasks sent to a worker ahead of its answers."""


async def start_worker(command: tuple[str, ...]) -> asyncio.subprocess.Process | None:
    try:
        return await asyncio.create_subprocess_exec(
            *command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
        )  # fmt: skip
    except OSError:
        return None


async def run_worker(
    process: asyncio.subprocess.Process | None,
    chunks: deque[list[str]],
    receive: Callable[[list | tuple], None],
    journal: Journal | None = None,
) -> None:
    """Feed one worker process chunks from the queue the workers share, until
    it is empty: a worker that is quicker, or less interrupted, takes more.
    `IN_FLIGHT` chunks are sent ahead, so that it never waits for the next.
    If the worker dies, its chunks and the ones it would have taken are parsed
    here, in a thread (all of them if it could not be started)."""
    sent: deque[list[str]] = deque()
    try:
        while process is not None:
            assert process.stdin is not None and process.stdout is not None
            try:
                while chunks and len(sent) < IN_FLIGHT:
                    sent.append(chunks.popleft())
                    data = marshal.dumps(sent[-1])
                    process.stdin.write(len(data).to_bytes(8, "little") + data)
                if chunks:
                    await process.stdin.drain()
                elif not process.stdin.is_closing():
                    process.stdin.close()  # the worker exits once it has answered what it has
                if not sent:
                    break
                size = int.from_bytes(await process.stdout.readexactly(8), "little")
                entries = marshal.loads(await process.stdout.readexactly(size))
                if not _answers(entries, sent[0]):
                    raise ValueError("not an answer to the task")
            except (asyncio.IncompleteReadError, ConnectionError, EOFError, ValueError, TypeError):
                break  # the worker died, or wrote nonsense
            sent.popleft()
            receive(entries)
        # Parse here what the worker did not: its chunks, then the queue's.
        while sent or chunks:
            chunk = sent.popleft() if sent else chunks.popleft()
            receive(await asyncio.to_thread(parse_files, chunk, journal))
    finally:
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            with contextlib.suppress(Exception):
                await process.wait()


def _answers(answer: object, task: list[str]) -> bool:
    """Is `answer` what `parse_files` answers to `task` (as far as its shape goes)?"""
    if isinstance(answer, tuple) and len(answer) == 3:
        journal, bodies_at, answer = answer
        if not (journal is None or isinstance(journal, str)) or not isinstance(bodies_at, int):
            return False
    return isinstance(answer, list) and len(answer) == len(task)
