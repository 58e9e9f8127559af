"""Which files a parse worker's task holds (`tui.load.pool`), in the worker:
a range of the list it was given, or the next files of its own walk; and, in
the reader, which files of a walking worker's answer are new.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path


def listed(names: list[str], chunks: list[tuple[int, int]]) -> Callable[[int], list[str]]:
    def take(chunk: int) -> list[str]:
        start, end = chunks[chunk]
        return names[start:end]

    return take


def walked(roots: list[str], skip: list[str], size: int) -> Callable[[int], list[str]]:
    """A chunk's files, walked as far as it: the tasks a worker takes come in
    increasing order, so the walk only goes forward."""
    from tui.load.discover import walk_names

    left_out = set(skip)
    files: Iterator[str] = (
        name for name in walk_names([Path(root) for root in roots], []) if name not in left_out
    )
    at = 0

    def take(chunk: int) -> list[str]:
        nonlocal at
        start = chunk * size
        deque(islice(files, max(0, start - at)), maxlen=0)  # other workers' chunks
        names = list(islice(files, size))
        at = start + len(names)
        return names

    return take


def split_answer(answer: object) -> tuple[tuple, list]:
    """`parse_files`'s answer as its head (journal, bodies' offset; or none)
    and its entries; ValueError if it is not of that shape."""
    head: tuple = ()
    entries = answer
    if isinstance(answer, tuple) and len(answer) == 3:
        journal, bodies_at, entries = answer
        if not (journal is None or isinstance(journal, str)) or not isinstance(bodies_at, int):
            raise ValueError("not an answer to the task")
        head = (journal, bodies_at)
    if not isinstance(entries, list):
        raise ValueError("not an answer to the task")
    return head, entries


def new_files(
    answer: object, known: dict[str, Path], skip: frozenset[str], taken: set[str]
) -> tuple[list | tuple, list[Path]]:
    """A walking worker's answer without the files answered already (by
    another worker whose walk of a changing tree was not quite the same) or
    left out, and the `Path`s of those left, the reader's own where it has
    them. Each file is then taken once, if it was answered at all."""
    head, entries = split_answer(answer)
    kept, files = [], []
    for entry in entries:
        if not (isinstance(entry, tuple) and len(entry) == 4 and isinstance(entry[0], str)):
            raise ValueError("not an answer to the task")
        name = entry[0]
        if name in taken or name in skip:
            continue
        taken.add(name)
        kept.append(entry)
        files.append(known.get(name) or Path(name))
    return ((*head, kept) if head else kept), files
