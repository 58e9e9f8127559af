"""Marks merged mark by mark, the newer winning (`tui.core.clock` stamps):
what two instances' states, or a state and its file, come to."""

from __future__ import annotations

from tui.core.clock import Stamp
from tui.core.marks import Mark, ReviewMarks, Seen


def _newer(ours: Mark | None, theirs: Mark | None) -> Mark | None:
    """The later mark; two with one stamp (two machines given one id) are
    ordered by what they say, so every machine keeps the same one."""
    if theirs is None:
        return ours
    if ours is None or theirs.at > ours.at:
        return theirs
    if theirs.at == ours.at and (theirs.value, theirs.digest or "") > (ours.value, ours.digest or ""):
        return theirs
    return ours


def _newer_seen(ours: Seen | None, theirs: Seen) -> bool:
    """Whether `theirs` is the later; at one stamp, the greater fingerprint text
    (as `journal` folds them: the same in any order)."""
    if ours is None or theirs.at > ours.at:
        return True
    return (
        theirs.at == ours.at
        and isinstance(ours.fingerprint, str)
        and isinstance(theirs.fingerprint, str)
        and theirs.fingerprint > ours.fingerprint
    )


_NO_MARKS = ReviewMarks()  # never changed: copied


def merge_into(
    ours: dict[str, ReviewMarks], theirs: dict[str, ReviewMarks], replaced: list[str] | None = None
) -> bool:
    """Fold `theirs` into `ours`, newer mark winning; True if `ours` changed in value.
    A review's marks that change are replaced by a changed copy, never changed
    in place (`ReviewMarks`); their keys are added to `replaced`."""
    changed = False
    for key, their_marks in theirs.items():
        mine = ours.get(key)
        base = mine if mine is not None else _NO_MARKS
        new: ReviewMarks | None = None
        read = _newer(base.read, their_marks.read)
        if read is not base.read:
            changed |= (base.read.value if base.read else False) != read.value  # type: ignore[union-attr]
            new = base.copy()
            new.read = read
        if their_marks.seen and _newer_seen(base.seen, their_marks.seen):
            new = new or base.copy()
            new.seen = their_marks.seen
            changed = True
        for item, their_mark in their_marks.items.items():
            my_mark = base.items.get(item)
            best = _newer(my_mark, their_mark)
            if best is not my_mark:
                changed |= (my_mark.value if my_mark else False) != best.value  # type: ignore[union-attr]
                new = new or base.copy()
                new.items[item] = best  # type: ignore[assignment]
        if new is None and mine is None:
            new = ReviewMarks()
        if new is not None:
            ours[key] = new
            if replaced is not None:
                replaced.append(key)
    return changed


def newest(reviews: dict[str, ReviewMarks]) -> Stamp | None:
    """The latest stamp of any mark in `reviews`: what the clock must see."""
    newest: Stamp | None = None
    for marks in reviews.values():
        for mark in (marks.read, marks.seen, *marks.items.values()):
            if mark is not None and (newest is None or mark.at > newest):
                newest = mark.at
    return newest
