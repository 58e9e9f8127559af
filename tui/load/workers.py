"""A parse worker process: `python -m tui.load.workers`.

Reads tasks on stdin until it ends: an 8-byte length, then a marshalled list of
file paths. Answers each with one frame on stdout: an 8-byte length, then a
marshalled list of cache entries (see `tui.load.cache.parse_files`). Plain pipes
and plain data: nothing of the parent (its threads, its terminal, its main
module) is inherited, which multiprocessing's fork and spawn both get wrong
inside a running Textual app.
"""

from __future__ import annotations

import marshal
import sys


def main() -> None:
    import gc

    gc.disable()  # a short-lived process building many objects: collections only cost time
    from tui.load.cache import parse_files

    tasks, out = sys.stdin.buffer, sys.stdout.buffer
    while len(head := tasks.read(8)) == 8:
        paths = marshal.loads(tasks.read(int.from_bytes(head, "little")))
        data = marshal.dumps(parse_files(paths))
        out.write(len(data).to_bytes(8, "little"))
        out.write(data)
        out.flush()


if __name__ == "__main__":
    main()
