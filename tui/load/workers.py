"""A parse worker process: `python -m tui.load.workers [--pool] [CACHE_FILE VERSION_KEY]`.

With `--pool`, one of the workers started before Textual is imported
(`tui.load.pool`, which says how they take their tasks). Without:

Reads tasks on stdin until it ends: an 8-byte length, then a marshalled list of
file paths. Answers each with one frame on stdout: an 8-byte length, then the
marshalled answer of `tui.load.journal.parse_files`. With a cache file, each
task's entries are first appended to a journal of the worker's own next to it
(see `tui.load.journal`), and the answer says where their bodies are instead of
holding them. Plain pipes and plain data: nothing of the parent (its threads,
its terminal, its main module) is inherited, which multiprocessing's fork and
spawn both get wrong inside a running Textual app.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from pathlib import Path


def main(argv: list[str]) -> None:
    import gc

    gc.disable()  # a short-lived process building many objects: collections only cost time
    if argv[:1] == ["--pool"]:
        from tui.load.pool_spawn import TASKS_FD
        from tui.load.pool_worker import work

        work(TASKS_FD, Path(argv[1]) if len(argv) == 3 else None, argv[2] if len(argv) == 3 else "")
        return
    from tui.load.journal import Journal, parse_files

    journal = Journal(Path(argv[0]), argv[1]) if len(argv) == 2 else None
    tasks, out = sys.stdin.buffer, sys.stdout.buffer
    while len(head := tasks.read(8)) == 8:
        paths = marshal.loads(tasks.read(int.from_bytes(head, "little")))
        data = marshal.dumps(parse_files(paths, journal))
        out.write(len(data).to_bytes(8, "little"))
        out.write(data)
        out.flush()


def end() -> None:
    """Exit at once once every answer is written: the interpreter's shutdown
    (modules torn down, a last collection: ~15 ms) would come between the last
    answer and the end of the answers' pipe, which the reader waits for as the
    end of the load. Everything was written with `os.write`/`os.pwrite` or is
    flushed here; nothing of a worker needs a finalizer."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # the reader is gone: nobody to tell
            stream.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1:])
    end()
