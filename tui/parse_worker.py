"""A parse worker process: `python -m tui.parse_worker < paths`.

Reads a marshalled list of file paths on stdin and writes, for every few files
parsed, one frame to stdout: an 8-byte length, then a marshalled list of cache
entries (see `tui.cache.parse_files`). Plain pipes and plain data: nothing of
the parent (its threads, its terminal, its main module) is inherited, which
multiprocessing's fork and spawn both get wrong inside a running Textual app.
"""

from __future__ import annotations

import marshal
import sys

FRAME_FILES = 24


def main() -> None:
    import gc

    gc.disable()  # a short-lived process building many objects: collections only cost time
    from .cache import parse_files

    paths = marshal.loads(sys.stdin.buffer.read())
    out = sys.stdout.buffer
    for start in range(0, len(paths), FRAME_FILES):
        data = marshal.dumps(parse_files(paths[start : start + FRAME_FILES]))
        out.write(len(data).to_bytes(8, "little"))
        out.write(data)
        out.flush()


if __name__ == "__main__":
    main()
